import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid, pageOffset, paged } from "#server/db/query.ts";
import { isUniqueViolation } from "#server/db/errors.ts";
import { ngoProfiles, spendingRecords } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { Paged } from "#shared/paging.ts";
import type { FundKind, SpendingStatus } from "#shared/statuses.ts";
import type { SpendingValues } from "#shared/forms/ledger.ts";
import { campaignForNgo, type Campaign } from "#server/domain/campaigns/access.ts";
import { isCalendarDay, pakistanToday } from "#server/domain/dates.ts";
import { conflict, forbidden, invalid, notFound } from "#server/domain/errors.ts";
import { deleteFile } from "#server/domain/files/files.ts";
import type { Actor } from "#server/domain/policy.ts";
import { saveSpendingDocument } from "./document.ts";
import { decisionScope, spendingScope } from "./policy.ts";
import { actionsFor, spendingState, type SpendingAction, type SpendingRole } from "./states.ts";

/**
 * A campaign's spending records on the NGO side (decision 049): written as drafts with their document, published
 * to the public ledger, discarded while drafts, corrected by a new record once published. Every step is one
 * guarded statement: the state it starts from and the NGO's relation are in its `where`, so two clicks or two
 * NGOs at once change a record once.
 */

/** The earliest day a spending record may carry: older than any campaign on the platform. */
const EARLIEST_SPENT_ON = "2000-01-01";

export interface SpendingRow {
  id: string;
  ngoId: string;
  ngoName: string;
  fund: FundKind;
  amount: number;
  spentOn: string;
  purpose: string;
  documentKey: string;
  status: SpendingStatus;
  publishedAt: Date | null;
  createdAt: Date;
  /** The record this one corrects (its amount and day), if any. */
  corrects: { id: string; amount: number; spentOn: string } | null;
  /** A published correction of this record exists: the totals count that one instead. */
  correctedBy: string | null;
  /** The administrator took it down (decision 049): when, and the reason the NGO was told. */
  takenDown: { at: Date; reason: string } | null;
  /** What the asking NGO may do to it, in the table's order. */
  actions: SpendingAction[];
}

const corrected = alias(spendingRecords, "corrected");

/** How the asking NGO stands to a record of a campaign it runs: its own, or another's of the same campaign. */
const roleOf = (actor: Actor, ngoId: string): SpendingRole => (ngoId === actor.id ? "spender" : "campaignNgo");

/** The campaign and a page of its spending records, drafts included, for an NGO that runs it; "not found" otherwise. */
export async function campaignSpending(
  db: DbOrTx,
  actor: Actor,
  campaignId: string,
  page: number,
): Promise<{ campaign: Campaign; records: Paged<SpendingRow> }> {
  const { campaign } = await campaignForNgo(db, campaignId, actor);
  const where = and(eq(spendingRecords.campaignId, campaign.id), spendingScope(actor, "campaign"));
  const [rows, [count]] = await Promise.all([
    db
      .select({
        id: spendingRecords.id,
        ngoId: spendingRecords.ngoId,
        ngoName: sql<string>`coalesce(${ngoProfiles.name}, '')`,
        fund: spendingRecords.fund,
        amount: spendingRecords.amount,
        spentOn: spendingRecords.spentOn,
        purpose: spendingRecords.purpose,
        documentKey: spendingRecords.documentKey,
        status: spendingRecords.status,
        publishedAt: spendingRecords.publishedAt,
        createdAt: spendingRecords.createdAt,
        takenDownAt: spendingRecords.takenDownAt,
        takedownReason: spendingRecords.takedownReason,
        correctsId: corrected.id,
        correctsAmount: corrected.amount,
        correctsSpentOn: corrected.spentOn,
        correctedBy: sql<
          string | null
        >`(select c.id from spending_records c where c.corrects_id = spending_records.id and c.status = 'published' limit 1)`,
      })
      .from(spendingRecords)
      .leftJoin(ngoProfiles, eq(ngoProfiles.userId, spendingRecords.ngoId))
      .leftJoin(corrected, eq(corrected.id, spendingRecords.correctsId))
      .where(where)
      // Drafts first (they wait for the NGO), then the newest spending.
      .orderBy(
        sql`${spendingRecords.status} = 'draft' desc`,
        desc(spendingRecords.spentOn),
        desc(spendingRecords.createdAt),
        desc(spendingRecords.id),
      )
      .limit(PAGE_SIZE)
      .offset(pageOffset(page)),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(spendingRecords)
      .where(where),
  ]);
  const records = rows.map(({ correctsId, correctsAmount, correctsSpentOn, takenDownAt, takedownReason, ...r }) => ({
    ...r,
    takenDown: takenDownAt ? { at: takenDownAt, reason: takedownReason ?? "" } : null,
    corrects: correctsId ? { id: correctsId, amount: correctsAmount!, spentOn: correctsSpentOn! } : null,
    // A record already corrected is not offered another correction: its correction is corrected instead.
    actions: actionsFor(spendingState(r.status), roleOf(actor, r.ngoId)).filter((a) => !(a === "correct" && r.correctedBy)),
  }));
  return { campaign, records: paged(records, page, count?.n ?? 0) };
}

