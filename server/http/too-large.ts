import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { dirOf, isLang, LANG_COOKIE, type Lang } from "../../app/i18n/i18n";
import { serverI18n } from "../../app/i18n/i18n.server";
import { IMAGE_MAX_BYTES } from "../../app/lib/constants";

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
    return from.pathname + from.search;
  } catch {
    return "/";
  }
}

function wantsHtml(c: Context): boolean {
  return (c.req.header("accept") ?? "").includes("text/html");
}

/**
 * The answer to a request body over the size limit (status 413). The request was refused before the app saw
 * it, so no page of the app can say why: a person who posted a form (a phone photo with JavaScript off, say)
 * gets a small page in their language that names the limit and leads back; a script gets one plain line.
 */
export function tooLargeResponse(c: Context, appUrl: string): Response {
  const cookie = getCookie(c, LANG_COOKIE);
  const lang: Lang = isLang(cookie) ? cookie : "en";
  const { t } = serverI18n(lang);
  const limit = limitText();
  if (!wantsHtml(c)) {
    return c.text(t("donate:tooLarge.plain", { limit }), 413, { "Cache-Control": "no-store" });
  }
  const title = escapeHtml(t("donate:tooLarge.title"));
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
<p>${escapeHtml(t("donate:tooLarge.body", { limit }))}</p>
<p>${escapeHtml(t("donate:tooLarge.hint"))}</p>
<a href="${escapeHtml(backPath(c, appUrl))}">${escapeHtml(t("donate:tooLarge.back"))}</a>
</main>
</body>
</html>`;
  return c.html(html, 413, { "Cache-Control": "no-store" });
}
