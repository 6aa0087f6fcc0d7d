import { hasControlCharacters } from "./text.ts";

/** Roles and their pages, shared by the route guard (app/lib/http.server.ts) and the screens. Who may open which page is where it sits in app/routes.ts. */
export const ROLES = ["admin", "ngo", "donor", "rider"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_HOME: Record<Role, string> = {
  admin: "/admin",
  ngo: "/ngo_home",
  donor: "/donor_home",
  rider: "/rider_home",
};

export const ROLE_SIGN_IN: Record<Role, string> = {
  admin: "/admin_signin",
  ngo: "/ngo_signin",
  donor: "/donor_signin",
  rider: "/rider_signin",
};

/** Where Log out leads. */
export const ROLE_LANDING: Record<Role, string> = {
  admin: "/",
  ngo: "/ngo",
  donor: "/donor",
  rider: "/rider",
};

/** Longest redirect target kept; a longer one is not a link this app makes. */
const REDIRECT_MAX_LENGTH = 2048;
const LOCAL_BASE = "http://local.invalid";

/**
 * The one judge of a redirect target (after sign-in, the language switch, a notification's link): a path on
 * this site, or `fallback`. A crafted value cannot lead elsewhere: no scheme, no `//host` (nor `/\host`, nor
 * `/\t/host`, which a URL parser reads as `//host` once it drops the tab), no control characters (a CR/LF
 * would split the Location header). The path is returned as the URL parser normalises it.
 */
export function safeRedirectTarget(target: unknown, fallback: string): string {
  if (typeof target !== "string" || target.length > REDIRECT_MAX_LENGTH) return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return fallback;
  if (hasControlCharacters(target, { lineBreaks: false })) return fallback;
  let url: URL;
  try {
    url = new URL(target, LOCAL_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== LOCAL_BASE || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}

/**
 * A link to `path` that carries where the visitor was going (`redirectTo`), so it survives the role choice,
 * sign-up, a forgotten password and the language switch. An empty `returnTo` leaves the link as it is.
 */
export function withReturnTo(path: string, returnTo: string): string {
  return returnTo ? `${path}?redirectTo=${encodeURIComponent(returnTo)}` : path;
}
