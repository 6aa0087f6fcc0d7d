import { BadgeCheck } from "lucide-react";
import { useTranslation } from "#app/i18n/provider.ts";
import { compactBadge } from "#shared/check-badge.ts";
import type { CheckKind } from "#shared/statuses.ts";

/**
 * A card's compact badge: the kinds of check its NGO has standing today ("Checked by Ek Chhat: Registered · Tax-exempt"),
 * nothing when it has none. The full statement with numbers and dates is on the campaign page and the profile. Its own
 * module, light for the cards of the pickers and the landing page (decision 033).
 */
export function CompactCheckBadge({ kinds }: { kinds: readonly CheckKind[] }) {
  const { t } = useTranslation();
  if (kinds.length === 0) return null;
  return (
    <p data-testid="check-badge">
      <span className="inline-flex items-start gap-1 rounded bg-emerald-100 px-2 py-0.5 text-xs font-bold text-emerald-900">
        <BadgeCheck aria-hidden="true" className="size-4 shrink-0" />
        {t("badge:compactLabel", { kinds: compactBadge(kinds, t) })}
      </span>
    </p>
  );
}
