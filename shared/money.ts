import { CURRENCY } from "./constants.ts";
import { numberFormat } from "./format.ts";

/** Whole rupees with the specification's label and Pakistani digit grouping: "Rs. 1,250,000". */
export function formatRupees(amount: number, lang: string = "en"): string {
  return `${CURRENCY} ${numberFormat(lang, { maximumFractionDigits: 0 }).format(amount)}`;
}

/** The share of `part` in `whole`, as a whole percentage clamped to 0–100 (0 when there is no whole). */
export function percentOf(part: number, whole: number): number {
  if (!(whole > 0)) return 0;
  return Math.max(0, Math.min(100, Math.floor((part / whole) * 100)));
}

/** A short amount for chart axes: "Rs. 12.5K". */
export function formatRupeesShort(amount: number, lang: string = "en"): string {
  return `${CURRENCY} ${numberFormat(lang, { notation: "compact", maximumFractionDigits: 1 }).format(amount)}`;
}

/** A plain count: "1,250". */
export function formatCount(n: number, lang: string = "en"): string {
  return numberFormat(lang).format(n);
}

/** A part of a whole (0..1) as a whole percentage: "40%". */
export function formatShare(share: number, lang: string = "en"): string {
  return numberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(share);
}
