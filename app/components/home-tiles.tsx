import { useTranslation } from "~/i18n/i18n";
import { Link } from "react-router";
import type { NavItem } from "~/lib/navigation";

/**
 * The feature tiles of a role's home. A tile whose screen is not built yet is a plain card marked
 * "coming soon", never a link to a page that does not exist.
 */
export function HomeTiles({ tiles }: { tiles: NavItem[] }) {
  const { t } = useTranslation();
  return (
    <ul aria-label={t("home:tilesLabel")} className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {tiles.map((tile) => {
        const body = (
          <>
            <span className="block text-lg font-bold">{t(`common:nav.${tile.label}`)}</span>
            <span className="mt-1 block text-slate-700">{t(`home:tiles.${tile.label}`)}</span>
          </>
        );
        return (
          <li key={tile.to} data-testid="home-tile">
            {tile.available ? (
              <Link
                to={tile.to}
                className="block h-full rounded-lg border-2 border-brand-700 bg-white p-4 text-brand-900 shadow-sm hover:bg-brand-50"
              >
                {body}
              </Link>
            ) : (
              <div className="h-full rounded-lg border border-slate-200 bg-white p-4 text-slate-900">
                {body}
                <span className="mt-2 inline-block rounded bg-slate-100 px-2 py-0.5 text-sm text-slate-700">
                  {t("common:comingSoon")}
                </span>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
