import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { Eye, Filter } from "lucide-react";
import { FilterSelect } from "#app/components/filter-select.tsx";
import { lazy, useEffect, useRef } from "react";
import { data, Form, Link, redirect, useActionData, useSearchParams } from "react-router";
import type { Route } from "./+types/noncash-apps";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime, formatDay, formatKm } from "#shared/format.ts";
import { ErrorBox } from "#app/components/error-box.tsx";
import { Pager } from "#app/components/pager.tsx";
import type { PickupActionData } from "#app/components/pickup-actions.tsx";
import { PickupStatusBadge, PickupWindow } from "#app/components/pickup-parts.tsx";
import { ngoPickupSchema } from "#shared/forms/pickups.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { ITEMS_PREVIEW_WORDS } from "#shared/constants.ts";
import { findOrNull, formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { listQuery, pageOrLast } from "#app/lib/list-query.ts";
import { previewWords } from "#shared/text.ts";
import { placeLabelFor } from "#shared/places.ts";
import { parsePage } from "#server/db/query.ts";
import {
  assignRider,
  cancelPickup,
  confirmReceived,
  ngoPickupQueue,
  pickupCampaigns,
  pickupForNgo,
  riderChoices,
  type NgoPickupTab,
  type RiderChoice,
} from "#server/domain/pickups/pickups.ts";
import { actionsFor } from "#server/domain/pickups/states.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { riderOptions } from "#app/components/rider-options.server.ts";
import type { ErrorCode } from "#server/domain/errors.ts";

export const handle = pageTitle("assign:title");

const NOTICES = [
  "assigned",
  "reassigned",
  "cancelled",
  "received",
  "alreadyAssigned",
  "cannotReassign",
  "cannotCancel",
  "notDelivered",
  "changed",
] as const;
type Notice = (typeof NOTICES)[number];
const DONE: Notice[] = ["assigned", "reassigned", "cancelled", "received"];
/** The notice after each action that went through. */
const DONE_NOTICE = { assign: "assigned", reassign: "reassigned", cancel: "cancelled", received: "received" } as const satisfies Record<
  string,
  Notice
>;
/** A conflict (the request moved on meanwhile) is told by its own notice, shown with the request's current state. */
const CONFLICTS: Partial<Record<ErrorCode, Notice>> = {
  "pickups.already_assigned": "alreadyAssigned",
  "pickups.cannot_reassign": "cannotReassign",
  "pickups.cannot_cancel": "cannotCancel",
  "pickups.not_delivered": "notDelivered",
};

const TABS: NgoPickupTab[] = ["new", "active"];

/** The list's own query (tab, campaign filter and page): kept when the dialog opens and closes, and after an action. */
const LIST_PARAMS = ["tab", "campaign", "page"] as const;

const tabOf = (value: string | null): NgoPickupTab => (value === "active" ? "active" : "new");

export async function loader({ context, request }: Route.LoaderArgs) {
  const ngo = requireUser(context, "ngo");
  const { db } = context.services;
  const url = new URL(request.url);
  const lang = context.lang;
  const when = (d: Date) => formatDateTime(d, lang);

  const tab = tabOf(url.searchParams.get("tab"));
  const campaigns = await pickupCampaigns(db, ngo);
  // A campaign with nothing open drops out of the filter; the list then shows every campaign.
  const requested = url.searchParams.get("campaign") ?? "";
  const campaign = campaigns.some((c) => c.id === requested) ? requested : "";
  const query = (page: number) => ngoPickupQueue(db, ngo, { tab, campaignId: campaign || undefined, page });
  const queue = await pageOrLast(query, parsePage(url.searchParams.get("page")));

  const viewId = url.searchParams.get("view");
  const detail = viewId ? await findOrNull(pickupForNgo(db, ngo, viewId)) : null;
  // What the NGO may do with the request, from the pick-up table; riders are looked up only when it may give it to one.
  const actions = detail ? actionsFor(detail.status, "recipientNgo") : [];
  const riders: RiderChoice[] =
    detail && (actions.includes("assign") || actions.includes("reassign"))
      ? await riderChoices(db, { lat: detail.lat, lng: detail.lng, donationId: detail.id }, context.services.config.RIDER_RADIUS_KM)
      : [];
  const notice = url.searchParams.get("notice");
  const radiusKm = formatKm(context.services.config.RIDER_RADIUS_KM, lang) ?? "1";

  return data(
    {
      notice: (NOTICES as readonly string[]).includes(notice ?? "") ? (notice as Notice) : null,
      tab,
      campaign,
      campaigns,
      queue: {
        page: queue.page,
        pages: queue.pages,
        total: queue.total,
        counts: queue.counts,
        rows: queue.rows.map((r) => ({
          id: r.id,
          status: r.status,
          itemsPreview: previewWords(r.items, ITEMS_PREVIEW_WORDS),
          areaLabel: placeLabelFor({ label: r.areaLabel, labelUr: r.areaLabelUr }, lang),
          windowDay: formatDay(r.windowDate, lang),
          windowSlot: r.windowSlot,
          campaignTitle: r.campaignTitle,
          donorName: r.donorName,
          fund: r.fund,
          riderName: r.riderName,
          createdAt: when(r.createdAt),
        })),
      },
      view: viewId
        ? detail
          ? {
              found: true as const,
              id: detail.id,
              status: detail.status,
              items: detail.items,
              phone: detail.phone,
              address: detail.address,
              areaLabel: placeLabelFor({ label: detail.areaLabel, labelUr: detail.areaLabelUr }, lang),
              lat: detail.lat,
              lng: detail.lng,
              windowDay: formatDay(detail.windowDate, lang),
              windowSlot: detail.windowSlot,
              campaignTitle: detail.campaignTitle,
              donorName: detail.donorName,
              fund: detail.fund,
              showName: detail.showName,
              inNameOf: detail.inNameOf,
              riderId: detail.riderId,
              riderName: detail.riderName,
              receivedNote: detail.receivedNote,
              dropoff: {
                name: detail.dropoff.name,
                address: detail.dropoff.address,
                areaLabel:
                  detail.dropoff.areaLabel && placeLabelFor({ label: detail.dropoff.areaLabel, labelUr: detail.dropoff.areaLabelUr }, lang),
                distance: detail.dropoff.distanceKm === null ? null : formatKm(detail.dropoff.distanceKm, lang),
                near: detail.dropoff.distanceKm !== null && formatKm(detail.dropoff.distanceKm, lang) === null,
              },
              createdAt: when(detail.createdAt),
              events: detail.events.map((e) => ({ ...e, at: when(e.at) })),
              actions,
              riders: riderOptions(riders, radiusKm, lang),
              radiusKm,
            }
          : { found: false as const, id: viewId }
        : null,
    },
    // A request that is not this NGO's is answered like one that does not exist.
    { status: viewId && !detail ? 404 : 200 },
  );
}

export async function action({ context, request }: Route.ActionArgs) {
  const ngo = requireUser(context, "ngo");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: ngoPickupSchema });
  // Which request and form the answer belongs to, so the dialog shows the error next to the right field.
  const target = { donationId: String(submission.payload.donationId ?? ""), intent: String(submission.payload.intent ?? "") };
  if (submission.status !== "success") {
    return data({ result: submission.reply(), ...target }, { status: 400 });
  }
  const input = submission.value;
  const outcome = await formAction(submission, () => {
    switch (input.intent) {
      case "assign":
      case "reassign":
        return assignRider(context.services, ngo, {
          donationId: input.donationId,
          riderId: input.riderId,
          reassign: input.intent === "reassign",
        });
      case "cancel":
        return cancelPickup(context.services, ngo, { donationId: input.donationId, reason: input.reason });
      case "received":
        return confirmReceived(context.services, ngo, { donationId: input.donationId, note: input.note });
    }
  });
  const from = new URL(request.url).searchParams;
  if (!outcome.ok) {
    const { kind, code } = outcome.refusal;
    if (kind === "conflict") {
      // The request moved on meanwhile (another tab, another volunteer, the rider): show its state, not an error page.
      return redirect(`/noncash_apps${listQuery(from, LIST_PARAMS, { view: input.donationId, notice: CONFLICTS[code] ?? "changed" })}`);
    }
    if (kind === "not_found") {
      return data({ result: submission.reply({ formErrors: ["assign:notFound"] }), ...target }, { status: 404 });
    }
    return outcome.answer(target);
  }
  const notice = DONE_NOTICE[input.intent];
  return redirect(`/noncash_apps${listQuery(from, LIST_PARAMS, { notice })}`);
}

