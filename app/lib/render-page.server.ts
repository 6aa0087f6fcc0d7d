import { Transform, type TransformCallback } from "node:stream";
import type { ReactNode } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { createReadableStreamFromReadable } from "@react-router/node";
import { withoutModulePreloads, withoutModulePreloadsIn } from "#app/lib/without-module-preloads.server.ts";

export interface PageOptions {
  nonce: string;
  /** The page only once all of it is written, suspended parts too (crawlers, SPA mode). */
  waitForAll: boolean;
  status: number;
  /** The answer's headers, to which the page's type and the `Link` below are added once its shell is written. */
  headers: Headers;
  /** A `Link` header's value: what the browser should fetch with the page. */
  link: string;
  /** A page still being written after this long is given up: React ends it where it is. */
  timeoutMs: number;
}

/**
 * A page as React DOM writes it, as the answer to send (decision 037, 2026-11-28, session 20).
 *
 * A page all of whose parts are written by the end of the event loop's turn that wrote its shell, the usual case
 * here, goes as one buffer: React writes it into an array and ends it within `pipe()`, and the server sends it with
 * its length in one socket write, instead of through a Node stream, a web stream and chunked encoding. (React
 * Router's loader data always comes in a suspended part, `<StreamTransfer>`, which reads the encoded data a chunk at
 * a time; with no deferred data it is all there within the same turn.) A page with a part still loading after that
 * turn is streamed: the shell then, the rest as it resolves. Either way without its head's module preloads
 * (decision 036).
 */
export function renderPage(page: ReactNode, { nonce, waitForAll, status, headers, link, timeoutMs }: PageOptions): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let responded = false;

    const respond = (whole: boolean) => {
      if (responded) return;
      responded = true;
      shellRendered = true;
      headers.set("Content-Type", "text/html; charset=utf-8");
      headers.append("Link", link);
      if (whole) {
        clearTimeout(timeout);
        const written = new WholePage();
        pipe(written.asDestination());
        let body: Buffer<ArrayBuffer>;
        try {
          body = withoutModulePreloadsIn(written.result());
        } catch (error) {
          reject(error);
          return;
        }
        // Its length said, so that compression (server/http/compress.ts) knows it has the whole page in hand.
        headers.set("Content-Length", String(body.byteLength));
        resolve(new Response(body, { headers, status }));
        return;
      }
      const chunks = new FlushedChunks();
      chunks.once("close", () => clearTimeout(timeout));
      const stream = createReadableStreamFromReadable(chunks.pipe(withoutModulePreloads()));
      resolve(new Response(stream, { headers, status }));
      pipe(chunks);
    };

    const timeout = setTimeout(() => abort(), timeoutMs);
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      onShellReady() {
        // Streamed unless every part is written first: setImmediate runs once this turn's microtasks, in which React
        // renders what was waiting on an already settled promise, are all done.
        if (!waitForAll) setImmediate(() => respond(false));
      },
      onAllReady() {
        respond(true);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        if (shellRendered) console.error(error);
      },
    });
  });
}

/**
 * Where React writes a page it has finished. React's `pipe()` asks of its destination only `write`, `end`, `on` and,
 * on a fatal error, `destroy`; the events it listens for (`drain`, `error`, `close`) never happen to a string.
 *
 * `takesPieces` has React DOM's Node server build (patches/react-dom+19.3.1.patch, decision 037, session 21) hand
 * over each piece as it is, a string or one of its precomputed byte arrays, instead of encoding about 4,700 pieces
 * of `/donate1` one by one into 4 KB buffers. The pieces are appended to one string as they come (V8 keeps it as a
 * rope, flattened once by the one encoding at the end): measured cheaper than collecting them in an array and
 * `join("")`, which copies them once more.
 */
export class WholePage {
  readonly takesPieces = true;
  /** How many pieces React wrote, of them strings: the test holds React to handing over strings. */
  readonly count = { pieces: 0, strings: 0 };
  private text = "";
  /** Encoded already: what came before bytes that are not whole UTF-8 (never from React with the patch), and those. */
  private encoded: Uint8Array[] = [];
  private failure: unknown = null;
  private ended = false;

  write(piece: Uint8Array | string): boolean {
    this.count.pieces++;
    if (typeof piece === "string") {
      this.count.strings++;
      this.text += piece;
      return true;
    }
    const text = textOf(piece);
    if (text === null) {
      this.encoded.push(Buffer.from(this.text), piece);
      this.text = "";
    } else {
      this.text += text;
    }
    return true;
  }

  end(): void {
    this.ended = true;
  }

  destroy(error?: unknown): void {
    this.failure = error ?? new Error("React gave up on the page");
  }

  on(): this {
    return this;
  }

  /** The page's bytes, or the error that ended it. */
  result(): Buffer<ArrayBuffer> {
    if (this.failure) throw this.failure;
    if (!this.ended) throw new Error("React did not finish a page it had said was complete");
    const last = Buffer.from(this.text);
    return this.encoded.length === 0 ? last : Buffer.concat([...this.encoded, last]);
  }

  /** What `pipe()` is typed to take: a Node stream, of which it uses the methods above. */
  asDestination(): NodeJS.WritableStream {
    return this as unknown as NodeJS.WritableStream;
  }
}

// React's precomputed pieces are module constants, the same arrays on every page: each is decoded once. `fatal` and
// `ignoreBOM` make the decoding exact, so that encoding the text again gives the very same bytes, or refuse.
const decoded = new WeakMap<Uint8Array, string | null>();
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
function textOf(bytes: Uint8Array): string | null {
  let text = decoded.get(bytes);
  if (text === undefined) {
    try {
      text = utf8.decode(bytes);
    } catch {
      text = null;
    }
    decoded.set(bytes, text);
  }
  return text;
}

/**
 * React writes a page in 4 KB pieces and calls `flush()` when it has written all it has for now (the shell, then
 * each suspended part as it resolves). Passed on piece by piece, each went through the web stream and the socket
 * as a write of its own (a 50 KB page, a dozen system calls); this hands on one chunk a flush instead.
 */
class FlushedChunks extends Transform {
  private pieces: Buffer[] = [];
  override _transform(piece: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.pieces.push(piece);
    done();
  }
  flush() {
    if (this.pieces.length === 0) return;
    this.push(this.pieces.length === 1 ? this.pieces[0] : Buffer.concat(this.pieces));
    this.pieces = [];
  }
  override _flush(done: TransformCallback) {
    this.flush();
    done();
  }
}
