import type { Lang } from "~/i18n/i18n";
import { CURRENCY } from "./constants";

/** The currency label of the specification, in both languages. */
export const CURRENCY_LABEL = CURRENCY;

function locale(lang: Lang): string {
  return lang === "ur" ? "ur-PK" : "en-PK";
}

/** Whole rupees as shown everywhere: "Rs. 12,500". */
export function formatRupees(amount: number, lang: Lang): string {
  return `${CURRENCY_LABEL} ${new Intl.NumberFormat(locale(lang), { maximumFractionDigits: 0 }).format(amount)}`;
}

/** A short amount for chart axes: "Rs. 12K". */
export function formatRupeesShort(amount: number, lang: Lang): string {
  return `${CURRENCY_LABEL} ${new Intl.NumberFormat(locale(lang), { notation: "compact", maximumFractionDigits: 1 }).format(amount)}`;
}

/** A plain count in the language's format. */
export function formatCount(n: number, lang: Lang): string {
  return new Intl.NumberFormat(locale(lang)).format(n);
}

/** A part of a whole (0..1) as a whole percentage: "40%". */
export function formatShare(share: number, lang: Lang): string {
  return new Intl.NumberFormat(locale(lang), { style: "percent", maximumFractionDigits: 0 }).format(share);
}

/** How far a campaign is towards its target, whole percent 0..100 (capped, for bars; 99.9% is not shown as done). */
export function percentOf(collected: number, target: number): number {
  if (target <= 0) return collected > 0 ? 100 : 0;
  return Math.min(100, Math.floor((collected / target) * 100));
}
