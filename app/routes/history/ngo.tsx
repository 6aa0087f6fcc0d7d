import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { Download } from "lucide-react";
import { FilterSelect } from "#app/components/filter-select.tsx";
import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/ngo";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime } from "#shared/format.ts";
import { KeysetPager } from "#app/components/keyset-pager.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { formatCount, formatRupees } from "#shared/money.ts";
import { parsePage } from "#server/db/query.ts";
import {
  HISTORY_KINDS,
  historyChoices,
  ngoHistory,
  ngoHistoryCampaigns,
  ngoHistoryCursorAt,
  ngoHistoryQuery,
  ngoHistoryTotals,
  parseNgoHistoryFilter,
} from "#server/domain/donations/history.ts";
import { AmountOrItems, PickupStatusBadge, ReceiptLink, StatusBadge } from "#app/components/history/history-ui.tsx";

export const handle = pageTitle("history:ngo.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const { db } = context.services;
  const params = new URL(request.url).searchParams;
  const filter = parseNgoHistoryFilter(params);
  // The list is read by keyset (`after`, the last row shown); a numbered link from before (`?page=N`) still leads to its
  // page: to the cursor of the row before it, or to the first page when it is past the end.
  if (params.has("page")) {
    const cursor = params.get("after") ?? (await ngoHistoryCursorAt(db, user, filter, parsePage(params.get("page"))));
    const query = new URLSearchParams(params);
    query.delete("page");
    query.delete("after");
    query.delete("before");
    if (cursor) query.set("after", cursor);
    throw redirect(`/donHistory${query.size > 0 ? `?${query.toString()}` : ""}`);
  }
  const [list, totals, campaigns] = await Promise.all([
    ngoHistory(db, user, filter, { after: params.get("after"), before: params.get("before") }),
    ngoHistoryTotals(db, user, filter),
    ngoHistoryCampaigns(db, user),
  ]);
  const choices = historyChoices(filter.kind);
  return {
    filter,
    // The choices travel as data: the domain module stays out of the browser bundle.
    statuses: choices.statuses,
    sorts: choices.sorts,
    filtered: filter.campaignId !== null || filter.status !== null,
    exportHref: `/donHistory/export${ngoHistoryQuery(filter)}`,
    // Each tab keeps the campaign chosen; the state and sort belong to one kind's list.
    tabs: HISTORY_KINDS.map((kind) => ({
      kind,
      href: `/donHistory${ngoHistoryQuery({ kind, campaignId: filter.campaignId, status: null, sort: "newest" })}`,
      count: totals.kinds[kind],
    })),
    campaigns,
    totals,
    list: {
      ...list,
      rows: list.rows.map((r) => ({
        id: r.id,
        status: r.status,
        amount: r.amount,
        items: r.items,
        method: r.method,
        campaignTitle: r.campaignTitle,
        donorName: r.donorName,
        donorEmail: r.donorEmail,
        transactionId: r.transactionId,
        createdAt: formatDateTime(r.createdAt, context.lang),
        rejectionReason: r.status === "rejected" ? r.rejectionReason : null,
        receiptNumber: r.receiptNumber,
        pickupStatus: r.pickupStatus,
        resubmitted: r.resubmitted,
        fund: r.fund,
        inNameOf: r.inNameOf,
      })),
    },
  };
}

const selectClass = "w-full rounded-md border border-slate-400 bg-white px-3 py-2";

type Row = Route.ComponentProps["loaderData"]["list"]["rows"][number];

