import { Readable } from "node:stream";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";
import { SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";

/** Bodies smaller than this go as they are: below a kilobyte compression saves a few bytes at best. */
export const COMPRESS_MIN_BYTES = 1024;
/**
 * Brotli quality for answers made per request (pages, `.data`, JSON, CSV). On a 105–150 KB page 5 is 6–9 %
 * smaller than gzip's default level for about its CPU (2.3–2.8 ms); 4 is no smaller than gzip, 6 costs more for
 * 1–2 % (decision 029).
 */
export const BROTLI_DYNAMIC_QUALITY = 5;
const GZIP_LEVEL = 6;

export type Encoding = "br" | "gzip";

/**
 * The encoding to answer in, from the request's Accept-Encoding: brotli when it is accepted, gzip otherwise,
 * none when neither is (a `*` counts for both; `q=0` refuses). Null means the identity encoding.
 */
export function chooseEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const [k, v] = p.trim().split("=");
      if (k === "q") weight = Number.isFinite(Number(v)) ? Number(v) : 0;
    }
    q.set(name.trim(), weight);
  }
  const weight = (name: string) => q.get(name) ?? q.get("*") ?? 0;
  const br = weight("br");
  const gzip = Math.max(weight("gzip"), q.has("gzip") ? 0 : weight("x-gzip"));
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return null;
}

/** Whether a Content-Type is text worth compressing (HTML, `.data`, JSON, CSS, JavaScript, SVG, CSV ...). */
export function compressibleType(contentType: string | null): boolean {
  return !!contentType && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(contentType);
}

/** Adds Accept-Encoding to a response's Vary header, once. */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get("Vary");
  if (!vary) headers.set("Vary", "Accept-Encoding");
  else if (vary.trim() !== "*" && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary)) headers.set("Vary", `${vary}, Accept-Encoding`);
}

/**
 * Compresses every text answer the app makes, as it streams (decision 029). Brotli (quality 5) when the browser
 * accepts it, otherwise gzip. Left alone: HEAD, answers without a body or with a range (1xx, 204, 304, 206),
 * anything already encoded (the hashed assets, served precompressed), `Cache-Control: no-transform`, types that
 * are compressed already (images, PDFs, fonts, zip and xlsx) and bodies under a kilobyte. A page for a signed-in
 * visitor that another site's link opened (`Sec-Fetch-Site: cross-site`, or no such header from an old browser)
 * goes uncompressed: that is the one request an attacker's page can make carry the session cookie, and BREACH
 * needs many of them.
 *
 * A finished page (one buffer of known length) is compressed in one go and sent with its compressed length. A
 * streamed page stays streamed: what React has written is flushed out of the compressor whenever the page's
 * stream pauses (a suspended part still loading), not only at the end.
 */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const status = res.status;
    if (!compressibleType(res.headers.get("Content-Type"))) return;
    if (status < 200 || status === 204 || status === 206 || status === 304) return;
    // Whatever follows, this answer depends on Accept-Encoding (a HEAD's headers match its GET's).
    varyOnEncoding(res.headers);
    if (c.req.method === "HEAD") return;
    if (res.headers.has("Content-Encoding") || res.headers.has("Content-Range")) return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get("Cache-Control") ?? "")) return;
    const length = res.headers.get("Content-Length");
    if (length !== null && Number(length) < COMPRESS_MIN_BYTES) return;
    const encoding = chooseEncoding(c.req.header("Accept-Encoding"));
    if (!encoding) return;
    // A browser too old to say where a request comes from (Safari before 16.4) is treated as if another site sent it.
    const site = c.req.header("Sec-Fetch-Site");
    if ((site === undefined || site === "cross-site") && getCookie(c, SESSION_COOKIE)) return;
    // Read last: an answer made of one buffer (a finished page) is sent as it is unless it is to be compressed.
    if (!res.body) return;

    const body = await peek(res.body, COMPRESS_MIN_BYTES);
    const headers = new Headers(res.headers);
    if (body.done && body.size < COMPRESS_MIN_BYTES) {
      // A short answer of unknown length (a small `.data`): sent whole, as it is.
      headers.set("Content-Length", String(body.size));
      c.res = new Response(body.size ? Buffer.concat(body.chunks) : null, { status, statusText: res.statusText, headers });
      return;
    }
    headers.set("Content-Encoding", encoding);
    const etag = headers.get("ETag");
    if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
    // A body whose every byte is here already (a finished page: one buffer of known length) is compressed in one
    // go and sent with its compressed length; anything else is compressed as it streams.
    const whole = length !== null && body.size === Number(length);
    let compressed: Buffer<ArrayBuffer> | null = null;
    if (whole) {
      void body.reader.cancel().catch(() => {});
      compressed = await compressWhole(body.chunks.length === 1 ? body.chunks[0]! : Buffer.concat(body.chunks), encoding);
      headers.set("Content-Length", String(compressed.byteLength));
    } else headers.delete("Content-Length");
    c.res = new Response(compressed ?? compressStream(body, encoding, length === null ? undefined : Number(length)), {
      status,
      statusText: res.statusText,
      headers,
    });
    // Hono's setter copies the replaced answer's headers onto the new one: its byte count and strong ETag come
    // back and must be set again, or a client waits for bytes that never come.
    if (compressed) c.res.headers.set("Content-Length", String(compressed.byteLength));
    else c.res.headers.delete("Content-Length");
    if (headers.has("ETag")) c.res.headers.set("ETag", headers.get("ETag")!);
  };
}

