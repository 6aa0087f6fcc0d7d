import type { TFunction } from "#shared/i18n/i18n.ts";
import { CHECK_KINDS, type CheckKind } from "#shared/statuses.ts";

/**
 * The compact badge of a card: the kinds that stand, once each, in the badge's order ("Registered · PCP certified ·
 * Tax-exempt"). Apart from shared/checks.ts so the cards' pages do not load the date formats with it (decision 051).
 */
export function compactBadge(kinds: readonly CheckKind[], t: TFunction): string {
  return CHECK_KINDS.filter((k) => kinds.includes(k))
    .map((k) => t(`badge:short.${k}`))
    .join(" · ");
}

/**
 * A card's whole compact badge ("Checked by Ek Chhat: Registered · Tax-exempt"), null when no check stands. The loaders
 * write it, so a card's page carries neither the `badge` strings nor this code (decision 031, 2026-11-27).
 */
export function compactCheckLabel(kinds: readonly CheckKind[], t: TFunction): string | null {
  return kinds.length === 0 ? null : t("badge:compactLabel", { kinds: compactBadge(kinds, t) });
}