/** One label and value of a donation's card. */
function Field({ label, children, wide = false }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={`min-w-0 ${wide ? "sm:col-span-2" : ""}`}>
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** A cash gift as a card: the amount and its review state first, then who, where, how, and the receipt. */
function CashCard({ d }: { d: Row }) {
  const { t } = useTranslation();
  return (
    <li className="rounded-lg bg-white p-4 shadow-sm" data-donation={d.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-lg" data-field="amount">
          <AmountOrItems amount={d.amount} items={null} />
        </span>
        <span data-field="state">
          <StatusBadge status={d.status} />
          {d.resubmitted && (
            // The donor answered a disapproval (decision 025): the review dialog shows the gift's history.
            <Link to={`/apps?view=${d.id}`} className="mt-1 block text-sm font-medium text-brand-800 underline">
              {t("history:ngo.resubmitted")}
            </Link>
          )}
        </span>
      </div>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-6">
        <Field label={t("history:fields.campaign")} wide>
          <UserText>{d.campaignTitle}</UserText>
        </Field>
        <Field label={t("history:fields.donor")} wide>
          <UserText className="block font-medium">{d.donorName}</UserText>
          <span className="block text-slate-700">{d.donorEmail}</span>
        </Field>
        <Field label={t("history:fields.date")}>
          <DateTime value={d.createdAt} />
        </Field>
        <Field label={t("history:fields.method")}>{d.method ? t(`donations:methods.${d.method}`, { defaultValue: d.method }) : "—"}</Field>
        <FundField d={d} />
        {d.transactionId && (
          <Field label={t("history:fields.transactionId")} wide>
            <span className="font-mono text-xs">{d.transactionId}</span>
          </Field>
        )}
        {d.receiptNumber && (
          <Field label={t("history:fields.receipt")} wide>
            <span className="me-3 inline-block">{t("history:receiptNumber", { number: d.receiptNumber })}</span>
            <ReceiptLink id={d.id} number={d.receiptNumber} />
          </Field>
        )}
      </dl>
      {d.rejectionReason && (
        <p className="mt-2 text-sm text-slate-800">
          <span className="font-medium">{t("history:reason")}: </span>
          <span className="break-words">{d.rejectionReason}</span>
        </p>
      )}
    </li>
  );
}

/** The fund a gift was given to, and in whose name when the donor said (decision 048). */
function FundField({ d }: { d: Row }) {
  const { t } = useTranslation();
  return (
    <Field label={t("funds:review.fund")} wide={Boolean(d.inNameOf)}>
      <span data-field="fund">{t(`funds:kinds.${d.fund}`)}</span>
      {d.inNameOf && (
        <span className="block text-slate-700">
          {t("funds:review.inNameOf")}: <UserText>{d.inNameOf}</UserText>
        </span>
      )}
    </Field>
  );
}

/** A goods offer as a card: the items and the pick-up's state first (not a cash review state), then who and where. */
function GoodsCard({ d }: { d: Row }) {
  const { t } = useTranslation();
  return (
    <li className="rounded-lg bg-white p-4 shadow-sm" data-donation={d.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="min-w-0 font-bold break-words text-slate-900" data-field="amount">
          <span className="sr-only">{t("history:fields.items")}: </span>
          {d.items ?? "—"}
        </p>
        <span data-field="state">{d.pickupStatus ? <PickupStatusBadge status={d.pickupStatus} /> : <StatusBadge status={d.status} />}</span>
      </div>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-6">
        <Field label={t("history:fields.campaign")} wide>
          <UserText>{d.campaignTitle}</UserText>
        </Field>
        <Field label={t("history:fields.donor")} wide>
          <UserText className="block font-medium">{d.donorName}</UserText>
          <span className="block text-slate-700">{d.donorEmail}</span>
        </Field>
        <Field label={t("history:fields.date")}>
          <DateTime value={d.createdAt} />
        </Field>
        <FundField d={d} />
      </dl>
      {d.rejectionReason && (
        <p className="mt-2 text-sm text-slate-800">
          <span className="font-medium">{t("history:reason")}: </span>
          <span className="break-words">{d.rejectionReason}</span>
        </p>
      )}
    </li>
  );
}

/**
 * /donHistory: the donations paid to this NGO, cash and goods on two tabs (`kind=cash|goods`), each with its own
 * states, counts and totals; filtered by campaign and state, sorted, paged, with a CSV export of the filter. Each
 * donation is a card, so a phone shows its amount (or items) and state without scrolling sideways. A GET form:
 * everything works without JavaScript.
 */
export default function NgoHistory({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { filter, statuses, sorts, filtered, exportHref, tabs, campaigns, totals, list } = loaderData;
  const title = t("history:ngo.title");
  const lang = i18n.language;
  const cash = filter.kind === "cash";
  return (
    <>
      <title>{`${title} · ${t("common:brand")}`}</title>
      <p className="mb-4 max-w-3xl text-slate-700">{t("history:ngo.lead")}</p>

      <nav aria-label={t("history:ngo.kindsLabel")} className="mb-4 flex gap-1 border-b border-slate-300">
        {tabs.map((tab) => {
          const active = tab.kind === filter.kind;
          return (
            <Link
              key={tab.kind}
              to={tab.href}
              aria-current={active ? "page" : undefined}
              data-kind={tab.kind}
              className={`inline-flex min-h-11 items-center rounded-t-md border-b-4 px-4 py-2 font-bold ${
                active ? "border-brand-700 text-brand-900" : "border-transparent text-slate-700 hover:text-brand-800"
              }`}
            >
              {t("history:ngo.kindTab", { kind: t(`history:ngo.kinds.${tab.kind}`), count: formatCount(tab.count, lang) })}
            </Link>
          );
        })}
      </nav>

      <Form method="get" action="/donHistory" className="mb-4 rounded-lg bg-white p-4 shadow-sm">
        {!cash && <input type="hidden" name="kind" value={filter.kind} />}
        <fieldset>
          <legend className="mb-2 font-bold text-slate-900">{t("history:ngo.filters")}</legend>
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
            <FilterSelect
              name="campaign"
              id="history-campaign"
              label={t("history:ngo.campaign")}
              allLabel={t("history:ngo.allCampaigns")}
              options={campaigns}
              value={filter.campaignId ?? ""}
            />
            <div className="flex flex-col gap-1">
              <label htmlFor="history-status" className="font-medium text-slate-800">
                {t("history:ngo.statusLabel")}
              </label>
              <select key={filter.kind} id="history-status" name="status" defaultValue={filter.status ?? ""} className={selectClass}>
                <option value="">{t("history:ngo.allStatuses")}</option>
                {statuses.map((s) => (
                  <option key={s} value={s}>
                    {t(cash ? `donations:status.${s}` : `pickups:status.${s}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="history-sort" className="font-medium text-slate-800">
                {t("history:ngo.sort")}
              </label>
              <select key={filter.kind} id="history-sort" name="sort" defaultValue={filter.sort} className={selectClass}>
                {sorts.map((s) => (
                  <option key={s} value={s}>
                    {t(`history:ngo.sorts.${s}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <button type="submit" className="rounded-md bg-slate-800 px-4 py-2 font-medium text-white hover:bg-slate-700">
                {t("history:ngo.apply")}
              </button>
              {filtered && (
                <Link to={cash ? "/donHistory" : "/donHistory?kind=goods"} className="font-medium text-brand-800 underline">
                  {t("history:ngo.clear")}
                </Link>
              )}
            </div>
          </div>
        </fieldset>
      </Form>

      <section aria-labelledby="history-totals" className="mb-4 rounded-lg bg-white p-4 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id="history-totals" className="text-lg font-bold text-slate-900">
            {t("history:ngo.totals")}
          </h2>
          {/* A plain link: the export is a file, not a page. It keeps the kind, filter and sort on screen. */}
          <a
            href={exportHref}
            download
            className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 font-medium text-brand-800 hover:bg-brand-50"
          >
            <Download aria-hidden="true" className="size-4" />
            {t("history:ngo.export")}
          </a>
        </div>
        {cash ? (
          <dl className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
            <div className="rounded-md bg-emerald-50 p-3">
              <dt className="text-sm font-medium text-emerald-900">{t("history:ngo.approvedTotal")}</dt>
              <dd className="text-xl font-bold text-emerald-950" data-total="approved">
                {formatRupees(totals.approvedAmount, lang)}
              </dd>
            </div>
            <div className="rounded-md bg-amber-50 p-3">
              <dt className="text-sm font-medium text-amber-900">{t("history:ngo.pendingTotal")}</dt>
              <dd className="text-xl font-bold text-amber-950" data-total="pending">
                {formatRupees(totals.pendingAmount, lang)}
              </dd>
            </div>
            <div className="rounded-md bg-slate-50 p-3">
              <dt className="text-sm font-medium text-slate-700">{t("history:ngo.donationCount")}</dt>
              <dd className="text-xl font-bold text-slate-900" data-total="count">
                {formatCount(totals.count, lang)}
              </dd>
            </div>
          </dl>
        ) : (
          <dl className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
            <div className="rounded-md bg-amber-50 p-3">
              <dt className="text-sm font-medium text-amber-900">{t("history:ngo.goodsOpen")}</dt>
              <dd className="text-xl font-bold text-amber-950" data-total="open">
                {formatCount(totals.openCount, lang)}
              </dd>
            </div>
            <div className="rounded-md bg-emerald-50 p-3">
              <dt className="text-sm font-medium text-emerald-900">{t("history:ngo.goodsReceived")}</dt>
              <dd className="text-xl font-bold text-emerald-950" data-total="received">
                {formatCount(totals.counts.received ?? 0, lang)}
              </dd>
            </div>
            <div className="rounded-md bg-slate-50 p-3">
              <dt className="text-sm font-medium text-slate-700">{t("history:ngo.goodsCount")}</dt>
              <dd className="text-xl font-bold text-slate-900" data-total="count">
                {formatCount(totals.count, lang)}
              </dd>
            </div>
          </dl>
        )}
        {totals.byFund.length > 0 && (
          <table className="mt-3 w-full text-sm" data-testid="fund-totals">
            <caption className="text-start font-bold text-slate-900">{t("funds:totals.heading")}</caption>
            <thead>
              <tr className="border-b border-slate-300 text-start">
                <th scope="col" className="py-1 text-start font-medium">
                  {t("funds:totals.fund")}
                </th>
                <th scope="col" className="py-1 text-end font-medium">
                  {t("funds:totals.gifts")}
                </th>
                {cash && (
                  <th scope="col" className="py-1 text-end font-medium">
                    {t("funds:totals.amount")}
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {totals.byFund.map((f) => (
                <tr key={f.fund} className="border-b border-slate-100" data-fund={f.fund}>
                  <th scope="row" className="py-1 text-start font-normal">
                    {t(`funds:kinds.${f.fund}`)}
                  </th>
                  <td className="py-1 text-end">{formatCount(f.n, lang)}</td>
                  {cash && <td className="py-1 text-end">{formatRupees(f.approvedAmount, lang)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <ul
          aria-label={t(cash ? "history:ngo.countsLabel" : "history:ngo.goodsCountsLabel")}
          className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800"
        >
          {statuses.map((s) => (
            <li key={s} data-count={s}>
              {t(cash ? `donations:status.${s}` : `pickups:status.${s}`)}:{" "}
              <span className="font-bold">{formatCount(totals.counts[s] ?? 0, lang)}</span>
            </li>
          ))}
        </ul>
      </section>

      {list.rows.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
          {t(filtered ? "history:ngo.noMatch" : cash ? "history:ngo.empty" : "history:ngo.goodsEmpty")}
        </p>
      ) : (
        <section aria-labelledby="history-caption">
          <h2 id="history-caption" className="mb-2 font-bold text-slate-900">
            {t(cash ? "history:ngo.caption" : "history:ngo.goodsCaption", { count: formatCount(list.total, lang) })}
          </h2>
          <ul className="grid gap-3">{list.rows.map((d) => (cash ? <CashCard key={d.id} d={d} /> : <GoodsCard key={d.id} d={d} />))}</ul>
        </section>
      )}
      <div className="mt-4">
        <KeysetPager
          next={list.next}
          prev={list.prev}
          param="after"
          previous={t("common:previous")}
          label={t("history:ngo.pagerLabel")}
          older={t("common:next")}
          newest={t("common:firstPage")}
          anchor="history-caption"
        />
      </div>
    </>
  );
}
