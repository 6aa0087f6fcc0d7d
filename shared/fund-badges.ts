import type { TFunction } from "#shared/i18n/i18n.ts";
import type { FundKind } from "#shared/statuses.ts";

/** One badge of the funds a campaign accepts, its words already in the reader's language. */
export interface FundBadge {
  fund: FundKind;
  label: string;
}

/**
 * The badges of the funds a campaign accepts besides general (which every campaign accepts): Zakat first (a campaign
 * accepts Zakat only while its NGO's attestation is current, decision 048), then Sadaqah and Fitrana. The loaders write
 * them, so a card's page carries neither the `funds` strings nor code to choose them (decision 031, 2026-11-27).
 */
export function fundBadges(funds: readonly FundKind[], t: TFunction): FundBadge[] {
  const badges: FundBadge[] = funds.includes("zakat") ? [{ fund: "zakat", label: t("funds:acceptsZakat") }] : [];
  for (const fund of funds) if (fund === "sadaqah" || fund === "fitrana") badges.push({ fund, label: t(`funds:kinds.${fund}`) });
  return badges;
}