type LoaderData = Route.ComponentProps["loaderData"];
/** A request opened in the dialog, or the id of one that is not found. */
export type PickupView = NonNullable<LoaderData["view"]>;

/** The fields that each action form of the dialog shows its own errors under; anything else is a form error. */
const PICKUP_ACTION_FIELDS = ["riderId", "reason", "note"];

/**
 * The dialog (the request's details, its steps, the assignment actions with their forms) is a chunk of its own,
 * fetched when a request is opened (or already when the pointer or focus reaches its View link), not with the list:
 * the list is what the page shows first (decision 033). Opened from a link, the list stays until it has come (React
 * Router renders the new screen in a transition); a page opened with a request is drawn whole by the server, and
 * hydrated once the chunk is there.
 */
const loadPickupDialog = () => import("#app/components/pickup-review.tsx");
const PickupDialog = lazy(loadPickupDialog);
/** Asked for early; a failure here is left to the dialog's own import, which tries again when it is opened. */
const preloadPickupDialog = () => void loadPickupDialog().catch(() => undefined);

/** /noncash_apps: the NGO's pick-up requests (new and under way), each opened in a dialog to assign a rider and follow it. */
export default function PickupQueue({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>() as PickupActionData;
  const [params] = useSearchParams();
  const { notice, tab, campaign, campaigns, queue, view } = loaderData;
  const closeHref = `/noncash_apps${listQuery(params, LIST_PARAMS)}`;
  // Form errors that belong to no field (a request that is not this NGO's, a malformed request).
  const formErrors = actionData
    ? Object.entries(actionData.result.error ?? {})
        .filter(([name]) => !PICKUP_ACTION_FIELDS.includes(name))
        .flatMap(([, errors]) => errors ?? [])
    : [];

  const noticeBox = notice && !actionData && (
    <p
      id="assign-notice"
      role="status"
      tabIndex={-1}
      className={`mb-4 rounded-md border p-3 ${DONE.includes(notice) ? "border-green-300 bg-green-50 text-green-900" : "border-amber-400 bg-amber-50 text-amber-950"}`}
    >
      {t(`assign:notices.${notice}`)}
    </p>
  );

  // Focus returns to the View link the dialog was opened from (or to the notice when the row has gone).
  const lastView = useRef<string | null>(null);
  const viewId = view?.id ?? null;
  useEffect(() => {
    if (viewId) {
      lastView.current = viewId;
      return;
    }
    if (!lastView.current) return;
    const back = document.getElementById(`view-${lastView.current}`) ?? document.getElementById("assign-notice");
    back?.focus();
    lastView.current = null;
  }, [viewId]);

  const tabClass = (active: boolean) =>
    `rounded-t-md border-b-4 px-3 py-2 font-bold sm:px-4 ${active ? "border-brand-700 text-brand-900" : "border-transparent text-slate-700 hover:text-brand-800"}`;

  return (
    <>
      <title>{`${t("assign:title")} · ${t("common:brand")}`}</title>
      <div inert={view !== null}>
        {!view && noticeBox}
        {!view && <ErrorBox errors={formErrors} />}
        <p className="mb-4 max-w-3xl text-slate-700">{t("assign:lead")}</p>

        <nav aria-label={t("assign:tabs.label")} className="mb-4 flex gap-1 border-b border-slate-300">
          {TABS.map((name) => (
            <Link
              key={name}
              to={`/noncash_apps${listQuery(params, ["campaign"], name === "new" ? {} : { tab: name })}`}
              aria-current={name === tab ? "page" : undefined}
              className={tabClass(name === tab)}
            >
              {t("assign:tabs.count", { label: t(`assign:tabs.${name}`), count: queue.counts[name] })}
            </Link>
          ))}
        </nav>

        <Form method="get" action="/noncash_apps" className="mb-4 flex flex-wrap items-end gap-2">
          {tab !== "new" && <input type="hidden" name="tab" value={tab} />}
          <FilterSelect
            name="campaign"
            id="assign-campaign"
            label={t("assign:filter.label")}
            allLabel={t("assign:filter.all")}
            options={campaigns}
            value={campaign}
          />
          <button
            type="submit"
            className="inline-flex items-center gap-1 rounded-md bg-slate-800 px-4 py-2 font-medium text-white hover:bg-slate-700"
          >
            <Filter aria-hidden="true" className="size-4" />
            {t("assign:filter.submit")}
          </button>
        </Form>

        <h2 id="assign-list-title" className="mb-3 text-lg font-bold text-brand-900">
          {t(`assign:listLabel.${tab}`)}
        </h2>
        {queue.rows.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
            {t(campaign ? "assign:empty.filtered" : `assign:empty.${tab}`)}
          </p>
        ) : (
          <ol aria-labelledby="assign-list-title" className="grid gap-3 lg:grid-cols-2">
            {queue.rows.map((p) => (
              <li key={p.id} className="min-w-0">
                <article aria-labelledby={`donor-${p.id}`} className="flex h-full flex-col gap-2 rounded-lg bg-white p-4 shadow-sm">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <h3 id={`donor-${p.id}`} className="text-lg font-bold break-words">
                      <UserText>{p.donorName}</UserText>
                    </h3>
                    <PickupStatusBadge status={p.status} />
                  </div>
                  <p className="wrap-anywhere text-slate-900">{p.itemsPreview}</p>
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                    <dt className="font-medium text-slate-600">{t("assign:fields.area")}</dt>
                    <dd className="wrap-anywhere">{p.areaLabel}</dd>
                    <dt className="font-medium text-slate-600">{t("funds:review.fund")}</dt>
                    <dd>{t(`funds:kinds.${p.fund}`)}</dd>
                    <dt className="font-medium text-slate-600">{t("assign:fields.window")}</dt>
                    <dd>
                      <PickupWindow day={p.windowDay} slot={p.windowSlot} />
                    </dd>
                    <dt className="font-medium text-slate-600">{t("assign:fields.campaign")}</dt>
                    <UserText as="dd" className="wrap-anywhere">
                      {p.campaignTitle}
                    </UserText>
                    {p.status !== "new" && (
                      <>
                        <dt className="font-medium text-slate-600">{t("assign:fields.rider")}</dt>
                        <dd className="wrap-anywhere">{p.riderName ?? t("assign:noRider")}</dd>
                      </>
                    )}
                    <dt className="font-medium text-slate-600">{t("assign:fields.requested")}</dt>
                    <dd>
                      <DateTime value={p.createdAt} />
                    </dd>
                  </dl>
                  <div className="mt-auto pt-1">
                    <Link
                      id={`view-${p.id}`}
                      to={`/noncash_apps${listQuery(params, LIST_PARAMS, { view: p.id })}`}
                      preventScrollReset
                      onPointerEnter={preloadPickupDialog}
                      onFocus={preloadPickupDialog}
                      aria-label={t("assign:viewLabel", { name: p.donorName, items: p.itemsPreview })}
                      className={brandButton("regular", "inline-flex items-center gap-1")}
                    >
                      <Eye aria-hidden="true" className="size-4" />
                      {t("assign:view")}
                    </Link>
                  </div>
                </article>
              </li>
            ))}
          </ol>
        )}
        <Pager page={queue.page} pages={queue.pages} label={t("assign:pagerLabel")} />
      </div>

      {view && (
        <PickupDialog
          key={view.id}
          view={view}
          closeHref={closeHref}
          notice={noticeBox}
          actionData={actionData?.donationId === view.id ? actionData : undefined}
          formErrors={formErrors}
          parts={
            view.found
              ? { state: <PickupStatusBadge status={view.status} />, window: <PickupWindow day={view.windowDay} slot={view.windowSlot} /> }
              : { state: null, window: null }
          }
        />
      )}
    </>
  );
}
