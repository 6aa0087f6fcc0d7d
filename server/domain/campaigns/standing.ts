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
const IN_GOOD_STANDING = sql`select o.id from users o where o.verification = 'verified' and o.suspended_at is null`;
const PAYABLE = sql`select p.user_id from ngo_profiles p join users u on u.id = p.user_id
  where u.verification = 'verified' and u.suspended_at is null and ${sql.raw(HAS_ACCOUNT)}`;

/** The campaign's owner is a verified NGO that is not suspended: the campaign is not paused. */
export function ownerInGoodStanding(): SQL<boolean> {
  return sql<boolean>`(${campaigns.ownerId} in (${IN_GOOD_STANDING}))`;
}

/** Some NGO of the campaign (owner or accepted partner), verified and not suspended, has a payment account. */
export function takesCash(): SQL<boolean> {
  return sql<boolean>`(${campaigns.ownerId} in (${PAYABLE}) or exists (select 1 from campaign_partners cp
    where cp.campaign_id = ${campaigns.id} and cp.status = 'accepted' and cp.ngo_id in (${PAYABLE})))`;
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
    .select({ c: campaigns, ...standingColumns() })
    .from(campaigns)
    .where(eq(campaigns.slug, slug))
    .limit(1);
  if (!row || row.c.status === "archived") throw notFound();
  if (row.c.status !== "active") throw invalid("donations.campaign_not_active");
  if (row.paused) throw invalid("campaigns.paused");
  return row.c;
}
