import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { FilterSelect } from "#app/components/filter-select.tsx";
import { Check, Eye, Filter } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, Link, redirect, useActionData, useNavigate, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/apps";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime, formatDay } from "#shared/format.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { formatPledgeCode } from "#shared/pledges.ts";
import { ErrorBox } from "#app/components/error-box.tsx";
import { Pager } from "#app/components/pager.tsx";
import { ProofImage } from "#app/components/proof-image.tsx";
import { ReviewDialog } from "#app/components/review-dialog.tsx";
import { FlagBadge, FlagBadges, FlagPanel, type ReviewFlag } from "#app/components/review-flags.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { decisionSchema } from "#shared/forms/donations.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { REASON_MAX_LENGTH } from "#shared/constants.ts";
import { findOrNull, formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { listQuery, pageOrLast } from "#app/lib/list-query.ts";
import { formatRupees } from "#shared/money.ts";
import { pictureUrl } from "#shared/pictures.ts";
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
      queue: { ...queue, rows: queue.rows.map((r) => ({ ...r, createdAt: when(r.createdAt) })) },
      view: viewId
        ? detail
          ? {
              found: true as const,
              ...detail,
              // What the reviewing NGO may still do, from the transition table: the screen offers just that.
              actions: actionsFor(detail.status, "recipient"),
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

type ActionData = { result: SubmissionResult<string[]>; donationId: string; intent: string } | undefined;
type LoaderData = Route.ComponentProps["loaderData"];
type Detail = Extract<NonNullable<LoaderData["view"]>, { found: true }>;

/** /apps: the NGO's queue of cash donations to approve or disapprove, with the proof in a dialog. */
export default function ReviewQueue({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>() as ActionData;
  const [params] = useSearchParams();
  const { notice, campaign, campaigns, queue, view, neighbours } = loaderData;
  const lang = i18n.language;
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
              const amount = formatRupees(d.amount, lang);
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

      {view &&
        (view.found ? (
          <ReviewDialog key={view.id} titleId="review-dialog-title" closeHref={closeHref} closeLabel={t("review:dialog.close")}>
            <DonationReview
              detail={view}
              neighbours={neighbours}
              notice={noticeBox}
              actionData={actionData?.donationId === view.id ? actionData : undefined}
              formErrors={formErrors}
            />
          </ReviewDialog>
        ) : (
          <ReviewDialog key={view.id} titleId="review-dialog-title" closeHref={closeHref} closeLabel={t("review:dialog.close")}>
            <h2 id="review-dialog-title" className="pe-24 text-xl font-bold text-brand-900">
              {t("review:dialog.notFoundTitle")}
            </h2>
            <p className="mt-3 text-slate-800">{t("review:dialog.notFound")}</p>
          </ReviewDialog>
        ))}
    </>
  );
}

/** The dialog's content: the screenshot, every detail, the warnings, and Approve / Disapprove while pending. */
function DonationReview({
  detail,
  neighbours,
  notice,
  actionData,
  formErrors,
}: {
  detail: Detail;
  neighbours: { previous: string | null; next: string | null };
  notice: React.ReactNode;
  actionData: ActionData;
  formErrors: string[];
}) {
  const { t, i18n } = useTranslation();
  const amount = formatRupees(detail.amount, i18n.language);
  const rows: [string, React.ReactNode][] = [
    [t("review:fields.donor"), detail.donorName],
    [t("review:fields.email"), detail.donorEmail],
    [t("review:fields.phone"), detail.phone ?? ""],
    [t("review:fields.amount"), <strong key="amount">{amount}</strong>],
    [t("review:fields.method"), t(`donations:methods.${detail.method}`)],
    [
      t("review:fields.transactionId"),
      <span key="tx" className="font-mono">
        {detail.transactionId ?? ""}
      </span>,
    ],
    [t("review:fields.campaign"), detail.campaignTitle],
    [t("funds:review.fund"), t(`funds:kinds.${detail.fund}`)],
    ...(detail.inNameOf ? ([[t("funds:review.inNameOf"), detail.inNameOf]] as [string, React.ReactNode][]) : []),
    [t("funds:review.shown"), t(detail.showName ? "funds:csv.yes" : "funds:review.anonymous")],
    [t("review:fields.date"), <DateTime key="date" value={detail.createdAt} />],
  ];
  return (
    <>
      <h2 id="review-dialog-title" className="pe-24 text-xl font-bold text-brand-900">
        {t("review:dialog.title", { name: detail.donorName })}
      </h2>
      <div className="mt-3 empty:hidden">
        {notice}
        <ErrorBox errors={formErrors} />
      </div>
      {detail.resubmitted && (
        <div className="mt-3">
          <FlagBadge flag="resubmitted" />
        </div>
      )}
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <section aria-labelledby="review-screenshot">
          <h3 id="review-screenshot" className="mb-2 font-bold text-slate-800">
            {t("review:dialog.screenshot")}
          </h3>
          {detail.proofKey ? (
            <ProofImage src={pictureUrl(detail.proofKey, "campaign")} alt={t("review:dialog.screenshotAlt", { name: detail.donorName })} />
          ) : (
            <p className="text-slate-700">{t("review:dialog.noScreenshot")}</p>
          )}
        </section>
        <section aria-labelledby="review-details" className="min-w-0">
          <h3 id="review-details" className="mb-2 font-bold text-slate-800">
            {t("review:dialog.details")}
          </h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="font-medium text-slate-600">{label}</dt>
                <dd className="wrap-anywhere">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>

      <GiftHistory detail={detail} />

      <StatementCheck detail={detail} />

      {(detail.sameTransaction.length > 0 || detail.sameImage.length > 0) && (
        <div className="mt-4 flex flex-col gap-3">
          {detail.sameTransaction.length > 0 && <FlagPanel flag="sameTransaction" related={detail.sameTransaction} />}
          {detail.sameImage.length > 0 && <FlagPanel flag="sameImage" related={detail.sameImage} />}
        </div>
      )}

      <ReviewNavigation neighbours={neighbours} />

      <div className="mt-5 border-t border-slate-200 pt-4">
        {detail.actions.length > 0 ? (
          <Decision id={detail.id} round={detail.resubmitted ? "1" : "0"} actionData={actionData} />
        ) : (
          <div role="status" className="rounded-md border border-slate-300 bg-slate-50 p-3 text-slate-900">
            <p className="font-bold">{t("review:dialog.decided", { state: t(`donations:status.${detail.status}`) })}</p>
            {detail.status === "rejected" && detail.rejectionReason && (
              <p className="mt-1 wrap-anywhere">{t("review:dialog.decidedReason", { reason: detail.rejectionReason })}</p>
            )}
          </div>
        )}
      </div>
    </>
  );
}

/**
 * Approve (one click) and Disapprove (a native disclosure asking for the reason, which opens again when the
 * server sends the form back). Both are plain POST forms; while one is being sent, both buttons wait.
 */
function Decision({ id, round, actionData }: { id: string; round: "0" | "1"; actionData: ActionData }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const sending = busy ? String(navigation.formData?.get("intent") ?? "") : "";
  const rejectResult = actionData?.intent === "reject" ? actionData.result : undefined;
  const [form, fields] = useSchemaForm(() => import("#shared/forms/donations.ts").then((m) => m.disapproveSchema), {
    id: `disapprove-${id}`,
    lastResult: rejectResult,
  });
  return (
    <div className="flex flex-col gap-3">
      <Form method="post" className="flex flex-col gap-1">
        <input type="hidden" name="intent" value="approve" />
        <input type="hidden" name="donationId" value={id} />
        <input type="hidden" name="round" value={round} />
        <button
          type="submit"
          disabled={busy}
          className="inline-flex items-center justify-center gap-1 self-start rounded-md bg-emerald-700 px-5 py-2 font-bold text-white hover:bg-emerald-800 disabled:cursor-wait disabled:opacity-70"
        >
          <Check aria-hidden="true" className="size-5" />
          {sending === "approve" ? t("review:actions.approving") : t("review:actions.approve")}
        </button>
        <p className="text-sm text-slate-600">{t("review:actions.approveHint")}</p>
      </Form>
      <ReasonForm
        open={Boolean(rejectResult)}
        summary={t("review:actions.disapprove")}
        formProps={getFormProps(form)}
        hidden={{ intent: "reject", donationId: id, round }}
        field={fields.reason}
        label={t("review:actions.reason")}
        hint={t("review:actions.reasonHint")}
        required
        maxLength={REASON_MAX_LENGTH}
      >
        <button
          type="submit"
          disabled={busy}
          className="self-start rounded-md bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800 disabled:cursor-wait disabled:opacity-70"
        >
          {sending === "reject" ? t("review:actions.sending") : t("review:actions.sendDisapproval")}
        </button>
      </ReasonForm>
    </div>
  );
}

/**
 * The gift's history (decision 025): sent, disapproved with the reason, the donor's reply, re-sent with the corrected
 * proof (and a link to the screenshot it replaced), and the decision since. Shown once there is more than the sending.
 */
function GiftHistory({ detail }: { detail: Detail }) {
  const { t } = useTranslation();
  if (detail.history.length < 2) return null;
  return (
    <section aria-labelledby="review-history" className="mt-4 rounded-md border border-slate-300 p-3" data-testid="gift-history">
      <h3 id="review-history" className="font-bold text-slate-800">
        {t("review:history.heading")}
      </h3>
      <ol className="mt-2 flex flex-col gap-2 border-s-2 border-slate-300 ps-3">
        {detail.history.map((step, i) => (
          <li key={i} data-step={step.type}>
            <p className="font-medium text-slate-900">
              {t(`review:history.${step.type}`)}
              {step.at && (
                <span className="ms-2 text-sm font-normal text-slate-600">
                  <DateTime value={step.at} />
                </span>
              )}
            </p>
            {step.text && (
              <UserText as="p" className="text-sm wrap-anywhere whitespace-pre-line text-slate-800">
                {step.type === "rejected" ? t("review:history.reason", { reason: step.text }) : step.text}
              </UserText>
            )}
            {step.transactionId && (
              <p className="text-sm text-slate-700">
                {t("review:history.transactionId")}{" "}
                <span dir="ltr" className="font-mono">
                  {step.transactionId}
                </span>
              </p>
            )}
            {step.previousProofKey && (
              <a
                href={pictureUrl(step.previousProofKey, "campaign")}
                target="_blank"
                rel="noreferrer"
                className="text-sm font-medium text-brand-800 underline"
              >
                {t("review:history.earlierScreenshot")} <span className="sr-only">{t("review:history.newTab")}</span>
              </a>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * What the NGO's own statement says beside what the donor typed (decision 022): the statement line tied to the gift
 * and a checklist (paid to our account, amount, day, transaction ID), or where to import a statement when none is.
 */
function StatementCheck({ detail }: { detail: Detail }) {
  const { t, i18n } = useTranslation();
  const line = detail.statement;
  const lang = i18n.language as Lang;
  if (!line) {
    return (
      <section aria-labelledby="review-statement" className="mt-4 rounded-md border border-slate-300 bg-slate-50 p-3">
        <h3 id="review-statement" className="font-bold text-slate-800">
          {t("review:statement.heading")}
        </h3>
        <p className="mt-1 text-slate-800">
          {t("review:statement.none")}{" "}
          <Link to="/statements" className="font-medium text-brand-800 underline">
            {t("review:statement.import")}
          </Link>
        </p>
        {detail.pledgeCode && (
          <p className="mt-1 text-sm text-slate-700">{t("review:statement.pledge", { code: formatPledgeCode(detail.pledgeCode) })}</p>
        )}
      </section>
    );
  }
  const sameAmount = line.amountPaisa === detail.amount * 100;
  const typedId = detail.transactionId ?? "";
  const sameId = typedId !== "" && (line.reference === typedId || line.description.toUpperCase().includes(typedId));
  const checks: [string, boolean | null, React.ReactNode][] = [
    [
      t("review:statement.paidTo"),
      true,
      <span key="to" dir="ltr" className="font-mono">
        {detail.accountNumber ?? ""}
      </span>,
    ],
    [
      t("review:statement.amount"),
      sameAmount,
      `${formatRupees(Math.floor(line.amountPaisa / 100), lang)}${line.amountPaisa % 100 ? `.${String(line.amountPaisa % 100).padStart(2, "0")}` : ""}`,
    ],
    [t("review:statement.day"), null, `${formatDay(line.postedOn, lang)} ${line.postedAt ?? ""}`],
    [
      t("review:statement.transactionId"),
      typedId ? sameId : null,
      <span key="ref" dir="ltr" className="font-mono">
        {line.reference}
      </span>,
    ],
  ];
  return (
    <section
      aria-labelledby="review-statement"
      className="mt-4 rounded-md border-2 border-emerald-600 bg-emerald-50 p-3"
      data-testid="statement-check"
    >
      <h3 id="review-statement" className="font-bold text-emerald-900">
        {t("review:statement.headingFound", { rule: t(`reconcile:rule.${line.rule ?? "manual"}`) })}
      </h3>
      <ul className="mt-2 flex flex-col gap-1">
        {checks.map(([label, ok, value]) => (
          <li key={label} className="flex flex-wrap items-baseline gap-2">
            <span aria-hidden="true" className={ok === false ? "font-bold text-amber-800" : "font-bold text-emerald-800"}>
              {ok === false ? "✗" : "✓"}
            </span>
            <span className="font-medium">{label}:</span>
            <span className="wrap-anywhere">{value}</span>
            {ok === false && <span className="font-bold text-amber-900">{t("review:statement.differs")}</span>}
          </li>
        ))}
        {line.sender && (
          <li className="text-sm wrap-anywhere">
            <UserText>{line.sender}</UserText>
          </li>
        )}
        {line.description && (
          <li className="text-sm wrap-anywhere">
            <UserText>{line.description}</UserText>
          </li>
        )}
      </ul>
    </section>
  );
}

/**
 * Previous and Next in the queue, as links (they work without JavaScript); with it, the arrow keys and J/K move too,
 * unless the reviewer is typing a reason.
 */
function ReviewNavigation({ neighbours }: { neighbours: { previous: string | null; next: string | null } }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.altKey || e.ctrlKey || e.metaKey || target?.closest("input, textarea, select, [contenteditable]")) return;
      const rtl = document.documentElement.dir === "rtl";
      const forward = e.key === "j" || e.key === (rtl ? "ArrowLeft" : "ArrowRight");
      const back = e.key === "k" || e.key === (rtl ? "ArrowRight" : "ArrowLeft");
      const to = forward ? neighbours.next : back ? neighbours.previous : null;
      if (!to) return;
      e.preventDefault();
      navigate(to, { preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [neighbours.next, neighbours.previous, navigate]);
  if (!neighbours.previous && !neighbours.next) return null;
  const link = "rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-brand-800 hover:bg-brand-50";
  return (
    <nav aria-label={t("review:navigation.label")} className="mt-4 flex flex-wrap items-center justify-between gap-2">
      {neighbours.previous ? (
        <Link to={neighbours.previous} preventScrollReset aria-keyshortcuts="k ArrowLeft" className={link}>
          {t("review:navigation.previous")}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-slate-600">{t("review:navigation.keys")}</span>
      {neighbours.next ? (
        <Link to={neighbours.next} preventScrollReset aria-keyshortcuts="j ArrowRight" className={link}>
          {t("review:navigation.next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
