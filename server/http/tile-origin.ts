/**
 * The image source a Leaflet tile URL template needs in the Content Security Policy: its origin, with the
 * `{s}` subdomain placeholder widened to a wildcard (https://{s}.tile.example.org → https://*.tile.example.org).
 * Null for a relative template (already covered by 'self') or one that is not a URL.
 */
export function tileImageSource(template: string): string | null {
  const SUB = "ekcsubdomain";
  const filled = template.replace(/\{s\}/g, SUB).replace(/\{[^}]*\}/g, "0");
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const labels = url.hostname.split(".");
  const at = labels.findIndex((l) => l.includes(SUB));
  const host = at === -1 ? url.hostname : ["*", ...labels.slice(at + 1)].join(".");
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`;
}
