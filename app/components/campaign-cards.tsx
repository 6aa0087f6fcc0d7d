import { CARD_TITLE, UserText, userText } from "#app/components/user-text.tsx";
import { Info, MapPin, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useLinks } from "#app/lib/links.ts";
import { BackLink, DonateProblem } from "./donate-parts.tsx";
import { OtherWaysToHelp } from "./other-ways-to-help.tsx";
import { KeysetPager } from "./keyset-pager.tsx";
import { progressBar } from "./progress-bar.tsx";
import { SearchForm } from "./search-form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { placeLabelFor } from "#shared/places.ts";
import { donateDetailsHref, donatePayHref, goodsDetailsHref, goodsOfferHref, ngoProfilePath, pickerHref } from "#app/lib/campaign-links.ts";
import { PICTURE_SIZES, pictureSrcSet, pictureUrl } from "#shared/pictures.ts";
import type { PickerData, PickerDetails, PickerKind } from "#app/components/donate/picker-data.server.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { fundBadgeSpans } from "#app/components/funds/fund-badges.tsx";
import { compactCheckBadge } from "#app/components/checks/compact-badge.tsx";

const KIND = {
  cash: {
    base: "/donate1",
    heading: "donate:pick.heading",
    lead: "donate:pick.lead",
    action: "donate:donateNow",
    detailsHref: donateDetailsHref,
    actionHref: donatePayHref,
  },
  goods: {
    base: "/donate5",
    heading: "goods:pick.heading",
    lead: "goods:pick.lead",
    action: "goods:pick.donateGoods",
    detailsHref: goodsDetailsHref,
    actionHref: goodsOfferHref,
  },
} as const;

/**
 * What differs in code between the two pickers, given by each route, so that neither page loads the other's (the cash
 * picker no goods box, decision 033): the action's icon, and on the goods picker the items a campaign needs.
 */
export interface PickerParts {
  Icon: LucideIcon;
  Items?: (props: { items: string | null; compact?: boolean }) => ReactNode;
}

/** The body of a picker: the details panel of one campaign, why it cannot be shown, or a page of cards. */
export function CampaignPicker({ kind, parts, data }: { kind: PickerKind; parts: PickerParts; data: PickerData }) {
  const { t } = useTranslation();
  const { q, after, panel, list } = data;
  const back = pickerHref(KIND[kind].base, { q, after });
  return (
    <>
      {panel?.state === "open" && <CampaignDetails kind={kind} parts={parts} campaign={panel.campaign} back={back} />}
      {panel?.state === "noCash" && (
        <>
          <OtherWaysToHelp title={panel.title} slug={panel.slug} />
          <BackLink to={back} label={t("donate:details.seeAll")} />
        </>
      )}
      {(panel?.state === "ended" || panel?.state === "paused" || panel?.state === "notFound") && (
        <DonateProblem
          message={panel.state === "notFound" ? t("donate:details.notFound") : t(`donate:details.${panel.state}`, { title: panel.title })}
          back={back}
          backLabel={t("donate:details.seeAll")}
        />
      )}
      {list && <CampaignCards kind={kind} parts={parts} q={q} list={list} />}
    </>
  );
}

type List = NonNullable<PickerData["list"]>;

