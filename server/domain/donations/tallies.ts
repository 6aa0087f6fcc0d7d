import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { donationTallies, donations, pickups } from "#server/db/schema.ts";
import type { DonationKind, DonationStatus, FundKind } from "#shared/statuses.ts";

/**
 * An NGO's donations counted by kind, state and pick-up state, from the tallies the triggers of migration 0020 keep
 * (decision 044): a handful of rows per NGO (per campaign when filtered), however many donations it holds.
 */
export interface Tally {
  kind: DonationKind;
  /** The fund the gifts were given to (decision 048). */
  fund: FundKind;
  status: DonationStatus;
  /** The pick-up's state; null for a donation without a pick-up (all cash). */
  pickupStatus: string | null;
  n: number;
  /** Whole rupees (cash; goods have no amount). */
  amount: number;
}

/**
 * The campaign of the NGO's rows for all its campaigns: every change is counted in its campaign's row and in this one,
 * so the unfiltered totals read a handful of rows however many campaigns the NGO has (decision 044).
 */
export const ALL_CAMPAIGNS = "00000000-0000-0000-0000-000000000000";

/** The tallies of the donations paid to `ngoId`, of one kind or all, of one campaign or all. */
export async function tallies(db: DbOrTx, ngoId: string, opts: { kind?: DonationKind; campaignId?: string | null } = {}): Promise<Tally[]> {
  const rows = await db
    .select({
      kind: donationTallies.kind,
      fund: donationTallies.fund,
      status: donationTallies.status,
      pickupStatus: donationTallies.pickupStatus,
      n: sql<number>`sum(${donationTallies.n})`.mapWith(Number),
      amount: sql<number>`sum(${donationTallies.amount})`.mapWith(Number),
    })
    .from(donationTallies)
    .where(
      and(
        eq(donationTallies.ngoId, ngoId),
        opts.kind ? eq(donationTallies.kind, opts.kind) : undefined,
        eq(donationTallies.campaignId, opts.campaignId ?? ALL_CAMPAIGNS),
      ),
    )
    .groupBy(donationTallies.kind, donationTallies.fund, donationTallies.status, donationTallies.pickupStatus);
  return rows.filter((r) => r.n !== 0).map((r) => ({ ...r, pickupStatus: r.pickupStatus === "" ? null : r.pickupStatus }));
}

/** Every tally row counted afresh from the donations themselves: what the kept tallies must always equal. */
export function freshTallies(db: DbOrTx, where?: SQL) {
  return db
    .select({
      ngoId: donations.recipientNgoId,
      campaignId: donations.campaignId,
      kind: donations.kind,
      fund: donations.fund,
      status: donations.status,
      pickupStatus: sql<string>`coalesce(${pickups.status}::text, '')`,
      n: sql<number>`count(*)`.mapWith(Number),
      amount: sql<number>`coalesce(sum(${donations.amount}), 0)`.mapWith(Number),
    })
    .from(donations)
    .leftJoin(pickups, eq(pickups.donationId, donations.id))
    .where(where)
    .groupBy(donations.recipientNgoId, donations.campaignId, donations.kind, donations.fund, donations.status, pickups.status);
}

/**
 * The tallies that differ from a fresh count, as `ngo/campaign/kind/fund/status/pickup: kept ≠ counted` lines: none when
 * they agree. The scale seed, the soak's reconciliation and the tests ask it.
 */
export async function tallyDrift(db: DbOrTx): Promise<string[]> {
  const [kept, fresh] = await Promise.all([db.select().from(donationTallies), freshTallies(db)]);
  const key = (r: { ngoId: string; campaignId: string; kind: string; fund: string; status: string; pickupStatus: string }) =>
    `${r.ngoId}/${r.campaignId}/${r.kind}/${r.fund}/${r.status}/${r.pickupStatus}`;
  // Each campaign's count, and the NGO's for all its campaigns.
  const counted = new Map<string, { n: number; amount: number }>();
  for (const r of fresh) {
    for (const campaignId of [r.campaignId, ALL_CAMPAIGNS]) {
      const k = key({ ...r, campaignId });
      const sum = counted.get(k) ?? { n: 0, amount: 0 };
      counted.set(k, { n: sum.n + r.n, amount: sum.amount + r.amount });
    }
  }
  const out: string[] = [];
  for (const k of kept) {
    const f = counted.get(key(k));
    counted.delete(key(k));
    const [n, amount] = [f?.n ?? 0, f?.amount ?? 0];
    if (Number(k.n) !== n || Number(k.amount) !== amount) out.push(`${key(k)}: ${k.n}/${k.amount} ≠ ${n}/${amount}`);
  }
  for (const [k, f] of counted) out.push(`${k}: none ≠ ${f.n}/${f.amount}`);
  return out;
}

/**
 * Whether the NGO holds any donation to the campaign `campaignId` (a column of the outer query) of this kind, in one of
 * these states or pick-up states, from the kept tallies: a probe of their key per campaign, where an `EXISTS` over the
 * donations read every donation of each campaign and kept the NGO's (decision 044). For the lists' campaign filters.
 * `offset 0` keeps it a probe per campaign in the filter's A–Z walk: as a join, PostgreSQL hashed every tally of the
 * NGO's and sorted all the campaigns they name (it guessed a few hundred where the busy NGO has 5,000).
 */
export function tallied(
  ngoId: string,
  campaignId: SQL,
  opts: { kind?: DonationKind; statuses?: readonly DonationStatus[]; pickupStatuses?: readonly string[] } = {},
): SQL {
  const t = donationTallies;
  return sql`exists (select 1 from ${t} where ${and(
    eq(t.ngoId, ngoId),
    sql`${t.campaignId} = ${campaignId}`,
    opts.kind ? eq(t.kind, opts.kind) : undefined,
    opts.statuses ? inArray(t.status, [...opts.statuses]) : undefined,
    opts.pickupStatuses ? inArray(t.pickupStatus, [...opts.pickupStatuses]) : undefined,
    sql`${t.n} > 0`,
  )} offset 0)`;
}
