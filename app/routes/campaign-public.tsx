import { UserText } from "#app/components/user-text.tsx";
import { CalendarDays, HandHeart, MapPin, Share2 } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/campaign-public";
import { progressBar } from "#app/components/progress-bar.tsx";
import { PublicShell } from "#app/components/public-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { DONATION_FLOW_AVAILABLE, donateHref, ngoProfilePath, publicCampaignPath } from "#app/lib/campaign-links.ts";
import { formatDate } from "#shared/format.ts";
import { placeLabelFor } from "#shared/places.ts";
import { throwHttp } from "#app/lib/http.server.ts";
import { formatRupees, formatShare } from "#shared/money.ts";
import { PICTURE_SIZES, pictureSrcSet, pictureUrl } from "#shared/pictures.ts";
import { previewWords } from "#shared/text.ts";
import { publicCampaign, type PublicCampaign } from "#server/domain/campaigns/public.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { OtherWaysToHelp } from "#app/components/other-ways-to-help.tsx";
import { DEFAULT_SHARE_PICTURE, shareTags, type ShareMeta } from "#app/lib/share-tags.ts";
import { fundBadgeSpans } from "#app/components/funds/fund-badges.tsx";
import { fundBadges } from "#shared/fund-badges.ts";
import { CheckStatement } from "#app/components/checks/check-statement.tsx";
import { verifiedNgos } from "#app/components/checks/badge.server.ts";
import { LedgerSection } from "#app/components/ledger/ledger-section.tsx";
import { ledgerView } from "#shared/ledger.ts";
import { publicLedger } from "#server/domain/ledger/ledger.ts";
import { CampaignUpdatesSection } from "#app/components/updates/campaign-updates-section.tsx";
import { updatesSectionData } from "#app/components/updates/updates-section.server.ts";

/** How much of the description a search result or preview card shows. */
const DESCRIPTION_PREVIEW_WORDS = 30;

export async function loader({ context, params }: Route.LoaderArgs) {
  let c: PublicCampaign;
  try {
    c = await publicCampaign(context.services.db, params.slug);
  } catch (err) {
    throwHttp(err);
  }
  const lang = context.lang;
  const { t } = serverI18n(lang);
  const appUrl = context.services.config.APP_URL;
  const pageUrl = new URL(publicCampaignPath(c.slug), appUrl).toString();
  const collected = formatRupees(c.collectedAmount, lang);
  const target = formatRupees(c.targetAmount, lang);
  const location = placeLabelFor({ label: c.locationLabel, labelUr: c.locationLabelUr }, lang);
  const progress = t("showcase:meta.progress", { collected, target, location });
  const ledger = ledgerView(await publicLedger(context.services.db, c.slug), lang);
  return {
    ledger,
    campaign: {
      slug: c.slug,
      title: c.title,
      description: c.description,
      targetAmount: c.targetAmount,
      collectedAmount: c.collectedAmount,
      otherItems: c.otherItems,
      locationLabel: location,
      pictureKey: c.pictureKey,
      fundBadges: fundBadges(c.acceptedFunds, t),
      zakatAttested: c.zakatAttestedAt ? t("funds:zakatAttested", { date: formatDate(c.zakatAttestedAt, lang).text }) : null,
      status: c.status,
      paused: c.paused,
      takesCash: c.takesCash,
      reachedTarget: c.collectedAmount >= c.targetAmount,
      createdAt: formatDate(c.createdAt, lang),
      // Amounts are written here, not in the browser: its first number format costs the phone tens of milliseconds
      // while the page hydrates (decision 036, 2026-11-27).
      progressLabel: t("showcase:progress", { collected, target }),
      // An NGO's name links to its public profile, when it has one (verified, not suspended); a joint campaign shows
      // what each NGO collected and its share.
      ngos: c.ngos.map(({ id, hasProfile, ...n }) => ({
        ...n,
        profilePath: hasProfile ? ngoProfilePath(id) : null,
        shareLabel:
          c.ngos.length > 1 ? t("showcase:share", { amount: formatRupees(n.collected, lang), share: formatShare(n.share, lang) }) : null,
      })),
    },
    verified: await verifiedNgos(context.services.db, c.ngos, lang),
    updates: await updatesSectionData(context.services.db, c.slug, lang),
    pageUrl,
    whatsAppUrl: `https://wa.me/?text=${encodeURIComponent(`${c.title}\n${pageUrl}`)}`,
    meta: {
      title: `${c.title} · ${t("common:brand")}`,
      ogTitle: c.title,
      summary: progress,
      description: `${progress}. ${previewWords(c.description, DESCRIPTION_PREVIEW_WORDS)}`,
      image: new URL(c.pictureKey ? pictureUrl(c.pictureKey, "campaign") : DEFAULT_SHARE_PICTURE, appUrl).toString(),
      imageAlt: t("showcase:pictureAlt", { title: c.title }),
      siteName: t("common:brand"),
      locale: lang === "ur" ? "ur_PK" : "en_PK",
      kind: "website",
    } satisfies ShareMeta,
  };
}

/** Title, description and the preview card of a shared link. */
export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? shareTags(loaderData.meta, loaderData.pageUrl) : []);

