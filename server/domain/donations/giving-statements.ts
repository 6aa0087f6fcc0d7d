import { and, asc, count, desc, eq, gte, isNotNull, lt, max, min, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { donations, donorProfiles, ngoProfiles, campaigns, users } from "#server/db/schema.ts";
import type { Actor } from "#server/domain/policy.ts";
import { FUND_KINDS, type FundKind } from "#shared/statuses.ts";
import { donationScope } from "./policy.ts";
import { formatReceiptNumber } from "./receipt-number.ts";
import {
  FISCAL_YEAR_MAX,
  FISCAL_YEAR_MIN,
  fiscalYearBounds,
  fiscalYearOf,
  HIJRI_YEAR_MAX,
  HIJRI_YEAR_MIN,
  hijriDateOf,
  hijriYearBounds,
} from "./giving-years.ts";

/**
 * The donor's statements (decision 052): the yearly giving statement of a fiscal year (July to June, Pakistan time)
 * and the Zakat summary of a Hijri (Umm al-Qura) year. Both list the donor's approved cash gifts, the ones with a
 * receipt, grouped by NGO and by fund, with subtotals and a total summed by the database over every gift of the
 * period. Goods are not listed: an in-kind gift has no amount and no receipt number (decision 052).
 */

/** The two statements: the fiscal year's, every fund; the Hijri year's, Zakat only. */
export const STATEMENT_KINDS = ["fiscal", "zakat"] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/**
 * At most this many gifts are written out one by one in a statement (about 15 A4 pages); the subtotals and the total
 * always count every gift of the period, and the statement says how many are not listed. It bounds a statement's
 * memory and time for a donor with thousands of gifts a year (decision 052, measured there).
 */
export const STATEMENT_GIFTS_LISTED = 500;

/** At most this many years are offered on the statements page, the newest first. */
export const STATEMENT_YEARS_LISTED = 30;

/** A gift as the statement lists it. */
export interface StatementGift {
  approvedAt: Date;
  amount: number;
  /** The receipt number, written the one way (N042-000123). */
  receipt: string;
  campaignTitle: string;
  inNameOf: string | null;
}

/** One fund's gifts to one NGO: its subtotal over every gift, and the gifts listed (all unless the statement is cut). */
export interface StatementFund {
  fund: FundKind;
  total: number;
  count: number;
  gifts: StatementGift[];
}

export interface StatementNgo {
  ngoId: string;
  name: string;
  registrationNumber: string;
  total: number;
  count: number;
  funds: StatementFund[];
}

export interface GivingStatement {
  kind: StatementKind;
  /** The fiscal year by the calendar year it starts in (2025 is 2025–26), or the Hijri year. */
  year: number;
  from: Date;
  to: Date;
  donor: { name: string; email: string };
  ngos: StatementNgo[];
  /** The totals per fund over every NGO, in the order of FUND_KINDS, funds without gifts left out. */
  funds: { fund: FundKind; total: number; count: number }[];
  total: number;
  count: number;
  /** How many gifts are written out one by one (STATEMENT_GIFTS_LISTED at most); `count - listed` are in the totals only. */
  listed: number;
}

/** Whether a year may be asked for at all (an address outside it is "not found"). */
export function validStatementYear(kind: StatementKind, year: number): boolean {
  return (
    Number.isInteger(year) &&
    (kind === "fiscal" ? year >= FISCAL_YEAR_MIN && year <= FISCAL_YEAR_MAX : year >= HIJRI_YEAR_MIN && year <= HIJRI_YEAR_MAX)
  );
}

/** The moments a statement covers. */
export function statementBounds(kind: StatementKind, year: number): { from: Date; to: Date } {
  return kind === "fiscal" ? fiscalYearBounds(year) : hijriYearBounds(year);
}

/** The gifts a statement counts, for `actor`: theirs only (policy `statement`), approved cash with a receipt, of the kind's fund. */
function counted(actor: Actor, kind: StatementKind): SQL {
  return and(
    donationScope(actor, "statement"),
    eq(donations.kind, "cash"),
    eq(donations.status, "approved"),
    isNotNull(donations.receiptNumber),
    isNotNull(donations.amount),
    isNotNull(donations.decidedAt),
    kind === "zakat" ? eq(donations.fund, "zakat") : undefined,
  )!;
}

const amountSum = sql<number>`coalesce(sum(${donations.amount}), 0)`.mapWith(Number);

/**
 * The statement of `actor`'s gifts in one year, or null when they made none that counts (or asked for a year out of
 * range). A gift's date is its receipt's: the moment the NGO approved it (`decided_at`), as the receipt states it.
 */
export async function givingStatement(
  db: DbOrTx,
  actor: Actor,
  kind: StatementKind,
  year: number,
  /** How many gifts to write out one by one (tests ask for fewer than the bound to see the cut). */
  { listed = STATEMENT_GIFTS_LISTED }: { listed?: number } = {},
): Promise<GivingStatement | null> {
  if (!validStatementYear(kind, year)) return null;
  const { from, to } = statementBounds(kind, year);
  const where = and(counted(actor, kind), gte(donations.decidedAt, from), lt(donations.decidedAt, to));

  // Every gift of the period, summed by NGO and fund: the subtotals and totals never depend on how many are listed.
  const sums = await db
    .select({
      ngoId: donations.recipientNgoId,
      name: ngoProfiles.name,
      registrationNumber: ngoProfiles.registrationNumber,
      fund: donations.fund,
      total: amountSum,
      count: count(),
    })
    .from(donations)
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .where(where)
    .groupBy(donations.recipientNgoId, ngoProfiles.name, ngoProfiles.registrationNumber, donations.fund)
    .orderBy(asc(ngoProfiles.name), asc(donations.recipientNgoId), asc(donations.fund));
  if (sums.length === 0) return null;

  // The gifts one by one, in the same order (NGO, fund, date), up to the bound.
  const rows = await db
    .select({
      ngoId: donations.recipientNgoId,
      fund: donations.fund,
      approvedAt: donations.decidedAt,
      amount: sql<number>`${donations.amount}`.mapWith(Number),
      receiptNumber: donations.receiptNumber,
      receiptSeries: ngoProfiles.receiptSeries,
      campaignTitle: campaigns.title,
      inNameOf: donations.inNameOf,
    })
    .from(donations)
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(where)
    .orderBy(
      asc(ngoProfiles.name),
      asc(donations.recipientNgoId),
      asc(donations.fund),
      asc(donations.decidedAt),
      asc(donations.receiptNumber),
    )
    .limit(listed);

  const ngos: StatementNgo[] = [];
  const fundOf = new Map<string, StatementFund>();
  for (const s of sums) {
    let ngo = ngos.at(-1);
    if (ngo?.ngoId !== s.ngoId) {
      ngo = { ngoId: s.ngoId, name: s.name, registrationNumber: s.registrationNumber, total: 0, count: 0, funds: [] };
      ngos.push(ngo);
    }
    const fund: StatementFund = { fund: s.fund, total: s.total, count: s.count, gifts: [] };
    ngo.funds.push(fund);
    ngo.total += s.total;
    ngo.count += s.count;
    fundOf.set(`${s.ngoId}:${s.fund}`, fund);
  }
  for (const r of rows) {
    fundOf.get(`${r.ngoId}:${r.fund}`)?.gifts.push({
      // Both are present: the query keeps only gifts with a decision time and a receipt number.
      approvedAt: r.approvedAt ?? new Date(0),
      amount: r.amount,
      receipt: formatReceiptNumber(r.receiptSeries, r.receiptNumber ?? 0),
      campaignTitle: r.campaignTitle,
      inNameOf: r.inNameOf,
    });
  }
  const funds = FUND_KINDS.flatMap((fund) => {
    const of = sums.filter((s) => s.fund === fund);
    return of.length === 0 ? [] : [{ fund, total: of.reduce((a, s) => a + s.total, 0), count: of.reduce((a, s) => a + s.count, 0) }];
  });
  return {
    kind,
    year,
    from,
    to,
    donor: await donorOf(db, actor.id),
    ngos,
    funds,
    total: ngos.reduce((a, n) => a + n.total, 0),
    count: ngos.reduce((a, n) => a + n.count, 0),
    listed: rows.length,
  };
}

async function donorOf(db: DbOrTx, userId: string): Promise<{ name: string; email: string }> {
  const [row] = await db
    .select({
      name: sql<string>`coalesce(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}, ${users.email})`,
      email: users.email,
    })
    .from(users)
    .leftJoin(donorProfiles, eq(donorProfiles.userId, users.id))
    .where(eq(users.id, userId));
  return row ?? { name: "", email: "" };
}

/** A year the donor has gifts in, for the statements page: how many and how much. */
export interface StatementYear {
  year: number;
  count: number;
  total: number;
}

/**
 * The years `actor` has counted gifts in, newest first, at most STATEMENT_YEARS_LISTED: fiscal years for the yearly
 * statement, Hijri years of Zakat gifts for the summary. The years between the first and the last gift are asked of
 * the database in one query, each as a range of moments (a CASE over the ranges), so a year's bounds are exactly the
 * ones its statement uses, with no calendar in SQL.
 */
export async function statementYears(
  db: DbOrTx,
  actor: Actor,
  kind: StatementKind,
): Promise<{
  years: StatementYear[];
  /** Gifts before the oldest year offered (the page says only the newest are shown). */ older: boolean;
}> {
  const [span] = await db
    .select({ first: min(donations.decidedAt), last: max(donations.decidedAt) })
    .from(donations)
    .where(counted(actor, kind));
  if (!span?.first || !span.last) return { years: [], older: false };
  const yearOf = (d: Date) => (kind === "fiscal" ? fiscalYearOf(d) : hijriDateOf(d).year);
  const lowest = Math.max(yearOf(new Date(span.first)), yearOf(new Date(span.last)) - STATEMENT_YEARS_LISTED + 1);
  const candidates: { year: number; from: Date; to: Date }[] = [];
  for (let y = yearOf(new Date(span.last)); y >= lowest; y--) {
    if (validStatementYear(kind, y)) candidates.push({ year: y, ...statementBounds(kind, y) });
  }
  if (candidates.length === 0) return { years: [], older: false };
  const oldest = candidates.at(-1)!.from;
  const yearExpr = sql<number>`case ${sql.join(
    candidates.map(
      (c) =>
        sql`when ${donations.decidedAt} >= ${c.from.toISOString()} and ${donations.decidedAt} < ${c.to.toISOString()} then ${c.year}::int`,
    ),
    sql` `,
  )} end`.mapWith(Number);
  const rows = await db
    .select({ year: yearExpr, count: count(), total: amountSum })
    .from(donations)
    .where(and(counted(actor, kind), gte(donations.decidedAt, oldest)))
    .groupBy(sql`1`)
    .orderBy(desc(sql`1`));
  return { years: rows.filter((r) => Number.isInteger(r.year)), older: yearOf(new Date(span.first)) < lowest };
}