function CampaignCards({ kind, parts, q, list }: { kind: PickerKind; parts: PickerParts; q: string; list: List }) {
  const { t } = useTranslation();
  const link = useLinks();
  const k = KIND[kind];
  return (
    <section aria-labelledby="pick-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="pick-heading" className="text-2xl font-bold text-brand-900">
          {t(k.heading)}
        </h2>
        <p className="text-slate-700">{t(k.lead)}</p>
      </div>
      <SearchForm
        action={k.base}
        id="donate-search"
        q={q}
        label={t("donate:pick.searchLabel")}
        placeholder={t("donate:pick.searchPlaceholder")}
        submitLabel={t("donate:pick.search")}
        clear={{ to: k.base, label: t("donate:pick.showAll") }}
      />

      {list.rows.length > 0 && (
        <p className="text-sm text-slate-700" data-testid="picker-count">
          {list.count}
        </p>
      )}
      {list.rows.length === 0 ? (
        <p role="status" className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
          {q ? t("donate:pick.noMatch", { q }) : t("donate:pick.empty")}
        </p>
      ) : (
        // Three cards a row on a wide screen: the specification's 3 upper and 3 lower cards per page.
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t("donate:pick.listLabel")}>
          {list.rows.map((c, i) => {
            const titleId = `campaign-${c.id}`;
            return (
              <li key={c.id} className="flex flex-col overflow-hidden rounded-lg bg-white shadow-sm">
                <img
                  src={pictureUrl(c.pictureKey, "campaign")}
                  srcSet={pictureSrcSet(c.pictureKey)}
                  sizes={PICTURE_SIZES.card}
                  alt=""
                  width={1200}
                  height={630}
                  // The first card's picture is the largest content of the first view: fetched at once, the rest when near.
                  loading={i === 0 ? "eager" : "lazy"}
                  fetchPriority={i === 0 ? "high" : "auto"}
                  className="aspect-[1200/630] w-full bg-brand-100 object-cover"
                />
                <div className="flex flex-1 flex-col gap-2 p-4">
                  {userText("h3", { id: titleId, className: CARD_TITLE, children: c.title })}
                  {parts.Items && <parts.Items items={c.otherItems} compact />}
                  {userText("p", { className: "break-words text-start text-slate-700", children: c.preview })}
                  <p className="text-sm text-slate-700">
                    {t(c.ngos.length > 1 ? "donate:pick.jointly" : "donate:pick.by", { names: c.ngos.join(", ") })}
                  </p>
                  {compactCheckBadge({ label: c.checkBadge })}
                  {c.fundBadges.length > 0 && <p className="flex flex-wrap gap-2">{fundBadgeSpans({ badges: c.fundBadges })}</p>}
                  {progressBar({ collected: c.collectedAmount, target: c.targetAmount, label: c.progressLabel })}
                  <div className="mt-auto flex flex-wrap gap-2 pt-2">
                    <a
                      {...link(k.detailsHref(c.slug, { q, after: list.after }))}
                      aria-describedby={titleId}
                      className="inline-flex flex-1 items-center justify-center gap-1 rounded-md border border-brand-700 px-3 py-2 font-medium text-brand-800 hover:bg-brand-50"
                    >
                      <Info aria-hidden="true" className="size-4" />
                      {t("donate:pick.details")}
                    </a>
                    <a
                      {...link(k.actionHref(c.slug))}
                      aria-describedby={titleId}
                      className={brandButton("narrow", "inline-flex flex-1 items-center justify-center gap-1 whitespace-nowrap")}
                    >
                      <parts.Icon aria-hidden="true" className="size-4" />
                      {t(k.action)}
                    </a>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {/* By cursor (decision 044): "Next" after the last card, "Previous" before the first, "First page" back; no page
          numbers. The links sit at the line's start and end, so in Urdu (right to left) "Next" is on the left, where
          the reading goes on. */}
      <KeysetPager
        next={list.next}
        prev={list.prev}
        previous={t("common:previous")}
        param="after"
        anchor="pick-heading"
        label={t("donate:pick.pages")}
        older={t("common:next")}
        newest={t("donate:pick.firstPage")}
      />
    </section>
  );
}

function CampaignDetails({
  kind,
  parts,
  campaign: c,
  back,
}: {
  kind: PickerKind;
  parts: PickerParts;
  campaign: Extract<PickerDetails, { state: "open" }>["campaign"];
  back: string;
}) {
  const { t, i18n } = useTranslation();
  const k = KIND[kind];
  const joint = c.ngos.length > 1;
  return (
    <article
      aria-labelledby="details-title"
      className="mx-auto flex w-full max-w-3xl flex-col gap-4 rounded-lg bg-white p-4 shadow-sm sm:p-6"
    >
      <img
        src={pictureUrl(c.pictureKey, "campaign")}
        srcSet={pictureSrcSet(c.pictureKey)}
        sizes={PICTURE_SIZES.page}
        alt={t("donate:pictureAlt", { title: c.title })}
        width={1200}
        height={630}
        className="aspect-[1200/630] w-full rounded-md bg-brand-100 object-cover"
      />
      <header className="flex flex-col gap-2">
        <p className="text-sm font-medium text-slate-700">{t("donate:details.label")}</p>
        <UserText as="h2" id="details-title" className="break-words text-start text-2xl font-bold text-brand-900">
          {c.title}
        </UserText>
        {c.fundBadges.length > 0 && <p className="flex flex-wrap gap-2">{fundBadgeSpans({ badges: c.fundBadges, size: "sm" })}</p>}
      </header>
      {parts.Items && <parts.Items items={c.otherItems} />}
      {progressBar({ collected: c.collectedAmount, target: c.targetAmount, label: c.progressLabel })}
      <UserText as="p" className="whitespace-pre-line break-words text-start text-slate-800">
        {c.description}
      </UserText>
      <dl className="grid gap-3 sm:grid-cols-[max-content_1fr] sm:gap-x-4">
        <dt className="font-bold text-slate-900">{t("donate:details.location")}</dt>
        <dd className="flex items-center gap-1 text-slate-800">
          <MapPin aria-hidden="true" className="size-4 shrink-0" />
          <UserText>{placeLabelFor({ label: c.locationLabel, labelUr: c.locationLabelUr }, i18n.language)}</UserText>
        </dd>
        {c.otherItems && kind === "cash" && (
          <>
            <dt className="font-bold text-slate-900">{t("donate:details.otherItems")}</dt>
            <UserText as="dd" className="whitespace-pre-line break-words text-start text-slate-800">
              {c.otherItems}
            </UserText>
          </>
        )}
        <dt className="font-bold text-slate-900">{t(joint ? "donate:details.runJointly" : "donate:details.runBy")}</dt>
        <dd>
          <ul className="flex flex-col gap-2">
            {c.ngos.map((n) => (
              <li key={`${n.role}-${n.name}`} className="flex items-center gap-2">
                <img
                  src={pictureUrl(n.logoKey, "logo")}
                  alt=""
                  width={32}
                  height={32}
                  className="size-8 shrink-0 rounded bg-white object-contain"
                />
                <UserText className="min-w-0 break-words font-medium">
                  {n.hasProfile ? (
                    <Link to={ngoProfilePath(n.id)} className="text-brand-900 underline underline-offset-2">
                      {n.name}
                    </Link>
                  ) : (
                    n.name
                  )}
                </UserText>
                {joint && <span className="text-sm text-slate-700">({t(`donate:details.role.${n.role}`)})</span>}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      <div className="flex flex-wrap gap-3 pt-2">
        <BackLink to={back} label={t("donate:details.goBack")} />
        <Link to={k.actionHref(c.slug)} className={brandButton("medium", "inline-flex items-center gap-2")}>
          <parts.Icon aria-hidden="true" className="size-5" />
          {t(k.action)}
        </Link>
      </div>
    </article>
  );
}
