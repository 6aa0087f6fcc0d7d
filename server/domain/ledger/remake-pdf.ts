import { fork } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withImageSlot } from "#server/domain/files/re-encode.ts";

/**
 * Re-making a spending PDF from pictures of its pages (decision 049) runs in a short-lived child process
 * (remake-pdf-child.ts), one per document: pdf.js and the canvas are loaded there, never in the server, and are gone
 * with it when it exits. The child has a wall-clock limit (killed when it runs past it) and a bounded V8 heap; at
 * most IMAGE_REENCODES_AT_ONCE run at once (the image slots), and a child that crashes, runs out of memory or is killed
 * leaves the upload refused and nothing stored.
 */

/** The child's file name without its extension: `.ts` beside this module in development, `.js` in the build. */
export const REMAKE_PDF_CHILD = "remake-pdf-child";

/**
 * How long one document may take, start to end (starting the child and loading pdf.js included: about a second on
 * an idle host; decision 049 has the figures). A PDF drawn slower than this is refused rather than holding a core.
 */
export const REMAKE_PDF_TIMEOUT_MS = 60_000;

/** The child's V8 heap limit (the pages' pixels live outside it, bounded by the page size the child draws at). */
export const REMAKE_PDF_HEAP_MB = 256;

export interface RemakeRequest {
  pdf: Uint8Array;
}

export type RemakeReply = { ok: true; output: Uint8Array; pages: number } | { ok: false; reason: "invalid" | "tooManyPages" };

export type RemadePdf = { ok: true; output: Buffer; pages: number } | { ok: false; reason: "invalid" | "tooManyPages" | "tooSlow" };

/** How the child is bundled, from the sources and by the build: one file, packages loaded from node_modules. */
export const REMAKE_PDF_CHILD_BUILD = {
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
} as const;

/**
 * Where the child's entry is. The build (scripts/build-server.ts) writes the compiled child beside each bundle that
 * holds this module (build/node/ and React Router's server chunk). From the sources (`npm run dev`, vitest) the
 * TypeScript child is bundled the same way once per process, with esbuild (a development dependency, as the sources
 * are), into node_modules/.cache, from where it finds the same packages: run through tsx's loader instead, the child
 * took 2.5 times as long to start (pdf.js is 2 MB of JavaScript), which the ledger's tests felt.
 */
function childEntry(): Promise<string> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const compiled = path.join(here, `${REMAKE_PDF_CHILD}.js`);
  if (existsSync(compiled)) return Promise.resolve(compiled);
  sourceChild ??= bundleSourceChild(path.join(here, `${REMAKE_PDF_CHILD}.ts`)).catch((err: unknown) => {
    sourceChild = undefined;
    throw err;
  });
  return sourceChild;
}

let sourceChild: Promise<string> | undefined;

async function bundleSourceChild(entry: string): Promise<string> {
  const esbuild = await import("esbuild");
  const out = await esbuild.build({ ...REMAKE_PDF_CHILD_BUILD, entryPoints: [entry], write: false, outfile: "child.js" });
  const code = out.outputFiles[0]!.contents;
  const nodeModules = path.resolve(path.dirname(createRequire(import.meta.url).resolve("esbuild/package.json")), "..");
  const dir = path.join(nodeModules, ".cache", "ek-chhat");
  const file = path.join(dir, `${REMAKE_PDF_CHILD}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.js`);
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    // Written whole under a name of its own, then renamed: another process bundling at once never runs half a file.
    const partial = `${file}.${process.pid}`;
    await writeFile(partial, code);
    await rename(partial, file);
  }
  return file;
}

/** What the child's environment keeps of the server's: how to run Node and its allocator, nothing else. */
const CHILD_ENVIRONMENT = ["PATH", "NODE_ENV", "NODE_OPTIONS", "MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_", "TZ", "LANG"];

/** The child's environment: the names in CHILD_ENVIRONMENT that the server has, and no others. */
export function childEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(CHILD_ENVIRONMENT.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]));
}

/**
 * Re-makes a PDF in a child process, within the process-wide image slots. `timeoutMs` is for tests only (a limit
 * short enough to be reached); the product uses REMAKE_PDF_TIMEOUT_MS.
 */
export async function remakePdf(input: Buffer, opts: { timeoutMs?: number | undefined } = {}): Promise<RemadePdf> {
  const timeoutMs = opts.timeoutMs ?? REMAKE_PDF_TIMEOUT_MS;
  // A missing child is a broken build or checkout, not the upload's fault: that error is thrown on.
  const file = await childEntry();
  return withImageSlot(
    () =>
      new Promise<RemadePdf>((resolve) => {
        // Flags on the command line win over the operator's NODE_OPTIONS (decision 045). The child reads a hostile file:
        // it gets only the environment it needs, none of the server's secrets (database, mail, storage credentials).
        const child = fork(file, [], {
          execArgv: [`--max-old-space-size=${REMAKE_PDF_HEAP_MB}`, "--max-semi-space-size=4"],
          env: childEnvironment(process.env),
          serialization: "advanced",
          stdio: ["ignore", "ignore", "inherit", "ipc"],
        });
        let reply: RemadePdf | undefined;
        const timer = setTimeout(() => {
          reply ??= { ok: false, reason: "tooSlow" };
          child.kill("SIGKILL");
        }, timeoutMs);
        child.once("message", (message: RemakeReply) => {
          reply ??= message.ok
            ? {
                ok: true,
                output: Buffer.from(message.output.buffer, message.output.byteOffset, message.output.byteLength),
                pages: message.pages,
              }
            : { ok: false, reason: message.reason };
        });
        // The slot is given back once the child is gone (not only once it answered), so at most N ever run at once.
        // A child that failed to start, crashed or ran out of memory answered nothing: the PDF is refused as unreadable.
        const done = () => {
          clearTimeout(timer);
          resolve(reply ?? { ok: false, reason: "invalid" });
        };
        // "close", not "exit": it comes once the process has ended and its IPC channel is closed, so an answer sent
        // just before exiting has been read.
        child.once("close", done);
        child.once("error", () => {
          child.kill("SIGKILL");
          done();
        });
        child.send({ pdf: input } satisfies RemakeRequest, (err) => {
          if (err) child.kill("SIGKILL");
        });
      }),
  );
}
