/**
 * True when a state-changing request comes from this site: its Origin (or, failing that, its Referer)
 * is the configured public address or, scheme, host and port alike, the address the request was sent to.
 */
export function originAllowed(headers: Headers, appUrl: string, requestUrl: string): boolean {
  const source = headers.get("origin") ?? refererOrigin(headers.get("referer"));
  if (!source || source === "null") return false;
  let origin: URL;
  try {
    origin = new URL(source);
  } catch {
    return false;
  }
  return origin.origin === new URL(appUrl).origin || origin.origin === new URL(requestUrl).origin;
}

function refererOrigin(referer: string | null): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

/**
 * A state-changing request that passed `originAllowed`, as React Router is to see it: at the address its Origin
 * names. React Router refuses (a bare 400, "Bad Request") an action whose Origin is not `request.url`'s origin, but
 * behind a proxy that ends TLS the request reaches the app as http (`https://site` against `http://site`), and one
 * that rewrites Host (nginx's default) names the upstream (`http://127.0.0.1:3000`): every form of the site failed
 * there. The app's own check has already decided the Origin is this site's, so the request is handed on at that
 * origin, its path, query, method, headers and body unchanged. Without an Origin (a Referer only) React Router checks
 * nothing, and the request goes as it came.
 */
export function atOriginOf(request: Request): Request {
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return request;
  const url = new URL(request.url);
  const from = new URL(origin).origin;
  if (from === url.origin) return request;
  const body = request.body;
  return new Request(`${from}${url.pathname}${url.search}`, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(body ? { body, duplex: "half" } : {}),
  } as RequestInit);
}