/** /campaign/:slug: a campaign's public page, open to anyone and made to be shared. */
export default function CampaignPublicPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { campaign: c, whatsAppUrl } = loaderData;
  const joint = c.ngos.length > 1;

  return (
    <PublicShell>
      <article className="mx-auto flex max-w-3xl flex-col gap-6" aria-labelledby="campaign-title">
        <img
          src={pictureUrl(c.pictureKey, "campaign")}
          srcSet={pictureSrcSet(c.pictureKey)}
          sizes={PICTURE_SIZES.page}
          alt={t("showcase:pictureAlt", { title: c.title })}
          width={1200}
          height={630}
          className="aspect-[1200/630] w-full rounded-lg bg-brand-100 object-cover shadow-sm"
        />
        <header className="flex flex-col gap-2">
          <UserText as="h1" id="campaign-title" className="break-words text-start text-3xl font-bold text-brand-900">
            {c.title}
          </UserText>
          <p className="flex flex-wrap gap-2 text-sm">
            {fundBadgeSpans({ badges: c.fundBadges, size: "sm" })}
            {joint && <span className="rounded bg-slate-200 px-2 py-0.5 font-bold text-slate-900">{t("showcase:joint")}</span>}
          </p>
          {c.zakatAttested && <p className="text-sm text-slate-700">{c.zakatAttested}</p>}
        </header>
        <CheckStatement ngos={loaderData.verified} named={joint} />

        {c.status === "active" && c.paused && (
          <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 font-medium text-amber-950">
            {t("campaigns:errors.paused")}
          </p>
        )}
        {c.status === "active" && !c.paused && !c.takesCash && <OtherWaysToHelp title={c.title} slug={c.slug} />}

        {c.status === "completed" && (
          <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 p-3 font-medium text-emerald-900">
            {t(c.reachedTarget ? "showcase:reachedGoal" : "showcase:ended")}
          </p>
        )}

        <section aria-labelledby="progress-title" className="rounded-lg bg-white p-4 shadow-sm">
          <h2 id="progress-title" className="sr-only">
            {t("showcase:progressTitle")}
          </h2>
          {progressBar({ collected: c.collectedAmount, target: c.targetAmount, label: c.progressLabel })}
          <div className="mt-4 flex flex-wrap gap-3">
            {DONATION_FLOW_AVAILABLE && c.status === "active" && !c.paused && c.takesCash && (
              <Link to={donateHref(c.slug)} className={brandButton("medium", "inline-flex items-center gap-2")}>
                <HandHeart aria-hidden="true" className="size-5" />
                {t("showcase:donate")}
              </Link>
            )}
            <a
              href={whatsAppUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-2 rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50"
            >
              <Share2 aria-hidden="true" className="size-5" />
              {t("showcase:shareWhatsApp")}
              <span className="sr-only"> {t("showcase:opensNewTab")}</span>
            </a>
          </div>
        </section>

        <section aria-labelledby="about-title">
          <h2 id="about-title" className="mb-2 text-xl font-bold">
            {t("showcase:about")}
          </h2>
          <UserText as="p" className="whitespace-pre-line break-words text-start text-slate-800">
            {c.description}
          </UserText>
          <ul className="mt-3 flex flex-col gap-1 text-slate-700">
            <li className="flex items-center gap-2">
              <MapPin aria-hidden="true" className="size-4 shrink-0" />
              <span>
                <span className="sr-only">{t("showcase:location")}: </span>
                {c.locationLabel}
              </span>
            </li>
            <li className="flex items-center gap-2">
              <CalendarDays aria-hidden="true" className="size-4 shrink-0" />
              <span>
                {t("showcase:started")} <time dateTime={c.createdAt.iso}>{c.createdAt.text}</time>
              </span>
            </li>
          </ul>
        </section>

        {c.otherItems && (
          <section aria-labelledby="items-title">
            <h2 id="items-title" className="mb-2 text-xl font-bold">
              {t("showcase:otherItems")}
            </h2>
            <UserText as="p" className="whitespace-pre-line break-words text-start text-slate-800">
              {c.otherItems}
            </UserText>
          </section>
        )}

        <CampaignUpdatesSection section={loaderData.updates} />

        <section aria-labelledby="ngos-title">
          <h2 id="ngos-title" className="mb-2 text-xl font-bold">
            {t(joint ? "showcase:runJointly" : "showcase:runBy")}
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2">
            {c.ngos.map((n) => (
              <li key={`${n.role}-${n.name}`} className="flex items-center gap-3 rounded-lg bg-white p-3 shadow-sm">
                <img
                  src={pictureUrl(n.logoKey, "logo")}
                  alt=""
                  width={48}
                  height={48}
                  className="size-12 shrink-0 rounded-lg bg-white object-contain"
                />
                <div className="min-w-0">
                  <UserText as="p" className="break-words text-start font-bold">
                    {n.profilePath ? (
                      <Link to={n.profilePath} className="text-brand-900 underline underline-offset-2" data-testid="ngo-profile-link">
                        {n.name}
                      </Link>
                    ) : (
                      n.name
                    )}
                  </UserText>
                  <p className="text-sm text-slate-700">
                    {t(`showcase:role.${n.role}`)}
                    {joint && (
                      <>
                        {" · "}
                        {n.shareLabel}
                      </>
                    )}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <LedgerSection ledger={loaderData.ledger} slug={c.slug} joint={joint} />
      </article>
    </PublicShell>
  );
}
