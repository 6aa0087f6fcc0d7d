import { UserText } from "#app/components/user-text.tsx";
import { CircleCheck } from "lucide-react";
import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";
import { formatDay } from "#shared/format.ts";
import type { PaymentMethod } from "#shared/constants.ts";
import type { Lang } from "#shared/i18n/i18n.ts";

export interface ImportSummaryView {
  fileName: string;
  method: PaymentMethod;
  creditLines: number;
  debitLines: number;
  newLines: number;
  matchedLines: number;
  /** Where the import's matching round stands (its job): running, failed after its tries, or done. */
  matching: "running" | "failed" | "done";
  firstDay: string | null;
  lastDay: string | null;
}

/** What an import did: lines read, new, already there, matched; and the way to the queue. */
export function ImportSummaryCard({ summary: s }: { summary: ImportSummaryView }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language as Lang;
  return (
    <section
      role="status"
      aria-labelledby="imported-heading"
      className="flex flex-col gap-2 rounded-lg border-2 border-emerald-700 bg-emerald-50 p-4"
    >
      <h2 id="imported-heading" className="flex items-center gap-2 text-xl font-bold text-emerald-900">
        <CircleCheck aria-hidden="true" className="size-6 shrink-0" />
        {t("reconcile:summary.heading")}
      </h2>
      <p>
        <UserText className="font-medium">{s.fileName}</UserText> · {t(`donations:methods.${s.method}`)}
        {s.firstDay && s.lastDay && (
          <> · {t("reconcile:summary.period", { from: formatDay(s.firstDay, lang), to: formatDay(s.lastDay, lang) })}</>
        )}
      </p>
      <ul className="list-disc ps-6" data-testid="import-summary">
        <li>{t("reconcile:summary.credits", { count: s.creditLines })}</li>
        <li>{t("reconcile:summary.added", { count: s.newLines })}</li>
        <li>{t("reconcile:summary.known", { count: s.creditLines - s.newLines })}</li>
        {s.matching === "done" && <li>{t("reconcile:summary.matched", { count: s.matchedLines })}</li>}
      </ul>
      {s.matching === "running" && (
        <p aria-live="polite" data-testid="matching-running" className="font-medium text-amber-900">
          {t("reconcile:summary.matchingRunning")}
        </p>
      )}
      {s.matching === "failed" && (
        <p role="alert" data-testid="matching-failed" className="font-medium text-red-800">
          {t("reconcile:summary.matchingFailed")}
        </p>
      )}
      <p>
        <Link to="/reconcile" className="font-bold text-brand-800 underline">
          {t("reconcile:summary.toQueue")}
        </Link>
      </p>
    </section>
  );
}
