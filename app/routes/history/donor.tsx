import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { ChevronDown } from "lucide-react";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/donor";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime, formatDay } from "#shared/format.ts";
import { placeLabelFor } from "#shared/places.ts";
import { HistoryTabs } from "#app/components/history-tabs.tsx";
import { KeysetPager } from "#app/components/keyset-pager.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { type Lang } from "#shared/i18n/i18n.ts";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { parsePage } from "#server/db/query.ts";
import { donorHistory, donorHistoryCursorAt } from "#server/domain/donations/history.ts";
import { donorActions } from "#server/domain/donations/replies.ts";
import { pickupsOfDonor } from "#server/domain/pickups/pickups.ts";
import { donorSeesCode } from "#server/domain/pickups/states.ts";
import {
  AmountOrItems,
  NgoContact,
  PickupCodeBox,
  PickupStatusBadge,
  PickupTimeline,
  ReceiptLink,
  StatusBadge,
} from "#app/components/history/history-ui.tsx";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("history:donor.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const url = new URL(request.url);
  const params = url.searchParams;
  const { db } = context.services;
  // Read by keyset (`after`); an old numbered link (`?page=N`) leads to its page's cursor, or to the first page.
  if (params.has("page")) {
    const cursor = params.get("after") ?? (await donorHistoryCursorAt(db, user, parsePage(params.get("page"))));
    const query = new URLSearchParams(params);
    query.delete("page");
    query.delete("after");
    query.delete("before");
    if (cursor) query.set("after", cursor);
    throw redirect(`/dvh${query.size > 0 ? `?${query.toString()}` : ""}`);
  }
  const list = await donorHistory(db, user, { after: params.get("after"), before: params.get("before") });
  // In-kind rows carry their pick-up: the state, the code for the rider, the window and every step.
  const goods = await pickupsOfDonor(
    db,
    user,
    list.rows.filter((r) => r.kind === "in_kind").map((r) => r.id),
  );
  return {
    // Back from the reply page: the corrected proof went to the NGO.
    replied: url.searchParams.get("replied") === "1",
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
        campaignPath: r.campaignArchived ? null : publicCampaignPath(r.campaignSlug),
        ngoName: r.ngoName,
        createdAt: formatDateTime(r.createdAt, context.lang),
        rejectionReason: r.status === "rejected" ? r.rejectionReason : null,
        // A disapproved cash gift: how to reach the NGO, and the one reply while it is still open (decision 025).
        contact:
          r.kind === "cash" && r.status === "rejected"
            ? { name: r.ngoName, address: r.ngoAddress, phone: r.ngoPhone, email: r.ngoEmail }
            : null,
        canReply: r.kind === "cash" && donorActions(r.status, r.replied).includes("resubmit"),
        replied: r.kind === "cash" && r.replied,
        receiptNumber: r.receiptNumber,
        pickup: pickupOf(goods.get(r.id), context.lang),
      })),
    },
  };
}

/**
 * What the donor sees of a pick-up. The code shows only until the rider has collected the goods. A rider's
 * reason for declining is for the NGO: the donor sees that another rider is being found, not why.
 */
type DonorPickup = NonNullable<ReturnType<Awaited<ReturnType<typeof pickupsOfDonor>>["get"]>>;

function pickupOf(p: DonorPickup | undefined, lang: Lang) {
  if (!p) return null;
  return {
    status: p.status,
    code: donorSeesCode(p.status) ? p.code : null,
    address: p.address,
    areaLabel: placeLabelFor({ label: p.areaLabel, labelUr: p.areaLabelUr }, lang),
    windowDay: formatDay(p.windowDate, lang, "weekday"),
    windowSlot: p.windowSlot,
    dropoff: {
      name: p.dropoff.name,
      address: p.dropoff.address,
      areaLabel: p.dropoff.areaLabel && placeLabelFor({ label: p.dropoff.areaLabel, labelUr: p.dropoff.areaLabelUr }, lang),
    },
    steps: p.events.map((e) => ({ type: e.type, at: formatDateTime(e.at, lang), riderName: e.riderName })),
  };
}

