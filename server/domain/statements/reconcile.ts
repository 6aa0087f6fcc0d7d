import { and, asc, count, desc, eq, inArray, isNull, ne, notExists, sql } from "drizzle-orm";
import { DONATION_AMOUNT_MAX, type PaymentMethod } from "#shared/constants.ts";
import type { MatchRule, StatementLineStatus } from "#shared/statuses.ts";
import type { Paged } from "#shared/paging.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid } from "#server/db/query.ts";
import { campaigns, donations, donorProfiles, pledges, statementImports, statementLines, users } from "#server/db/schema.ts";
import type { JobState } from "#server/jobs/queue.ts";
import type { Services } from "#server/services.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { decideCashDonation, type DecisionOutcome } from "#server/domain/donations/cash.ts";
import { donationScope } from "#server/domain/donations/policy.ts";
import { fromStates as donationFromStates } from "#server/domain/donations/states.ts";
import { conflict, DomainError, invalid, notFound } from "#server/domain/errors.ts";
import { pledgeCodesIn } from "#server/domain/donations/pledges.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { lockAccount, MATCH_CONFIDENCE, tieLine } from "./matching.ts";
import { importScope, lineDecisionScope, lineScope } from "./policy.ts";
import { assertTransition, fromStates } from "./states.ts";

/** The reconciliation queue shows this many rows a page: a volunteer works through a statement's fifty transfers at once. */
export const RECONCILE_PAGE_SIZE = 50;
/** The most lines one batch confirmation takes (one page). */
export const CONFIRM_BATCH_MAX = RECONCILE_PAGE_SIZE;
/** A match at least this sure is ticked for the batch confirmation; weaker ones wait for a look. */
export const BATCH_TICK_CONFIDENCE = 80;

function page<T>(rows: T[], pageNo: number, total: number): Paged<T> {
  return { rows, page: pageNo, pages: Math.max(1, Math.ceil(total / RECONCILE_PAGE_SIZE)), total };
}
const offset = (pageNo: number) => (pageNo - 1) * RECONCILE_PAGE_SIZE;

export interface LineRow {
  id: string;
  method: PaymentMethod;
  postedOn: string;
  postedAt: string | null;
  amountPaisa: number;
  description: string;
  sender: string;
  reference: string;
  fileRow: number;
  status: StatementLineStatus;
  ignoredReason: string | null;
}

export interface MatchedRow extends LineRow {
  rule: MatchRule;
  confidence: number;
  donation: {
    id: string;
    amount: number;
    transactionId: string | null;
    phone: string | null;
    pledgeCode: string | null;
    createdAt: Date;
    donorName: string;
    campaignTitle: string;
  };
}

const lineColumns = {
  id: statementLines.id,
  method: statementLines.method,
  postedOn: statementLines.postedOn,
  postedAt: statementLines.postedAt,
  amountPaisa: statementLines.amountPaisa,
  description: statementLines.description,
  sender: statementLines.sender,
  reference: statementLines.reference,
  fileRow: statementLines.fileRow,
  status: statementLines.status,
  ignoredReason: statementLines.ignoredReason,
};

const donorName = sql<string>`coalesce(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}, ${users.email})`;

/** Lines tied to a gift that waits for the NGO's confirmation, surest first. */
export async function matchedLines(db: DbOrTx, actor: Actor, pageNo: number): Promise<Paged<MatchedRow>> {
  const where = and(lineScope(actor), eq(statementLines.status, "matched"));
  const [total] = await db.select({ n: count() }).from(statementLines).where(where);
  const rows = await db
    .select({
      ...lineColumns,
      rule: sql<MatchRule>`${statementLines.matchRule}`,
      confidence: sql<number>`coalesce(${statementLines.confidence}, 0)`.mapWith(Number),
      donationId: donations.id,
      amount: sql<number>`${donations.amount}`.mapWith(Number),
      transactionId: donations.transactionId,
      phone: donations.phone,
      pledgeCode: pledges.code,
      createdAt: donations.createdAt,
      donorName,
      campaignTitle: campaigns.title,
    })
    .from(statementLines)
    .innerJoin(donations, eq(donations.id, statementLines.donationId))
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(users, eq(users.id, donations.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, donations.donorId))
    .leftJoin(pledges, eq(pledges.id, donations.pledgeId))
    .where(where)
    .orderBy(desc(statementLines.confidence), asc(statementLines.postedOn), asc(statementLines.id))
    .limit(RECONCILE_PAGE_SIZE)
    .offset(offset(pageNo));
  return page(
    rows.map(
      ({ donationId, amount, transactionId, phone, pledgeCode, createdAt, donorName: name, campaignTitle, rule, confidence, ...line }) => ({
        ...line,
        rule,
        confidence,
        donation: { id: donationId, amount, transactionId, phone, pledgeCode, createdAt, donorName: name, campaignTitle },
      }),
    ),
    pageNo,
    total?.n ?? 0,
  );
}

