import { CARD_TITLE, UserText } from "#app/components/user-text.tsx";
import { HandHeart, MapPin, Search } from "lucide-react";
import { Form, Link } from "react-router";
import { KeysetPager } from "#app/components/keyset-pager.tsx";
import { progressBar } from "#app/components/progress-bar.tsx";
import { brandButton } from "#app/components/ui/button.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { placeLabelFor } from "#shared/places.ts";
import { donateHref, publicCampaignPath } from "#app/lib/campaign-links.ts";
import { SEARCH_MAX_LENGTH } from "#shared/constants.ts";
import { PICTURE_SIZES, pictureSrcSet, pictureUrl } from "#shared/pictures.ts";
import { CAMPAIGN_CAUSES } from "#shared/statuses.ts";
import type { BrowseData } from "./browse.server.ts";
import { fundBadgeSpans } from "#app/components/funds/fund-badges.tsx";
import { compactCheckBadge } from "#app/components/checks/compact-badge.tsx";

const field = "min-h-11 rounded-md border border-slate-400 bg-white px-3 py-2 text-base";

/**
 * The landing page's way in for anyone, signed in or not: active campaigns searched by title, NGO or city, narrowed by
 * cause and Zakat, each leading to its public page. A GET form, so it works without JavaScript and a search is a link.
 */
export function BrowseCampaigns({ data }: { data: BrowseData }) {
  const { t } = useTranslation();
  const { filters, list } = data;
  const filtered = Boolean(filters.q || filters.cause || filters.zakatOnly);
  return (
    <section aria-labelledby="give-heading" className="mx-auto mt-8 flex max-w-5xl flex-col gap-4">
      <div>
        <h2 id="give-heading" className="text-2xl font-bold text-brand-900">
          {t("landing:browse.giveHeading")}
        </h2>
        <p className="text-slate-700">{t("landing:browse.giveLead")}</p>
      </div>
      <Form method="get" action="/" role="search" className="flex flex-wrap items-end gap-3 rounded-lg bg-white p-3 shadow-sm">
        <div className="flex min-w-0 flex-1 basis-56 flex-col gap-1">
          <label htmlFor="browse-q" className="font-medium text-slate-800">
            {t("landing:browse.search.label")}
          </label>
          <input
            key={filters.q}
            id="browse-q"
            name="q"
            type="search"
            defaultValue={filters.q}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder={t("landing:browse.search.placeholder")}
            className={`${field} w-full min-w-0`}
          />
        </div>
        <div className="flex min-w-0 flex-1 basis-40 flex-col gap-1">
          <label htmlFor="browse-cause" className="font-medium text-slate-800">
            {t("landing:browse.search.cause")}
          </label>
          <select key={filters.cause} id="browse-cause" name="cause" defaultValue={filters.cause} className={`${field} w-full`}>
            <option value="">{t("landing:browse.search.allCauses")}</option>
            {CAMPAIGN_CAUSES.map((c) => (
              <option key={c} value={c}>
                {t(`campaigns:causes.${c}`)}
              </option>
            ))}
          </select>
        </div>
        <label className="flex min-h-11 items-center gap-2 font-medium text-slate-800">
          <input
            key={String(filters.zakatOnly)}
            type="checkbox"
            name="zakat"
            value="1"
            defaultChecked={filters.zakatOnly}
            className="size-5"
          />
          {t("landing:browse.search.zakatOnly")}
        </label>
        <button
          type="submit"
          className="inline-flex min-h-11 items-center gap-1 rounded-md bg-slate-800 px-4 py-2 font-medium text-white hover:bg-slate-700"
        >
          <Search aria-hidden="true" className="size-4" />
          {t("landing:browse.search.submit")}
        </button>
        {filtered && (
          <Link to="/" className="inline-flex min-h-11 items-center px-2 font-medium text-brand-800 underline">
            {t("landing:browse.search.clear")}
          </Link>
        )}
      </Form>

      {list.rows.length === 0 ? (
        <p role="status" className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
          {t(filtered ? "landing:browse.noMatch" : "landing:browse.empty")}
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t("landing:browse.list")}>
          {list.rows.map((c, i) => (
            <BrowseCard key={c.id} campaign={c} first={i === 0} />
          ))}
        </ul>
      )}
      {/* By cursor, like the donors' pickers (decision 044): "Next", "Previous", "First page"; no page numbers. */}
      <KeysetPager
        next={list.next}
        prev={list.prev}
        param="after"
        anchor="give-heading"
        label={t("landing:browse.pages")}
        older={t("common:next")}
        previous={t("common:previous")}
        newest={t("common:firstPage")}
      />
    </section>
  );
}

