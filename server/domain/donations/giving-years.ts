/**
 * The two years a donor's statements are counted in (decision 052), both on Pakistan's clock (Asia/Karachi):
 * - the fiscal year, 1 July to 30 June (Pakistan's tax year): a gift at 23:30 on 30 June PKT belongs to the year that
 *   ends that day. A fiscal year is named by the calendar year it starts in: 2025 is "2025–26".
 * - the Hijri year of the Umm al-Qura calendar, as Node's ICU computes it (`islamic-umalqura`), for the Zakat summary.
 *   A gift belongs to the Hijri date of its Pakistan calendar day (the civil calendar's whole days, not sunset to
 *   sunset).
 */

const TIME_ZONE = "Asia/Karachi";
const DAY_MS = 86_400_000;

/** The oldest and newest years a statement may be asked for: outside them the address is "not found". */
export const FISCAL_YEAR_MIN = 2000;
export const FISCAL_YEAR_MAX = 2100;
export const HIJRI_YEAR_MIN = 1420;
export const HIJRI_YEAR_MAX = 1530;

const pakistanParts = new Intl.DateTimeFormat("en-u-ca-gregory-nu-latn", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  hourCycle: "h23",
});

const hijriParts = new Intl.DateTimeFormat("en-u-ca-islamic-umalqura-nu-latn", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "numeric",
  day: "numeric",
});

function partsOf(format: Intl.DateTimeFormat, date: Date): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of format.formatToParts(date)) if (p.type !== "literal" && p.type !== "era") out[p.type] = Number(p.value);
  return out;
}

/** The instant Pakistan's clock reads 00:00 on the given day (its offset asked of the time zone rules, not assumed). */
export function pakistanMidnight(year: number, month: number, day: number): Date {
  const guess = Date.UTC(year, month - 1, day) - 5 * 3_600_000;
  const p = partsOf(pakistanParts, new Date(guess));
  // The difference between what the clock showed at the guess and midnight of that day (0 unless the offset was not +5).
  const shown = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
  return new Date(guess - (shown - Date.UTC(year, month - 1, day)));
}

/** The fiscal year a moment belongs to, by the calendar year it starts in: 30 June 2026 23:30 PKT → 2025. */
export function fiscalYearOf(date: Date): number {
  const p = partsOf(pakistanParts, date);
  return p.month! >= 7 ? p.year! : p.year! - 1;
}

/** A fiscal year's moments: from 1 July 00:00 PKT up to (not including) the next 1 July. */
export function fiscalYearBounds(year: number): { from: Date; to: Date } {
  return { from: pakistanMidnight(year, 7, 1), to: pakistanMidnight(year + 1, 7, 1) };
}

/** A Hijri date: year, month 1 (Muharram) to 12 (Dhu al-Hijjah), day. */
export interface HijriDate {
  year: number;
  month: number;
  day: number;
}

/** The Umm al-Qura date of a moment's Pakistan calendar day. */
export function hijriDateOf(date: Date): HijriDate {
  const p = partsOf(hijriParts, date);
  return { year: p.year!, month: p.month!, day: p.day! };
}

/**
 * A Hijri year's moments: from 00:00 PKT of the Pakistan day that is 1 Muharram up to the next year's. Found by asking
 * the calendar about the days around the mean start of the year (354.37 days a year from the Hijra), so it is exactly
 * the calendar's, whatever its table says.
 */
export function hijriYearBounds(year: number): { from: Date; to: Date } {
  return { from: firstOfMuharram(year), to: firstOfMuharram(year + 1) };
}

// 1 Muharram 1 AH fell on 16 July 622 (Julian), 19 July 622 in the proleptic Gregorian calendar.
const HIJRA = Date.UTC(622, 6, 19);
const MEAN_YEAR_DAYS = 354.36667;

function firstOfMuharram(year: number): Date {
  const mean = HIJRA + Math.round((year - 1) * MEAN_YEAR_DAYS) * DAY_MS;
  for (let offset = -20; offset <= 20; offset++) {
    // Noon in Pakistan on a Gregorian day: well inside the day whatever the offset.
    const noon = new Date(mean + offset * DAY_MS + 7 * 3_600_000);
    const h = hijriDateOf(noon);
    if (h.year === year && h.month === 1 && h.day === 1) {
      const p = partsOf(pakistanParts, noon);
      return pakistanMidnight(p.year!, p.month!, p.day!);
    }
  }
  throw new Error(`1 Muharram ${year} not found near its mean date`);
}
