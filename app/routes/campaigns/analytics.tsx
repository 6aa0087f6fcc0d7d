import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { ArrowLeft, ExternalLink } from "lucide-react";
import { href, Link } from "react-router";
import type { Route } from "./+types/analytics";
import { AreaChart, BarChart } from "#app/components/charts.tsx";
import { progressBar } from "#app/components/progress-bar.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { type Lang } from "#shared/i18n/i18n.ts";
import { isCampaignListName, publicCampaignPath } from "#app/lib/campaign-links.ts";
import { requireUser, throwHttp } from "#app/lib/http.server.ts";
import { formatDay } from "#shared/format.ts";
import { formatCount, formatRupees, formatRupeesShort, formatShare } from "#shared/money.ts";
import { campaignAnalytics, type CampaignAnalytics, type SeriesUnit } from "#server/domain/campaigns/analytics.ts";

export const handle = pageTitle("analytics:title");

/** A bucket's first day as the language writes it; the day is already Pakistan's, so it is formatted as UTC. */
function bucketLabel(date: string, unit: SeriesUnit, lang: Lang): string {
  return formatDay(date, lang, unit === "year" ? "year" : unit === "month" ? "month" : "date");
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const url = new URL(request.url);
  let a: CampaignAnalytics;
  try {
    a = await campaignAnalytics(context.services.db, params.id, user);
  } catch (err) {
    throwHttp(err);
  }
  const selected = a.ngos.find((n) => n.id === url.searchParams.get("partner")) ?? null;
  const view = selected ? selected.breakdown : a.total;
  const from = url.searchParams.get("from");
  const { campaign } = a;
  const total = a.total;
  return {
    campaign: {
      id: campaign.id,
      slug: campaign.slug,
      title: campaign.title,
      status: campaign.status,
      targetAmount: campaign.targetAmount,
      collectedAmount: campaign.collectedAmount,
    },
    role: a.role,
    unit: a.unit,
    backTo: isCampaignListName(from) ? from : campaign.status === "completed" ? "comp_camp" : "campaigns",
    from: isCampaignListName(from) ? from : null,
    ngos: a.ngos.map((n) => ({
      id: n.id,
      name: n.name,
      role: n.role,
      collected: n.breakdown.collected,
      share: n.breakdown.share,
    })),
    selected: selected && { id: selected.id, name: selected.name },
    anyDonation: total.cash.count + total.cash.pending + total.inKind.count + total.inKind.pending > 0,
    view: {
      ...view,
      series: view.series.map((p) => ({ ...p, label: bucketLabel(p.date, a.unit, context.lang) })),
    },
  };
}

const METHOD_LABEL = { jazzcash: "JazzCash", easypaisa: "Easypaisa", bank: "bank" } as const;