interface Peeked {
  chunks: Buffer[];
  size: number;
  done: boolean;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** A read the peek started and did not wait for. */
  pending?: Promise<ReadableStreamReadResult<Uint8Array>>;
}

/**
 * Reads the start of a body until it holds `min` bytes or ends, so a short body of unknown length can go
 * uncompressed. It never waits on a stalled stream: when the next part does not come within a few
 * milliseconds (a page waiting on a slow loader), what is there is taken as the start.
 */
async function peek(body: ReadableStream<Uint8Array>, min: number): Promise<Peeked> {
  const reader = body.getReader();
  const peeked: Peeked = { chunks: [], size: 0, done: false, reader };
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  while (peeked.size < min) {
    pending ??= reader.read();
    const result = peeked.size === 0 ? await pending : await Promise.race([pending, stall(5)]);
    if (result === STALLED) {
      peeked.pending = pending;
      break;
    }
    pending = null;
    if (result.done) {
      peeked.done = true;
      break;
    }
    peeked.chunks.push(Buffer.from(result.value.buffer, result.value.byteOffset, result.value.byteLength));
    peeked.size += result.value.byteLength;
  }
  return peeked;
}

const STALLED = Symbol("stalled");
function stall(ms: number): Promise<typeof STALLED> {
  return new Promise((resolve) => setTimeout(resolve, ms, STALLED).unref());
}

function brotliParams(sizeHint: number | undefined): Record<number, number> {
  return {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_DYNAMIC_QUALITY,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    ...(sizeHint ? { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}),
  };
}

/** A whole body compressed in one task on libuv's thread pool: no stream, no flushes (about half the CPU of streaming it). */
function compressWhole(body: Buffer, encoding: Encoding): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    // zlib's output is a Buffer of its own (never over a SharedArrayBuffer).
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(out as Buffer<ArrayBuffer>));
    if (encoding === "br") zlib.brotliCompress(body, { params: brotliParams(body.byteLength) }, done);
    else zlib.gzip(body, { level: GZIP_LEVEL }, done);
  });
}

/**
 * The body, compressed on libuv's thread pool. Each part the source gives is written to the compressor, and the
 * compressor is flushed once the source pauses (after the burst of writes React makes within one turn of the
 * event loop), so a streamed page's shell leaves at once while the rest keeps one compression context.
 */
function compressStream(start: Peeked, encoding: Encoding, sizeHint: number | undefined): ReadableStream<Uint8Array> {
  const compressor =
    encoding === "br" ? zlib.createBrotliCompress({ params: brotliParams(sizeHint) }) : zlib.createGzip({ level: GZIP_LEVEL });
  const flushKind = encoding === "br" ? zlib.constants.BROTLI_OPERATION_FLUSH : zlib.constants.Z_SYNC_FLUSH;
  let flushScheduled = false;
  const flushSoon = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      if (!compressor.destroyed && !compressor.writableEnded) compressor.flush(flushKind);
    });
  };
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve) => {
      if (compressor.write(chunk)) resolve();
      else compressor.once("drain", resolve);
    });

  const { reader } = start;
  void (async () => {
    try {
      for (const chunk of start.chunks) await write(chunk);
      flushSoon();
      if (!start.done) {
        let pending = start.pending;
        for (;;) {
          const result = await (pending ?? reader.read());
          pending = undefined;
          if (result.done) break;
          if (compressor.destroyed) return;
          await write(Buffer.from(result.value.buffer, result.value.byteOffset, result.value.byteLength));
          flushSoon();
        }
      }
      compressor.end();
    } catch (err) {
      compressor.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  // When the visitor goes away, the page being rendered is told to stop.
  compressor.on("close", () => {
    if (!compressor.writableFinished) reader.cancel().catch(() => {});
  });
  return Readable.toWeb(compressor) as unknown as ReadableStream<Uint8Array>;
}
