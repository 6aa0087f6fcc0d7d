import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "#server/db/client.ts";
import {
  campaignPartners,
  campaigns,
  donations,
  donorProfiles,
  ngoProfiles,
  pickupEvents,
  pickups,
  spendingRecords,
} from "#server/db/schema.ts";
import { LEDGER_PAGE_SIZE, LEDGER_RECENT_ROWS } from "#shared/constants.ts";
import type { Paged } from "#shared/paging.ts";
import { FUND_KINDS } from "#shared/statuses.ts";
import type { FundBalance, LedgerGift, LedgerGoods, LedgerSpending, PublicLedger } from "#shared/ledger.ts";

export type { FundBalance, LedgerGift, LedgerGoods, LedgerSpending, PublicLedger };
import { notFound } from "#server/domain/errors.ts";

/**
 * A campaign's public ledger (decision 049): what came in (approved cash gifts, goods received) and what went out
 * (published spending records with their documents), with raised, spent and balance per fund. Anyone may read it;
 * nothing in it names a donor who did not choose to be named: the name is chosen in SQL (`show_name`), so a donor's
 * name never leaves the database for a gift they gave anonymously.
 */

/** Pages of each list the ledger page goes through at most: the offset stays bounded however old a campaign is. */
export const LEDGER_MAX_PAGE = 200;
/** Longer than any slug the product makes: not looked up at all. */
const MAX_SLUG_LENGTH = 200;

const corrected = alias(spendingRecords, "corrected");

