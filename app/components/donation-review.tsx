import { Check } from "lucide-react";
import { lazy, useEffect } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { DateTime } from "#app/components/date-time.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { ProofImage } from "#app/components/proof-image.tsx";
import { ReviewDialog, useRequiredCheck } from "#app/components/review-dialog.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { ReviewActionData, ReviewView } from "#app/routes/review/apps.tsx";
import { REASON_MAX_LENGTH } from "#shared/constants.ts";
import { pictureUrl } from "#shared/pictures.ts";

type Detail = Extract<ReviewView, { found: true }>;

/*
 * The gift's history and the statement line's checklist, which only some donations have (a resubmitted or decided gift,
 * one tied to a statement line), are a chunk of their own (decision 033), fetched when the dialog shows them: the page
 * asks for it beside the dialog's chunk when the donation has them (`preloadDonationRecord` in routes/review/apps.tsx).
 * Drawn by the server, a page opened on such a donation keeps their HTML while the chunk comes.
 */
const loadRecord = () => import("#app/components/donation-record.tsx");
const GiftHistory = lazy(() => loadRecord().then((m) => ({ default: m.GiftHistory })));
const StatementFound = lazy(() => loadRecord().then((m) => ({ default: m.StatementFound })));
/** The donation's warnings as the page draws them: the "resubmitted" badge and the panels of what was seen before. */
type Flags = { resubmitted: React.ReactNode; panels: React.ReactNode };

/**
 * The dialog of /apps (a cash donation opened from the queue, or one that is not found), in a chunk of its own that
 * the page fetches when a donation is opened (decision 033). The warnings (the "resubmitted" badge, the panels of a
 * transaction ID or screenshot seen before) are drawn by the page, which draws the same badges on the queue's cards:
 * importing them here would make the queue's chunk export them to this one, through a second file the queue then
 * loads as well.
 */
export default function DonationReviewDialog({
  view,
  closeHref,
  neighbours,
  notice,
  actionData,
  formErrors,
  flags,
}: {
  view: ReviewView;
  closeHref: string;
  neighbours: { previous: string | null; next: string | null };
  notice: React.ReactNode;
  actionData: ReviewActionData;
  formErrors: string[];
  flags: Flags;
}) {
  const { t } = useTranslation();
  return (
    <ReviewDialog titleId="review-dialog-title" closeHref={closeHref} closeLabel={t("review:dialog.close")}>
      {view.found ? (
        <DonationReview
          detail={view}
          neighbours={neighbours}
          notice={notice}
          actionData={actionData}
          formErrors={formErrors}
          flags={flags}
        />
      ) : (
        <>
          <h2 id="review-dialog-title" className="pe-24 text-xl font-bold text-brand-900">
            {t("review:dialog.notFoundTitle")}
          </h2>
          <p className="mt-3 text-slate-800">{t("review:dialog.notFound")}</p>
        </>
      )}
    </ReviewDialog>
  );
}

/** The dialog's content: the screenshot, every detail, the warnings, and Approve / Disapprove while pending. */
function DonationReview({
  detail,
  neighbours,
  notice,
  actionData,
  formErrors,
  flags,
}: {
  detail: Detail;
  neighbours: { previous: string | null; next: string | null };
  notice: React.ReactNode;
  actionData: ReviewActionData;
  formErrors: string[];
  flags: Flags;
}) {
  const { t } = useTranslation();
  const amount = detail.amountText;
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
      {flags.resubmitted && <div className="mt-3">{flags.resubmitted}</div>}
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

      {detail.history.length > 1 && <GiftHistory detail={detail} />}

      <StatementCheck detail={detail} />

      {flags.panels}

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
 * server sends the form back). Both are plain POST forms; while one is being sent, both buttons wait. The server
 * checks the reason; before sending, an empty one (or only spaces) is answered here with the server's message under
 * the field, in the page's language, and without JavaScript the browser's own check (`required`) asks for it.
 */
function Decision({ id, round, actionData }: { id: string; round: "0" | "1"; actionData: ReviewActionData }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const sending = busy ? String(navigation.formData?.get("intent") ?? "") : "";
  const rejectResult = actionData?.intent === "reject" ? actionData.result : undefined;
  const formId = `disapprove-${id}`;
  const reason = rejectResult?.initialValue?.reason;
  const { errors, ...check } = useRequiredCheck("reason", "donations:errors.reasonRequired", rejectResult?.error?.reason);
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
        formProps={{ id: formId, ...check }}
        hidden={{ intent: "reject", donationId: id, round }}
        field={{
          id: `${formId}-reason`,
          name: "reason",
          errorId: `${formId}-reason-error`,
          errors,
          initialValue: typeof reason === "string" ? reason : undefined,
        }}
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
 * What the NGO's own statement says beside what the donor typed (decision 022): the statement line tied to the gift
 * and a checklist (`StatementFound`), or where to import a statement when none is.
 */
function StatementCheck({ detail }: { detail: Detail }) {
  const { t } = useTranslation();
  const line = detail.statement;
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
        {detail.pledgeCode && <p className="mt-1 text-sm text-slate-700">{t("review:statement.pledge", { code: detail.pledgeCode })}</p>}
      </section>
    );
  }
  return <StatementFound detail={detail} line={line} />;
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