/** Credit lines with no gift (`unmatched`) or set aside (`ignored`), newest first. */
export async function linesWithout(db: DbOrTx, actor: Actor, status: "unmatched" | "ignored", pageNo: number): Promise<Paged<LineRow>> {
  const where = and(lineScope(actor), eq(statementLines.status, status));
  const [total] = await db.select({ n: count() }).from(statementLines).where(where);
  const rows = await db
    .select(lineColumns)
    .from(statementLines)
    .where(where)
    .orderBy(desc(statementLines.postedOn), desc(statementLines.postedAt), asc(statementLines.fileRow))
    .limit(RECONCILE_PAGE_SIZE)
    .offset(offset(pageNo));
  return page(
    rows.map((r) => ({ ...r, amountPaisa: Number(r.amountPaisa) })),
    pageNo,
    total?.n ?? 0,
  );
}

export interface WaitingGift {
  id: string;
  amount: number;
  method: PaymentMethod;
  transactionId: string | null;
  phone: string | null;
  pledgeCode: string | null;
  createdAt: Date;
  /** When the donor was reminded that the statement does not show the transfer (reminders.ts). */
  remindedAt: Date | null;
  donorName: string;
  campaignTitle: string;
}

const noLine = (db: DbOrTx) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(statementLines)
      .where(eq(statementLines.donationId, donations.id)),
  );

/** The NGO's pending cash gifts that no statement line is tied to yet, oldest first (they have waited longest). */
export async function waitingGifts(db: DbOrTx, actor: Actor, pageNo: number): Promise<Paged<WaitingGift>> {
  const where = waitingWhere(db, actor);
  const [total] = await db.select({ n: count() }).from(donations).where(where);
  const rows = await giftRows(db, where)
    .orderBy(asc(donations.createdAt), asc(donations.id))
    .limit(RECONCILE_PAGE_SIZE)
    .offset(offset(pageNo));
  return page(rows, pageNo, total?.n ?? 0);
}

/** The NGO's pending cash gifts without a statement line. */
const waitingWhere = (db: DbOrTx, actor: Actor) =>
  and(donationScope(actor, "review"), eq(donations.kind, "cash"), inArray(donations.status, donationFromStates("approve")), noLine(db));

