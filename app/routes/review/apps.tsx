import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { FilterSelect } from "#app/components/filter-select.tsx";
import { Eye, Filter } from "lucide-react";
import { lazy, useEffect, useRef } from "react";
import { data, Form, Link, redirect, useActionData, useSearchParams } from "react-router";
import type { Route } from "./+types/apps";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime, formatDay } from "#shared/format.ts";
import { ErrorBox } from "#app/components/error-box.tsx";
import { Pager } from "#app/components/pager.tsx";
import { FlagBadge, FlagBadges, FlagPanels, type ReviewFlag } from "#app/components/review-flags.tsx";
import { decisionSchema } from "#shared/forms/donations.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { findOrNull, formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { listQuery, pageOrLast } from "#app/lib/list-query.ts";
import { formatRupees } from "#shared/money.ts";
import { formatPledgeCode } from "#shared/pledges.ts";
import { parsePage } from "#server/db/query.ts";
import { decideCashDonation, reviewCampaigns, reviewDetail, reviewQueue } from "#server/domain/donations/cash.ts";
import { actionsFor } from "#server/domain/donations/states.ts";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("review:title");

const NOTICES = ["approved", "rejected", "completed", "alreadyDecided", "proofChanged"] as const;
type Notice = (typeof NOTICES)[number];

/** The list's own query (campaign filter and page): kept when the dialog opens and closes, and after a decision. */
const LIST_PARAMS = ["campaign", "page"] as const;

/** A flagged card stands out by its edge too, in the colour of its first warning. */
const FLAG_EDGE: Record<ReviewFlag | "none", string> = {
  sameTransaction: "border-s-4 border-red-600",
  sameImage: "border-s-4 border-amber-500",
  statementMatched: "border-s-4 border-emerald-600",
  amountDiffers: "border-s-4 border-amber-500",
  resubmitted: "border-s-4 border-sky-600",
  none: "",
};

function flagsOf(item: {
  duplicateTransaction: boolean;
  duplicateImage: boolean;
  amount: number;
  statementPaisa: number | null;
  resubmitted: boolean;
}): ReviewFlag[] {
  const flags: ReviewFlag[] = [];
  if (item.duplicateTransaction) flags.push("sameTransaction");
  if (item.duplicateImage) flags.push("sameImage");
  if (item.statementPaisa !== null) flags.push(item.statementPaisa === item.amount * 100 ? "statementMatched" : "amountDiffers");
  if (item.resubmitted) flags.push("resubmitted");
  return flags;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const ngo = requireUser(context, "ngo");
  const { db } = context.services;
  const url = new URL(request.url);
  const when = (d: Date) => formatDateTime(d, context.lang);
  // Amounts, days and codes are written here, so the page carries no code to format them (decision 033).
  const rupees = (amount: number) => formatRupees(amount, context.lang);

  const campaigns = await reviewCampaigns(db, ngo);
  // A campaign with nothing left to review drops out of the filter; the list then shows every campaign.
  const requested = url.searchParams.get("campaign") ?? "";
  const campaign = campaigns.some((c) => c.id === requested) ? requested : "";
  const queue = await pageOrLast(
    (page) => reviewQueue(db, ngo, { campaignId: campaign || undefined, page }),
    parsePage(url.searchParams.get("page")),
  );

  const viewId = url.searchParams.get("view");
  const detail = viewId ? await findOrNull(reviewDetail(db, ngo, viewId)) : null;
  const notice = url.searchParams.get("notice");
  const related = (rows: NonNullable<typeof detail>["sameTransaction"]) => rows.map((r) => ({ ...r, createdAt: when(r.createdAt) }));

  // The dialog's Previous and Next: the neighbours on this page of the queue, for a volunteer going through it.
  const at = viewId ? queue.rows.findIndex((r) => r.id === viewId) : -1;
  const neighbour = (i: number) =>
    at >= 0 && queue.rows[i] ? `/apps${listQuery(url.searchParams, LIST_PARAMS, { view: queue.rows[i]!.id })}` : null;
  return data(
    {
      neighbours: { previous: neighbour(at - 1), next: neighbour(at + 1) },
      notice: (NOTICES as readonly string[]).includes(notice ?? "") ? (notice as Notice) : null,
      campaign,
      campaigns,
      queue: { ...queue, rows: queue.rows.map((r) => ({ ...r, amountText: rupees(r.amount), createdAt: when(r.createdAt) })) },
      view: viewId
        ? detail
          ? {
              found: true as const,
              ...detail,
              // What the reviewing NGO may still do, from the transition table: the screen offers just that.
              actions: actionsFor(detail.status, "recipient"),
              amountText: rupees(detail.amount),
              pledgeCode: detail.pledgeCode && formatPledgeCode(detail.pledgeCode),
              // The statement's amount in rupees and paisa, and its day with the time the statement gives.
              statement: detail.statement && {
                ...detail.statement,
                amountText: `${rupees(Math.floor(detail.statement.amountPaisa / 100))}${detail.statement.amountPaisa % 100 ? `.${String(detail.statement.amountPaisa % 100).padStart(2, "0")}` : ""}`,
                dayText: `${formatDay(detail.statement.postedOn, context.lang)} ${detail.statement.postedAt ?? ""}`,
              },
              createdAt: when(detail.createdAt),
              sameTransaction: related(detail.sameTransaction),
              sameImage: related(detail.sameImage),
              history: detail.history.map((h) => ({ ...h, at: h.at ? when(h.at) : null })),
            }
          : { found: false as const, id: viewId }
        : null,
    },
    // A donation that is not this NGO's is answered like one that does not exist.
    { status: viewId && !detail ? 404 : 200 },
  );
}

