import { eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns } from "#server/db/schema.ts";
import { invalid, notFound } from "#server/domain/errors.ts";

/** Longer than any slug we make; anything longer is not looked up at all. */
const MAX_SLUG_LENGTH = 200;

/**
 * What donors are offered of an active campaign, as conditions every donor-facing read shares (pickers, browse, the
 * map, the public page, the payment and goods screens):
 *
 * - A campaign is its owner's. When the owner is suspended (or no longer verified) the campaign is **paused**: it
 *   leaves the pickers, browse and the map, its public page says it is paused, and no gift or goods offer is taken
 *   for it. A suspended *partner* only stops being payable; the campaign stays.
 * - A campaign **takes cash** when at least one of its NGOs (the owner or an accepted partner) in good standing
 *   has a payment account. One that takes no cash is left out of the cash picker and its page says how to help
 *   instead (goods, volunteering).
 *
 * Both are SQL over the row of `campaigns` in the surrounding query, so a list filters in the database and stays one
 * query.
 */

/** A payment account as `accountsOf` (donations/cash.ts) reads one: a wallet number, or a bank's three parts. */
const HAS_ACCOUNT = `(p.jazzcash_number <> '' or p.easypaisa_number <> ''
  or (p.bank_name <> '' and p.bank_account_title <> '' and p.bank_account_number <> ''))`;

/**
 * Both conditions ask about a small set of NGOs (those in good standing, those of them that can be paid), not about
 * each campaign: written as `owner_id in (that set)`, PostgreSQL reads the set once and probes it per row. A
 * correlated `exists` with an OR inside was planned as a join of every active campaign with every payable NGO
 * (40 seconds at 100,000 campaigns, decision 044).
 */
/**
 * Both name the role: only an NGO owns a campaign (createCampaign) or has a profile with a payment account, and an
 * account's role never changes, so the condition changes no answer; it lets PostgreSQL read the NGOs from
 * `users_role_verification_idx` instead of every account (donors are most of them, decision 044).
 */
const IN_GOOD_STANDING = sql`select o.id from users o where o.role = 'ngo' and o.verification = 'verified' and o.suspended_at is null`;
const PAYABLE = sql`select p.user_id from ngo_profiles p join users u on u.id = p.user_id
  where u.role = 'ngo' and u.verification = 'verified' and u.suspended_at is null and ${sql.raw(HAS_ACCOUNT)}`;
/** The NGOs in good standing that cannot be paid themselves: a handful, read once into an array. */
const UNPAYABLE_IN_GOOD_STANDING = sql`select o.id from users o where o.role = 'ngo' and o.verification = 'verified'
  and o.suspended_at is null and o.id not in (select p.user_id from ngo_profiles p where ${sql.raw(HAS_ACCOUNT)})`;

/** The campaign's owner is a verified NGO that is not suspended: the campaign is not paused. */
export function ownerInGoodStanding(): SQL<boolean> {
  return sql<boolean>`(${campaigns.ownerId} in (${IN_GOOD_STANDING}))`;
}

/** Some NGO of the campaign (owner or accepted partner), verified and not suspended, has a payment account. */
export function takesCash(): SQL<boolean> {
  return sql<boolean>`(${campaigns.ownerId} in (${PAYABLE}) or exists (select 1 from campaign_partners cp
    where cp.campaign_id = ${campaigns.id} and cp.status = 'accepted' and cp.ngo_id in (${PAYABLE})))`;
}

/**
 * takesCash for a query over many campaigns (the pickers' lists and counts): the campaigns a payable partner has
 * accepted are read once into a hash (an uncorrelated IN) rather than looked up per campaign. Written correlated,
 * PostgreSQL costed the search's count at 187,000, over `jit_above_cost`, and spent 390 ms compiling it where JIT is
 * on (decision 044); for one campaign (its page, a gift) takesCash's single probe is cheaper.
 */
export function takesCashAmongMany(): SQL<boolean> {
  return sql<boolean>`(${campaigns.ownerId} in (${PAYABLE}) or ${campaigns.id} in (select cp.campaign_id from campaign_partners cp
    where cp.status = 'accepted' and cp.ngo_id in (${PAYABLE})))`;
}

/**
 * The same two conditions for a query that reads one campaign (its public page, the gift and goods screens): each NGO is
 * probed by its primary key. The set forms above read every NGO in good standing (6,200 accounts at 100×, 367 buffers
 * for one campaign, decision 044); for one row, a probe per NGO is the smaller read. `standing.test.ts` holds both
 * forms to the same answer for every case.
 *
 * Each probe ends in `offset 0`: without it PostgreSQL turns the correlated `exists` into a hashed subplan (it reads the
 * whole set once, as the list forms do, here without the role's index: 6,200 accounts), and chose that for a list's walk
 * (the picker read 420 buffers against 285 at 100×, page 20 938, decision 044). With it the probe stays a lookup by
 * primary key for each row the query tests.
 */
const inGoodStanding = (ngoId: SQL) =>
  sql`exists (select 1 from users o where o.id = ${ngoId} and o.verification = 'verified' and o.suspended_at is null offset 0)`;
const payable = (ngoId: SQL) => sql`exists (select 1 from ngo_profiles p join users u on u.id = p.user_id
  where p.user_id = ${ngoId} and u.verification = 'verified' and u.suspended_at is null and ${sql.raw(HAS_ACCOUNT)} offset 0)`;