/**
 * Records a draft of what the NGO spent of the campaign's money, with its document. The campaign must be one the NGO
 * runs and not deleted (a completed campaign still spends what it raised). The day is a real day, not ahead of
 * today in Pakistan. A correction names a published record of the same campaign that this NGO spent and that no
 * published correction has corrected yet. The document is re-made and stored first; a failure after that leaves a
 * file nothing references, which the sweep removes.
 */
export async function writeSpending(
  services: Pick<Services, "db" | "storage">,
  actor: Actor,
  campaignId: string,
  values: SpendingValues,
): Promise<{ id: string }> {
  const { db } = services;
  const { campaign } = await campaignForNgo(db, campaignId, actor);
  if (campaign.status === "archived") throw invalid("ledger.campaign_archived");
  if (!isCalendarDay(values.spentOn) || values.spentOn < EARLIEST_SPENT_ON) throw invalid("ledger.date_invalid", "spentOn");
  if (values.spentOn > pakistanToday()) throw invalid("ledger.date_ahead", "spentOn");
  if (values.correctsId) await correctable(db, actor, campaign.id, values.correctsId);
  const documentKey = await saveSpendingDocument(services, { file: values.document, ownerId: actor.id, field: "document" });
  const [row] = await db
    .insert(spendingRecords)
    .values({
      campaignId: campaign.id,
      ngoId: actor.id,
      fund: values.fund,
      amount: values.amount,
      spentOn: values.spentOn,
      purpose: values.purpose,
      documentKey,
      correctsId: values.correctsId ?? null,
      createdBy: actor.id,
    })
    .returning({ id: spendingRecords.id });
  return { id: row!.id };
}

/** The published record a new draft may correct: this NGO's, of this campaign, not corrected yet. */
async function correctable(db: DbOrTx, actor: Actor, campaignId: string, recordId: string): Promise<void> {
  const [row] = await db
    .select({
      status: spendingRecords.status,
      corrected: sql<boolean>`exists (select 1 from spending_records c where c.corrects_id = spending_records.id and c.status = 'published')`,
    })
    .from(spendingRecords)
    .where(and(eq(spendingRecords.id, recordId), eq(spendingRecords.campaignId, campaignId), decisionScope(actor, "correct")))
    .limit(1);
  if (!row) throw invalid("ledger.cannot_correct", "correctsId");
  if (row.status !== "published" || row.corrected) throw invalid("ledger.cannot_correct", "correctsId");
}

/**
 * Publishes a draft: from then on anyone reads it and its document on the campaign's public ledger, and it is never
 * changed. `redactionConfirmed` is the NGO's statement that the document shows no private data; it is recorded with
 * the time. A second click finds nothing to publish and is told so; a correction published twice at once for one
 * record is refused by the unique index, and the second is told the record is already corrected.
 */
export async function publishSpending(db: DbOrTx, actor: Actor, recordId: string): Promise<void> {
  if (!isUuid(recordId)) throw notFound();
  let updated: { id: string }[];
  try {
    updated = await db
      .update(spendingRecords)
      .set({ status: "published", publishedBy: actor.id, publishedAt: sql`now()`, redactionConfirmedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(spendingRecords.id, recordId), eq(spendingRecords.status, "draft"), decisionScope(actor, "publish")))
      .returning({ id: spendingRecords.id });
  } catch (err) {
    if (isUniqueViolation(err, "spending_records_corrects_published_unique")) throw conflict("ledger.already_corrected");
    throw err;
  }
  if (updated.length === 0) await refusal(db, actor, recordId);
}

/** Removes a draft and its document; a published record is never removed. */
export async function discardSpending(services: Pick<Services, "db" | "storage">, actor: Actor, recordId: string): Promise<void> {
  if (!isUuid(recordId)) throw notFound();
  const [removed] = await services.db
    .delete(spendingRecords)
    .where(and(eq(spendingRecords.id, recordId), eq(spendingRecords.status, "draft"), decisionScope(actor, "discard")))
    .returning({ documentKey: spendingRecords.documentKey });
  if (!removed) return refusal(services.db, actor, recordId);
  await deleteFile(services, removed.documentKey);
}

/** Why a step changed nothing: a record the NGO cannot see is not found; another NGO's is forbidden; otherwise it was published already. */
async function refusal(db: DbOrTx, actor: Actor, recordId: string): Promise<never> {
  const [row] = await db
    .select({ ngoId: spendingRecords.ngoId, status: spendingRecords.status })
    .from(spendingRecords)
    .where(and(eq(spendingRecords.id, recordId), spendingScope(actor, "campaign")))
    .limit(1);
  if (!row) throw notFound();
  if (row.ngoId !== actor.id) throw forbidden("ledger.spender_only");
  throw conflict(row.status === "taken_down" ? "ledger.already_taken_down" : "ledger.already_published");
}
