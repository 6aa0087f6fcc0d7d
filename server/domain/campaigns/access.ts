import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid } from "#server/db/query.ts";
import { campaignPartners, campaigns, ngoProfiles } from "#server/db/schema.ts";
import { forbidden, notFound } from "#server/domain/errors.ts";

export type Campaign = typeof campaigns.$inferSelect;
/** How an NGO stands to a campaign: its owner, an accepted partner, or neither. */
export type CampaignRole = "owner" | "partner";

/**
 * A condition for campaigns that `ngoId` runs: those it owns and those it is an accepted partner of.
 * Every NGO-side list and lookup goes through it, so an NGO never sees or changes another's campaign.
 */
export function runBy(ngoId: string): SQL {
  return or(
    eq(campaigns.ownerId, ngoId),
    sql`exists (select 1 from ${campaignPartners} where ${campaignPartners.campaignId} = ${campaigns.id}
      and ${campaignPartners.ngoId} = ${ngoId} and ${campaignPartners.status} = 'accepted')`,
  )!;
}

/** The campaign and the NGO's role in it; "not found" when the NGO neither owns nor partners it, so its existence does not leak. */
export async function campaignForNgo(
  db: DbOrTx,
  campaignId: string,
  ngoId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<{ campaign: Campaign; role: CampaignRole }> {
  if (!isUuid(campaignId)) throw notFound();
  const query = db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), runBy(ngoId)))
    .limit(1);
  const [campaign] = opts.forUpdate ? await query.for("update") : await query;
  if (!campaign) throw notFound();
  return { campaign, role: campaign.ownerId === ngoId ? "owner" : "partner" };
}

/** Like `campaignForNgo`, but only the owner passes: partners may not change the campaign's text, picture or state. */
export async function campaignOwnedBy(
  db: DbOrTx,
  campaignId: string,
  ngoId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<Campaign> {
  const { campaign, role } = await campaignForNgo(db, campaignId, ngoId, opts);
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