/** A public (not archived) campaign by its slug: its id and title. */
async function campaignBySlug(db: DbOrTx, slug: string): Promise<{ id: string; title: string; joint: boolean }> {
  if (!slug || slug.length > MAX_SLUG_LENGTH) throw notFound();
  const [row] = await db
    .select({
      id: campaigns.id,
      title: campaigns.title,
      // Run with partners, now or before (a partner that left keeps its entries): each entry says which NGO.
      joint: sql<boolean>`exists (select 1 from ${campaignPartners} where ${campaignPartners.campaignId} = ${campaigns.id}
        and ${campaignPartners.status} in ('accepted', 'left'))`,
    })
    .from(campaigns)
    .where(and(eq(campaigns.slug, slug), ne(campaigns.status, "archived")))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

const approvedCash = (campaignId: string) =>
  and(eq(donations.campaignId, campaignId), eq(donations.status, "approved"), eq(donations.kind, "cash"));

/** Goods whose pick-up the NGO confirmed as received. */
const goodsReceived = (campaignId: string) =>
  and(eq(donations.campaignId, campaignId), eq(donations.kind, "in_kind"), eq(pickups.status, "received"));

/** Published, and not replaced by a published correction: what the totals count. */
// The outer row is named by its table (`spending_records.id`): Drizzle writes a bare "id" in a one-table select, which
// inside this subquery would be the inner row's own.
const notCorrected = sql`not exists (select 1 from spending_records c where c.corrects_id = spending_records.id and c.status = 'published')`;

const published = (campaignId: string) => and(eq(spendingRecords.campaignId, campaignId), eq(spendingRecords.status, "published"));

/**
 * What the public list shows: published records, and those the administrator took down (they keep their place, saying
 * when they were removed, without their amount, purpose or document; the totals leave them out).
 */
const listed = (campaignId: string) =>
  and(eq(spendingRecords.campaignId, campaignId), inArray(spendingRecords.status, ["published", "taken_down"]));

/** A column of a published record; null once taken down, so what was removed never leaves the database for the public. */
const whilePublished = <T>(column: AnyPgColumn) => sql<T | null>`case when ${spendingRecords.status} = 'published' then ${column} end`;

/** Raised, spent and balance per fund: sums of approved cash gifts and of published, uncorrected spending. */
export async function fundBalances(db: DbOrTx, campaignId: string): Promise<FundBalance[]> {
  const [raised, spent] = await Promise.all([
    db
      .select({ fund: donations.fund, total: sql<number>`coalesce(sum(${donations.amount}), 0)`.mapWith(Number) })
      .from(donations)
      .where(approvedCash(campaignId))
      .groupBy(donations.fund),
    db
      .select({ fund: spendingRecords.fund, total: sql<number>`coalesce(sum(${spendingRecords.amount}), 0)`.mapWith(Number) })
      .from(spendingRecords)
      .where(and(published(campaignId), notCorrected))
      .groupBy(spendingRecords.fund),
  ]);
  return FUND_KINDS.flatMap((fund) => {
    const r = raised.find((x) => x.fund === fund)?.total ?? 0;
    const s = spent.find((x) => x.fund === fund)?.total ?? 0;
    return r === 0 && s === 0 ? [] : [{ fund, raised: r, spent: s, balance: r - s }];
  });
}

function giftsQuery(db: DbOrTx, campaignId: string, limit: number, offset: number) {
  return db
    .select({
      amount: sql<number>`${donations.amount}`.mapWith(Number),
      at: sql<Date>`coalesce(${donations.decidedAt}, ${donations.createdAt})`.mapWith(donations.createdAt),
      fund: donations.fund,
      // Chosen here, so an anonymous donor's name is never read out of the database for the public.
      donorName: sql<
        string | null
      >`case when ${donations.showName} then trim(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}) end`,
      ngoName: sql<string>`coalesce(${ngoProfiles.name}, '')`,
    })
    .from(donations)
    .leftJoin(donorProfiles, and(eq(donorProfiles.userId, donations.donorId), eq(donations.showName, true)))
    .leftJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .where(approvedCash(campaignId))
    .orderBy(desc(sql`coalesce(${donations.decidedAt}, ${donations.createdAt})`), desc(donations.id))
    .limit(limit)
    .offset(offset);
}

/** When the NGO confirmed receipt: the pick-up's `received` event (its last change, for a pick-up older than events). */
const receivedAt = sql`coalesce((select max(${pickupEvents.createdAt}) from ${pickupEvents}
  where ${pickupEvents.donationId} = ${donations.id} and ${pickupEvents.type} = 'received'), ${pickups.updatedAt})`;

function goodsQuery(db: DbOrTx, campaignId: string, limit: number, offset: number) {
  return db
    .select({
      // What the NGO noted as arrived, where it did; otherwise what the donor offered.
      items: sql<string>`coalesce(nullif(trim(${pickups.receivedNote}), ''), ${donations.items}, '')`,
      at: sql<Date>`${receivedAt}`.mapWith(pickups.updatedAt),
      ngoName: sql<string>`coalesce(${ngoProfiles.name}, '')`,
    })
    .from(donations)
    .innerJoin(pickups, eq(pickups.donationId, donations.id))
    .leftJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .where(goodsReceived(campaignId))
    .orderBy(desc(receivedAt), desc(donations.id))
    .limit(limit)
    .offset(offset);
}

async function spendingQuery(db: DbOrTx, campaignId: string, limit: number, offset: number): Promise<LedgerSpending[]> {
  const rows = await db
    .select({
      id: spendingRecords.id,
      amount: whilePublished<number>(spendingRecords.amount).mapWith(Number),
      spentOn: spendingRecords.spentOn,
      fund: spendingRecords.fund,
      purpose: whilePublished<string>(spendingRecords.purpose),
      documentKey: whilePublished<string>(spendingRecords.documentKey),
      takenDownAt: spendingRecords.takenDownAt,
      ngoName: sql<string>`coalesce(${ngoProfiles.name}, '')`,
      publishedAt: spendingRecords.publishedAt,
      correctsAmount: corrected.amount,
      correctsSpentOn: corrected.spentOn,
      corrected: sql<boolean>`not ${notCorrected}`,
    })
    .from(spendingRecords)
    .leftJoin(ngoProfiles, eq(ngoProfiles.userId, spendingRecords.ngoId))
    .leftJoin(corrected, eq(corrected.id, spendingRecords.correctsId))
    .where(listed(campaignId))
    .orderBy(desc(spendingRecords.spentOn), desc(spendingRecords.publishedAt), desc(spendingRecords.id))
    .limit(limit)
    .offset(offset);
  return rows.map(({ correctsAmount, correctsSpentOn, publishedAt, ...r }) => ({
    ...r,
    publishedAt: publishedAt!,
    corrects: correctsAmount !== null && correctsSpentOn !== null ? { amount: correctsAmount, spentOn: correctsSpentOn } : null,
  }));
}

/** The ledger section of the campaign's public page: the balances and the most recent entries of each list. */
export async function publicLedger(db: DbOrTx, slug: string): Promise<PublicLedger> {
  const { id } = await campaignBySlug(db, slug);
  const n = LEDGER_RECENT_ROWS;
  const [funds, gifts, goods, spending] = await Promise.all([
    fundBalances(db, id),
    giftsQuery(db, id, n + 1, 0),
    goodsQuery(db, id, n + 1, 0),
    spendingQuery(db, id, n + 1, 0),
  ]);
  return {
    funds,
    gifts: gifts.slice(0, n),
    goods: goods.slice(0, n),
    spending: spending.slice(0, n),
    more: { gifts: gifts.length > n, goods: goods.length > n, spending: spending.length > n },
  };
}

export interface LedgerPages {
  title: string;
  joint: boolean;
  funds: FundBalance[];
  gifts: Paged<LedgerGift>;
  goods: Paged<LedgerGoods>;
  spending: Paged<LedgerSpending>;
}

const count = async (db: DbOrTx, from: "gifts" | "goods" | "spending", campaignId: string): Promise<number> => {
  const n = sql<number>`count(*)`.mapWith(Number);
  const where: Record<typeof from, () => Promise<{ n: number }[]>> = {
    gifts: () => db.select({ n }).from(donations).where(approvedCash(campaignId)),
    goods: () => db.select({ n }).from(donations).innerJoin(pickups, eq(pickups.donationId, donations.id)).where(goodsReceived(campaignId)),
    spending: () => db.select({ n }).from(spendingRecords).where(listed(campaignId)),
  };
  const [row] = await where[from]();
  return row?.n ?? 0;
};

/** A page number for one of the ledger's lists, within LEDGER_MAX_PAGE. */
const bounded = (page: number) => Math.min(Math.max(1, Math.trunc(page) || 1), LEDGER_MAX_PAGE);

function paging<T>(rows: T[], page: number, total: number): Paged<T> {
  return { rows, page, pages: Math.min(LEDGER_MAX_PAGE, Math.max(1, Math.ceil(total / LEDGER_PAGE_SIZE))), total };
}

/** The whole ledger of a campaign (/campaign/:slug/ledger): each list a page at a time, newest first. */
export async function ledgerPages(
  db: DbOrTx,
  slug: string,
  pages: { gifts: number; goods: number; spending: number },
): Promise<LedgerPages> {
  const { id, title, joint } = await campaignBySlug(db, slug);
  const g = bounded(pages.gifts);
  const d = bounded(pages.goods);
  const s = bounded(pages.spending);
  const offset = (p: number) => (p - 1) * LEDGER_PAGE_SIZE;
  const [funds, gifts, goods, spending, nGifts, nGoods, nSpending] = await Promise.all([
    fundBalances(db, id),
    giftsQuery(db, id, LEDGER_PAGE_SIZE, offset(g)),
    goodsQuery(db, id, LEDGER_PAGE_SIZE, offset(d)),
    spendingQuery(db, id, LEDGER_PAGE_SIZE, offset(s)),
    count(db, "gifts", id),
    count(db, "goods", id),
    count(db, "spending", id),
  ]);
  return {
    title,
    joint,
    funds,
    gifts: paging(gifts, g, nGifts),
    goods: paging(goods, d, nGoods),
    spending: paging(spending, s, nSpending),
  };
}
