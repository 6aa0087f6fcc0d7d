import { hasControlCharacters } from "./text.ts";

/** Roles, their pages and the specification's route table, shared by the server guard and the screens. */
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

const NGO_PATHS = [
  "/ngo_home",
  "/apps",
  "/noncash_apps",
  "/campaigns",
  "/create_camp",
  "/comp_camp",
  "/vol0",
  "/cc1",
  "/vol1",
  "/vol2",
  "/vol3",
  "/volApproved",
  "/volRejected",
  "/volPSDAA",
  "/volClosed",
  "/settingsNGO",
  "/collab",
  "/collab1",
  "/donHistory",
  "/ngo_map",
];
const DONOR_PATHS = [
  "/donor_home",
  "/donate1",
  "/donate2",
  "/donate3",
  "/donate4",
  "/donate5",
  "/donate5_1",
  "/donate6",
  "/donor_map",
  "/vfg1",
  "/vfg2",
  "/vfg3",
  "/dvh",
  "/dvh2",
  "/settingsDonor",
];

/** Every guarded path of the specification plus the product's own, with the one role allowed. */
export const GUARDED_PATHS: Record<string, Role> = {
  "/admin": "admin",
  ...Object.fromEntries(NGO_PATHS.map((p) => [p, "ngo" as const])),
  ...Object.fromEntries(DONOR_PATHS.map((p) => [p, "donor" as const])),
  "/rider_home": "rider",
  "/rider_profile": "rider",
};

/** The role a path requires, matching whole path segments (`/campaigns/x/edit` falls under `/campaigns`). */
export function requiredRole(pathname: string): Role | null {
  // React Router fetches a page's data from `<path>.data`; that must be guarded like the page.
  // React Router matches paths case-insensitively, so the guard does too (`/ADMIN` is `/admin`, `/volapproved`
  // is `/volApproved`).
  const first = "/" + (pathname.split("/")[1] ?? "").toLowerCase().replace(/\.data$/, "");
  return GUARDED_BY_LOWER_CASE[first] ?? null;
}

const GUARDED_BY_LOWER_CASE: Record<string, Role> = Object.fromEntries(
  Object.entries(GUARDED_PATHS).map(([path, role]) => [path.toLowerCase(), role]),
);

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
