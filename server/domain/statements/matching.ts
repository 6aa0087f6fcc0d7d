import { and, asc, desc, eq, inArray, isNull, notExists, sql } from "drizzle-orm";
import type { PaymentMethod } from "#shared/constants.ts";
import type { MatchRule } from "#shared/statuses.ts";
import type { Db, DbOrTx } from "#server/db/client.ts";
import { donations, pledges, statementImports, statementLines } from "#server/db/schema.ts";
import type { JobQueue } from "#server/jobs/queue.ts";
import { addDays } from "#server/domain/dates.ts";
import { pledgeCodesIn } from "#server/domain/donations/pledges.ts";
import { fromStates } from "./states.ts";

/**
 * Matching statement lines to pending gifts (decision 022). The rules, strongest first; each line is tied to at
 * most one gift and each gift to at most one line:
 * 1. the transfer's transaction ID: the line's reference, or a word of its description, equals the ID the donor typed;
 * 2. the pledge code in the remark (or reference);
 * 3. the amount within the days around the gift, with the sender's phone equal to the donor's;
 * 4. the amount within those days alone, only when exactly one line and one gift fit each other.
 * An ID or code match with another amount is still shown, with low confidence and "amount differs".
 */

/** How sure each rule is, 0–100, when the amount agrees; AMOUNT_DIFFERS when it does not. */
export const MATCH_CONFIDENCE: Record<MatchRule, number> = {
  transaction_id: 100,
  pledge_code: 95,
  amount_phone: 80,
  amount_date: 50,
  manual: 100,
};
export const AMOUNT_DIFFERS_CONFIDENCE = { transaction_id: 60, pledge_code: 55 } as const;
/** Rule 3 and 4: the statement day may be this many days before the pledge (clocks, late uploads) or after the gift (posting delays). */
export const MATCH_DAYS_BEFORE = 1;
export const MATCH_DAYS_AFTER = 3;
/** The most gifts and lines one matching round looks at: the newest, so a round stays bounded on a large account. */
export const MATCH_MAX_GIFTS = 5_000;
export const MATCH_MAX_LINES = 20_000;

export interface LineToMatch {
  id: string;
  postedOn: string;
  amountPaisa: number;
  description: string;
  reference: string;
  senderPhone: string | null;
}

export interface GiftToMatch {
  id: string;
  amount: number;
  transactionId: string | null;
  phone: string | null;
  pledgeCode: string | null;
  /** Pakistan days: when the pledge was made (or the gift, without one) and when the gift was sent. */
  firstDay: string;
  lastDay: string;
}

export interface Match {
  lineId: string;
  donationId: string;
  rule: MatchRule;
  confidence: number;
}

const words = (text: string) =>
  text
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((w) => w.length >= 4);

