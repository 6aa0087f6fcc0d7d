import { count, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { auditLog, campaigns, donations, donorProfiles, ngoProfiles, riderProfiles, users } from "#server/db/schema.ts";
import { isUuid, paged, pageOffset } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import type { DonationKind } from "#shared/statuses.ts";
import type { PaymentMethod } from "#shared/constants.ts";
import { formatReceiptNumber } from "#server/domain/donations/receipt-number.ts";

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
  /** The donation `details.donationId` names, as a person reads it (what, how, to which campaign), rather than its id. */
  donation: AuditDonation | null;
}

export interface AuditDonation {
  kind: DonationKind;
  amount: number | null;
  method: PaymentMethod | null;
  items: string | null;
  /** The platform's receipt number ("N042-000123"), named only on the entry of the approval that gave it. */
  receipt: string | null;
  campaignTitle: string;
}

function withReceiptIf(d: AuditDonation | undefined, approval: boolean): AuditDonation | null {
  if (!d) return null;
  return approval ? d : { ...d, receipt: null };
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
  // Like the titles: one query for the page's donations, however many entries name them.
  const donationIds = [...new Set(rows.map((r) => r.details.donationId).filter(isUuid))];
  const gifts = donationIds.length
    ? new Map(
        (
          await db
            .select({
              id: donations.id,
              kind: donations.kind,
              amount: donations.amount,
              method: donations.method,
              items: donations.items,
              receiptNumber: donations.receiptNumber,
              receiptSeries: ngoProfiles.receiptSeries,
              campaignTitle: campaigns.title,
            })
            .from(donations)
            .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
            .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
            .where(inArray(donations.id, donationIds))
        ).map(({ id, receiptNumber, receiptSeries, ...d }) => [
          id,
          { ...d, receipt: receiptNumber === null ? null : formatReceiptNumber(receiptSeries, receiptNumber) },
        ]),
      )
    : new Map<string, AuditDonation>();
  return paged(
    rows.map((r) => ({
      ...r,
      campaignTitle: titles.get(String(r.details.campaignId)) ?? null,
      // An entry names the gift as it is now, so the receipt belongs only on the approval's own entry: an earlier
      // disapproval or reply of the same gift did not have one.
      donation: withReceiptIf(gifts.get(String(r.details.donationId)), r.action === "donation.approved"),
    })),
    page,
    total?.n ?? 0,
  );
}
