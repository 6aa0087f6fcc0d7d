import { useTranslation } from "#app/i18n/provider.ts";
import { Link } from "react-router";
import type { NavItem } from "#app/lib/navigation.ts";

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
