import { sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";

/**
 * `donations.campaign_title`, the campaign's title kept on each donation for the NGO history's "by campaign" order
 * (migration 0031, decision 044), is set by the database: from the campaign on insert, and on the campaign's donations
 * when it is renamed. A gift written while its campaign is being renamed in another transaction can keep the old title
 * (each saw the other uncommitted); locking the campaign on every gift would make gifts and approvals wait for each
 * other (and deadlock with the tallies' rows). That only places the gift under the old title in the order, never
 * shows it (titles shown are the campaign's); the hourly maintenance copies the titles of campaigns changed lately.
 */
export async function repairCampaignTitles(db: DbOrTx, within: string = "2 hours"): Promise<number> {
  const result = (await db.execute(sql`
    update donations d set campaign_title = c.title
    from campaigns c
    where c.updated_at > now() - ${within}::interval and d.campaign_id = c.id and d.campaign_title is distinct from c.title
    returning d.id`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}

/** Donations whose kept title is not their campaign's (should be none): for tests and checks, it reads every donation. */
export async function campaignTitleDrift(db: DbOrTx): Promise<{ id: string; kept: string; title: string }[]> {
  const result = (await db.execute(sql`
    select d.id, d.campaign_title as kept, c.title from donations d join campaigns c on c.id = d.campaign_id
    where d.campaign_title is distinct from c.title order by d.id`)) as unknown as { rows: { id: string; kept: string; title: string }[] };
  return result.rows;
}