/** /dvh: the donor's own donations (cash and in-kind), newest first, with the NGO's decision and the receipt. */
export default function DonorHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const stepLabel = (s: { type: string; riderName: string | null }) =>
    t(`pickups:events.${s.type}`, { rider: s.riderName ?? t("goods:aRider"), defaultValue: s.type });
  const { list, replied } = loaderData;
  const title = t("history:donor.title");
  return (
    <>
      <title>{`${title} · ${t("common:brand")}`}</title>
      <HistoryTabs current="donations" />
      {replied && (
        <p role="status" className="mb-4 max-w-3xl rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t("history:reply.sent")}
        </p>
      )}
      <p className="mb-4 max-w-3xl text-slate-700">{t("history:donor.lead")}</p>
      {list.rows.length === 0 ? (
        // No row after the cursor (the list changed, or the link was not this donor's): the pager leads back to the first page.
        list.total > 0 ? null : (
          <div className="rounded-lg bg-white p-6 shadow-sm">
            <p className="text-slate-700">{t("history:donor.empty")}</p>
            <Link to="/donate1" className={brandButton("page", "mt-3 inline-block")}>
              {t("history:donor.emptyLink")}
            </Link>
          </div>
        )
      ) : (
        <ul id="donor-history" aria-label={t("history:donor.listLabel")} className="grid max-w-4xl gap-3">
          {list.rows.map((d) => (
            <li key={d.id} className="rounded-lg bg-white p-4 shadow-sm" data-donation={d.id}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h2 className="min-w-0 text-lg font-bold break-words text-slate-900">
                  {d.campaignPath ? (
                    <Link to={d.campaignPath} className="hover:underline">
                      <UserText>{d.campaignTitle}</UserText>
                    </Link>
                  ) : (
                    <>
                      {d.campaignTitle} <span className="text-sm font-normal text-slate-600">{t("history:archived")}</span>
                    </>
                  )}
                </h2>
                {d.pickup ? <PickupStatusBadge status={d.pickup.status} /> : <StatusBadge status={d.status} />}
              </div>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
                <dt className="font-medium text-slate-600">{t("history:fields.ngo")}</dt>
                <UserText as="dd" className="min-w-0 break-words text-slate-900">
                  {d.ngoName}
                </UserText>
                <dt className="font-medium text-slate-600">{t("history:fields.date")}</dt>
                <dd className="text-slate-900">
                  <DateTime value={d.createdAt} />
                </dd>
                <dt className="font-medium text-slate-600">{t("history:fields.kind")}</dt>
                <dd className="text-slate-900">{t(`donations:kind.${d.kind}`, { defaultValue: d.kind })}</dd>
                <dt className="font-medium text-slate-600">{t(d.amount !== null ? "history:fields.amount" : "history:fields.items")}</dt>
                <dd className="min-w-0 text-slate-900">
                  <AmountOrItems amount={d.amount} items={d.items} />
                </dd>
                {d.method && (
                  <>
                    <dt className="font-medium text-slate-600">{t("history:fields.method")}</dt>
                    <dd className="text-slate-900">{t(`donations:methods.${d.method}`, { defaultValue: d.method })}</dd>
                  </>
                )}
                {d.pickup && (
                  <>
                    <dt className="font-medium text-slate-600">{t("history:fields.pickupAddress")}</dt>
                    <dd className="min-w-0 break-words text-slate-900">
                      {d.pickup.address}, {d.pickup.areaLabel}
                    </dd>
                    <dt className="font-medium text-slate-600">{t("history:fields.pickupWindow")}</dt>
                    <dd className="text-slate-900">
                      {t("goods:window", { day: d.pickup.windowDay, slot: t(`pickups:slots.${d.pickup.windowSlot}`) })}
                    </dd>
                    <dt className="font-medium text-slate-600">{t("history:fields.dropoff")}</dt>
                    <dd className="min-w-0 break-words text-slate-900" data-testid="donation-dropoff">
                      {[d.pickup.dropoff.name, d.pickup.dropoff.address, d.pickup.dropoff.areaLabel].filter(Boolean).join(", ")}
                    </dd>
                  </>
                )}
                {d.receiptNumber && (
                  <>
                    <dt className="font-medium text-slate-600">{t("history:fields.receipt")}</dt>
                    <dd className="text-slate-900">{t("history:receiptNumber", { number: d.receiptNumber })}</dd>
                  </>
                )}
              </dl>
              {d.rejectionReason && (
                <div className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
                  <p className="font-bold">{t("history:reason")}</p>
                  <p className="break-words whitespace-pre-line">{d.rejectionReason}</p>
                </div>
              )}
              {d.contact && (
                <div className="mt-3 flex flex-col gap-3">
                  <NgoContact contact={d.contact} headingId={`contact-${d.id}`} />
                  {d.canReply ? (
                    <Link
                      to={`/dvh/reply?donation=${d.id}`}
                      aria-label={t("history:reply.linkLabel", { campaign: d.campaignTitle })}
                      className={brandButton("regular", "self-start")}
                    >
                      {t("history:reply.link")}
                    </Link>
                  ) : (
                    d.replied && <p className="text-sm text-slate-700">{t("history:reply.usedUp")}</p>
                  )}
                </div>
              )}
              {d.status === "pending" && d.kind === "cash" && (
                <p className="mt-2 text-sm text-slate-700">{t(d.replied ? "history:reply.pendingAgain" : "history:donor.pendingNote")}</p>
              )}
              {d.pickup?.code && (
                <div className="mt-3 max-w-sm">
                  <PickupCodeBox code={d.pickup.code} compact />
                </div>
              )}
              {d.pickup && d.pickup.steps.length > 0 && (
                // Collapsed: the summary says where the pick-up stands; every step with its time is one tap away,
                // with or without JavaScript.
                <details className="group mt-3" data-steps={d.id}>
                  <summary
                    id={`steps-${d.id}`}
                    className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md text-sm font-bold text-slate-900 hover:text-brand-800"
                  >
                    <ChevronDown aria-hidden="true" className="size-4 shrink-0 transition-transform group-open:rotate-180" />
                    <span className="min-w-0 break-words">
                      {t("history:donor.stepsSummary", {
                        count: d.pickup.steps.length,
                        latest: stepLabel(d.pickup.steps[d.pickup.steps.length - 1]!),
                      })}
                    </span>
                  </summary>
                  <div className="mt-2">
                    <PickupTimeline steps={d.pickup.steps} labelledBy={`steps-${d.id}`} />
                  </div>
                </details>
              )}
              {d.receiptNumber && (
                <div className="mt-3">
                  <ReceiptLink id={d.id} number={d.receiptNumber} />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4 max-w-4xl">
        <KeysetPager
          next={list.next}
          prev={list.prev}
          param="after"
          previous={t("common:previous")}
          label={t("history:donor.pagerLabel")}
          older={t("common:next")}
          newest={t("common:firstPage")}
          anchor="donor-history"
        />
      </div>
    </>
  );
}