/** Gifts as the queue shows them: amount, method, what the donor typed, the pledge, who and for what. */
function giftRows(db: DbOrTx, where: ReturnType<typeof waitingWhere>) {
  return db
    .select({
      id: donations.id,
      amount: sql<number>`${donations.amount}`.mapWith(Number),
      method: sql<PaymentMethod>`${donations.method}`,
      transactionId: donations.transactionId,
      phone: donations.phone,
      pledgeCode: pledges.code,
      createdAt: donations.createdAt,
      remindedAt: donations.remindedAt,
      donorName,
      campaignTitle: campaigns.title,
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(users, eq(users.id, donations.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, donations.donorId))
    .leftJoin(pledges, eq(pledges.id, donations.pledgeId))
    .where(where)
    .$dynamic();
}

/** How many rows each tab of the queue holds, for its labels. */
export async function reconcileCounts(db: DbOrTx, actor: Actor): Promise<Record<"matched" | "waiting" | "unmatched" | "ignored", number>> {
  const byStatus = await db
    .select({ status: statementLines.status, n: count() })
    .from(statementLines)
    .where(lineScope(actor))
    .groupBy(statementLines.status);
  const n = (s: StatementLineStatus) => byStatus.find((r) => r.status === s)?.n ?? 0;
  const [waiting] = await db
    .select({ n: count() })
    .from(donations)
    .where(
      and(donationScope(actor, "review"), eq(donations.kind, "cash"), inArray(donations.status, donationFromStates("approve")), noLine(db)),
    );
  return { matched: n("matched"), waiting: waiting?.n ?? 0, unmatched: n("unmatched"), ignored: n("ignored") };
}

/**
 * Where an import's matching round (its `statement-match` job) stands: waiting or being tried (again), finished, or
 * given up after its last try. A job no longer kept (a week after it finished) counts as done.
 */
export type MatchingState = "running" | "failed" | "done";

function matchingOf(state: JobState | undefined): MatchingState {
  if (state === "created" || state === "retry" || state === "active") return "running";
  if (state === "failed" || state === "cancelled") return "failed";
  return "done";
}

export interface ImportSummary {
  id: string;
  matching: MatchingState;
  method: PaymentMethod;
  fileName: string;
  creditLines: number;
  debitLines: number;
  newLines: number;
  matchedLines: number;
  firstDay: string | null;
  lastDay: string | null;
  createdAt: Date;
}

/** How many of the NGO's imports its statements page lists. */
const RECENT_IMPORTS = 10;

const importColumns = {
  id: statementImports.id,
  method: statementImports.method,
  fileName: statementImports.fileName,
  creditLines: statementImports.creditLines,
  debitLines: statementImports.debitLines,
  newLines: statementImports.newLines,
  matchedLines: statementImports.matchedLines,
  firstDay: statementImports.firstDay,
  lastDay: statementImports.lastDay,
  createdAt: statementImports.createdAt,
};

/** One import of this NGO (the page after an upload), with where its matching stands; not found for anyone else's. */
export async function importSummary(services: Pick<Services, "db" | "jobs">, actor: Actor, importId: string): Promise<ImportSummary> {
  if (!isUuid(importId)) throw notFound();
  const [row] = await services.db
    .select(importColumns)
    .from(statementImports)
    .where(and(eq(statementImports.id, importId), importScope(actor)))
    .limit(1);
  if (!row) throw notFound();
  const states = await services.jobs.states("statement-match", [row.id]);
  return { ...row, matching: matchingOf(states.get(row.id)) };
}

/** The NGO's latest imports (a bounded list), each with where its matching stands. */
export async function recentImports(services: Pick<Services, "db" | "jobs">, actor: Actor): Promise<ImportSummary[]> {
  const rows = await services.db
    .select(importColumns)
    .from(statementImports)
    .where(importScope(actor))
    .orderBy(desc(statementImports.createdAt))
    .limit(RECENT_IMPORTS);
  const states = await services.jobs.states(
    "statement-match",
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, matching: matchingOf(states.get(r.id)) }));
}

/**
 * How far back an import's matching round may still be open: the queue keeps a job waiting or retrying at most 14
 * days (pg-boss's retention), so an older import's round is finished, given up or gone.
 */
const MATCHING_OPEN_DAYS = 14;
/** At most this many imports of that window are asked about (an NGO imports a few statements a week). */
const MATCHING_OPEN_IMPORTS = 200;

/**
 * Whether a matching round of one of the NGO's imports is still to finish (the queue's page says so): every import
 * whose round could still be open, not only the few the statements page lists.
 */
export async function matchingUnderway(services: Pick<Services, "db" | "jobs">, actor: Actor): Promise<boolean> {
  const rows = await services.db
    .select({ id: statementImports.id })
    .from(statementImports)
    .where(and(importScope(actor), sql`${statementImports.createdAt} > now() - make_interval(days => ${MATCHING_OPEN_DAYS})`))
    .orderBy(desc(statementImports.createdAt))
    .limit(MATCHING_OPEN_IMPORTS);
  if (rows.length === 0) return false;
  const states = await services.jobs.states(
    "statement-match",
    rows.map((r) => r.id),
  );
  return rows.some((r) => matchingOf(states.get(r.id)) === "running");
}

export interface ConfirmOutcome {
  approved: number;
  /** Already approved (another click, another volunteer): counted once, nothing changed. */
  unchanged: number;
  /** No longer matched (released, or not this NGO's): skipped. */
  skipped: number;
}

/**
 * Confirms matched lines: each one's gift is approved through the same exactly-once transaction as /apps
 * (decideCashDonation), which confirms the line and records it in the audit entry. Lines are taken one by one,
 * so one that another volunteer already confirmed or that was released is skipped, not an error for the rest.
 */
export async function confirmLines(
  services: Pick<Services, "db" | "mailer" | "config" | "log">,
  actor: Actor,
  lineIds: string[],
): Promise<ConfirmOutcome> {
  idAs(actor, "ngo");
  const ids = [...new Set(lineIds.filter(isUuid))].slice(0, CONFIRM_BATCH_MAX);
  const out: ConfirmOutcome = { approved: 0, unchanged: 0, skipped: 0 };
  for (const id of ids) {
    const [line] = await services.db
      .select({ donationId: statementLines.donationId, status: statementLines.status })
      .from(statementLines)
      .where(and(eq(statementLines.id, id), lineDecisionScope(actor, "confirm")))
      .limit(1);
    if (!line?.donationId || !(line.status === "matched" || line.status === "confirmed")) {
      out.skipped++;
      continue;
    }
    let decided: DecisionOutcome;
    try {
      decided = await decideCashDonation(services, actor, { donationId: line.donationId, approve: true });
    } catch (err) {
      // Disapproved meanwhile (a conflict) or gone: this line is not confirmed; the rest go on. Anything else (the
      // database gone) is not a refusal and is thrown on.
      if (!(err instanceof DomainError)) throw err;
      out.skipped++;
      continue;
    }
    if (decided.changed) out.approved++;
    else out.unchanged++;
  }
  return out;
}

