import { count, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { auditLog, campaigns, donorProfiles, ngoProfiles, riderProfiles, users } from "#server/db/schema.ts";
import { isUuid, paged, pageOffset } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";

export type AuditDetails = Record<string, string | number | null>;

/**
 * Writes one audit entry. Call it inside the same transaction as the change it records, so a change
 * never lands without its record. `action` is a dotted name such as "account.accepted".
 */
export async function recordAudit(
  db: DbOrTx,
  entry: { actorId: string | null; action: string; targetUserId?: string | null; details?: AuditDetails },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetUserId: entry.targetUserId ?? null,
    details: entry.details ?? {},
  });
}

export interface AuditEntry {
  id: number;
  action: string;
  details: AuditDetails;
  createdAt: Date;
  actorEmail: string | null;
  targetEmail: string | null;
  targetName: string | null;
  /** The title of the campaign `details.campaignId` names, so the log reads as names rather than ids. */
  campaignTitle: string | null;
}

const actor = alias(users, "actor");
const target = alias(users, "target");

/** One page of the audit log, newest first, with who acted and on whom. */
export async function listAudit(db: DbOrTx, page: number): Promise<Paged<AuditEntry>> {
  const [total] = await db.select({ n: count() }).from(auditLog);
  const rows = await db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
      actorEmail: actor.email,
      targetEmail: target.email,
      targetName: sql<
        string | null
      >`coalesce(${ngoProfiles.name}, ${riderProfiles.firstName} || ' ' || ${riderProfiles.lastName}, ${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName})`,
    })
    .from(auditLog)
    .leftJoin(actor, eq(actor.id, auditLog.actorId))
    .leftJoin(target, eq(target.id, auditLog.targetUserId))
    .leftJoin(ngoProfiles, eq(ngoProfiles.userId, auditLog.targetUserId))
    .leftJoin(riderProfiles, eq(riderProfiles.userId, auditLog.targetUserId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, auditLog.targetUserId))
    // Insert order: an entry whose transaction waited on another's lock comes after it (decision 012).
    .orderBy(desc(auditLog.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  const campaignIds = [...new Set(rows.map((r) => r.details.campaignId).filter(isUuid))];
  const titles = campaignIds.length
    ? new Map(
        (await db.select({ id: campaigns.id, title: campaigns.title }).from(campaigns).where(inArray(campaigns.id, campaignIds))).map(
          (c) => [c.id, c.title],
        ),
      )
    : new Map<string, string>();
  return paged(
    rows.map((r) => ({ ...r, campaignTitle: titles.get(String(r.details.campaignId)) ?? null })),
    page,
    total?.n ?? 0,
  );
}
