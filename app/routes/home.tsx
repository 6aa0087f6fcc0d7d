import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/home";
import { PublicShell } from "#app/components/public-shell.tsx";
import { pictureUrl } from "#shared/pictures.ts";
import { listPartnerNgos } from "#server/domain/accounts/ngos.ts";
import { sharedRead } from "#server/db/shared-reads.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { safeRedirectTarget, withReturnTo } from "#shared/roles.ts";
import { BrowseCampaigns } from "#app/components/landing/browse.tsx";
import { browseData } from "#app/components/landing/browse.server.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { db, geocoder } = context.services;
  // The partners' logos are the same for every visitor: read once for a few seconds, like the first page (decision 054).
  const [partners, browse] = await Promise.all([
    sharedRead(db, "partners", () => listPartnerNgos(db)),
    browseData(db, geocoder, new URL(request.url), context.lang),
  ]);
  return { partners, browse };
}

const ENTRIES = [
  { to: "/admin_signin", label: "admin" },
  { to: "/ngo", label: "ngo" },
  { to: "/donor", label: "donor" },
  { to: "/rider", label: "rider" },
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { partners } = loaderData;
  // A signed-out visit to a page any account may open lands here; the chosen role's sign-in leads back to it.
  const [params] = useSearchParams();
  const back = safeRedirectTarget(params.get("redirectTo"), "");
  return (
    <PublicShell>
      <title>{t("common:brand")}</title>
      <meta name="description" content={t("landing:lead")} />
      {/* Giving first: anyone can browse and open a campaign; the ways in for each role follow. */}
      <section className="mx-auto max-w-3xl text-center">
        <h1 className="text-3xl font-bold text-brand-900 md:text-4xl">{t("landing:title")}</h1>
        <p className="mt-3 text-lg text-slate-700">{t("landing:lead")}</p>
      </section>
      <BrowseCampaigns data={loaderData.browse} />
      <section aria-labelledby="join-heading" className="mx-auto mt-12 max-w-3xl text-center">
        <h2 id="join-heading" className="text-xl font-bold text-brand-900">
          {t("landing:browse.joinHeading")}
        </h2>
        <ul className="mt-4 grid gap-3 text-start sm:grid-cols-2">
          {(["ngo", "donor", "rider", "admin"] as const).map((role) => (
            <li key={role} className="rounded-lg bg-white p-4 shadow-sm">
              <h3 className="font-bold text-brand-800">{t(`common:roles.${role}`)}</h3>
              <p className="text-slate-700">{t(`landing:about.${role}`)}</p>
            </li>
          ))}
        </ul>
        <nav aria-label={t("landing:entries")} className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {ENTRIES.map((e) => (
            <Link key={e.to} to={withReturnTo(e.to, back)} className={brandButton("tall", "text-center")}>
              {t(`common:roles.${e.label}`)}
            </Link>
          ))}
        </nav>
      </section>
      <section className="mx-auto mt-12 max-w-4xl" aria-labelledby="partners-heading">
        <h2 id="partners-heading" className="text-center text-xl font-bold text-brand-900">
          {t("landing:partners")}
        </h2>
        {partners.length === 0 ? (
          <div className="mt-4 flex flex-col items-center gap-2 text-slate-700">
            <img src={pictureUrl(null, "logo")} alt="" width={64} height={64} />
            <p>{t("landing:noPartners")}</p>
          </div>
        ) : (
          <ul className="mt-4 flex flex-wrap justify-center gap-6">
            {partners.map((p) => (
              <li key={p.id} className="flex w-28 flex-col items-center gap-2 text-center text-sm">
                <img
                  src={pictureUrl(p.logoKey, "logo")}
                  alt={t("landing:logoOf", { name: p.name })}
                  width={80}
                  height={80}
                  loading="lazy"
                  className="h-20 w-20 rounded-lg bg-white object-contain shadow-sm"
                />
                <UserText>{p.name}</UserText>
              </li>
            ))}
          </ul>
        )}
      </section>
    </PublicShell>
  );
}
