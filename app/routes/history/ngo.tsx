import { pageTitle } from "#app/components/role-shell.tsx";
import { Download } from "lucide-react";
import { FilterSelect } from "#app/components/filter-select.tsx";
import { Form, Link } from "react-router";
import type { Route } from "./+types/ngo";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime } from "#shared/format.ts";
import { Pager } from "#app/components/pager.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { formatCount, formatRupees } from "#shared/money.ts";
import { parsePage } from "#server/db/query.ts";
import { DONATION_STATUSES } from "#shared/statuses.ts";
import {
  HISTORY_SORTS,
  ngoHistory,
  ngoHistoryCampaigns,
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
  const page = parsePage(params.get("page"));
  const [list, totals, campaigns] = await Promise.all([
    ngoHistory(db, user, filter, { page }),
    ngoHistoryTotals(db, user, filter),
    ngoHistoryCampaigns(db, user),
  ]);
  return {
    filter,
    // The choices travel as data: the domain module stays out of the browser bundle.
    statuses: DONATION_STATUSES,
    sorts: HISTORY_SORTS,
    filtered: filter.campaignId !== null || filter.status !== null,
    exportHref: `/donHistory/export${ngoHistoryQuery(filter)}`,
    campaigns,
    totals,
    list: {
      ...list,
      rows: list.rows.map((r) => ({
        id: r.id,
        kind: r.kind,
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
      })),
    },
  };
}

const selectClass = "w-full rounded-md border border-slate-400 bg-white px-3 py-2";

/**
 * /donHistory: the donations paid to this NGO (cash and in-kind), filtered by campaign and state, sorted,
 * paged, with totals of the filter and a CSV export of it. A GET form: everything works without JavaScript.
 */
export default function NgoHistory({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { filter, statuses, sorts, filtered, exportHref, campaigns, totals, list } = loaderData;
  const title = t("history:ngo.title");
  const lang = i18n.language;
  return (
    <>
      <title>{`${title} · ${t("common:brand")}`}</title>
      <p className="mb-4 max-w-3xl text-slate-700">{t("history:ngo.lead")}</p>

      <Form method="get" action="/donHistory" className="mb-4 rounded-lg bg-white p-4 shadow-sm">
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
              <select id="history-status" name="status" defaultValue={filter.status ?? ""} className={selectClass}>
                <option value="">{t("history:ngo.allStatuses")}</option>
                {statuses.map((s) => (
                  <option key={s} value={s}>
                    {t(`donations:status.${s}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="flex flex-col gap-1">
              <label htmlFor="history-sort" className="font-medium text-slate-800">
                {t("history:ngo.sort")}
              </label>
              <select id="history-sort" name="sort" defaultValue={filter.sort} className={selectClass}>
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
                <Link to="/donHistory" className="font-medium text-brand-800 underline">
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
          {/* A plain link: the export is a file, not a page. It keeps the filter and sort on screen. */}
          <a
            href={exportHref}
            download
            className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 font-medium text-brand-800 hover:bg-brand-50"
          >
            <Download aria-hidden="true" className="size-4" />
            {t("history:ngo.export")}
          </a>
        </div>
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
        <ul aria-label={t("history:ngo.countsLabel")} className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-800">
          {statuses.map((s) => (
            <li key={s} data-count={s}>
              {t(`donations:status.${s}`)}: <span className="font-bold">{formatCount(totals.counts[s], lang)}</span>
            </li>
          ))}
        </ul>
      </section>

      {list.rows.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">{t(filtered ? "history:ngo.noMatch" : "history:ngo.empty")}</p>
      ) : (
        <>
          <p className="mb-1 text-sm text-slate-600 md:hidden">{t("history:ngo.scrollHint")}</p>
          {/* Focusable, so keyboard users can scroll the table sideways on a phone; relative, so the cells' screen-reader-only labels stay inside the scrolling box instead of widening the page. */}
          <div
            role="region"
            aria-labelledby="history-caption"
            tabIndex={0}
            className="relative overflow-x-auto rounded-lg bg-white shadow-sm"
          >
            <table className="w-full min-w-[52rem] text-sm">
              <caption id="history-caption" className="px-3 py-2 text-start font-bold text-slate-900">
                {t("history:ngo.caption", { count: formatCount(list.total, lang) })}
              </caption>
              <thead className="bg-slate-100">
                <tr>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t("history:fields.date")}
                  </th>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t("history:fields.campaign")}
                  </th>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t("history:fields.donor")}
                  </th>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t("history:fields.amountOrItems")}
                  </th>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t("history:status")}
                  </th>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t("history:fields.payment")}
                  </th>
                  <th scope="col" className="px-3 py-2 text-start">
                    {t("history:fields.receipt")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((d) => (
                  <tr key={d.id} className="border-t border-slate-200 align-top" data-donation={d.id}>
                    <td className="px-3 py-2 whitespace-nowrap">
                      <DateTime value={d.createdAt} />
                    </td>
                    <td className="min-w-40 px-3 py-2 break-words">{d.campaignTitle}</td>
                    <td className="min-w-44 px-3 py-2">
                      <span className="block font-medium break-words">{d.donorName}</span>
                      <span className="block break-words text-slate-700">{d.donorEmail}</span>
                    </td>
                    <td className={d.amount !== null ? "px-3 py-2 whitespace-nowrap" : "max-w-64 min-w-40 px-3 py-2"}>
                      {d.amount === null && <span className="block text-xs font-medium text-slate-600">{t("history:fields.items")}</span>}
                      <AmountOrItems amount={d.amount} items={d.items} />
                    </td>
                    <td className="px-3 py-2">
                      <StatusBadge status={d.status} />
                      {d.resubmitted && (
                        // The donor answered a disapproval (decision 025): the review dialog shows the gift's history.
                        <Link to={`/apps?view=${d.id}`} className="mt-1 block text-sm font-medium text-brand-800 underline">
                          {t("history:ngo.resubmitted")}
                        </Link>
                      )}
                      {d.pickupStatus && (
                        <span className="mt-1 block">
                          <span className="sr-only">{t("history:fields.pickup")}: </span>
                          <PickupStatusBadge status={d.pickupStatus} />
                        </span>
                      )}
                      {d.rejectionReason && (
                        <p className="mt-1 max-w-56 text-slate-800">
                          <span className="font-medium">{t("history:reason")}: </span>
                          <span className="break-words">{d.rejectionReason}</span>
                        </p>
                      )}
                    </td>
                    <td className="px-3 py-2">
                      <span className="block whitespace-nowrap">
                        {t(`donations:kind.${d.kind}`, { defaultValue: d.kind })}
                        {d.method ? ` · ${t(`donations:methods.${d.method}`, { defaultValue: d.method })}` : ""}
                      </span>
                      {d.transactionId && (
                        <span className="block text-slate-700">
                          <span className="sr-only">{t("history:fields.transactionId")}: </span>
                          <span className="font-mono text-xs">{d.transactionId}</span>
                        </span>
                      )}
                    </td>
                    <td className="px-3 py-2">
                      {d.receiptNumber ? (
                        <>
                          <span className="mb-1 block whitespace-nowrap">{t("history:receiptNumber", { number: d.receiptNumber })}</span>
                          <ReceiptLink id={d.id} number={d.receiptNumber} />
                        </>
                      ) : (
                        "—"
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pager page={list.page} pages={list.pages} label={t("history:ngo.pagerLabel")} />
    </>
  );
}