export async function action({ context, request }: Route.ActionArgs) {
  const ngo = requireUser(context, "ngo");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: decisionSchema });
  // Which donation and form the answer belongs to, so the dialog shows the error next to the right field.
  const target = { donationId: String(submission.payload.donationId ?? ""), intent: String(submission.payload.intent ?? "") };
  if (submission.status !== "success") {
    return data({ result: submission.reply(), ...target }, { status: 400 });
  }
  const input = submission.value;
  const outcome = await formAction(submission, () =>
    decideCashDonation(
      context.services,
      ngo,
      input.intent === "approve"
        ? { donationId: input.donationId, approve: true, seenReplies: Number(input.round) }
        : { donationId: input.donationId, approve: false, reason: input.reason, seenReplies: Number(input.round) },
    ),
  );
  const from = new URL(request.url).searchParams;
  if (!outcome.ok) {
    const { kind } = outcome.refusal;
    if (kind === "conflict") {
      // Decided the other way meanwhile (another tab, another volunteer): show its state, not an error page.
      const notice: Notice = outcome.refusal.code === "donations.proof_changed" ? "proofChanged" : "alreadyDecided";
      return redirect(`/apps${listQuery(from, LIST_PARAMS, { view: input.donationId, notice })}`);
    }
    if (kind === "not_found") {
      return data({ result: submission.reply({ formErrors: ["review:notFound"] }), ...target }, { status: 404 });
    }
    return outcome.answer(target);
  }
  const { changed, status, campaignCompleted } = outcome.value;
  if (!changed) return redirect(`/apps${listQuery(from, LIST_PARAMS, { view: input.donationId, notice: "alreadyDecided" })}`);
  const notice: Notice = status === "rejected" ? "rejected" : campaignCompleted ? "completed" : "approved";
  return redirect(`/apps${listQuery(from, LIST_PARAMS, { notice })}`);
}

/** What the action answers when it does not redirect: the form's reply, and which donation and form it was. */
export type ReviewActionData = { result: SubmissionResult<string[]>; donationId: string; intent: string } | undefined;
type LoaderData = Route.ComponentProps["loaderData"];
/** A donation opened in the dialog, or the id of one that is not found. */
export type ReviewView = NonNullable<LoaderData["view"]>;

/**
 * The dialog (the proof, the details, the history, the statement's check, the warnings and the decision's forms) is
 * a chunk of its own, fetched when a donation is opened (or already when the pointer or focus reaches its View link),
 * not with the queue (decision 033). Opened from a link, the queue stays until it has come (React Router renders the
 * new screen in a transition); a page opened with a donation is drawn whole by the server, and hydrated once the
 * chunk is there.
 */
const loadDonationDialog = () => import("#app/components/donation-review.tsx");
const DonationDialog = lazy(loadDonationDialog);
/** Asked for early; a failure here is left to the dialog's own import, which tries again when it is opened. */
const preloadDonationDialog = () => void loadDonationDialog().catch(() => undefined);
/**
 * The gift's history and the statement's checklist, a chunk the dialog fetches for a donation that has them: asked for
 * here beside the dialog's, not once the dialog has come and drawn (the same module as the dialog's own import).
 */
const preloadDonationRecord = () => void import("#app/components/donation-record.tsx").catch(() => undefined);

