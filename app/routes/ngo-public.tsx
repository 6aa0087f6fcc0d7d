import { UserText } from "#app/components/user-text.tsx";
import { BadgeCheck, CalendarDays, HandHeart, MapPin, Phone, Users } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/ngo-public";
import { progressBar } from "#app/components/progress-bar.tsx";
import { PublicShell } from "#app/components/public-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { ngoProfilePath, publicCampaignPath } from "#app/lib/campaign-links.ts";
import { formatDay, formatDate } from "#shared/format.ts";
import { placeLabelFor } from "#shared/places.ts";
import { throwHttp } from "#app/lib/http.server.ts";
import { formatCount, formatRupees } from "#shared/money.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { publicNgoProfile, type PublicNgoProfile } from "#server/domain/accounts/public-profile.ts";
import { DEFAULT_SHARE_PICTURE, shareTags, type ShareMeta } from "#app/lib/share-tags.ts";
import { CheckStatement } from "#app/components/checks/check-statement.tsx";
import { compactCheckBadge } from "#app/components/checks/compact-badge.tsx";
import { verifiedNgos } from "#app/components/checks/badge.server.ts";
import { compactCheckLabel } from "#shared/check-badge.ts";

export async function loader({ context, params }: Route.LoaderArgs) {
  let ngo: PublicNgoProfile;
  try {
    ngo = await publicNgoProfile(context.services.db, params.id);
  } catch (err) {
    throwHttp(err);
  }
  const lang = context.lang;
  const { t } = serverI18n(lang);
  const appUrl = context.services.config.APP_URL;
  const pageUrl = new URL(ngoProfilePath(ngo.id), appUrl).toString();
  const description = t("ngoProfile:meta.description", {
    name: ngo.name,
    registration: ngo.registrationNumber,
    campaigns: formatCount(ngo.campaigns.total, lang),
  });
  return {
    ngo: {
      name: ngo.name,
      logoKey: ngo.logoKey,
      registrationNumber: ngo.registrationNumber,
      address: ngo.address,
      contactNumber: ngo.contactNumber,
      verifiedAt: ngo.verifiedAt ? formatDate(ngo.verifiedAt, lang) : null,
      campaigns: {
        total: ngo.campaigns.total,
        rows: ngo.campaigns.rows.map(({ locationLabel, locationLabelUr, ownerChecks, ...c }) => ({
          ...c,
          checkBadge: compactCheckLabel(ownerChecks, t),
          locationLabel: placeLabelFor({ label: locationLabel, labelUr: locationLabelUr }, lang),
          path: publicCampaignPath(c.slug),
        })),
      },
      positions: {
        total: ngo.positions.total,
        rows: ngo.positions.rows.map(({ cityLabel, cityLabelUr, ...p }) => ({
          ...p,
          cityLabel: cityLabel && placeLabelFor({ label: cityLabel, labelUr: cityLabelUr }, lang),
          closesOn: p.closesOn ? formatDay(p.closesOn, lang) : null,
        })),
      },
    },
    verified: await verifiedNgos(context.services.db, [ngo], lang),
    pageUrl,
    meta: {
      title: `${ngo.name} · ${t("common:brand")}`,
      ogTitle: ngo.name,
      description,
      summary: description,
      image: new URL(ngo.logoKey ? pictureUrl(ngo.logoKey, "logo") : DEFAULT_SHARE_PICTURE, appUrl).toString(),
      imageAlt: t("ngoProfile:logoAlt", { name: ngo.name }),
      siteName: t("common:brand"),
      locale: lang === "ur" ? "ur_PK" : "en_PK",
      kind: "profile",
    } satisfies ShareMeta,
  };
}

/** Title, description and the preview card of a shared link, as the public campaign page writes them. */
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? shareTags(loaderData.meta, loaderData.pageUrl) : []);

/**
 * /ngo/:id: an NGO's public profile, open to anyone: who it is (name, logo, registration, address, phone), when the
 * platform verified it, and its active campaigns and open volunteer positions (the newest few of each, with how
 * many there are). An NGO that is not verified, or is suspended, has no public profile: 404.
 */
