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
          // The page's scripts are asked for after its stylesheet, not with it (decision 036).
          const body = withoutModulePreloads();
          const stream = createReadableStreamFromReadable(body);
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
