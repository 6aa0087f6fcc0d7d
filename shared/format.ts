import type { Lang } from "#shared/i18n/i18n.ts";
import { NEAR_KM } from "#shared/constants.ts";
import { isolateLtr } from "#shared/text.ts";

/**
 * Every number and date the product shows is formatted here, in the reader's language as Pakistan writes it
 * (`ur-PK` or `en-PK`). Loaders call these with `context.lang`, so the browser renders the same text when it
 * hydrates; components call them with `i18n.language`.
 */

/** The Intl locale of a product language. */
export function intlLocale(lang: string): "ur-PK" | "en-PK" {
  return lang === "ur" ? "ur-PK" : "en-PK";
}

/** Pakistan's time, whatever zone the server runs in. */
const TIME_ZONE = "Asia/Karachi";

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Numbers in the language's grouping, in Latin digits (as Pakistani apps and receipts show amounts). */
export function numberFormat(lang: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${lang}${JSON.stringify(options)}`;
  let nf = numberFormats.get(key);
  if (!nf) {
    nf = new Intl.NumberFormat(intlLocale(lang), { numberingSystem: "latn", ...options });
    numberFormats.set(key, nf);
  }
  return nf;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A date format of the language, made once per language and style: a formatter costs tens of microseconds to make
 * and a list page formats every row, so they are kept (there are a handful: two languages, a few styles).
 */
function dateFormat(lang: string, style: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}:${style}`;
  let df = dateFormats.get(key);
  if (!df) {
    df = new Intl.DateTimeFormat(intlLocale(lang), options);
    dateFormats.set(key, df);
  }
  return df;
}

export function formatNumber(n: number, lang: string, options: Intl.NumberFormatOptions = {}): string {
  return numberFormat(lang, options).format(n);
}

/**
 * A distance in kilometres as the product shows it: one decimal under 10 km ("3.2"), whole kilometres beyond
 * ("48"); null under NEAR_KM, where a number ("0 km") reads oddly and the screens say "in your area" instead.
 */
export function formatKm(km: number, lang: string): string | null {
  if (km < NEAR_KM) return null;
  return formatNumber(km, lang, { maximumFractionDigits: km < 10 ? 1 : 0 });
}

/** A moment formatted on the server, so the browser renders the same text when it hydrates. */
export interface FormattedTime {
  iso: string;
  text: string;
}

/**
 * The one way the product writes a date, in each language: "23 Nov 2026", "23 نومبر، 2026" (decision 040). A day
 * whose weekday matters (a pick-up's) adds it in front, a moment adds the time of day after; chart axes that count
 * months or years write only those.
 */
const DATE = { day: "numeric", month: "short", year: "numeric" } satisfies Intl.DateTimeFormatOptions;

const DAY_STYLES = {
  /** "23 Nov 2026" */
  date: DATE,
  /** "Mon, 23 Nov 2026" */
  weekday: { weekday: "short", ...DATE },
  /** "Nov 2026" */
  month: { month: "short", year: "numeric" },
  year: { year: "numeric" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DayStyle = keyof typeof DAY_STYLES;

/**
 * A moment as a date and time of day in Pakistan ("23 Nov 2026, 3:05 pm"; in Urdu "23 نومبر، 2026، 3:05 PM"). Urdu
 * writes the time of day in Latin ("PM"), so it is isolated left to right: in a right-to-left line it would
 * otherwise show as "PM 3:05".
 */
export function formatDateTime(date: Date, lang: Lang): FormattedTime {
  const format = dateFormat(lang, "dateTime", { ...DATE, hour: "numeric", minute: "2-digit", timeZone: TIME_ZONE });
  if (lang !== "ur") return { iso: date.toISOString(), text: format.format(date) };
  const parts = format.formatToParts(date);
  const first = parts.findIndex((p) => p.type === "hour");
  const last = parts.findLastIndex((p) => p.type === "dayPeriod" || p.type === "minute");
  const text = (from: number, to?: number) =>
    parts
      .slice(from, to)
      .map((p) => p.value)
      .join("");
  return { iso: date.toISOString(), text: `${text(0, first)}${isolateLtr(text(first, last + 1))}${text(last + 1)}` };
}

/** A moment as the day it was in Pakistan ("23 Nov 2026"). */
export function formatDate(date: Date, lang: Lang): FormattedTime {
  return { iso: date.toISOString(), text: dateFormat(lang, "date", { ...DATE, timeZone: TIME_ZONE }).format(date) };
}

/** 2010-01-01T00:00:00+05:00: from here on Pakistan keeps UTC+05:00 all year. */
const STEADY_OFFSET_SINCE = Date.UTC(2009, 11, 31, 19);

const pakistanClock = new Intl.DateTimeFormat("en-GB", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

/**
 * A moment as Pakistan's clock showed it, for files: "2026-11-23 15:05:09", a form spreadsheets read as a date and
 * time. The CSV export writes it in SQL (`to_char(… at time zone 'Asia/Karachi', …)`, decision 044); history.test.ts
 * holds the export's bytes to this function's.
 */
export function pakistanTimestamp(date: Date): string {
  // Since its last daylight saving time (2009) Pakistan's clock is UTC+05:00: arithmetic, where the zone's rules
  // cost microseconds a call. Earlier moments ask the rules.
  const ms = date.getTime();
  if (ms >= STEADY_OFFSET_SINCE) return new Date(ms + 5 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
  const part: Record<string, string> = {};
  for (const p of pakistanClock.formatToParts(date)) part[p.type] = p.value;
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
}

/**
 * A calendar day (YYYY-MM-DD, already as Pakistan counts days, so formatted as UTC) in the reader's language;
 * an unreadable day is shown as it came.
 */
export function formatDay(day: string, lang: Lang, style: DayStyle = "date"): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return dateFormat(lang, `day:${style}`, { ...DAY_STYLES[style], timeZone: "UTC" }).format(date);
}
