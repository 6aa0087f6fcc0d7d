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
