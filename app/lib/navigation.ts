import type { Role } from "#shared/roles.ts";

export interface NavItem {
  to: string;
  /** Translation key under `common:nav` (and `home:tiles` for home tiles). */
  label: string;
}

/**
 * The sidebars: only screens that exist. Each area adds its own entries when its screens land, in the
 * specification's order.
 */
export const NAVIGATION: Record<Role, NavItem[]> = {
  admin: [
    { to: "/admin", label: "adminRequests" },
    { to: "/admin/accounts", label: "adminAccounts" },
    { to: "/admin/audit", label: "adminAudit" },
    { to: "/admin/outbox", label: "adminOutbox" },
    { to: "/admin/zakat", label: "adminZakat" },
    { to: "/admin/spending", label: "adminSpending" },
    { to: "/admin/settings", label: "adminSettings" },
    { to: "/notifications", label: "notifications" },
  ],
  ngo: [
    { to: "/ngo_home", label: "home" },
    { to: "/campaigns", label: "campaigns" },
    { to: "/collab", label: "collab" },
    { to: "/apps", label: "apps" },
    { to: "/reconcile", label: "reconcile" },
    { to: "/noncash_apps", label: "noncashApps" },
    { to: "/donHistory", label: "donHistory" },
    { to: "/ngo_map", label: "map" },
    { to: "/vol0", label: "volunteers" },
    { to: "/notifications", label: "notifications" },
    { to: "/settingsNGO", label: "settings" },
  ],
  donor: [
    { to: "/donor_home", label: "home" },
    { to: "/donate1", label: "donate" },
    { to: "/vfg1", label: "volunteer" },
    { to: "/dvh", label: "dvh" },
    { to: "/donor_map", label: "map" },
    { to: "/notifications", label: "notifications" },
    { to: "/settingsDonor", label: "settings" },
  ],
  rider: [
    { to: "/rider_home", label: "pickups" },
    { to: "/rider_profile", label: "profile" },
    { to: "/notifications", label: "notifications" },
  ],
};
