import { and, eq, inArray, sql } from "drizzle-orm";
import type { RejectionReplyValues } from "#shared/forms/donations.ts";
import type { PaymentMethod } from "#shared/constants.ts";
import type { DonationStatus } from "#shared/statuses.ts";
import { formatRupees } from "#shared/money.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donationReplies, donations, donorProfiles, ngoProfiles, users } from "#server/db/schema.ts";
import { isUuid } from "#server/db/query.ts";
import type { Services } from "#server/services.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { conflict, invalid, notFound } from "#server/domain/errors.ts";
import { deleteFile, saveImage } from "#server/domain/files/files.ts";
import { appLink, notify, tellWithin } from "#server/domain/notifications/notifications.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { queueAccountMatch } from "#server/domain/statements/matching.ts";
import { imageFingerprint } from "./fingerprint.ts";
import { decisionScope, donationScope, type DonationActor } from "./policy.ts";
import { actionsFor, assertTransition, fromStates, type CashDonationAction } from "./states.ts";

/**
 * After a disapproval (decision 025): the donor reads the NGO's reason and how to reach it, and may answer once
 * with a message and a corrected proof. The answer goes to the same gift (same row, pledge and, once approved,
 * receipt), which returns to the NGO's queue marked re-submitted; the NGO reads the gift's history in its review.
 */

/** How the donor can reach the NGO, as the NGO keeps it in its settings. */
export interface NgoContact {
  name: string;
  address: string;
  phone: string;
  email: string;
}

/** The columns of the receiving NGO's contact, for a query joined to `ngoProfiles` on the gift's NGO. */
export function ngoContactColumns() {
  return {
    ngoName: ngoProfiles.name,
    ngoAddress: ngoProfiles.address,
    ngoPhone: ngoProfiles.contactNumber,
    ngoEmail: sql<string>`(select u.email from users u where u.id = ${donations.recipientNgoId})`,
  };
}

/** Whether the gift was answered already: the reply row exists (one per gift). */
export const repliedSql = () => sql<boolean>`exists (select 1 from donation_replies r where r.donation_id = ${donations.id})`;

/**
 * What the donor may do to a cash gift: the transition table's steps, less the reply once it was used. The table
 * says who may answer a disapproval; "once" is the gift's reply row.
 */
export function donorActions(status: DonationStatus, replied: boolean): CashDonationAction[] {
  return actionsFor(status, "donor").filter((a) => a !== "resubmit" || !replied);
}

export interface ReplyTarget {
  id: string;
  status: DonationStatus;
  amount: number;
  method: PaymentMethod;
  transactionId: string | null;
  campaignTitle: string;
  createdAt: Date;
  rejectionReason: string | null;
  decidedAt: Date | null;
  contact: NgoContact;
  /** The donor answered this gift's disapproval already (a second disapproval is final). */
  replied: boolean;
  /** What the donor may do now: ["resubmit"] while a reply can be sent. */
  actions: CashDonationAction[];
}

