import { Transform, type TransformCallback } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { isRouteErrorResponse, ServerRouter, type EntryContext } from "react-router";
import type { AppContext } from "#app/lib/load-context.ts";
import { I18nProvider } from "#app/i18n/provider.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { bodyFontPreload } from "#app/fonts/body-font.ts";
import { withoutModulePreloads } from "#app/lib/without-module-preloads.server.ts";

export const streamTimeout = 5_000;

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

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppContext,
) {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers (and link previews) get the whole page at once.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const i18n = serverI18n(loadContext.lang);
    const nonce = loadContext.cspNonce;

    const { pipe, abort } = renderToPipeableStream(
      <I18nProvider i18n={i18n}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </I18nProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new FlushedChunks();
          // The page's scripts are asked for after its stylesheet, not with it (decision 036).
          const stream = createReadableStreamFromReadable(body.pipe(withoutModulePreloads()));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.append("Link", bodyFontPreload(loadContext.lang));
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/** Logs real failures only: a missing page (404) or a request the visitor abandoned is not an error of ours. */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppContext }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // Through the server's logger, whose error serializer keeps a query's parameters (a password hash) out.
  context.services.log.error({ err: error, path: new URL(request.url).pathname }, "a page failed");
}
