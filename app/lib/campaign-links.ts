/**
 * Links to a campaign's pages, shared by every screen that shows a campaign, so a path is written once.
 */

/**
 * Whether the Donate button shows on public campaign pages. The donation screens come with the cash and
 * in-kind issues; until then the button would lead nowhere.
 */
export const DONATION_FLOW_AVAILABLE = false;

/** The public page of a campaign: readable, stable, no sign-in needed. */
export function publicCampaignPath(slug: string): string {
  return `/campaign/${encodeURIComponent(slug)}`;
}

/** Where Donate leads: the donor's flow for this campaign (a signed-out visitor signs in first and comes back). */
export function donateHref(slug: string): string {
  return `/donate1?campaign=${encodeURIComponent(slug)}`;
}

/** The list a campaign's screens came from, carried in `?from=` so Back returns there. */
export type CampaignListName = "campaigns" | "comp_camp";

export function isCampaignListName(value: unknown): value is CampaignListName {
  return value === "campaigns" || value === "comp_camp";
}

/** Show Analytics of a campaign, remembering the list it was opened from. */
export function analyticsHref(campaignId: string, from?: CampaignListName): string {
  return `/campaigns/${campaignId}/analytics${from ? `?from=${from}` : ""}`;
}
