import { BadgeCheck, HandHeart, Info, MapPin, Search } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/pick";
import { BackLink, DonateProblem, DonateStep, DonationKindToggle } from "~/components/donate-parts";
import { Pager } from "~/components/pager";
import { ProgressBar } from "~/components/progress-bar";
import { RoleShell } from "~/components/role-shell";
import { useTranslation } from "~/i18n/i18n";
import { donateDetailsHref, donatePayHref } from "~/lib/campaign-links";
import { DESCRIPTION_PREVIEW_WORDS } from "~/lib/constants";
import { requireUser } from "~/lib/http.server";
import { formatRupees } from "~/lib/money";
import { pictureUrl } from "~/lib/pictures";
import { previewWords } from "~/lib/text";
import { parsePage } from "../../../server/domain/admin/paging";
import { publicCampaign, type PublicCampaign } from "../../../server/domain/campaigns/public";
import { pickerCampaigns } from "../../../server/domain/donations/picker";
import { DomainError } from "../../../server/domain/errors";

const SEARCH_MAX_LENGTH = 100;

type Details =
  | { state: "open"; campaign: Omit<PublicCampaign, "lat" | "lng" | "createdAt" | "completedAt" | "status"> }
  | { state: "ended"; title: string }
  | { state: "notFound" };

async function details(db: Parameters<typeof publicCampaign>[0], slug: string): Promise<Details> {
  let c: PublicCampaign;
  try {
    c = await publicCampaign(db, slug);
  } catch (err) {
    if (err instanceof DomainError && err.kind === "not_found") return { state: "notFound" };
    throw err;
  }
  if (c.status !== "active") return { state: "ended", title: c.title };
  const { lat: _lat, lng: _lng, createdAt: _c, completedAt: _d, status: _s, ...shown } = c;
  return { state: "open", campaign: shown };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "donor", request);
  const { db } = context.services;
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const page = parsePage(url.searchParams.get("page"));
  const slug = url.searchParams.get("campaign");
  const panel = slug !== null ? await details(db, slug) : null;
  // A chosen campaign's panel (or the reason it cannot be shown) takes the place of the cards.
  const list = panel ? null : await pickerCampaigns(db, { q, page });
  return {
    q,
    page,
    panel,
    list: list && {
      ...list,
      rows: list.rows.map((c) => ({
        id: c.id,
        slug: c.slug,
        title: c.title,
        preview: previewWords(c.description, DESCRIPTION_PREVIEW_WORDS),
        targetAmount: c.targetAmount,
        collectedAmount: c.collectedAmount,
        pictureKey: c.pictureKey,
        zakatEligible: c.zakatEligible,
        ngos: c.ngos.map((n) => n.name),
      })),
    },
  };
}

/** The list the picker came from: the same search and page, without a chosen campaign. */
function listHref(q: string, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/donate1?${query}` : "/donate1";
}

/** /donate1: the donor's cash campaign picker, searched and paged, with a details panel for one campaign. */
export default function DonatePick({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { q, page, panel, list } = loaderData;
  const back = listHref(q, page);
  return (
    <RoleShell title={t("donate:title")}>
      <title>{`${panel?.state === "open" ? panel.campaign.title : t("donate:pick.heading")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-6xl flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <DonationKindToggle />
          <DonateStep step={1} />
        </div>
        {panel?.state === "open" && <CampaignDetails campaign={panel.campaign} back={back} />}
        {panel && panel.state !== "open" && (
          <DonateProblem
            message={panel.state === "ended" ? t("donate:details.ended", { title: panel.title }) : t("donate:details.notFound")}
            back={back}
            backLabel={t("donate:details.seeAll")}
          />
        )}
        {list && <CampaignCards q={q} list={list} />}
      </div>
    </RoleShell>
  );
}

type List = NonNullable<Route.ComponentProps["loaderData"]["list"]>;

