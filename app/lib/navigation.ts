import type { Role } from "./roles";

export interface NavItem {
  to: string;
  /** Translation key under `common:nav`. */
  label: string;
  /** False while the screen behind it is still being built: shown as "coming soon", not as a link. */
  available: boolean;
}

/** The sidebars of the specification, plus the product's own screens. */
export const NAVIGATION: Record<Role, NavItem[]> = {
  admin: [
    { to: "/admin", label: "adminRequests", available: true },
    { to: "/admin/accounts", label: "adminAccounts", available: true },
    { to: "/admin/audit", label: "adminAudit", available: true },
    { to: "/admin/outbox", label: "adminOutbox", available: true },
    { to: "/notifications", label: "notifications", available: true },
  ],
  ngo: [
    { to: "/ngo_home", label: "home", available: true },
    { to: "/campaigns", label: "campaigns", available: false },
    { to: "/collab", label: "collaborate", available: false },
    { to: "/apps", label: "cashApplications", available: false },
    { to: "/donHistory", label: "donationHistory", available: false },
    { to: "/ngo_map", label: "map", available: false },
    { to: "/vol1", label: "volunteers", available: false },
    { to: "/notifications", label: "notifications", available: true },
    { to: "/settingsNGO", label: "settings", available: true },
  ],
  donor: [
    { to: "/donor_home", label: "home", available: true },
    { to: "/donate1", label: "donate", available: false },
    { to: "/vfg1", label: "volunteer", available: false },
    { to: "/dvh", label: "history", available: false },
    { to: "/donor_map", label: "map", available: false },
    { to: "/notifications", label: "notifications", available: true },
    { to: "/settingsDonor", label: "settings", available: true },
  ],
  rider: [
    { to: "/rider_home", label: "pickups", available: true },
    { to: "/rider_profile", label: "profile", available: true },
    { to: "/notifications", label: "notifications", available: true },
  ],
};

/** The feature tiles of the NGO and donor homes. */
export const HOME_TILES: Record<"ngo" | "donor", NavItem[]> = {
  ngo: [
    { to: "/campaigns", label: "campaigns", available: false },
    { to: "/collab", label: "collaborate", available: false },
    { to: "/apps", label: "cashApplications", available: false },
    { to: "/noncash_apps", label: "nonCashApplications", available: false },
    { to: "/vol0", label: "volunteers", available: false },
    { to: "/donHistory", label: "donationHistory", available: false },
  ],
  donor: [
    { to: "/donate1", label: "donate", available: false },
    { to: "/vfg1", label: "volunteer", available: false },
    { to: "/dvh", label: "history", available: false },
    { to: "/donor_map", label: "map", available: false },
  ],
};