/** The matches the rules find among these lines and gifts, pure (the database part is `matchAccount`). */
export function findMatches(lines: readonly LineToMatch[], gifts: readonly GiftToMatch[]): Match[] {
  const out: Match[] = [];
  const usedLines = new Set<string>();
  const usedGifts = new Set<string>();
  const take = (line: LineToMatch, gift: GiftToMatch, rule: MatchRule) => {
    const same = line.amountPaisa === gift.amount * 100;
    const confidence = same ? MATCH_CONFIDENCE[rule] : AMOUNT_DIFFERS_CONFIDENCE[rule as keyof typeof AMOUNT_DIFFERS_CONFIDENCE];
    out.push({ lineId: line.id, donationId: gift.id, rule, confidence });
    usedLines.add(line.id);
    usedGifts.add(gift.id);
  };
  const byKey = (key: (g: GiftToMatch) => string | null) => {
    const map = new Map<string, GiftToMatch[]>();
    for (const g of gifts) {
      const k = key(g);
      if (k) map.set(k, [...(map.get(k) ?? []), g]);
    }
    return map;
  };
  // One gift for the key: two gifts claiming one transaction ID (a reused screenshot) are left to the reviewer.
  const only = (found: GiftToMatch[] | undefined) => (found && found.length === 1 && !usedGifts.has(found[0]!.id) ? found[0]! : null);

  const byTransaction = byKey((g) => (g.transactionId && g.transactionId.length >= 4 ? g.transactionId : null));
  for (const line of lines) {
    const keys = new Set([line.reference, ...words(line.description)].filter(Boolean));
    const hits = [...keys].map((k) => only(byTransaction.get(k))).filter((g): g is GiftToMatch => g !== null);
    const distinct = [...new Map(hits.map((g) => [g.id, g])).values()];
    if (distinct.length === 1) take(line, distinct[0]!, "transaction_id");
  }

  const byPledge = byKey((g) => g.pledgeCode);
  for (const line of lines) {
    if (usedLines.has(line.id)) continue;
    const hits = pledgeCodesIn(`${line.description} ${line.reference}`)
      .map((c) => only(byPledge.get(c)))
      .filter((g): g is GiftToMatch => g !== null);
    if (hits.length === 1) take(line, hits[0]!, "pledge_code");
  }

  // By amount and days: every line's candidate gifts and every gift's candidate lines, so only one-to-one fits count.
  const fits = (line: LineToMatch, g: GiftToMatch) =>
    !usedGifts.has(g.id) &&
    line.amountPaisa === g.amount * 100 &&
    line.postedOn >= addDays(g.firstDay, -MATCH_DAYS_BEFORE) &&
    line.postedOn <= addDays(g.lastDay, MATCH_DAYS_AFTER);
  const byAmount = byKey((g) => String(g.amount * 100));
  const open = lines.filter((l) => !usedLines.has(l.id));
  const linesOfGift = new Map<string, LineToMatch[]>();
  const giftsOfLine = new Map<string, GiftToMatch[]>();
  for (const line of open) {
    const candidates = (byAmount.get(String(line.amountPaisa)) ?? []).filter((g) => fits(line, g));
    giftsOfLine.set(line.id, candidates);
    for (const g of candidates) linesOfGift.set(g.id, [...(linesOfGift.get(g.id) ?? []), line]);
  }
  for (const line of open) {
    const candidates = giftsOfLine.get(line.id)!.filter((g) => !usedGifts.has(g.id));
    const samePhone = line.senderPhone ? candidates.filter((g) => g.phone === line.senderPhone) : [];
    if (samePhone.length === 1) {
      take(line, samePhone[0]!, "amount_phone");
      continue;
    }
    if (candidates.length === 1 && linesOfGift.get(candidates[0]!.id)!.length === 1) take(line, candidates[0]!, "amount_date");
  }
  return out;
}

/** A timestamp's Pakistan day (UTC+5, no daylight saving), as SQL. */
const pakistanDay = (column: unknown) => sql<string>`to_char(${column} + interval '5 hours', 'YYYY-MM-DD')`;

/**
 * Matches the unmatched credit lines of one account of an NGO to its pending gifts by that method, and returns how
 * many it tied. One round at a time per account (an advisory lock), and each gift is locked and checked still
 * pending before its line is tied, so a concurrent import, a decision or a hand match can never tie a line to two
 * gifts, a gift to two lines, or a line to a decided gift (the unique index on `donation_id` stands behind this).
 */
