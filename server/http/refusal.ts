import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { dirOf, isLang, LANG_COOKIE, type Lang } from "#shared/i18n/i18n.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { IMAGE_MAX_BYTES } from "#shared/constants.ts";
import { safeRedirectTarget } from "#shared/roles.ts";

/** The per-picture limit in words people read: "5 MB". */
function limitText(): string {
  return `${Math.round(IMAGE_MAX_BYTES / (1024 * 1024))} MB`;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Where "Go back" leads: the page the form was on when the Referer is this site's, else the home page. */
function backPath(c: Context, appUrl: string): string {
  const referer = c.req.header("referer");
  if (!referer) return "/";
  try {
    const from = new URL(referer);
    const ours = new URL(appUrl).origin;
    if (from.origin !== ours && from.origin !== new URL(c.req.url).origin) return "/";
    return safeRedirectTarget(from.pathname + from.search, "/");
  } catch {
    return "/";
  }
}

function wantsHtml(c: Context): boolean {
  return (c.req.header("accept") ?? "").includes("text/html");
}

interface RefusalText {
  /** Translation keys; `plain` (else `body`) is the one-line answer for a script. */
  title: string;
  body: string;
  plain?: string;
  hint?: string;
  back: string;
  params?: Record<string, string>;
}

/**
 * A request refused before the app saw it (too large, an address no page can have, a body that cannot be
 * read), so no page of the app can say why: a person gets a small page in their language that says what
 * happened and leads back; a script gets one plain line. Never cached.
 */
function refusal(c: Context, appUrl: string, status: 400 | 403 | 404 | 413, text: RefusalText): Response {
  const cookie = getCookie(c, LANG_COOKIE);
  const lang: Lang = isLang(cookie) ? cookie : "en";
  const { t } = serverI18n(lang);
  const headers = { "Cache-Control": "no-store" };
  if (!wantsHtml(c)) return c.text(t(text.plain ?? text.body, text.params), status, headers);
  const title = escapeHtml(t(text.title));
  const html = `<!doctype html>
<html lang="${lang}" dir="${dirOf(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${escapeHtml(t("common:brand"))}</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;line-height:1.5}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 2px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 1rem;color:#7f1d1d}
a{display:inline-block;margin-top:1rem;padding:.5rem 1rem;border-radius:.375rem;background:#1e3a8a;color:#fff;font-weight:700;text-decoration:none}
a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${escapeHtml(t(text.body, text.params))}</p>
${text.hint ? `<p>${escapeHtml(t(text.hint, text.params))}</p>\n` : ""}<a href="${escapeHtml(backPath(c, appUrl))}">${escapeHtml(t(text.back))}</a>
</main>
</body>
</html>`;
  return c.html(html, status, headers);
}

/**
 * The answer to a request body over the size limit (status 413): a person who posted a form (a phone photo
 * with JavaScript off, say) is told the limit.
 */
export function tooLargeResponse(c: Context, appUrl: string): Response {
  const limit = limitText();
  return refusal(c, appUrl, 413, {
    title: "payment:tooLarge.title",
    body: "payment:tooLarge.body",
    plain: "payment:tooLarge.plain",
    hint: "payment:tooLarge.hint",
    back: "payment:tooLarge.back",
    params: { limit },
  });
}

/** An address that holds characters no link of this app has (a NUL, say): 404 for a path, 400 for a query. */
export function badAddressResponse(c: Context, appUrl: string, where: "path" | "query"): Response {
  return refusal(c, appUrl, where === "path" ? 404 : 400, {
    title: "errors:badAddress.title",
    body: where === "path" ? "errors:notFound" : "errors:badAddress.query",
    back: "errors:badAddress.back",
  });
}

/** A form body that could not be read (cut off in transit, or not a form): nothing was changed. */
export function unreadableFormResponse(c: Context, appUrl: string): Response {
  return refusal(c, appUrl, 400, { title: "errors:title", body: "errors:formIncomplete", back: "errors:badAddress.back" });
}

/** A state-changing request from a page of another site (no Origin of ours): refused, nothing changed. */
export function crossSiteResponse(c: Context, appUrl: string): Response {
  return refusal(c, appUrl, 403, { title: "errors:title", body: "errors:badOrigin", back: "errors:badAddress.back" });
}
