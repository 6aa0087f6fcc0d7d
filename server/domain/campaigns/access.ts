import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid } from "#server/db/query.ts";
import { campaignPartners, campaigns, ngoProfiles } from "#server/db/schema.ts";
import { forbidden, notFound } from "#server/domain/errors.ts";
import type { Actor } from "#server/domain/policy.ts";
import { campaignScope, rolesFor } from "./policy.ts";
import type { CampaignAction } from "./states.ts";

export type Campaign = typeof campaigns.$inferSelect;
/** How an NGO stands to a campaign: its owner, an accepted partner, or neither. */
export type CampaignRole = "owner" | "partner";

/** The campaign and the NGO's role in it; "not found" when the NGO neither owns nor partners it, so its existence does not leak. */
export async function campaignForNgo(
  db: DbOrTx,
  campaignId: string,
  actor: Actor,
  opts: { forUpdate?: boolean } = {},
): Promise<{ campaign: Campaign; role: CampaignRole }> {
  if (!isUuid(campaignId)) throw notFound();
  const query = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), campaignScope(actor, "run")))
    .limit(1);
  const [campaign] = opts.forUpdate ? await query.for("update") : await query;
  if (!campaign) throw notFound();
  return { campaign, role: campaign.ownerId === actor.id ? "owner" : "partner" };
}

/**
 * The campaign, when the transition table lets the NGO's relation to it take `action` (states.ts: edit, close and
 * delete are the owner's): a partner is told only the owner may, anyone else that it does not exist. Whether the
 * campaign's state allows the step is checked by the caller, after its lock.
 */
export async function campaignFor(
  db: DbOrTx,
  campaignId: string,
  actor: Actor,
  action: CampaignAction,
  opts: { forUpdate?: boolean } = {},
): Promise<Campaign> {
  const { campaign, role } = await campaignForNgo(db, campaignId, actor, opts);
  if (!rolesFor(action).includes(role)) throw forbidden("campaigns.owner_only");
  return campaign;
}

/** The campaign, when the NGO owns it: its partnerships are the owner's to offer and answer (collaboration.ts). */
export async function campaignOwnedBy(db: DbOrTx, campaignId: string, actor: Actor, opts: { forUpdate?: boolean } = {}): Promise<Campaign> {
  const { campaign, role } = await campaignForNgo(db, campaignId, actor, opts);
  if (role !== "owner") throw forbidden("campaigns.owner_only");
  return campaign;
}

export interface CampaignNgo {
  id: string;
  name: string;
  logoKey: string | null;
  role: CampaignRole;
}

/** The owner and accepted partners of each campaign, owner first, then partners by name. */
export async function ngosOfCampaigns(db: DbOrTx, campaignIds: string[]): Promise<Map<string, CampaignNgo[]>> {
  const result = new Map<string, CampaignNgo[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return result;
  const owners = await db
    .select({ campaignId: campaigns.id, id: ngoProfiles.userId, name: ngoProfiles.name, logoKey: ngoProfiles.logoKey })
    .from(campaigns)
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, campaigns.ownerId))
    .where(inArray(campaigns.id, campaignIds));
  const partners = await db
    .select({
      campaignId: campaignPartners.campaignId,
      id: ngoProfiles.userId,
      name: ngoProfiles.name,
      logoKey: ngoProfiles.logoKey,
    })
    .from(campaignPartners)
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, campaignPartners.ngoId))
    .where(and(inArray(campaignPartners.campaignId, campaignIds), eq(campaignPartners.status, "accepted")))
    .orderBy(asc(ngoProfiles.name));
  for (const o of owners) result.get(o.campaignId)?.push({ id: o.id, name: o.name, logoKey: o.logoKey, role: "owner" });
  for (const p of partners) result.get(p.campaignId)?.push({ id: p.id, name: p.name, logoKey: p.logoKey, role: "partner" });
  return result;
}
