import { CURRENCY } from "./constants";

/** Whole rupees with the specification's label and Pakistani digit grouping: "Rs. 1,250,000". */
export function formatRupees(amount: number, lang: string = "en"): string {
  const digits = new Intl.NumberFormat(lang === "ur" ? "ur-PK" : "en-PK", { maximumFractionDigits: 0, numberingSystem: "latn" }).format(amount);
  return `${CURRENCY} ${digits}`;
}

/** The share of `part` in `whole`, as a whole percentage clamped to 0–100 (0 when there is no whole). */
export function percentOf(part: number, whole: number): number {
  if (!(whole > 0)) return 0;
  return Math.max(0, Math.min(100, Math.floor((part / whole) * 100)));
}