export async function matchAccount(db: Db, ngoId: string, method: PaymentMethod, opts: { importId?: string } = {}): Promise<number> {
  // Most accounts have no statement line waiting (most NGOs import none): a proof sent to them costs one indexed look.
  const [waiting] = await db
    .select({ id: statementLines.id })
    .from(statementLines)
    .where(and(eq(statementLines.ngoId, ngoId), eq(statementLines.method, method), inArray(statementLines.status, fromStates("match"))))
    .limit(1);
  if (!waiting) return 0;
  return db.transaction(async (tx) => {
    await lockAccount(tx, ngoId, method);
    const gifts = await tx
      .select({
        id: donations.id,
        amount: sql<number>`${donations.amount}`.mapWith(Number),
        transactionId: donations.transactionId,
        phone: donations.phone,
        pledgeCode: pledges.code,
        firstDay: pakistanDay(sql`coalesce(${pledges.createdAt}, ${donations.createdAt})`),
        lastDay: pakistanDay(donations.createdAt),
      })
      .from(donations)
      .leftJoin(pledges, eq(pledges.id, donations.pledgeId))
      .where(
        and(
          eq(donations.recipientNgoId, ngoId),
          eq(donations.method, method),
          eq(donations.kind, "cash"),
          eq(donations.status, "pending"),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(statementLines)
              .where(eq(statementLines.donationId, donations.id)),
          ),
        ),
      )
      .orderBy(desc(donations.createdAt))
      .limit(MATCH_MAX_GIFTS);
    if (gifts.length === 0) return 0;
    const lines = await tx
      .select({
        id: statementLines.id,
        postedOn: statementLines.postedOn,
        amountPaisa: statementLines.amountPaisa,
        description: statementLines.description,
        reference: statementLines.reference,
        senderPhone: statementLines.senderPhone,
      })
      .from(statementLines)
      .where(and(eq(statementLines.ngoId, ngoId), eq(statementLines.method, method), inArray(statementLines.status, fromStates("match"))))
      .orderBy(desc(statementLines.postedOn), asc(statementLines.id))
      .limit(MATCH_MAX_LINES);
    let tied = 0;
    for (const m of findMatches(lines, gifts)) {
      if (await tieLine(tx, m)) tied++;
    }
    // Counted with the ties, in their transaction: a round run again (a retried job) ties nothing and adds nothing.
    if (opts.importId && tied > 0) {
      await tx
        .update(statementImports)
        .set({ matchedLines: sql`${statementImports.matchedLines} + ${tied}` })
        .where(eq(statementImports.id, opts.importId));
    }
    return tied;
  });
}

/**
 * Queues a matching round for one account of an NGO on `db` (the transaction of the gift whose proof just arrived or
 * was corrected), when a line of its statements waits for a gift: most NGOs import none, so most proofs cost one
 * indexed look and queue nothing. The `account-match` job runs `matchAccount`; one waits per account at a time.
 */
export async function queueAccountMatch(
  services: { db: DbOrTx; jobs: Pick<JobQueue, "send"> },
  ngoId: string,
  method: PaymentMethod,
): Promise<void> {
  const [waiting] = await services.db
    .select({ id: statementLines.id })
    .from(statementLines)
    .where(and(eq(statementLines.ngoId, ngoId), eq(statementLines.method, method), inArray(statementLines.status, fromStates("match"))))
    .limit(1);
  if (waiting) await services.jobs.send(services.db, "account-match", { ngoId, method }, { key: `${ngoId}:${method}` });
}

/** The `statement-match` job (server/jobs/workers.ts): the round after an import, credited to that import. */
export async function matchImported(db: Db, job: { importId: string; ngoId: string; method: PaymentMethod }): Promise<number> {
  return matchAccount(db, job.ngoId, job.method, { importId: job.importId });
}

/** Serialises matching, hand matches and imports of one account (released at commit). */
export async function lockAccount(tx: DbOrTx, ngoId: string, method: PaymentMethod): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`statements:${ngoId}:${method}`}))`);
}

/** Ties a line to a gift if the gift is still pending (locked first: donation before line, as approvals lock) and the line still unmatched. */
export async function tieLine(tx: DbOrTx, m: Match, decidedBy: string | null = null): Promise<boolean> {
  const [gift] = await tx
    .select({ id: donations.id })
    .from(donations)
    .where(and(eq(donations.id, m.donationId), eq(donations.status, "pending")))
    .for("update");
  if (!gift) return false;
  const [line] = await tx
    .update(statementLines)
    .set({
      status: "matched",
      donationId: m.donationId,
      matchRule: m.rule,
      confidence: m.confidence,
      decidedBy,
      decidedAt: decidedBy ? sql`now()` : null,
    })
    .where(
      and(
        eq(statementLines.id, m.lineId),
        inArray(statementLines.status, fromStates("match")),
        isNull(statementLines.donationId),
        sql`not exists (select 1 from statement_lines other where other.donation_id = ${m.donationId})`,
      ),
    )
    .returning({ id: statementLines.id });
  return line !== undefined;
}
