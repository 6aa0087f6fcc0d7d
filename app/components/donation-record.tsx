import { DateTime } from "#app/components/date-time.tsx";
import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { ReviewView } from "#app/routes/review/apps.tsx";
import { pictureUrl } from "#shared/pictures.ts";

/*
 * The parts of the review dialog (components/donation-review.tsx) that only some donations have, in a chunk the dialog
 * fetches when it shows one of them (decision 033).
 */

type Detail = Extract<ReviewView, { found: true }>;

/**
 * The gift's history (decision 025): sent, disapproved with the reason, the donor's reply, re-sent with the corrected
 * proof (and a link to the screenshot it replaced), and the decision since; the dialog shows it once there is more than the sending.
 */
export function GiftHistory({ detail }: { detail: Detail }) {
  const { t } = useTranslation();
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
 * The statement line tied to the gift beside what the donor typed (decision 022): a checklist of paid to our account,
 * amount, day and transaction ID, each marked where they differ, with the line's sender and description.
 */
export function StatementFound({ detail, line }: { detail: Detail; line: NonNullable<Detail["statement"]> }) {
  const { t } = useTranslation();
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
    [t("review:statement.amount"), sameAmount, line.amountText],
    [t("review:statement.day"), null, line.dayText],
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
