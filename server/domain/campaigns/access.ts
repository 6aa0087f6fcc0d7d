import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
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

/**
 * The owner and accepted partners of the campaign of the row being read (`campaigns` unaliased), owner first, then
 * partners by name, as a JSON column: a list of cards reads its campaigns and their NGOs in one query.
 */
export function campaignNgosColumn() {
  return sql<CampaignNgo[]>`(select coalesce(json_agg(json_build_object('id', n.id, 'name', n.name, 'logoKey', n.logo_key, 'role', n.role)
    order by n.role = 'owner' desc, n.name), '[]'::json) from (
      select np.user_id as id, np.name, np.logo_key, 'owner' as role from ${ngoProfiles} np where np.user_id = ${campaigns.ownerId}
      union all
      select np.user_id, np.name, np.logo_key, 'partner' from ${campaignPartners} cp join ${ngoProfiles} np on np.user_id = cp.ngo_id
        where cp.campaign_id = ${campaigns.id} and cp.status = 'accepted') n)`;
}

/** The owner and accepted partners of each campaign, owner first, then partners by name. */
export async function ngosOfCampaigns(db: DbOrTx, campaignIds: string[]): Promise<Map<string, CampaignNgo[]>> {
  const result = new Map<string, CampaignNgo[]>(campaignIds.map((id) => [id, []]));
  if (campaignIds.length === 0) return result;
  const rows = await db.select({ id: campaigns.id, ngos: campaignNgosColumn() }).from(campaigns).where(inArray(campaigns.id, campaignIds));
  for (const r of rows) result.set(r.id, r.ngos);
  return result;
}

/** How many campaigns a list's campaign filter offers at most. */
export const CAMPAIGN_CHOICES_LIMIT = 200;

/**
 * The campaigns for a list's campaign filter (/apps, /noncash_apps, /donHistory): those the NGO owns or has been a
 * partner of (in any state of the partnership, so a campaign it left still shows the donations it received) for
 * which `having` holds, a condition on the row of `campaigns` (it has pending gifts to the NGO, open pick-ups, any
 * donation), A–Z, at most CAMPAIGN_CHOICES_LIMIT. The owned ones are read in title order from their index and the
 * reading stops at the limit, so the cost stays the same however many campaigns the NGO has (decision 044).
 */
export async function campaignChoices(db: DbOrTx, ngoId: string, having: SQL): Promise<{ id: string; title: string }[]> {
  const columns = { id: campaigns.id, title: campaigns.title, key: sql<string>`lower(${campaigns.title})`.as("key") };
  const byTitle = [sql`lower(${campaigns.title})`, asc(campaigns.id)];
  const owned = db
    .select(columns)
    .from(campaigns)
    .where(and(eq(campaigns.ownerId, ngoId), having))
    .orderBy(...byTitle)
    .limit(CAMPAIGN_CHOICES_LIMIT);
  const joined = db
    .select(columns)
    .from(campaignPartners)
    .innerJoin(campaigns, eq(campaigns.id, campaignPartners.campaignId))
    .where(and(eq(campaignPartners.ngoId, ngoId), having))
    .orderBy(...byTitle)
    .limit(CAMPAIGN_CHOICES_LIMIT);
  const rows = await union(owned, joined)
    .orderBy(sql`key`, sql`id`)
    .limit(CAMPAIGN_CHOICES_LIMIT);
  return rows.map(({ id, title }) => ({ id, title }));
}
