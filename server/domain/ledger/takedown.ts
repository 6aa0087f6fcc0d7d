import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid, pageOffset, paged } from "#server/db/query.ts";
import { campaigns, ngoProfiles, spendingRecords, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { Paged } from "#shared/paging.ts";
import { hasControlCharacters } from "#shared/text.ts";
import { TAKEDOWN_REASON_MAX_LENGTH, type FundKind, type SpendingStatus } from "#shared/statuses.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { conflict, invalid, notFound } from "#server/domain/errors.ts";
import { notify } from "#server/domain/notifications/notifications.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { decisionScope } from "./policy.ts";
import { fromStates } from "./states.ts";

/**
 * The platform administrator's side of the ledger (decision 049): every published spending record of every campaign,
 * newest published first, and taking one down with a reason.
 */

export interface AdminSpendingRow {
  id: string;
  campaignTitle: string;
  campaignSlug: string;
  ngoName: string;
  fund: FundKind;
  amount: number;
  spentOn: string;
  purpose: string;
  documentKey: string;
  status: SpendingStatus;
  publishedAt: Date;
  /** Taken down: when, by whom, and why. */
  takenDown: { at: Date; byEmail: string | null; reason: string } | null;
}

const takenDownBy = alias(users, "taken_down_by_user");

/** A page of the published (and taken-down) spending of every campaign, newest published first, for the administrator. */
export async function spendingForAdmin(db: DbOrTx, actor: Actor, opts: { page: number }): Promise<Paged<AdminSpendingRow>> {
  idAs(actor, "admin");
  const where = inArray(spendingRecords.status, ["published", "taken_down"]);
  const [[total], rows] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(spendingRecords)
      .where(where),
    db
      .select({
        id: spendingRecords.id,
        campaignTitle: campaigns.title,
        campaignSlug: campaigns.slug,
        ngoName: sql<string>`coalesce(${ngoProfiles.name}, '')`,
        fund: spendingRecords.fund,
        amount: spendingRecords.amount,
        spentOn: spendingRecords.spentOn,
        purpose: spendingRecords.purpose,
        documentKey: spendingRecords.documentKey,
        status: spendingRecords.status,
        publishedAt: spendingRecords.publishedAt,
        takenDownAt: spendingRecords.takenDownAt,
        takenDownByEmail: takenDownBy.email,
        takedownReason: spendingRecords.takedownReason,
      })
      .from(spendingRecords)
      .innerJoin(campaigns, eq(campaigns.id, spendingRecords.campaignId))
      .leftJoin(ngoProfiles, eq(ngoProfiles.userId, spendingRecords.ngoId))
      .leftJoin(takenDownBy, eq(takenDownBy.id, spendingRecords.takenDownBy))
      .where(where)
      .orderBy(desc(spendingRecords.publishedAt), desc(spendingRecords.id))
      .limit(PAGE_SIZE)
      .offset(pageOffset(opts.page)),
  ]);
  return paged(
    rows.map(({ takenDownAt, takenDownByEmail, takedownReason, publishedAt, ...r }) => ({
      ...r,
      publishedAt: publishedAt!,
      takenDown: takenDownAt ? { at: takenDownAt, byEmail: takenDownByEmail, reason: takedownReason ?? "" } : null,
    })),
    opts.page,
    total?.n ?? 0,
  );
}

/**
 * The platform's administrator takes a published record down (decision 049): its document showed private data after
 * all, or it was abusive. One guarded statement (`WHERE status = 'published'`), so two administrators (or two clicks)
 * at once take it down once: one audit entry, one notice. From then on the public ledger says it was removed and
 * when, without its amount, purpose or document; it no longer counts as spent; its document is read only by the
 * administrator and the campaign's NGOs. The NGO that spent it, and the campaign's owner if another, are told why, in app.
 */
export async function takeDownSpending(
  services: Pick<Services, "db" | "mailer" | "log">,
  actor: Actor,
  recordId: string,
  reason: string,
): Promise<void> {
  idAs(actor, "admin");
  const text = reason.trim();
  if (!text || text.length > TAKEDOWN_REASON_MAX_LENGTH || hasControlCharacters(text))
    throw invalid("ledger.takedown_reason_invalid", "reason");
  if (!isUuid(recordId)) throw notFound();
  const done = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(spendingRecords)
      .set({ status: "taken_down", takenDownBy: actor.id, takenDownAt: sql`now()`, takedownReason: text, updatedAt: sql`now()` })
      .where(
        and(
          eq(spendingRecords.id, recordId),
          inArray(spendingRecords.status, fromStates("takeDown") as SpendingStatus[]),
          decisionScope(actor, "takeDown"),
        ),
      )
      .returning({ ngoId: spendingRecords.ngoId, campaignId: spendingRecords.campaignId, amount: spendingRecords.amount });
    if (!row) return false;
    await recordAudit(tx, {
      actorId: actor.id,
      action: "spending.taken_down",
      targetUserId: row.ngoId,
      details: { campaignId: row.campaignId, spendingId: recordId, amount: row.amount, reason: text },
    });
    const [campaign] = await tx
      .select({ title: campaigns.title, ownerId: campaigns.ownerId })
      .from(campaigns)
      .where(eq(campaigns.id, row.campaignId))
      .limit(1);
    // The NGO that wrote the record, and the campaign's owner when a partner wrote it: the owner answers for the
    // campaign's public page.
    for (const userId of new Set([row.ngoId, campaign?.ownerId ?? row.ngoId])) {
      await notify(
        { ...services, db: tx },
        {
          userId,
          type: "spendingTakenDown",
          params: { campaign: campaign?.title ?? "", reason: text },
          link: `/campaigns/${row.campaignId}/spending`,
        },
      );
    }
    return true;
  });
  if (done) return;
  const [row] = await services.db
    .select({ status: spendingRecords.status })
    .from(spendingRecords)
    .where(eq(spendingRecords.id, recordId))
    .limit(1);
  if (!row) throw notFound();
  throw conflict(row.status === "taken_down" ? "ledger.already_taken_down" : "ledger.not_published");
}