export default function NgoPublicPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { ngo } = loaderData;
  const rupees = (n: number) => formatRupees(n, lang);

  return (
    <PublicShell>
      <article className="mx-auto flex max-w-3xl flex-col gap-6" aria-labelledby="ngo-name">
        <header className="flex items-center gap-4">
          <img
            src={pictureUrl(ngo.logoKey, "logo")}
            alt={t("ngoProfile:logoAlt", { name: ngo.name })}
            width={96}
            height={96}
            className="size-20 shrink-0 rounded-lg bg-white object-contain shadow-sm sm:size-24"
          />
          <div className="flex min-w-0 flex-col gap-2">
            <UserText as="h1" id="ngo-name" className="break-words text-start text-3xl font-bold text-brand-900">
              {ngo.name}
            </UserText>
            <p
              className="inline-flex items-center gap-1 self-start rounded bg-emerald-100 px-2 py-0.5 text-sm font-bold text-emerald-900"
              data-testid="verified"
            >
              <BadgeCheck aria-hidden="true" className="size-4 shrink-0" />
              {ngo.verifiedAt ? (
                <time dateTime={ngo.verifiedAt.iso}>{t("ngoProfile:verifiedOn", { date: ngo.verifiedAt.text })}</time>
              ) : (
                t("ngoProfile:verified")
              )}
            </p>
          </div>
        </header>
        <CheckStatement ngos={loaderData.verified} named={false} />

        <section aria-labelledby="details-title" className="rounded-lg bg-white p-4 shadow-sm">
          <h2 id="details-title" className="mb-2 text-xl font-bold">
            {t("ngoProfile:details")}
          </h2>
          <p className="mb-3 text-sm text-slate-700">{t("ngoProfile:verifiedExplain")}</p>
          <dl className="grid gap-x-4 gap-y-2 sm:grid-cols-[max-content_1fr]">
            <dt className="font-bold text-slate-900">{t("ngoProfile:registration")}</dt>
            <UserText as="dd" className="break-words text-start text-slate-800" data-testid="registration">
              {ngo.registrationNumber}
            </UserText>
            <dt className="font-bold text-slate-900">{t("ngoProfile:address")}</dt>
            <dd className="flex items-start gap-1 text-slate-800">
              <MapPin aria-hidden="true" className="mt-1 size-4 shrink-0" />
              <UserText className="min-w-0 break-words text-start">{ngo.address}</UserText>
            </dd>
            <dt className="font-bold text-slate-900">{t("ngoProfile:phone")}</dt>
            <dd className="flex items-center gap-1 text-slate-800">
              <Phone aria-hidden="true" className="size-4 shrink-0" />
              <a href={`tel:${ngo.contactNumber}`} dir="ltr" className="text-brand-800 underline">
                {ngo.contactNumber}
              </a>
            </dd>
          </dl>
        </section>

        <section aria-labelledby="campaigns-title">
          <h2 id="campaigns-title" className="mb-2 text-xl font-bold">
            {t("ngoProfile:campaignsCount", { count: formatCount(ngo.campaigns.total, lang) })}
          </h2>
          {ngo.campaigns.rows.length === 0 ? (
            <p className="rounded-lg bg-white p-4 text-slate-700 shadow-sm">{t("ngoProfile:noCampaigns")}</p>
          ) : (
            <>
              <ul className="grid gap-3 sm:grid-cols-2" aria-label={t("ngoProfile:campaigns")}>
                {ngo.campaigns.rows.map((c) => (
                  <li key={c.slug} className="flex flex-col gap-2 rounded-lg bg-white p-4 shadow-sm" data-campaign={c.slug}>
                    <Link
                      to={c.path}
                      className="break-words text-start text-lg font-bold text-brand-900 underline-offset-2 hover:underline"
                    >
                      <UserText>{c.title}</UserText>
                    </Link>
                    <p className="flex items-center gap-1 text-sm text-slate-700">
                      <MapPin aria-hidden="true" className="size-4 shrink-0" />
                      <UserText className="min-w-0 break-words">{c.locationLabel}</UserText>
                    </p>
                    {compactCheckBadge({ label: c.checkBadge })}
                    {c.role === "partner" && (
                      <p className="inline-flex items-center gap-1 text-sm text-slate-700">
                        <HandHeart aria-hidden="true" className="size-4 shrink-0" />
                        {t("ngoProfile:partner")}
                      </p>
                    )}
                    {progressBar({
                      collected: c.collectedAmount,
                      target: c.targetAmount,
                      label: t("ngoProfile:progress", { collected: rupees(c.collectedAmount), target: rupees(c.targetAmount) }),
                    })}
                  </li>
                ))}
              </ul>
              {ngo.campaigns.total > ngo.campaigns.rows.length && (
                <p className="mt-2 text-sm text-slate-700">
                  {t("ngoProfile:campaignsMore", {
                    shown: formatCount(ngo.campaigns.rows.length, lang),
                    total: formatCount(ngo.campaigns.total, lang),
                  })}
                </p>
              )}
            </>
          )}
        </section>

        <section aria-labelledby="positions-title">
          <h2 id="positions-title" className="mb-2 text-xl font-bold">
            {t("ngoProfile:positionsCount", { count: formatCount(ngo.positions.total, lang) })}
          </h2>
          {ngo.positions.rows.length === 0 ? (
            <p className="rounded-lg bg-white p-4 text-slate-700 shadow-sm">{t("ngoProfile:noPositions")}</p>
          ) : (
            <>
              <ul className="grid gap-3 sm:grid-cols-2" aria-label={t("ngoProfile:positions")}>
                {ngo.positions.rows.map((p) => (
                  <li key={p.id} className="flex flex-col gap-1 rounded-lg bg-white p-4 shadow-sm" data-position={p.id}>
                    <Link
                      to={`/vfg2?position=${p.id}`}
                      className="break-words text-start text-lg font-bold text-brand-900 underline-offset-2 hover:underline"
                    >
                      <UserText>{p.title}</UserText>
                    </Link>
                    {p.cityLabel && (
                      <p className="flex items-center gap-1 text-sm text-slate-700">
                        <MapPin aria-hidden="true" className="size-4 shrink-0" />
                        <UserText className="min-w-0 break-words">{p.cityLabel}</UserText>
                      </p>
                    )}
                    <p className="flex items-center gap-1 text-sm text-slate-700">
                      <Users aria-hidden="true" className="size-4 shrink-0" />
                      {t("ngoProfile:needed", { count: p.volunteersNeeded })}
                    </p>
                    {p.closesOn && (
                      <p className="flex items-center gap-1 text-sm text-slate-700">
                        <CalendarDays aria-hidden="true" className="size-4 shrink-0" />
                        {t("ngoProfile:closesOn", { date: p.closesOn })}
                      </p>
                    )}
                  </li>
                ))}
              </ul>
              {ngo.positions.total > ngo.positions.rows.length && (
                <p className="mt-2 text-sm text-slate-700">
                  {t("ngoProfile:positionsMore", {
                    shown: formatCount(ngo.positions.rows.length, lang),
                    total: formatCount(ngo.positions.total, lang),
                  })}
                </p>
              )}
            </>
          )}
        </section>
      </article>
    </PublicShell>
  );
}