/** Ties an unmatched line to a pending gift of the same account by hand; it then waits for confirmation like any match. */
export async function matchByHand(db: DbOrTx, actor: Actor, lineId: string, donationId: string): Promise<void> {
  if (!isUuid(lineId) || !isUuid(donationId)) throw notFound();
  await db.transaction(async (tx) => {
    const [line] = await tx
      .select({ status: statementLines.status, ngoId: statementLines.ngoId, method: statementLines.method })
      .from(statementLines)
      .where(and(eq(statementLines.id, lineId), lineDecisionScope(actor, "match")))
      .limit(1);
    if (!line) throw notFound();
    await lockAccount(tx, line.ngoId, line.method);
    const [gift] = await tx
      .select({ id: donations.id })
      .from(donations)
      .where(
        and(
          eq(donations.id, donationId),
          donationScope(actor, "review"),
          eq(donations.kind, "cash"),
          eq(donations.method, line.method),
          inArray(donations.status, donationFromStates("approve")),
        ),
      )
      .limit(1);
    if (!gift) throw conflict("statements.gift_not_pending");
    const [current] = await tx.select({ status: statementLines.status }).from(statementLines).where(eq(statementLines.id, lineId));
    assertTransition("match", current!.status, "owner", () => conflict("statements.line_taken"));
    const tied = await tieLine(tx, { lineId, donationId, rule: "manual", confidence: MATCH_CONFIDENCE.manual }, actor.id);
    if (!tied) throw conflict("statements.gift_taken");
    await recordAudit(tx, {
      actorId: actor.id,
      action: "statement.matched_by_hand",
      targetUserId: null,
      details: { statementLineId: lineId, donationId },
    });
  });
}

/** Sets a line aside as no gift through the platform (a salary refund, a transfer between own accounts), with the reason. */
export async function ignoreLine(db: DbOrTx, actor: Actor, lineId: string, reason: string): Promise<void> {
  await stepLine(db, actor, lineId, "ignore", { status: "ignored", ignoredReason: reason }, reason);
}

/** Takes an ignored line back to the lines with no gift. */
export async function restoreLine(db: DbOrTx, actor: Actor, lineId: string): Promise<void> {
  await stepLine(db, actor, lineId, "restore", { status: "unmatched", ignoredReason: null }, null);
}

async function stepLine(
  db: DbOrTx,
  actor: Actor,
  lineId: string,
  action: "ignore" | "restore",
  set: { status: StatementLineStatus; ignoredReason: string | null },
  reason: string | null,
): Promise<void> {
  if (!isUuid(lineId)) throw notFound();
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(statementLines)
      .set({ ...set, decidedBy: actor.id, decidedAt: sql`now()` })
      .where(
        and(
          eq(statementLines.id, lineId),
          lineDecisionScope(actor, action),
          inArray(statementLines.status, fromStates(action)),
          isNull(statementLines.donationId),
        ),
      )
      .returning({ id: statementLines.id });
    if (!row) {
      const [current] = await tx
        .select({ status: statementLines.status })
        .from(statementLines)
        .where(and(eq(statementLines.id, lineId), lineScope(actor)))
        .limit(1);
      if (!current) throw notFound();
      assertTransition(action, current.status, "owner", () => conflict("statements.line_taken"));
      return;
    }
    await recordAudit(tx, {
      actorId: actor.id,
      action: `statement.${action}d`,
      targetUserId: null,
      details: { statementLineId: lineId, reason },
    });
  });
}

/** Gifts a line can be matched to by hand: the NGO's pending gifts without a line, per method, newest first (bounded). */
export async function giftChoices(db: DbOrTx, actor: Actor): Promise<WaitingGift[]> {
  return giftRows(db, waitingWhere(db, actor)).orderBy(desc(donations.createdAt)).limit(GIFT_CHOICES_MAX);
}
export const GIFT_CHOICES_MAX = 300;