function BrowseCard({ campaign: c, first }: { campaign: BrowseData["list"]["rows"][number]; first: boolean }) {
  const { t, i18n } = useTranslation();
  const titleId = `browse-${c.id}`;
  return (
    <li className="flex flex-col overflow-hidden rounded-lg bg-white shadow-sm">
      {/* The first card's picture is the largest thing in the first view: fetched at once, the rest when scrolled to. */}
      <img
        src={pictureUrl(c.pictureKey, "campaign")}
        srcSet={pictureSrcSet(c.pictureKey)}
        sizes={PICTURE_SIZES.card}
        alt=""
        width={1200}
        height={630}
        loading={first ? "eager" : "lazy"}
        fetchPriority={first ? "high" : "auto"}
        className="aspect-[1200/630] w-full bg-brand-100 object-cover"
      />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <UserText as="h3" id={titleId} className={CARD_TITLE}>
          {/* The title clips what overflows its two lines, so the link's focus ring is drawn inside it. */}
          <Link to={publicCampaignPath(c.slug)} className="hover:underline focus-visible:-outline-offset-3">
            {c.title}
          </Link>
        </UserText>
        <p className="flex flex-wrap gap-2 text-xs font-bold">
          <span className="rounded bg-slate-200 px-2 py-0.5 text-slate-900">{t(`campaigns:causes.${c.cause}`)}</span>
          {fundBadgeSpans({ badges: c.fundBadges })}
        </p>
        <p className="flex items-center gap-1 text-sm text-slate-700">
          <MapPin aria-hidden="true" className="size-4 shrink-0" />
          <UserText className="min-w-0 break-words">
            {placeLabelFor({ label: c.locationLabel, labelUr: c.locationLabelUr }, i18n.language)}
          </UserText>
        </p>
        <UserText as="p" className="break-words text-start text-slate-700">
          {c.preview}
        </UserText>
        <p className="text-start text-sm text-slate-700">
          {t(c.ngos.length > 1 ? "landing:browse.jointly" : "landing:browse.by", { names: c.ngos.join(", ") })}
        </p>
        {compactCheckBadge({ label: c.checkBadge })}
        {progressBar({ collected: c.collectedAmount, target: c.targetAmount, label: c.progressLabel })}
        <div className="mt-auto flex flex-wrap items-center gap-2 pt-2">
          <Link
            to={publicCampaignPath(c.slug)}
            aria-label={t("landing:browse.openLabel", { title: c.title })}
            className="inline-flex min-h-11 flex-1 items-center justify-center rounded-md border border-brand-700 px-3 py-2 font-medium text-brand-800 hover:bg-brand-50"
          >
            {t("landing:browse.open")}
          </Link>
          {c.takesCash ? (
            <Link
              to={donateHref(c.slug)}
              aria-label={t("landing:browse.donateLabel", { title: c.title })}
              className={brandButton("narrow", "inline-flex min-h-11 flex-1 items-center justify-center gap-1 whitespace-nowrap")}
            >
              <HandHeart aria-hidden="true" className="size-4" />
              {t("landing:browse.donate")}
            </Link>
          ) : (
            <span className="flex-1 text-center text-sm text-slate-700">{t("landing:browse.otherWays")}</span>
          )}
        </div>
      </div>
    </li>
  );
}
