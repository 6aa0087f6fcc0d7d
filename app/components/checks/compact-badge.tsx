import { BadgeCheck } from "lucide-react";

/**
 * A card's compact badge: the kinds of check its NGO has standing today ("Checked by Ek Chhat: Registered · Tax-exempt"),
 * nothing when it has none; `compactCheckLabel` of shared/check-badge.ts writes its words on the server. The full
 * statement with numbers and dates is on the campaign page and the profile. No translator and no list of kinds here:
 * the cards' pages carry neither (decisions 031 and 033). Called as a function (`{compactCheckBadge({ label })}`), like
 * `progressBar`: no state, one a card (decision 037, 2026-11-28).
 */
export function compactCheckBadge({ label }: { label: string | null }) {
  if (label === null) return null;
  return (
    <p data-testid="check-badge">
      <span className="inline-flex items-start gap-1 rounded bg-emerald-100 px-2 py-0.5 text-xs font-bold text-emerald-900">
        <BadgeCheck aria-hidden="true" className="size-4 shrink-0" />
        {label}
      </span>
    </p>
  );
}