/** `ownerInGoodStanding` as a probe of the owner's row: for a query that tests a handful of campaigns, not a list. */
export function ownerInGoodStandingProbe(ownerId: SQL = sql`${campaigns.ownerId}`): SQL<boolean> {
  return sql<boolean>`${inGoodStanding(ownerId)}`;
}

/** `takesCash` as probes of the campaign's NGOs: for a query that tests a handful of campaigns, not a list. */
export function takesCashProbe(): SQL<boolean> {
  return sql<boolean>`(${payable(sql`${campaigns.ownerId}`)} or exists (select 1 from campaign_partners cp
    where cp.campaign_id = ${campaigns.id} and cp.status = 'accepted' and ${payable(sql`cp.ngo_id`)} offset 0))`;
}

/** `standingColumns` for a select of one campaign: the same answer, NGO by NGO. */
export function standingColumnsOfOne() {
  return {
    paused: sql<boolean>`not ${inGoodStanding(sql`${campaigns.ownerId}`)}`.mapWith(Boolean),
    takesCash: sql<boolean>`${takesCashProbe()}`.mapWith(Boolean),
  };
}

/** How a campaign stands with donors: paused (its owner is suspended) and whether it takes cash. */
export interface CampaignStanding {
  paused: boolean;
  takesCash: boolean;
}

/** The two conditions as columns of a select over `campaigns`. */
export function standingColumns() {
  return {
    paused: sql<boolean>`not ${ownerInGoodStanding()}`.mapWith(Boolean),
    takesCash: sql<boolean>`${takesCash()}`.mapWith(Boolean),
  };
}

/**
 * The campaign a gift or a goods offer is for, by its slug: not found when unknown or deleted, refused when it has
 * ended or is paused (the screens say so before; this is the server's rule, for the payment and goods flows alike).
 */
export async function campaignToGiveTo(db: DbOrTx, slug: string): Promise<typeof campaigns.$inferSelect> {
  if (!slug || slug.length > MAX_SLUG_LENGTH) throw notFound();
  const [row] = await db
    .select({ c: campaigns, ...standingColumnsOfOne() })
    .from(campaigns)
    .where(eq(campaigns.slug, slug))
    .limit(1);
  if (!row || row.c.status === "archived") throw notFound();
  if (row.c.status !== "active") throw invalid("donations.campaign_not_active");
  if (row.paused) throw invalid("campaigns.paused");
  return row.c;
}

/**
 * How many active campaigns donors are offered, unfiltered, as a subquery: exact up to `bound`, past it some figure
 * above the bound (the pickers say "More than 1,000 campaigns" there, decision 044). Those of owners in good standing,
 * for cash only those some NGO of can be paid (takesCash). Read from `campaign_counts` (one row per NGO and state, kept
 * by a trigger, migration 0024), plus, for cash, the campaigns of an owner that cannot be paid that an accepted,
 * payable partner can. Those are found from their owners (`owner_id = any(array(…))`, one range of
 * campaigns_owner_status_idx per unpayable NGO) and the accepted partnerships of payable NGOs; written as
 * `owner_id not in (payable)` PostgreSQL read every active campaign's index entry to filter them (93,006 at 100×,
 * decision 044). That second part reads every active campaign of the unpayable NGOs and every accepted partnership
 * (579 of the page's 885 buffers at 100×), so it is asked only when the payable owners' own campaigns do not already pass
 * the bound: the CASE's other branch never reads it (PostgreSQL evaluates an uncorrelated subquery, an InitPlan, when an
 * expression first needs its value, and here none does).
 */
export function offeredCount(cash: boolean, bound: number): SQL<number> {
  const byOwner = sql`select coalesce(sum(k.n), 0) from campaign_counts k where k.status = 'active'
    and k.owner_id in (${cash ? PAYABLE : IN_GOOD_STANDING})`;
  if (!cash) return sql<number>`(${byOwner})`;
  const partnered = sql`(select count(*) from campaigns pc where pc.status = 'active'
    and pc.owner_id = any(array(${UNPAYABLE_IN_GOOD_STANDING}))
    and pc.id in (select cp.campaign_id from campaign_partners cp where cp.status = 'accepted' and cp.ngo_id in (${PAYABLE})))`;
  return sql<number>`(select case when b.n > ${bound} then b.n else b.n + ${partnered} end from (${byOwner}) b(n))`;
}

/** The kept `campaign_counts` that differ from a fresh count, as `owner/state: kept ≠ counted` lines: none when they agree. */
export async function campaignCountDrift(db: DbOrTx): Promise<string[]> {
  const result = await db.execute(sql`
    select coalesce(k.owner_id, f.owner_id)::text as owner, coalesce(k.status, f.status)::text as status,
      k.n::int as kept, f.n::int as counted
    from campaign_counts k
    full join (select owner_id, status, count(*) as n from ${campaigns} group by 1, 2) f
      on f.owner_id = k.owner_id and f.status = k.status
    where coalesce(k.n, 0) <> coalesce(f.n, 0)
    order by 1, 2`);
  const rows = (result as unknown as { rows: { owner: string; status: string; kept: number | null; counted: number | null }[] }).rows;
  return rows.map((r) => `${r.owner}/${r.status}: ${r.kept ?? "none"} ≠ ${r.counted ?? "none"}`);
}