/** /apps: the NGO's queue of cash donations to approve or disapprove, with the proof in a dialog. */
export default function ReviewQueue({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>() as ReviewActionData;
  const [params] = useSearchParams();
  const { notice, campaign, campaigns, queue, view, neighbours } = loaderData;
  const closeHref = `/apps${listQuery(params, LIST_PARAMS)}`;
  // Form errors that belong to no field (a donation that is not this NGO's, a malformed request).
  const formErrors = actionData
    ? Object.entries(actionData.result.error ?? {})
        .filter(([name]) => name !== "reason")
        .flatMap(([, errors]) => errors ?? [])
    : [];

  const noticeBox = notice && !actionData && (
    <p
      id="review-notice"
      role="status"
      tabIndex={-1}
      className={`mb-4 rounded-md border p-3 ${notice === "alreadyDecided" || notice === "proofChanged" ? "border-amber-400 bg-amber-50 text-amber-950" : "border-green-300 bg-green-50 text-green-900"}`}
    >
      {t(`review:notices.${notice}`)}
    </p>
  );

  if (view?.found && (view.history.length > 1 || view.statement)) preloadDonationRecord();

  // Focus returns to the View link the dialog was opened from (or to the notice when the row has gone).
  const lastView = useRef<string | null>(null);
  const viewId = view?.id ?? null;
  useEffect(() => {
    if (viewId) {
      lastView.current = viewId;
      return;
    }
    if (!lastView.current) return;
    const back = document.getElementById(`view-${lastView.current}`) ?? document.getElementById("review-notice");
    back?.focus();
    lastView.current = null;
  }, [viewId]);

  return (
    <>
      <title>{`${t("review:title")} · ${t("common:brand")}`}</title>
      <div inert={view !== null}>
        {!view && noticeBox}
        {!view && <ErrorBox errors={formErrors} />}
        <p className="mb-4 max-w-3xl text-slate-700">{t("review:lead")}</p>

        <Form method="get" action="/apps" className="mb-4 flex flex-wrap items-end gap-2">
          <FilterSelect
            name="campaign"
            id="review-campaign"
            label={t("review:filter.label")}
            allLabel={t("review:filter.all")}
            options={campaigns}
            value={campaign}
          />
          <button
            type="submit"
            className="inline-flex items-center gap-1 rounded-md bg-slate-800 px-4 py-2 font-medium text-white hover:bg-slate-700"
          >
            <Filter aria-hidden="true" className="size-4" />
            {t("review:filter.submit")}
          </button>
        </Form>

        <h2 className="mb-3 text-lg font-bold text-brand-900">{t("review:waiting", { count: queue.total })}</h2>
        {queue.rows.length === 0 ? (
          <p className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">{t(campaign ? "review:emptyFiltered" : "review:empty")}</p>
        ) : (
          <ol aria-label={t("review:listLabel")} className="grid gap-3 lg:grid-cols-2">
            {queue.rows.map((d) => {
              const flags = flagsOf(d);
              const amount = d.amountText;
              return (
                <li key={d.id} className="min-w-0">
                  <article
                    aria-labelledby={`donor-${d.id}`}
                    className={`flex h-full flex-col gap-2 rounded-lg bg-white p-4 shadow-sm ${FLAG_EDGE[flags[0] ?? "none"]}`}
                  >
                    <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                      <h3 id={`donor-${d.id}`} className="text-lg font-bold break-words">
                        <UserText>{d.donorName}</UserText>
                      </h3>
                      <p className="text-xl font-bold text-brand-900">{amount}</p>
                    </div>
                    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                      <dt className="font-medium text-slate-600">{t("review:fields.method")}</dt>
                      <dd>{t(`donations:methods.${d.method}`)}</dd>
                      <dt className="font-medium text-slate-600">{t("funds:review.fund")}</dt>
                      <dd data-testid="gift-fund">{t(`funds:kinds.${d.fund}`)}</dd>
                      <dt className="font-medium text-slate-600">{t("review:fields.campaign")}</dt>
                      <UserText as="dd" className="wrap-anywhere">
                        {d.campaignTitle}
                      </UserText>
                      <dt className="font-medium text-slate-600">{t("review:fields.date")}</dt>
                      <dd>
                        <DateTime value={d.createdAt} />
                      </dd>
                    </dl>
                    <FlagBadges flags={flags} />
                    <div className="mt-auto pt-1">
                      <Link
                        id={`view-${d.id}`}
                        to={`/apps${listQuery(params, LIST_PARAMS, { view: d.id })}`}
                        preventScrollReset
                        onPointerEnter={preloadDonationDialog}
                        onFocus={preloadDonationDialog}
                        aria-label={t("review:viewLabel", { name: d.donorName, amount })}
                        className={brandButton("regular", "inline-flex items-center gap-1")}
                      >
                        <Eye aria-hidden="true" className="size-4" />
                        {t("review:view")}
                      </Link>
                    </div>
                  </article>
                </li>
              );
            })}
          </ol>
        )}
        <Pager page={queue.page} pages={queue.pages} label={t("review:listLabel")} />
      </div>

      {view && (
        <DonationDialog
          key={view.id}
          view={view}
          closeHref={closeHref}
          neighbours={neighbours}
          notice={noticeBox}
          actionData={actionData?.donationId === view.id ? actionData : undefined}
          formErrors={formErrors}
          flags={
            view.found
              ? {
                  resubmitted: view.resubmitted && <FlagBadge flag="resubmitted" />,
                  panels: <FlagPanels sameTransaction={view.sameTransaction} sameImage={view.sameImage} />,
                }
              : { resubmitted: null, panels: null }
          }
        />
      )}
    </>
  );
}
