import { isbot } from "isbot";
import { isRouteErrorResponse, ServerRouter, type EntryContext } from "react-router";
import type { AppContext } from "#app/lib/load-context.ts";
import { I18nProvider } from "#app/i18n/provider.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { bodyFontPreload } from "#app/fonts/body-font.ts";
import { renderPage } from "#app/lib/render-page.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppContext,
) {
  const userAgent = request.headers.get("user-agent");
  const nonce = loadContext.cspNonce;
  return renderPage(
    <I18nProvider i18n={serverI18n(loadContext.lang)}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </I18nProvider>,
    {
      nonce,
      // Crawlers (and link previews) get the whole page at once.
      waitForAll: !!(userAgent && isbot(userAgent)) || routerContext.isSpaMode,
      status: responseStatusCode,
      headers: responseHeaders,
      link: bodyFontPreload(loadContext.lang),
      timeoutMs: streamTimeout + 1000,
    },
  );
}

/** Logs real failures only: a missing page (404) or a request the visitor abandoned is not an error of ours. */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppContext }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // Through the server's logger, whose error serializer keeps a query's parameters (a password hash) out.
  context.services.log.error({ err: error, path: new URL(request.url).pathname }, "a page failed");
}
