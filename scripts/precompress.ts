/**
 * Writes a brotli (`.br`, maximum quality) and a gzip (`.gz`, level 9) copy next to every text file of the
 * build's hashed assets, so the server sends them without compressing anything per request (decision 029).
 * Run by `npm run build` after `react-router build`. Files under a kilobyte, files already compressed (images,
 * fonts) and copies that would not be smaller are left out; the server then sends the file as it is.
 *
 *   npx tsx scripts/precompress.ts [build/client/assets]
 */
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { getMimeType } from "hono/utils/mime";
import { COMPRESS_MIN_BYTES, compressibleType } from "#server/http/compress.ts";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export interface PrecompressResult {
  files: number;
  bytes: number;
  br: number;
  gz: number;
}

/** Precompresses every compressible file in `dir` (and below): two files at a time, each into both encodings at once. */
export async function precompressDir(dir: string): Promise<PrecompressResult> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && !/\.(br|gz)$/.test(e.name) && compressibleType(getMimeType(e.name) ?? null))
    .map((e) => path.join(e.parentPath, e.name));
  const result: PrecompressResult = { files: 0, bytes: 0, br: 0, gz: 0 };
  const queue = [...files];
  const work = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const body = await fs.readFile(file);
      if (body.length < COMPRESS_MIN_BYTES) continue;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: 9 }),
      ]);
      result.files++;
      result.bytes += body.length;
      for (const [ext, out] of [
        [".br", br],
        [".gz", gz],
      ] as const) {
        if (out.length >= body.length) continue;
        await fs.writeFile(file + ext, out);
        result[ext === ".br" ? "br" : "gz"] += out.length;
      }
    }
  };
  await Promise.all([work(), work()]);
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? path.join(process.env.BUILD_DIR ?? "build", "client", "assets"));
  const started = Date.now();
  const r = await precompressDir(dir);
  const kb = (n: number) => `${Math.round(n / 1024)} KB`;
  console.log(
    `Precompressed ${r.files} assets in ${((Date.now() - started) / 1000).toFixed(1)} s: ${kb(r.bytes)} → brotli ${kb(r.br)}, gzip ${kb(r.gz)}`,
  );
}
