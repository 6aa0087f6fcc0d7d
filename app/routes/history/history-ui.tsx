import { FileDown } from "lucide-react";
import { useTranslation } from "~/i18n/i18n";
import { formatRupees } from "~/lib/money";

/** The pieces both histories (/dvh and /donHistory) show the same way. */

const BADGE: Record<string, string> = {
  pending: "bg-amber-100 text-amber-900 border-amber-300",
  approved: "bg-emerald-100 text-emerald-900 border-emerald-300",
  rejected: "bg-red-100 text-red-900 border-red-300",
};

/** A donation's state as a coloured badge with its words (the colour is never the only signal). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <span
      className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-bold whitespace-nowrap ${BADGE[status] ?? "bg-slate-100 text-slate-900 border-slate-300"}`}
    >
      {/* A state added by a later area still shows its name until it is translated. */}
      {t(`donations:status.${status}`, { defaultValue: status })}
    </span>
  );
}

/** Cash shows its amount, in-kind its items. */
export function AmountOrItems({ amount, items }: { amount: number | null; items: string | null }) {
  const { i18n } = useTranslation();
  if (amount !== null) return <span className="font-bold whitespace-nowrap">{formatRupees(amount, i18n.language)}</span>;
  return <span className="break-words">{items ?? "—"}</span>;
}

/**
 * The receipt download: a plain link (a resource route, not a page), so the browser downloads the PDF with
 * or without JavaScript.
 */
export function ReceiptLink({ id, number }: { id: string; number: string }) {
  const { t } = useTranslation();
  return (
    <a
      href={`/receipts/${id}`}
      download
      aria-label={t("history:receiptLinkLabel", { number })}
      className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 text-sm font-medium whitespace-nowrap text-brand-800 hover:bg-brand-50"
    >
      <FileDown aria-hidden="true" className="size-4" />
      {t("history:receiptLink")}
    </a>
  );
}
