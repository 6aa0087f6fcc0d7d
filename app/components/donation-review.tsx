import { Check } from "lucide-react";
import { useEffect, useState } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { DateTime } from "#app/components/date-time.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { ProofImage } from "#app/components/proof-image.tsx";
import { ReviewDialog } from "#app/components/review-dialog.tsx";
import { FlagBadge, FlagPanel } from "#app/components/review-flags.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { ReviewActionData, ReviewView } from "#app/routes/review/apps.tsx";
import { REASON_MAX_LENGTH } from "#shared/constants.ts";
import { formatDay } from "#shared/format.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { formatRupees } from "#shared/money.ts";
import { formatPledgeCode } from "#shared/pledges.ts";
import { pictureUrl } from "#shared/pictures.ts";

type Detail = Extract<ReviewView, { found: true }>;

/**
 * The dialog of /apps (a cash donation opened from the queue, or one that is not found), in a chunk of its own that
 * the page fetches when a donation is opened (decision 033).
 */
export default function DonationReviewDialog({
  view,
  closeHref,
  neighbours,
  notice,
  actionData,
  formErrors,
}: {
  view: ReviewView;
  closeHref: string;
  neighbours: { previous: string | null; next: string | null };
  notice: React.ReactNode;
  actionData: ReviewActionData;
  formErrors: string[];
}) {
  const { t } = useTranslation();
  return (
    <ReviewDialog titleId="review-dialog-title" closeHref={closeHref} closeLabel={t("review:dialog.close")}>
      {view.found ? (
        <DonationReview detail={view} neighbours={neighbours} notice={notice} actionData={actionData} formErrors={formErrors} />
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
}: {
  detail: Detail;
  neighbours: { previous: string | null; next: string | null };
  notice: React.ReactNode;
  actionData: ReviewActionData;
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
  // Hydrated, the browser's check gives way to this one, whose message is the server's, in the page's language.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [missing, setMissing] = useState(false);
  const formId = `disapprove-${id}`;
  const reason = rejectResult?.initialValue?.reason;
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    const field = e.currentTarget.elements.namedItem("reason") as HTMLTextAreaElement | null;
    const empty = !field?.value.trim();
    setMissing(empty);
    if (empty) {
      e.preventDefault();
      field?.focus();
    }
  };
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
        formProps={{ id: formId, noValidate: hydrated, onSubmit }}
        hidden={{ intent: "reject", donationId: id, round }}
        field={{
          id: `${formId}-reason`,
          name: "reason",
          errorId: `${formId}-reason-error`,
          errors: missing ? ["donations:errors.reasonRequired"] : (rejectResult?.error?.reason ?? undefined),
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
