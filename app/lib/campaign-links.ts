import { href } from "react-router";

/**
 * Links to a campaign's pages, shared by every screen that shows a campaign, so a path is written once. Paths with
 * parameters go through React Router's `href()`, which the route table types: a renamed route does not compile.
 */

/** Whether the Donate button shows on public campaign pages: the cash flow (/donate1 → /donate4) exists. */
export const DONATION_FLOW_AVAILABLE = true;

/**
 * Whether the in-kind (Non-Cash) flow exists (/donate5 → /donate5_1 → /donate6): the pickers' Cash/Non-Cash
 * toggle shows both halves.
 */
export const IN_KIND_FLOW_AVAILABLE = true;

/** The public page of a campaign: readable, stable, no sign-in needed. */
export function publicCampaignPath(slug: string): string {
  return href("/campaign/:slug", { slug: encodeURIComponent(slug) });
}

/** Every update and every approved word of support of a campaign, each list a page at a time (decision 050). */
export function publicUpdatesPath(slug: string, cursors: { updates?: string | null; words?: string | null } = {}): string {
  const query = new URLSearchParams();
  if (cursors.updates) query.set("updates", cursors.updates);
  if (cursors.words) query.set("words", cursors.words);
  const search = query.toString();
  return href("/campaign/:slug/updates", { slug: encodeURIComponent(slug) }) + (search ? `?${search}` : "");
}

/** An NGO's public profile (its name, registration, contact, vetting record, campaigns and positions). */
export function ngoProfilePath(ngoId: string): string {
  return href("/ngo/:id", { id: ngoId });
}

/** Where Donate leads: the donor's flow for this campaign (a signed-out visitor signs in first and comes back). */
export function donateHref(slug: string): string {
  return `/donate1?campaign=${encodeURIComponent(slug)}`;
}

/** The Non-Cash half of the picker's toggle: the in-kind campaign picker, with the same campaign open if one is. */
export function nonCashHref(slug?: string): string {
  return slug ? `/donate5?campaign=${encodeURIComponent(slug)}` : "/donate5";
}

/** The Cash half of the picker's toggle, with the same campaign open if one is. */
export function cashHref(slug?: string): string {
  return slug ? donateHref(slug) : "/donate1";
}

/** The two halves of the Cash / Non-Cash toggle, the Non-Cash one only while the in-kind flow exists. */
export interface DonationKindLinks {
  cash: string;
  nonCash: string | null;
}

/** The Cash / Non-Cash toggle's links, with the same campaign open if one is. */
export function donationKindLinks(slug?: string): DonationKindLinks {
  return { cash: cashHref(slug), nonCash: IN_KIND_FLOW_AVAILABLE ? nonCashHref(slug) : null };
}

/** The in-kind picker with one campaign's details panel open, remembering the search and page it came from. */
export function goodsDetailsHref(slug: string, from: { q?: string; after?: string | null } = {}): string {
  return pickerHref("/donate5", { ...from, campaign: slug });
}

/** The goods form for a campaign. */
export function goodsOfferHref(slug: string): string {
  return `/donate5_1?campaign=${encodeURIComponent(slug)}`;
}

/** A picker (/donate1 or /donate5) at a search and page (its cursor), optionally with one campaign's panel open. */
export function pickerHref(base: "/donate1" | "/donate5", from: { q?: string; after?: string | null; campaign?: string }): string {
  const params = new URLSearchParams();
  if (from.q) params.set("q", from.q);
  if (from.after) params.set("after", from.after);
  if (from.campaign) params.set("campaign", from.campaign);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** The picker with one campaign's details panel open, remembering the search and page it came from. */
export function donateDetailsHref(slug: string, from: { q?: string; after?: string | null } = {}): string {
  return pickerHref("/donate1", { ...from, campaign: slug });
}

/** The payment screen of a campaign, optionally for one receiving NGO (a partner of a joint campaign). */
export function donatePayHref(slug: string, ngoId?: string): string {
  const params = new URLSearchParams({ campaign: slug });
  if (ngoId) params.set("ngo", ngoId);
  return `/donate2?${params.toString()}`;
}

/** The proof form for paying one NGO of a campaign by one method. */
export function donateProofHref(slug: string, ngoId: string, method: string): string {
  return `/donate3?${new URLSearchParams({ campaign: slug, ngo: ngoId, method }).toString()}`;
}

/** The list a campaign's screens came from, carried in `?from=` so Back returns there. */
export type CampaignListName = "campaigns" | "comp_camp";

export function isCampaignListName(value: unknown): value is CampaignListName {
  return value === "campaigns" || value === "comp_camp";
}

/** Show Analytics of a campaign, remembering the list it was opened from. */
export function analyticsHref(campaignId: string, from?: CampaignListName): string {
  return `${href("/campaigns/:id/analytics", { id: campaignId })}${from ? `?from=${from}` : ""}`;
}
