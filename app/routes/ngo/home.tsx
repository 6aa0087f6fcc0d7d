import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { Route } from "./+types/home";
import { formatNumber } from "#shared/format.ts";
import { HOME_TILES, HomeTiles } from "#app/components/home-tiles.tsx";
import { requireUser } from "#app/lib/http.server.ts";
import { Link } from "react-router";
import { pictureUrl } from "#shared/pictures.ts";
import { pendingReviewCount } from "#server/domain/donations/cash.ts";
import { ngoPickupCounts } from "#server/domain/pickups/pickups.ts";
import { reconcileCounts } from "#server/domain/statements/reconcile.ts";
import { pendingApplicationCount } from "#server/domain/volunteering/applications.ts";

export const handle = pageTitle("common:nav.home");

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const { db } = context.services;
  const [gifts, statement, pickupCounts, applications] = await Promise.all([
    pendingReviewCount(db, user),
    reconcileCounts(db, user),
    ngoPickupCounts(db, user),
    pendingApplicationCount(db, user),
  ]);
  return {
    name: user.displayName,
    logoKey: user.pictureKey,
    // What waits for the NGO, each with the screen where it is done.
    waiting: [
      { key: "gifts", count: gifts, to: "/apps" },
      { key: "matches", count: statement.matched, to: "/reconcile" },
      { key: "pickups", count: pickupCounts.new, to: "/noncash_apps" },
      { key: "applications", count: applications, to: "/vol2" },
    ] as const,
  };
}

/** /ngo_home: a welcome with the NGO's name and logo, what waits for it (with counts), and its feature tiles. */
export default function NgoHome({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { name, logoKey, waiting } = loaderData;
  return (
    <>
      <title>{`${t("common:nav.home")} · ${t("common:brand")}`}</title>
      <section aria-labelledby="welcome" className="mx-auto flex max-w-5xl flex-col gap-6">
        <div className="flex items-center gap-4 rounded-lg bg-white p-4 shadow-sm">
          <img
            src={pictureUrl(logoKey, "logo")}
            alt={t("home:logoOf", { name })}
            width={80}
            height={80}
            className="h-16 w-16 shrink-0 rounded-lg bg-white object-contain sm:h-20 sm:w-20"
          />
          <div className="min-w-0">
            <h2 id="welcome" className="break-words text-2xl font-bold text-brand-900">
              {t("home:welcome", { name })}
            </h2>
            <p className="text-slate-700">{t("home:ngo.lead")}</p>
          </div>
        </div>
        <section aria-labelledby="waiting-heading">
          <h2 id="waiting-heading" className="mb-3 text-lg font-bold text-brand-900">
            {t("home:ngo.waitingHeading")}
          </h2>
          <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="ngo-waiting">
            {waiting.map((w) => (
              <li key={w.key}>
                <Link
                  to={w.to}
                  className={`flex h-full flex-col rounded-lg border-2 p-3 shadow-sm hover:bg-brand-50 ${
                    w.count > 0 ? "border-amber-500 bg-amber-50" : "border-slate-200 bg-white"
                  }`}
                >
                  <span className="text-3xl font-bold text-brand-900">{formatNumber(w.count, i18n.language)}</span>
                  <span className="text-slate-800">{t(`home:ngo.waiting.${w.key}`)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <HomeTiles tiles={HOME_TILES.ngo} />
      </section>
    </>
  );
}