/** A cash gift of this donor, with the NGO's reason and contact, for the reply page; not found for anyone else. */
export async function replyTarget(db: DbOrTx, actor: DonationActor, donationId: string): Promise<ReplyTarget> {
  if (!isUuid(donationId)) throw notFound();
  const [row] = await db
    .select({
      id: donations.id,
      status: donations.status,
      amount: sql<number>`${donations.amount}`.mapWith(Number),
      method: sql<PaymentMethod>`${donations.method}`,
      transactionId: donations.transactionId,
      campaignTitle: campaigns.title,
      createdAt: donations.createdAt,
      rejectionReason: donations.rejectionReason,
      decidedAt: donations.decidedAt,
      replied: repliedSql(),
      ...ngoContactColumns(),
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .where(and(eq(donations.id, donationId), donationScope(actor, "summary"), eq(donations.kind, "cash")))
    .limit(1);
  if (!row) throw notFound();
  const { ngoName, ngoAddress, ngoPhone, ngoEmail, ...gift } = row;
  return {
    ...gift,
    replied: Boolean(gift.replied),
    contact: { name: ngoName, address: ngoAddress, phone: ngoPhone, email: ngoEmail },
    actions: donorActions(gift.status, Boolean(gift.replied)),
  };
}

type ReplyServices = Pick<Services, "db" | "storage" | "mailer" | "config" | "log" | "jobs">;

/**
 * The donor's one answer to a disapproval: their message and the corrected proof (a new screenshot, another
 * transaction ID, or both) go to the same gift, which is pending again. The gift's row is locked and the step
 * taken only from `rejected` with no reply yet (and the reply row is unique per gift), so of any number of
 * concurrent answers exactly one lands; the same form sent again is answered as done. The reply, the gift's
 * change, the audit entry and the NGO's notice (in-app and by email in its language) are one transaction; a new
 * screenshot stored before it is removed if it fails. Afterwards the NGO's statement lines are matched again (a
 * line released by the disapproval may now fit).
 */
export async function replyToRejection(
  services: ReplyServices,
  actor: Actor,
  values: RejectionReplyValues,
): Promise<{ id: string; changed: boolean }> {
  const donorId = idAs(actor, "donor");
  const { db } = services;
  if (!isUuid(values.donation)) throw notFound();
  const scope = decisionScope(actor, "resubmit");
  const same = await sameReply(db, values);
  if (same) return { id: values.donation, changed: false };
  // Only the gift's donor gets as far as storing a file.
  const [visible] = await db
    .select({ id: donations.id })
    .from(donations)
    .where(and(eq(donations.id, values.donation), scope, eq(donations.kind, "cash")))
    .limit(1);
  if (!visible) throw notFound();

  const screenshot = values.screenshot && values.screenshot.size > 0 ? values.screenshot : null;
  const newProof = screenshot
    ? {
        key: await saveImage(services, { file: screenshot, kind: "proof", ownerId: donorId, field: "screenshot" }),
        fingerprint: await imageFingerprint(Buffer.from(await screenshot.arrayBuffer())),
      }
    : null;

  let outcome: { gift: typeof donations.$inferSelect; previousTransactionId: string | null } | "repeat";
  try {
    outcome = await db.transaction(async (tx) => {
      const [gift] = await tx
        .select()
        .from(donations)
        .where(and(eq(donations.id, values.donation), scope, eq(donations.kind, "cash")))
        .for("update");
      if (!gift) throw notFound();
      const [earlier] = await tx
        .select({ idempotencyKey: donationReplies.idempotencyKey })
        .from(donationReplies)
        .where(eq(donationReplies.donationId, gift.id))
        .limit(1);
      if (earlier) {
        if (earlier.idempotencyKey === values.idempotencyKey) return "repeat" as const;
        throw conflict("donations.already_replied");
      }
      assertTransition("resubmit", gift.status, "donor", () => conflict("donations.not_rejected"));
      // Something must change: a new transaction ID, or a screenshot that is not the one the NGO already refused.
      const sameProof = !newProof || (gift.proofFingerprint !== null && newProof.fingerprint === gift.proofFingerprint);
      if (sameProof && values.transactionId === gift.transactionId) throw invalid("donations.correction_needed", "transactionId");

      const [reply] = await tx
        .insert(donationReplies)
        .values({
          donationId: gift.id,
          message: values.message,
          rejectionReason: gift.rejectionReason ?? "",
          rejectedBy: gift.decidedBy,
          rejectedAt: gift.decidedAt,
          previousTransactionId: gift.transactionId,
          previousProofKey: newProof ? gift.proofKey : null,
          previousProofFingerprint: newProof ? gift.proofFingerprint : null,
          idempotencyKey: values.idempotencyKey,
        })
        .onConflictDoNothing()
        .returning({ id: donationReplies.id });
      if (!reply) throw conflict("donations.already_replied");
      const [updated] = await tx
        .update(donations)
        .set({
          status: "pending",
          transactionId: values.transactionId,
          ...(newProof ? { proofKey: newProof.key, proofFingerprint: newProof.fingerprint } : {}),
          rejectionReason: null,
          decidedBy: null,
          decidedAt: null,
          updatedAt: sql`now()`,
        })
        .where(and(eq(donations.id, gift.id), inArray(donations.status, fromStates("resubmit"))))
        .returning();
      // The row is locked and was checked above: this cannot miss, but a miss must not leave a reply without its step.
      if (!updated) throw conflict("donations.not_rejected");
      await recordAudit(tx, {
        actorId: donorId,
        action: "donation.resubmitted",
        targetUserId: gift.recipientNgoId,
        details: {
          donationId: gift.id,
          campaignId: gift.campaignId,
          amount: gift.amount,
          replyId: reply.id,
          previousTransactionId: gift.transactionId,
          transactionId: values.transactionId,
          newScreenshot: newProof ? 1 : 0,
          rejectionReason: gift.rejectionReason,
        },
      });
      await tellNgo({ ...services, db: tx }, updated, values.message);
      // The statement the NGO imported may hold the transfer the corrected proof names (decision 022).
      if (updated.method) await queueAccountMatch({ db: tx, jobs: services.jobs }, updated.recipientNgoId, updated.method);
      return { gift: updated, previousTransactionId: gift.transactionId };
    });
  } catch (err) {
    if (newProof) await deleteFile(services, newProof.key);
    throw err;
  }
  if (outcome === "repeat") {
    if (newProof) await deleteFile(services, newProof.key);
    return { id: values.donation, changed: false };
  }

  const { gift } = outcome;
  return { id: gift.id, changed: true };
}

/** The same reply form sent again (a double click, a retried request): its reply row exists already. */
async function sameReply(db: DbOrTx, values: RejectionReplyValues): Promise<boolean> {
  const [row] = await db
    .select({ id: donationReplies.id })
    .from(donationReplies)
    .where(and(eq(donationReplies.donationId, values.donation), eq(donationReplies.idempotencyKey, values.idempotencyKey)))
    .limit(1);
  return row !== undefined;
}

async function tellNgo(services: ReplyServices, gift: typeof donations.$inferSelect, message: string): Promise<void> {
  await tellWithin(services, { donationId: gift.id }, async () => {
    const [info] = await services.db
      .select({
        campaign: campaigns.title,
        donor: sql<string>`coalesce(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}, ${users.email})`,
      })
      .from(campaigns)
      .innerJoin(users, eq(users.id, gift.donorId))
      .leftJoin(donorProfiles, eq(donorProfiles.userId, gift.donorId))
      .where(eq(campaigns.id, gift.campaignId))
      .limit(1);
    const params = { amount: formatRupees(gift.amount ?? 0), campaign: info?.campaign ?? "", donor: info?.donor ?? "" };
    const link = `/apps?view=${gift.id}`;
    await notify(services, {
      userId: gift.recipientNgoId,
      type: "donationResubmitted",
      params,
      link,
      email: {
        subject: "donations:mail.resubmitted.subject",
        body: "donations:mail.resubmitted.body",
        params: { ...params, message, link: appLink(services.config, link) },
      },
    });
  });
}

/** One step of a cash gift's history, as the reviewing NGO reads it. */
export interface GiftStep {
  type: "submitted" | "rejected" | "replied" | "resubmitted" | "approved";
  at: Date | null;
  /** The NGO's reason (rejected) or the donor's message (replied). */
  text: string | null;
  /** The transaction ID the step carried (submitted, resubmitted). */
  transactionId: string | null;
  /** Re-submitted with a new screenshot: the one it replaced (still readable by the gift's donor and NGO). */
  previousProofKey: string | null;
}

/**
 * The history of a cash gift from its row and its reply: sent, disapproved with the reason, the donor's answer,
 * re-sent, and the decision since. `gift` must already be read through the reader's scope.
 */
export async function giftHistory(
  db: DbOrTx,
  gift: {
    id: string;
    status: DonationStatus;
    createdAt: Date;
    transactionId: string | null;
    rejectionReason: string | null;
    decidedAt: Date | null;
  },
): Promise<GiftStep[]> {
  const [reply] = await db.select().from(donationReplies).where(eq(donationReplies.donationId, gift.id)).limit(1);
  const step = (type: GiftStep["type"], at: Date | null, more: Partial<GiftStep> = {}): GiftStep => ({
    type,
    at,
    text: null,
    transactionId: null,
    previousProofKey: null,
    ...more,
  });
  const steps: GiftStep[] = [
    step("submitted", gift.createdAt, { transactionId: reply ? reply.previousTransactionId : gift.transactionId }),
  ];
  if (reply) {
    steps.push(
      step("rejected", reply.rejectedAt, { text: reply.rejectionReason }),
      step("replied", reply.createdAt, { text: reply.message }),
      step("resubmitted", reply.createdAt, { transactionId: gift.transactionId, previousProofKey: reply.previousProofKey }),
    );
  }
  if (gift.status === "approved") steps.push(step("approved", gift.decidedAt));
  if (gift.status === "rejected") steps.push(step("rejected", gift.decidedAt, { text: gift.rejectionReason }));
  return steps;
}
