import { useTranslation } from "~/i18n/i18n";
import { Link } from "react-router";
import type { Route } from "./+types/home";
import { RoleShell } from "~/components/role-shell";
import { requireUser } from "~/lib/http.server";
import { pictureUrl } from "~/lib/pictures";

export function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "rider", request);
  return { firstName: user.displayName, pictureKey: user.pictureKey };
}

/**
 * /rider_home: the rider's phone-first home. Pick-up requests come from the in-kind donation flow; until
 * an NGO assigns one, this says so plainly instead of showing sample data.
 */
export default function RiderHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { firstName, pictureKey } = loaderData;
  return (
    <RoleShell title={t("common:nav.pickups")}>
      <title>{`${t("common:nav.pickups")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-xl flex-col gap-4">
        <section aria-labelledby="welcome" className="flex items-center gap-4 rounded-lg bg-white p-4 shadow-sm">
          <img
            src={pictureUrl(pictureKey, "avatar")}
            alt={t("common:yourPicture")}
            width={64}
            height={64}
            className="h-16 w-16 shrink-0 rounded-full bg-white object-cover"
          />
          <div className="min-w-0 flex-1">
            <h2 id="welcome" className="break-words text-xl font-bold text-brand-900">
              {t("home:welcome", { name: firstName })}
            </h2>
            <Link
              to="/rider_profile"
              className="mt-2 inline-block rounded-lg border-2 border-brand-700 px-3 py-1 font-bold text-brand-800 hover:bg-brand-50"
            >
              {t("home:rider.profileLink")}
            </Link>
          </div>
        </section>
        <section aria-labelledby="pickups" className="rounded-lg bg-white p-4 shadow-sm">
          <h2 id="pickups" className="text-lg font-bold text-brand-900">
            {t("home:rider.pickupsHeading")}
          </h2>
          <p className="mt-2 text-slate-700">{t("home:rider.pickupsEmpty")}</p>
          <p className="mt-2 text-slate-700">{t("home:rider.notified")}</p>
        </section>
      </div>
    </RoleShell>
  );
}
