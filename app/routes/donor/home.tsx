import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { Route } from "./+types/home";
import { HOME_TILES, HomeTiles } from "#app/components/home-tiles.tsx";
import { requireUser } from "#app/lib/http.server.ts";
import { pictureUrl } from "#shared/pictures.ts";

export const handle = pageTitle("common:nav.home");

export function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  return { firstName: user.displayName, pictureKey: user.pictureKey };
}

/** /donor_home: a welcome with the donor's first name and picture, and the four feature tiles. */
export default function DonorHome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { firstName, pictureKey } = loaderData;
  return (
    <>
      <title>{`${t("common:nav.home")} · ${t("common:brand")}`}</title>
      <section aria-labelledby="welcome" className="mx-auto flex max-w-5xl flex-col gap-6">
        <div className="flex items-center gap-4 rounded-lg bg-white p-4 shadow-sm">
          <img
            src={pictureUrl(pictureKey, "avatar")}
            alt={t("common:yourPicture")}
            width={80}
            height={80}
            className="h-16 w-16 shrink-0 rounded-full bg-white object-cover sm:h-20 sm:w-20"
          />
          <div className="min-w-0">
            <h2 id="welcome" className="break-words text-2xl font-bold text-brand-900">
              {t("home:welcome", { name: firstName })}
            </h2>
            <p className="text-slate-700">{t("home:donor.lead")}</p>
          </div>
        </div>
        <HomeTiles tiles={HOME_TILES.donor} />
      </section>
    </>
  );
}
