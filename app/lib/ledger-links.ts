import { href } from "react-router";

/**
 * Links to a campaign's ledger pages (decision 049), apart from campaign-links.ts so the pages that never show them
 * (the donors' pickers) do not carry them.
 */

/** The whole public ledger of a campaign (every gift, goods received and spending, page by page). */
export function ledgerPath(slug: string): string {
  return href("/campaign/:slug/ledger", { slug: encodeURIComponent(slug) });
}

/** An NGO's spending records of a campaign it runs (drafts, publishing, corrections). */
export function spendingHref(campaignId: string): string {
  return href("/campaigns/:id/spending", { id: campaignId });
}
