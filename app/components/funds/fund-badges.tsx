import { BadgeCheck } from "lucide-react";
import type { FundBadge } from "#shared/fund-badges.ts";

/**
 * The funds a campaign accepts besides general, as badges (`fundBadges` of shared/fund-badges.ts writes their words on
 * the server): Zakat marked as attested, then Sadaqah and Fitrana. Spans, so a card places them in its own row. No
 * translator: the page carries no `funds` strings for them. Called as a function (`{fundBadgeSpans({ badges })}`), like
 * `progressBar`: no state, one set a card (decision 037, 2026-11-28).
 */
export function fundBadgeSpans({ badges, size = "xs" }: { badges: readonly FundBadge[]; size?: "xs" | "sm" }) {
  const text = size === "xs" ? "text-xs" : "text-sm";
  return badges.map((b) =>
    b.fund === "zakat" ? (
      <span key={b.fund} className={`inline-flex items-center gap-1 rounded bg-emerald-100 px-2 py-0.5 font-bold text-emerald-900 ${text}`}>
        <BadgeCheck aria-hidden="true" className="size-4" />
        {b.label}
      </span>
    ) : (
      <span key={b.fund} className={`rounded bg-sky-100 px-2 py-0.5 font-bold text-sky-900 ${text}`}>
        {b.label}
      </span>
    ),
  );
}
