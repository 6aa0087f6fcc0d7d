import { useTranslation } from "#app/i18n/provider.ts";
import { Link } from "react-router";
import type { NavItem } from "#app/lib/navigation.ts";

/**
 * The feature tiles of the NGO and donor homes: only screens that exist. Kept here, beside the tiles, so the sidebar
 * of every other page does not carry them.
 */
export const HOME_TILES: Record<"ngo" | "donor", NavItem[]> = {
  ngo: [
    { to: "/campaigns", label: "campaigns" },
    { to: "/collab", label: "collab" },
    { to: "/apps", label: "apps" },
    { to: "/reconcile", label: "reconcile" },
    { to: "/noncash_apps", label: "noncashApps" },
    { to: "/donHistory", label: "donHistory" },
    { to: "/ngo_map", label: "map" },
    { to: "/vol0", label: "volunteers" },
    { to: "/settingsNGO", label: "settings" },
    { to: "/notifications", label: "notifications" },
  ],
  donor: [
    { to: "/donate1", label: "donate" },
    { to: "/vfg1", label: "volunteer" },
    { to: "/dvh", label: "dvh" },
    { to: "/donor_map", label: "map" },
    { to: "/settingsDonor", label: "settings" },
    { to: "/notifications", label: "notifications" },
  ],
};

/** The feature tiles of a role's home, each a link to its screen. */
export function HomeTiles({ tiles }: { tiles: NavItem[] }) {
  const { t } = useTranslation();
  return (
    <ul aria-label={t("home:tilesLabel")} className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {tiles.map((tile) => (
        <li key={tile.to} data-testid="home-tile">
          <Link
            to={tile.to}
            className="block h-full rounded-lg border-2 border-brand-700 bg-white p-4 text-brand-900 shadow-sm hover:bg-brand-50"
          >
            <span className="block text-lg font-bold">{t(`common:nav.${tile.label}`)}</span>
            <span className="mt-1 block text-slate-700">{t(`home:tiles.${tile.label}`)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
