/** Receipt numbers are counted per NGO and shown zero-padded to this many digits: 123 → "000123". */
export const RECEIPT_NUMBER_DIGITS = 6;
/** An NGO's series (its number on the platform) is shown with at least this many digits: 42 → "N042". */
const RECEIPT_SERIES_DIGITS = 3;

/** The NGO's receipt prefix, from its series number (`ngo_profiles.receipt_series`, decision 027): 42 → "N042". */
export function receiptPrefix(series: number): string {
  return `N${String(series).padStart(RECEIPT_SERIES_DIGITS, "0")}`;
}

/**
 * The one way a receipt number is written, on the PDF, in the histories, the CSV export and the donor's email:
 * the NGO's prefix and its own count, "N042-000123". The count alone repeats across NGOs; with the prefix it is
 * unique on the platform, and no character of it changes with the reader's language.
 */
export function formatReceiptNumber(series: number, n: number): string {
  return `${receiptPrefix(series)}-${String(n).padStart(RECEIPT_NUMBER_DIGITS, "0")}`;
}
