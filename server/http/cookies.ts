import { LANG_COOKIE, type Lang } from "#shared/i18n/i18n.ts";
import { SESSION_COOKIE, SESSION_DAYS } from "#server/domain/accounts/sessions.ts";

/**
 * Every Set-Cookie value the app writes, and the one place their attributes are decided: the whole site, Lax,
 * and Secure when this request reached us over TLS (`secure` of the load context, from server/http/proxy.ts).
 */
function serialize(
  name: string,
  value: string,
  { maxAge, secure, httpOnly }: { maxAge: number; secure: boolean; httpOnly: boolean },
): string {
  return `${name}=${value}; Path=/; Max-Age=${maxAge}${httpOnly ? "; HttpOnly" : ""}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The cookie that carries a session token: httpOnly, for the session's lifetime. */
export function sessionCookie(secure: boolean, token: string): string {
  return serialize(SESSION_COOKIE, token, { maxAge: SESSION_DAYS * 24 * 60 * 60, secure, httpOnly: true });
}

/** The cookie that removes the session cookie (log out, re-submission). */
export function expiredSessionCookie(secure: boolean): string {
  return serialize(SESSION_COOKIE, "", { maxAge: 0, secure, httpOnly: true });
}

/** The chosen language, for a year; the page's script never reads it, so it is httpOnly too. */
export function languageCookie(secure: boolean, lang: Lang): string {
  return serialize(LANG_COOKIE, lang, { maxAge: 365 * 24 * 3600, secure, httpOnly: true });
}
