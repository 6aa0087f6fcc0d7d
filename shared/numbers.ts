/**
 * Numbers as people in Pakistan type them (issue 14, item 5), made into one canonical form. The form schemas run
 * these in the browser and on the server, so both accept and store the same thing.
 */

/** Urdu (Extended Arabic-Indic, U+06F0–06F9) and Arabic-Indic (U+0660–0669) digits as 0–9. */
export function westernDigits(text: string): string {
  return text.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) & 0xf));
}

/**
 * A phone number as typed ("+92 321 1234567", "0092-321-1234567", "0321-1234567", "(051) 555 1234", Urdu digits) in
 * its national form: digits only, starting with 0 ("03211234567", "0515551234"). Anything else is returned with
 * only the separators taken out, for the schema to refuse.
 */
export function nationalPhone(text: string): string {
  const digits = westernDigits(text).replace(/[\s\-.()]/g, "");
  if (digits.startsWith("+92")) return `0${digits.slice(3)}`;
  if (digits.startsWith("0092")) return `0${digits.slice(4)}`;
  if (/^92\d{10}$/.test(digits)) return `0${digits.slice(2)}`;
  return digits;
}

/** A mobile number in national form: 03 and nine more digits. */
export const MOBILE_PATTERN = /^03\d{9}$/;

/** An NGO's contact: a mobile, or a landline with its area code (051-5551234, 021-35551234, 0942-123456). */
export const CONTACT_PATTERN = /^0\d{9,10}$/;

/**
 * Whole rupees as typed ("Rs. 1,000", "PKR 5000", "1,000/-", "۵۰۰۰", "1,000.00"): digits only, or the text with
 * the currency and grouping taken out for the schema to refuse when it is not a whole number.
 */
export function wholeRupees(text: string): string {
  return westernDigits(text)
    .replace(/^\s*(rs\.?|pkr|روپے)\s*/i, "")
    .replace(/\s*(\/-|روپے)\s*$/, "")
    .replace(/[\s,\u066C]/g, "")
    .replace(/\.0{1,2}$/, "");
}
