import type { Lang } from "~/i18n/i18n";

/** A moment formatted on the server, so the browser renders the same text when it hydrates. */
export interface FormattedTime {
  iso: string;
  text: string;
}

/** Pakistan's time, whatever zone the server runs in. */
const TIME_ZONE = "Asia/Karachi";

/** Formats a date for the request's language; call it in loaders with `context.lang`. */
export function formatDateTime(date: Date, lang: Lang): FormattedTime {
  const text = new Intl.DateTimeFormat(lang === "ur" ? "ur-PK" : "en-PK", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: TIME_ZONE,
  }).format(date);
  return { iso: date.toISOString(), text };
}

/** A calendar day (YYYY-MM-DD, as Pakistan counts days) in the reader's language; call it in loaders. */
export function formatDay(day: string, lang: Lang, style: "medium" | "full" = "medium"): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(lang === "ur" ? "ur-PK" : "en-PK", { dateStyle: style, timeZone: "UTC" }).format(date);
}

export function DateTime({ value, className }: { value: FormattedTime; className?: string }) {
  return (
    <time dateTime={value.iso} className={className}>
      {value.text}
    </time>
  );
}