/** A pledge a line's remark names whose donor never sent the proof: the transfer arrived, the gift was never recorded. */
export interface PledgeWithoutGift {
  code: string;
  donorName: string;
  campaignTitle: string;
}

/** For each of these lines, the pledge without a gift its remark or reference names (this NGO's, same account), if exactly one. */
export async function pledgesWithoutGift(db: DbOrTx, actor: Actor, lines: LineRow[]): Promise<Record<string, PledgeWithoutGift>> {
  const ngoId = idAs(actor, "ngo");
  const codesOf = new Map(lines.map((l) => [l.id, pledgeCodesIn(`${l.description} ${l.reference}`)]));
  const all = [...new Set([...codesOf.values()].flat())];
  if (all.length === 0) return {};
  const rows = await openPledges(db, ngoId, all);
  const out: Record<string, PledgeWithoutGift> = {};
  for (const l of lines) {
    const hits = rows.filter((p) => p.method === l.method && codesOf.get(l.id)!.includes(p.code));
    if (hits.length === 1) out[l.id] = { code: hits[0]!.code, donorName: hits[0]!.donorName, campaignTitle: hits[0]!.campaignTitle };
  }
  return out;
}

function openPledges(db: DbOrTx, ngoId: string, codes: string[]) {
  return db
    .select({
      id: pledges.id,
      code: pledges.code,
      method: pledges.method,
      donorId: pledges.donorId,
      campaignId: pledges.campaignId,
      donorName,
      campaignTitle: campaigns.title,
    })
    .from(pledges)
    .innerJoin(campaigns, eq(campaigns.id, pledges.campaignId))
    .innerJoin(users, eq(users.id, pledges.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, pledges.donorId))
    .leftJoin(donations, eq(donations.pledgeId, pledges.id))
    .where(and(eq(pledges.recipientNgoId, ngoId), inArray(pledges.code, codes), isNull(donations.id), ne(campaigns.status, "archived")))
    .limit(50);
}

/**
 * Records the gift a line proves when its remark names a pledge whose donor never sent the proof (the statement is
 * the evidence; no screenshot is needed), ties the line to it and approves it through the same exactly-once
 * decision as every gift. The pledge's donor is told and gets the receipt. One pledge makes one gift: a second try
 * finds the pledge used.
 */
export async function recordPledgedGift(
  services: Pick<Services, "db" | "mailer" | "config" | "log">,
  actor: Actor,
  lineId: string,
): Promise<ConfirmOutcome> {
  if (!isUuid(lineId)) throw notFound();
  const ngoId = idAs(actor, "ngo");
  await services.db.transaction(async (tx) => {
    const [line] = await tx
      .select()
      .from(statementLines)
      .where(and(eq(statementLines.id, lineId), lineDecisionScope(actor, "match")))
      .limit(1);
    if (!line) throw notFound();
    await lockAccount(tx, ngoId, line.method);
    const [current] = await tx.select({ status: statementLines.status }).from(statementLines).where(eq(statementLines.id, lineId));
    assertTransition("match", current!.status, "owner", () => conflict("statements.line_taken"));
    const pledge = (await openPledges(tx, ngoId, pledgeCodesIn(`${line.description} ${line.reference}`))).filter(
      (p) => p.method === line.method,
    );
    if (pledge.length !== 1) throw conflict("statements.no_open_pledge");
    const amount = Number(line.amountPaisa) / 100;
    if (!Number.isInteger(amount) || amount < 1 || amount > DONATION_AMOUNT_MAX) throw invalid("statements.amount_not_rupees");
    const [gift] = await tx
      .insert(donations)
      .values({
        campaignId: pledge[0]!.campaignId,
        donorId: pledge[0]!.donorId,
        recipientNgoId: ngoId,
        kind: "cash",
        amount,
        method: line.method,
        phone: line.senderPhone,
        transactionId: line.reference || null,
        pledgeId: pledge[0]!.id,
        idempotencyKey: pledge[0]!.id,
      })
      .onConflictDoNothing()
      .returning({ id: donations.id });
    if (!gift) throw conflict("statements.no_open_pledge");
    if (!(await tieLine(tx, { lineId, donationId: gift.id, rule: "pledge_code", confidence: MATCH_CONFIDENCE.pledge_code }, actor.id))) {
      throw conflict("statements.line_taken");
    }
    await recordAudit(tx, {
      actorId: actor.id,
      action: "statement.gift_from_pledge",
      targetUserId: pledge[0]!.donorId,
      details: { statementLineId: lineId, donationId: gift.id, amount },
    });
  });
  return confirmLines(services, actor, [lineId]);
}