function CampaignCards({ q, list }: { q: string; list: List }) {
  const { t, i18n } = useTranslation();
  const rupees = (n: number) => formatRupees(n, i18n.language);
  return (
    <section aria-labelledby="pick-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="pick-heading" className="text-2xl font-bold text-brand-900">
          {t("donate:pick.heading")}
        </h2>
        <p className="text-slate-700">{t("donate:pick.lead")}</p>
      </div>
      <Form method="get" action="/donate1" role="search" className="flex flex-wrap gap-2">
        <label htmlFor="donate-search" className="sr-only">
          {t("donate:pick.searchLabel")}
        </label>
        <input
          id="donate-search"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder={t("donate:pick.searchPlaceholder")}
          className="min-w-0 flex-1 basis-48 rounded-md border border-slate-400 bg-white px-3 py-2"
        />
        <button type="submit" className="inline-flex items-center gap-1 rounded-md bg-slate-800 px-4 py-2 font-medium text-white">
          <Search aria-hidden="true" className="size-4" />
          {t("donate:pick.search")}
        </button>
        {q && (
          <Link to="/donate1" className="self-center px-2 font-medium text-brand-800 underline">
            {t("donate:pick.showAll")}
          </Link>
        )}
      </Form>

      {list.rows.length === 0 ? (
        <p role="status" className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
          {q ? t("donate:pick.noMatch", { q }) : t("donate:pick.empty")}
        </p>
      ) : (
        // Three cards a row on a wide screen: the specification's 3 upper and 3 lower cards per page.
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label={t("donate:pick.listLabel")}>
          {list.rows.map((c) => {
            const titleId = `campaign-${c.id}`;
            return (
              <li key={c.id} className="flex flex-col overflow-hidden rounded-lg bg-white shadow-sm">
                <img
                  src={pictureUrl(c.pictureKey, "campaign")}
                  alt=""
                  width={1200}
                  height={630}
                  loading="lazy"
                  className="aspect-[1200/630] w-full bg-brand-100 object-cover"
                />
                <div className="flex flex-1 flex-col gap-2 p-4">
                  <h3 id={titleId} dir="auto" className="break-words text-start text-lg font-bold text-slate-900">
                    {c.title}
                  </h3>
                  <p dir="auto" className="break-words text-start text-slate-700">
                    {c.preview}
                  </p>
                  <p className="text-sm text-slate-700">
                    {t(c.ngos.length > 1 ? "donate:pick.jointly" : "donate:pick.by", { names: c.ngos.join(", ") })}
                  </p>
                  {c.zakatEligible && (
                    <p>
                      <span className="inline-flex items-center gap-1 rounded bg-emerald-100 px-2 py-0.5 text-xs font-bold text-emerald-900">
                        <BadgeCheck aria-hidden="true" className="size-4" />
                        {t("donate:zakat")}
                      </span>
                    </p>
                  )}
                  <ProgressBar
                    collected={c.collectedAmount}
                    target={c.targetAmount}
                    label={t("donate:progress", { collected: rupees(c.collectedAmount), target: rupees(c.targetAmount) })}
                  />
                  <div className="mt-auto flex flex-wrap gap-2 pt-2">
                    <Link
                      to={donateDetailsHref(c.slug, { q, page: list.page })}
                      aria-describedby={titleId}
                      className="inline-flex flex-1 items-center justify-center gap-1 rounded-md border border-brand-700 px-3 py-2 font-medium text-brand-800 hover:bg-brand-50"
                    >
                      <Info aria-hidden="true" className="size-4" />
                      {t("donate:pick.details")}
                    </Link>
                    <Link
                      to={donatePayHref(c.slug)}
                      aria-describedby={titleId}
                      className="inline-flex flex-1 items-center justify-center gap-1 rounded-md bg-brand-700 px-3 py-2 font-bold text-white hover:bg-brand-800"
                    >
                      <HandHeart aria-hidden="true" className="size-4" />
                      {t("donate:donateNow")}
                    </Link>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pager page={list.page} pages={list.pages} label={t("donate:pick.pages")} />
    </section>
  );
}

function CampaignDetails({ campaign: c, back }: { campaign: Extract<Details, { state: "open" }>["campaign"]; back: string }) {
  const { t, i18n } = useTranslation();
  const rupees = (n: number) => formatRupees(n, i18n.language);
  const joint = c.ngos.length > 1;
  return (
    <article aria-labelledby="details-title" className="mx-auto flex w-full max-w-3xl flex-col gap-4 rounded-lg bg-white p-4 shadow-sm sm:p-6">
      <img
        src={pictureUrl(c.pictureKey, "campaign")}
        alt={t("donate:pictureAlt", { title: c.title })}
        width={1200}
        height={630}
        className="aspect-[1200/630] w-full rounded-md bg-brand-100 object-cover"
      />
      <header className="flex flex-col gap-2">
        <p className="text-sm font-medium text-slate-700">{t("donate:details.label")}</p>
        <h2 id="details-title" dir="auto" className="break-words text-start text-2xl font-bold text-brand-900">
          {c.title}
        </h2>
        {c.zakatEligible && (
          <p>
            <span className="inline-flex items-center gap-1 rounded bg-emerald-100 px-2 py-0.5 text-sm font-bold text-emerald-900">
              <BadgeCheck aria-hidden="true" className="size-4" />
              {t("donate:zakat")}
            </span>
          </p>
        )}
      </header>
      <ProgressBar
        collected={c.collectedAmount}
        target={c.targetAmount}
        label={t("donate:progress", { collected: rupees(c.collectedAmount), target: rupees(c.targetAmount) })}
      />
      <p dir="auto" className="whitespace-pre-line break-words text-start text-slate-800">
        {c.description}
      </p>
      <dl className="grid gap-3 sm:grid-cols-[max-content_1fr] sm:gap-x-4">
        <dt className="font-bold text-slate-900">{t("donate:details.location")}</dt>
        <dd className="flex items-center gap-1 text-slate-800">
          <MapPin aria-hidden="true" className="size-4 shrink-0" />
          {c.locationLabel}
        </dd>
        {c.otherItems && (
          <>
            <dt className="font-bold text-slate-900">{t("donate:details.otherItems")}</dt>
            <dd dir="auto" className="whitespace-pre-line break-words text-start text-slate-800">
              {c.otherItems}
            </dd>
          </>
        )}
        <dt className="font-bold text-slate-900">{t(joint ? "donate:details.runJointly" : "donate:details.runBy")}</dt>
        <dd>
          <ul className="flex flex-col gap-2">
            {c.ngos.map((n) => (
              <li key={`${n.role}-${n.name}`} className="flex items-center gap-2">
                <img src={pictureUrl(n.logoKey, "logo")} alt="" width={32} height={32} className="size-8 shrink-0 rounded bg-white object-contain" />
                <span dir="auto" className="break-words font-medium">
                  {n.name}
                </span>
                {joint && <span className="text-sm text-slate-700">({t(`donate:details.role.${n.role}`)})</span>}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      <div className="flex flex-wrap gap-3 pt-2">
        <BackLink to={back} label={t("donate:details.goBack")} />
        <Link
          to={donatePayHref(c.slug)}
          className="inline-flex items-center gap-2 rounded-md bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800"
        >
          <HandHeart aria-hidden="true" className="size-5" />
          {t("donate:donateNow")}
        </Link>
      </div>
    </article>
  );
}
