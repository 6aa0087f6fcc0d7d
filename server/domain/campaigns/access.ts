import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid } from "#server/db/query.ts";
import { campaignPartners, campaigns, ngoProfiles, partneredCampaigns } from "#server/db/schema.ts";
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
 * which `having` holds, a condition on the campaign's id (it has pending gifts to the NGO, open pick-ups, any
 * donation), A–Z, at most `limit`. Both halves are read in title order from an index, the owned ones from
 * `campaigns`, the partnered ones from their kept copy (`partnered_campaigns`), and merged: the reading stops at the
 * limit, so the cost stays the same however many campaigns the NGO owns or partners (decision 044). A campaign the
 * NGO both owns and partners (the domain refuses such a partnership) is read once, as its own.
 */
export async function campaignChoices(
  db: DbOrTx,
  ngoId: string,
  having: (campaignId: SQL) => SQL,
  limit = CAMPAIGN_CHOICES_LIMIT,
): Promise<{ id: string; title: string }[]> {
  // Merge Append of the two ordered walks: PostgreSQL merges the halves of a UNION ALL in a subquery by the order they
  // share and stops both at the limit (each half's own limit keeps its plan an ordered walk of its index).
  const result = await db.execute(sql`
    select u.id, u.title from (
      (select o.id, o.title, lower(o.title) as key from ${campaigns} o
        where o.owner_id = ${ngoId} and ${having(sql`o.id`)}
        order by lower(o.title), o.id limit ${limit})
      union all
      (select p.id, p.title, lower(p.title) as key from ${partneredCampaigns} p
        where p.ngo_id = ${ngoId} and p.owner_id <> p.ngo_id and ${having(sql`p.id`)}
        order by lower(p.title), p.id limit ${limit})
    ) u
    order by u.key, u.id
    limit ${limit}`);
  return (result as unknown as { rows: { id: string; title: string }[] }).rows.map(({ id, title }) => ({ id, title }));
}

/**
 * The kept partnerships (`partnered_campaigns`) that differ from `campaign_partners` and their campaigns, as
 * `ngo/campaign: kept ≠ fresh` lines: none when they agree. The tests and the scale seed ask it.
 */
export async function partneredDrift(db: DbOrTx): Promise<string[]> {
  const result = await db.execute(sql`
    with fresh as (
      select cp.ngo_id, c.id, cp.status as partnership, c.owner_id, c.status, c.title, c.created_at, c.completed_at
      from ${campaignPartners} cp join ${campaigns} c on c.id = cp.campaign_id
    )
    select coalesce(k.ngo_id, f.ngo_id)::text as ngo, coalesce(k.id, f.id)::text as campaign,
      case when k.ngo_id is null then 'none' else concat_ws(' ', k.partnership, k.owner_id, k.status, k.title, k.created_at, k.completed_at) end as kept,
      case when f.ngo_id is null then 'none' else concat_ws(' ', f.partnership, f.owner_id, f.status, f.title, f.created_at, f.completed_at) end as fresh
    from ${partneredCampaigns} k
    full join fresh f on f.ngo_id = k.ngo_id and f.id = k.id
    where (k.partnership, k.owner_id, k.status, k.title, k.created_at, k.completed_at)
      is distinct from (f.partnership, f.owner_id, f.status, f.title, f.created_at, f.completed_at)
    order by 1, 2`);
  const rows = (result as unknown as { rows: { ngo: string; campaign: string; kept: string; fresh: string }[] }).rows;
  return rows.map((r) => `${r.ngo}/${r.campaign}: ${r.kept} ≠ ${r.fresh}`);
}