/** /campaigns/:id/analytics: Show Analytics, for the whole campaign or one NGO of a joint campaign. */
export default function CampaignAnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { campaign, ngos, selected, view, unit, anyDonation, backTo, from } = loaderData;
  const rupees = (n: number) => formatRupees(n, lang);
  const count = (n: number) => formatCount(n, lang);
  const joint = ngos.length > 1;
  const query = (partner: string | null) => {
    const q = new URLSearchParams();
    if (partner) q.set("partner", partner);
    if (from) q.set("from", from);
    const s = q.toString();
    return `${href("/campaigns/:id/analytics", { id: campaign.id })}${s ? `?${s}` : ""}`;
  };
  const scope = selected ? selected.name : t("analytics:wholeCampaign");
  const seriesHasMoney = view.series.some((p) => p.amount > 0);

  return (
    <>
      <title>{`${t("analytics:title")} · ${campaign.title} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-5xl flex-col gap-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <Link to={`/${backTo}`} className="inline-flex items-center gap-1 font-medium text-brand-800 underline">
            <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
            {t(backTo === "comp_camp" ? "analytics:backSuccessful" : "analytics:backOngoing")}
          </Link>
          {campaign.status !== "archived" && (
            <Link to={publicCampaignPath(campaign.slug)} className="inline-flex items-center gap-1 font-medium text-brand-800 underline">
              <ExternalLink aria-hidden="true" className="size-4" />
              {t("analytics:publicPage")}
            </Link>
          )}
        </div>

        <section aria-labelledby="campaign-title" className="rounded-lg bg-white p-4 shadow-sm">
          {/* A very long title is cut after three lines; the whole of it stays in the title and the page's title. */}
          <UserText
            as="h2"
            id="campaign-title"
            title={campaign.title}
            className="mb-1 line-clamp-3 break-words text-start text-2xl font-bold text-brand-900"
          >
            {campaign.title}
          </UserText>
          <p className="mb-3 text-sm text-slate-700">{t(`analytics:status.${campaign.status}`)}</p>
          {progressBar({
            collected: campaign.collectedAmount,
            target: campaign.targetAmount,
            label: t("campaigns:progress", { collected: rupees(campaign.collectedAmount), target: rupees(campaign.targetAmount) }),
          })}
        </section>

        {joint && (
          <nav aria-label={t("analytics:selectorLabel")}>
            <ul className="flex flex-wrap gap-2">
              <li>
                <PartnerLink to={query(null)} current={!selected}>
                  {t("analytics:allPartners")}
                </PartnerLink>
              </li>
              {ngos.map((n) => (
                <li key={n.id}>
                  <PartnerLink to={query(n.id)} current={selected?.id === n.id}>
                    <UserText>{n.name}</UserText>
                    {n.role !== "partner" && <span className="ms-1 text-xs">({t(`analytics:role.${n.role}`)})</span>}
                  </PartnerLink>
                </li>
              ))}
            </ul>
          </nav>
        )}

        {!anyDonation ? (
          <section aria-labelledby="empty-title" className="rounded-lg border border-dashed border-slate-400 bg-white p-6 text-center">
            <h2 id="empty-title" className="text-lg font-bold">
              {t("analytics:empty.title")}
            </h2>
            <p className="mt-1 text-slate-700">{t("analytics:empty.body")}</p>
          </section>
        ) : (
          <>
            <section aria-labelledby="kpi-title">
              <h2 id="kpi-title" className="mb-3 text-lg font-bold">
                {t("analytics:kpi.title", { scope })}
              </h2>
              <dl className="grid grid-cols-1 gap-3 min-[360px]:grid-cols-2 lg:grid-cols-4">
                <Kpi label={t("analytics:kpi.collected")} value={rupees(view.collected)}>
                  {selected && t("analytics:kpi.share", { share: formatShare(view.share, lang) })}
                </Kpi>
                <Kpi label={t("analytics:kpi.donors")} value={count(view.donors)} />
                <Kpi label={t("analytics:kpi.cash")} value={count(view.cash.count)}>
                  {view.cash.pending > 0 && t("analytics:kpi.pending", { count: count(view.cash.pending) })}
                </Kpi>
                <Kpi label={t("analytics:kpi.inKind")} value={count(view.inKind.count)}>
                  {view.inKind.pending > 0 && t("analytics:kpi.pending", { count: count(view.inKind.pending) })}
                </Kpi>
              </dl>
            </section>

            {seriesHasMoney ? (
              <AreaChart
                title={t("analytics:overTime.title", { scope })}
                summary={t("analytics:overTime.summary", {
                  total: rupees(view.collected),
                  first: view.series[0]!.label,
                  last: view.series.at(-1)!.label,
                })}
                points={view.series.map((p) => ({ label: p.label, value: p.cumulative }))}
                formatValue={rupees}
                formatTick={(n) => formatRupeesShort(n, lang)}
                labelHeading={t(`analytics:overTime.unit.${unit}`)}
                extraColumn={{ heading: t(`analytics:overTime.given.${unit}`), values: view.series.map((p) => rupees(p.amount)) }}
                valueHeading={t("analytics:overTime.soFar")}
                showNumbers={t("analytics:showNumbers")}
              />
            ) : (
              <p className="rounded-lg bg-white p-4 text-slate-700 shadow-sm">{t("analytics:overTime.none")}</p>
            )}

            <div className="grid gap-6 md:grid-cols-2">
              <BarChart
                title={t("analytics:kinds.title")}
                labelHeading={t("analytics:kinds.kind")}
                valueHeading={t("analytics:kinds.numbers")}
                bars={[
                  {
                    label: t("analytics:kinds.cash"),
                    value: view.cash.count,
                    text: t("analytics:kinds.cashText", { count: count(view.cash.count), amount: rupees(view.cash.amount) }),
                  },
                  {
                    label: t("analytics:kinds.inKind"),
                    value: view.inKind.count,
                    text: t("analytics:kinds.inKindText", { count: count(view.inKind.count) }),
                  },
                ]}
              />
              <BarChart
                title={t("analytics:methods.title")}
                labelHeading={t("analytics:methods.method")}
                valueHeading={t("analytics:methods.numbers")}
                bars={view.methods.map((m) => ({
                  label: m.method === "bank" ? t("analytics:methods.bank") : METHOD_LABEL[m.method],
                  value: m.amount,
                  text: t(m.count === 1 ? "analytics:methods.textOne" : "analytics:methods.text", {
                    count: count(m.count),
                    amount: rupees(m.amount),
                  }),
                }))}
              />
            </div>

            <BarChart
              title={t("analytics:funds.title")}
              labelHeading={t("funds:totals.fund")}
              valueHeading={t("analytics:funds.numbers")}
              bars={view.funds.map((f) => ({
                label: t(`funds:kinds.${f.fund}`),
                value: f.amount,
                text: t("analytics:funds.text", {
                  cash: count(f.cashCount),
                  amount: rupees(f.amount),
                  goods: count(f.goodsCount),
                }),
              }))}
            />

            <div className="grid gap-6 md:grid-cols-2">
              <section aria-labelledby="items-title" className="rounded-lg bg-white p-4 shadow-sm">
                <h2 id="items-title" className="mb-2 font-bold">
                  {t("analytics:items.title")}
                </h2>
                {view.topItems.length === 0 ? (
                  <p className="text-slate-700">{t("analytics:items.none")}</p>
                ) : (
                  <ol className="list-decimal space-y-1 ps-6">
                    {view.topItems.map((item) => (
                      <li key={item.item}>
                        <UserText className="inline-block break-words first-letter:uppercase">{item.item}</UserText>{" "}
                        <span className="text-slate-700">
                          {t(item.count === 1 ? "analytics:items.countOne" : "analytics:items.count", { count: count(item.count) })}
                        </span>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
              {joint && !selected && (
                <BarChart
                  title={t("analytics:shares.title")}
                  labelHeading={t("analytics:shares.ngo")}
                  valueHeading={t("analytics:shares.numbers")}
                  bars={ngos.map((n) => ({
                    label: n.name,
                    value: n.collected,
                    text: t("analytics:shares.text", { amount: rupees(n.collected), share: formatShare(n.share, lang) }),
                  }))}
                />
              )}
            </div>
          </>
        )}
      </div>
    </>
  );
}

function PartnerLink({ to, current, children }: { to: string; current: boolean; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      aria-current={current ? "page" : undefined}
      className={`inline-block max-w-full rounded-full border px-3 py-1 font-medium break-words ${
        current ? "border-brand-800 bg-brand-800 text-white" : "border-slate-300 bg-white text-brand-800 hover:bg-brand-50"
      }`}
    >
      {children}
    </Link>
  );
}

function Kpi({ label, value, children }: { label: string; value: string; children?: React.ReactNode }) {
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums text-brand-900">{value}</dd>
      {children && <dd className="text-sm text-slate-700">{children}</dd>}
    </div>
  );
}
