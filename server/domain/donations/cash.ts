import { and, asc, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { CashProofValues } from "#shared/forms/donations.ts";
import { PAGE_SIZE, type PaymentMethod } from "#shared/constants.ts";
import type { DonationStatus, FundKind } from "#shared/statuses.ts";
import { formatRupees } from "#shared/money.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { isForeignKeyViolation } from "#server/db/errors.ts";
import { campaigns, donations, donorProfiles, ngoProfiles, pledges, statementLines, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { isUuid, paged, pageOffset } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { campaignToGiveTo } from "#server/domain/campaigns/standing.ts";
import { campaignChoices, ngosOfCampaigns, type CampaignRole } from "#server/domain/campaigns/access.ts";
import { completeIfTargetReached } from "#server/domain/campaigns/campaigns.ts";
import { conflict, invalid, notFound } from "#server/domain/errors.ts";
import { deleteFile, saveImage } from "#server/domain/files/files.ts";
import { appLink, notify, tellWithin } from "#server/domain/notifications/notifications.ts";
import { imageFingerprint } from "./fingerprint.ts";
import { findDonationByKey } from "./idempotency.ts";
import { createPledge, pledgeForGift } from "./pledges.ts";
import { settleStatementLine } from "#server/domain/statements/settle.ts";
import { paymentChangedRecentlySql } from "#server/domain/accounts/payment-guard.ts";
import { queueAccountMatch } from "#server/domain/statements/matching.ts";
import { decisionScope, donationScope, type DonationActor } from "./policy.ts";
import { tallied, tallies } from "./tallies.ts";
import { assertFundAccepted } from "#server/domain/campaigns/funds.ts";
import { formatReceiptNumber } from "./receipt-number.ts";
import { assertTransition, cashDonationStates, fromStates } from "./states.ts";
import { giftHistory, repliedSql, type GiftStep } from "./replies.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";

/**
 * A donation refused by the campaign's foreign key: the NGO deleted the campaign between the donor's page and
 * their post. The donor is told the campaign is gone, not to try again later.
 */
export function campaignGone(err: unknown): never {
  if (isForeignKeyViolation(err)) throw notFound("donate.details.not_found");
  throw err;
}

/** Where a donor pays an NGO by one method: a wallet number, or a bank account with its bank and title. */
export interface PaymentAccount {
  method: PaymentMethod;
  number: string;
  bankName: string | null;
  title: string | null;
}

type AccountColumns = Pick<
  typeof ngoProfiles.$inferSelect,
  "jazzcashNumber" | "easypaisaNumber" | "bankName" | "bankAccountTitle" | "bankAccountNumber"
>;

/** The accounts an NGO keeps in its settings, in the order the payment screen offers them. A bank account needs all three parts. */
export function accountsOf(p: AccountColumns): PaymentAccount[] {
  const out: PaymentAccount[] = [];
  if (p.jazzcashNumber) out.push({ method: "jazzcash", number: p.jazzcashNumber, bankName: null, title: null });
  if (p.easypaisaNumber) out.push({ method: "easypaisa", number: p.easypaisaNumber, bankName: null, title: null });
  if (p.bankName && p.bankAccountTitle && p.bankAccountNumber) {
    out.push({ method: "bank", number: p.bankAccountNumber, bankName: p.bankName, title: p.bankAccountTitle });
  }
  return out;
}

/** The methods this NGO can be paid by (its accounts): none means donors cannot give it cash yet. */
export async function ngoPaymentMethods(db: DbOrTx, actor: Actor): Promise<PaymentMethod[]> {
  const [p] = await db
    .select()
    .from(ngoProfiles)
    .where(eq(ngoProfiles.userId, idAs(actor, "ngo")))
    .limit(1);
  return p ? accountsOf(p).map((a) => a.method) : [];
}

export interface RecipientNgo {
  id: string;
  name: string;
  logoKey: string | null;
  role: CampaignRole;
  /** Empty when the NGO has no account yet: it cannot be paid. */
  accounts: PaymentAccount[];
  /** Its accounts were added or changed in the last day: donors are warned (decision 024). */
  accountsChangedRecently: boolean;
}

export interface DonationTarget {
  campaign: {
    id: string;
    slug: string;
    title: string;
    description: string;
    targetAmount: number;
    collectedAmount: number;
    pictureKey: string | null;
    locationLabel: string;
    locationLabelUr: string | null;
    /** The funds it takes: a gift names one of them (decision 048). */
    acceptedFunds: FundKind[];
  };
  /** The owner first, then the partners; only verified NGOs that are not suspended. */
  ngos: RecipientNgo[];
}

/**
 * An active campaign a donor can pay into, by its slug, with the NGOs that run it and their accounts.
 * A campaign that is completed or archived takes no more donations.
 */
export async function donationTarget(db: DbOrTx, slug: string): Promise<DonationTarget> {
  const c = await campaignToGiveTo(db, slug);
  const ngos = (await ngosOfCampaigns(db, [c.id])).get(c.id) ?? [];
  const profiles = ngos.length
    ? await db
        .select({
          id: ngoProfiles.userId,
          jazzcashNumber: ngoProfiles.jazzcashNumber,
          easypaisaNumber: ngoProfiles.easypaisaNumber,
          bankName: ngoProfiles.bankName,
          bankAccountTitle: ngoProfiles.bankAccountTitle,
          bankAccountNumber: ngoProfiles.bankAccountNumber,
          accountsChangedRecently: paymentChangedRecentlySql(),
        })
        .from(ngoProfiles)
        .innerJoin(users, eq(users.id, ngoProfiles.userId))
        .where(and(sql`${ngoProfiles.userId} in ${ngos.map((n) => n.id)}`, eq(users.verification, "verified"), isNull(users.suspendedAt)))
    : [];
  return {
    campaign: {
      id: c.id,
      slug: c.slug,
      title: c.title,
      description: c.description,
      targetAmount: c.targetAmount,
      collectedAmount: c.collectedAmount,
      pictureKey: c.pictureKey,
      locationLabel: c.locationLabel,
      locationLabelUr: c.locationLabelUr,
      acceptedFunds: c.acceptedFunds,
    },
    ngos: ngos.flatMap((n) => {
      const p = profiles.find((row) => row.id === n.id);
      return p
        ? [
            {
              id: n.id,
              name: n.name,
              logoKey: n.logoKey,
              role: n.role,
              accounts: accountsOf(p),
              accountsChangedRecently: Boolean(p.accountsChangedRecently),
            },
          ]
        : [];
    }),
  };
}

/** The receiving NGO and its account for the method, or the reason the donor cannot pay that way. */
export function paymentAccount(
  target: DonationTarget,
  ngoId: string,
  method: PaymentMethod,
): { ngo: RecipientNgo; account: PaymentAccount } {
  const ngo = target.ngos.find((n) => n.id === ngoId);
  if (!ngo) throw notFound();
  const account = ngo.accounts.find((a) => a.method === method);
  if (!account) throw invalid("donations.method_unavailable", "method");
  return { ngo, account };
}

type DonationServices = Pick<Services, "db" | "storage" | "mailer" | "config" | "log" | "jobs">;

/**
 * Records a cash donation with its proof: the screenshot is checked and re-encoded, the donation row is
 * written once per idempotency key (a double submit or a retried request returns the first donation), and the
 * NGO is told. If anything fails after the screenshot was stored, the screenshot is removed again, so nothing
 * half-written remains.
 */
export async function submitCashDonation(
  services: DonationServices,
  actor: Actor,
  values: CashProofValues,
): Promise<{ id: string; created: boolean }> {
  const donorId = idAs(actor, "donor");
  const { db } = services;
  const earlier = await findDonationByKey(db, donorId, values.idempotencyKey);
  if (earlier) return { id: earlier, created: false };

  const target = await donationTarget(db, values.campaign);
  const { ngo } = paymentAccount(target, values.ngo, values.method);
  // Refused before the screenshot is stored; checked again under the campaign's lock as the gift is written.
  if (!target.campaign.acceptedFunds.includes(values.fund)) throw invalid("funds.not_accepted", "fund");
  const pledgeTarget = { campaignId: target.campaign.id, ngoId: ngo.id, method: values.method };

  const proofKey = await saveImage(services, { file: values.screenshot, kind: "proof", ownerId: donorId, field: "screenshot" });
  let id: string | undefined;
  try {
    const fingerprint = await imageFingerprint(Buffer.from(await values.screenshot.arrayBuffer()));
    // The gift and the NGO's notice are one transaction: a notice exists exactly when its gift does.
    id = await db.transaction(async (tx) => {
      await assertFundAccepted(tx, target.campaign.id, values.fund);
      const insert = async (pledgeId: string) => {
        // No conflict target: a repeated form (same idempotency key) and a pledge another tab used both write nothing.
        const [row] = await tx
          .insert(donations)
          .values({
            campaignId: target.campaign.id,
            donorId,
            recipientNgoId: ngo.id,
            kind: "cash",
            amount: values.amount,
            method: values.method,
            phone: values.phone,
            transactionId: values.transactionId,
            proofKey,
            proofFingerprint: fingerprint,
            idempotencyKey: values.idempotencyKey,
            pledgeId,
            fund: values.fund,
            showName: values.showName === "yes",
            inNameOf: values.inNameOf ?? null,
          })
          .onConflictDoNothing()
          .returning({ id: donations.id });
        return row?.id;
      };
      let made = await insert((await pledgeForGift(tx, donorId, pledgeTarget, values.pledge)).id);
      // The pledge went to another gift at the same moment (two tabs): unless this form already made its gift, take a new one.
      if (!made && !(await findDonationByKey(tx, donorId, values.idempotencyKey))) {
        made = await insert((await createPledge(tx, donorId, pledgeTarget)).id);
      }
      if (made) {
        await notify(
          { ...services, db: tx },
          {
            userId: ngo.id,
            type: "donationReceived",
            params: { amount: formatRupees(values.amount), campaign: target.campaign.title },
            link: `/apps?view=${made}`,
          },
        );
        // A statement the NGO imported before the proof came may already hold this transfer: a round for the account.
        await queueAccountMatch({ db: tx, jobs: services.jobs }, ngo.id, values.method);
      }
      return made;
    });
  } catch (err) {
    await deleteFile(services, proofKey);
    campaignGone(err);
  }
  if (!id) {
    // The same form arrived twice at once and the other request wrote the row first.
    await deleteFile(services, proofKey);
    const first = await findDonationByKey(db, donorId, values.idempotencyKey);
    if (!first) throw conflict("donations.upload_failed");
    return { id: first, created: false };
  }

  return { id, created: true };
}

export interface DecisionOutcome {
  status: Exclude<DonationStatus, "pending">;
  /** False when the donation had already been decided this way (a repeated or concurrent click). */
  changed: boolean;
  receiptNumber: number | null;
  /** The campaign reached its target with this approval and moved to Successful. */
  campaignCompleted: boolean;
}

/**
 * Approves or disapproves a pending cash donation. Only those the transition table names may (states.ts: the
 * NGO it was paid to); anyone else is told it is not found (policy.ts). The status change, the
 * receipt number, the campaign's collected amount, its completion and the audit entry are one transaction,
 * and the status changes only from pending: however many approvals arrive at once, the amount counts once.
 * The donor's notice and mail are written in the same transaction (decision 042): they exist exactly when the
 * decision commits, and a notice that fails for a reason other than the database's is logged, never undoing it.
 */
export async function decideCashDonation(
  services: Pick<Services, "db" | "mailer" | "config" | "log">,
  actor: DonationActor,
  decision: ({ donationId: string; approve: true } | { donationId: string; approve: false; reason: string }) & {
    /** How many corrections of the donor the reviewer saw (0 or 1): a decision on an older proof is refused. */
    seenReplies?: number;
  },
): Promise<DecisionOutcome> {
  const { db } = services;
  if (!isUuid(decision.donationId)) throw notFound();
  const action = decision.approve ? ("approve" as const) : ("disapprove" as const);
  const status = cashDonationStates.target(action, "pending") as DecisionOutcome["status"];
  const reason = decision.approve ? null : decision.reason;
  const scope = decisionScope(actor, action);

  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(donations)
      .set({ status, rejectionReason: reason, decidedBy: actor.id, decidedAt: sql`now()`, updatedAt: sql`now()` })
      .where(
        and(
          eq(donations.id, decision.donationId),
          scope,
          eq(donations.kind, "cash"),
          inArray(donations.status, fromStates(action)),
          decision.seenReplies === undefined ? undefined : sql`${repliedSql()} = ${decision.seenReplies > 0}`,
        ),
      )
      .returning();
    if (!row) {
      const [current] = await tx
        .select({ status: donations.status, receiptNumber: donations.receiptNumber })
        .from(donations)
        .where(and(eq(donations.id, decision.donationId), scope, eq(donations.kind, "cash")))
        .limit(1);
      if (!current) throw notFound();
      // Still waiting, so the reviewer's page showed an older proof: the donor corrected it since.
      if (current.status === "pending") throw conflict("donations.proof_changed");
      // The guarded update found it decided already: the same decision again is a repeat, any other is refused.
      assertTransition(action, current.status, "recipient", () => conflict("donations.already_decided"));
      return { status, changed: false, receiptNumber: current.receiptNumber, campaignCompleted: false };
    }

    let receiptNumber: number | null = null;
    let campaignCompleted = false;
    if (status === "approved") {
      // Locks the NGO's row: receipts are numbered without gaps or repeats, in the order approvals commit.
      const [counter] = await tx
        .update(ngoProfiles)
        .set({ receiptCounter: sql`${ngoProfiles.receiptCounter} + 1` })
        .where(eq(ngoProfiles.userId, row.recipientNgoId))
        .returning({ n: ngoProfiles.receiptCounter });
      receiptNumber = counter!.n;
      await tx.update(donations).set({ receiptNumber }).where(eq(donations.id, row.id));
      const [campaign] = await tx
        .update(campaigns)
        .set({ collectedAmount: sql`${campaigns.collectedAmount} + ${row.amount!}`, updatedAt: sql`now()` })
        .where(eq(campaigns.id, row.campaignId))
        .returning({ acceptedFunds: campaigns.acceptedFunds });
      // The campaign may have stopped taking the gift's fund since it was given (its Zakat attestation withdrawn): read
      // from the row this update locked, the approval is refused and all of it undone, so a Zakat gift is never counted
      // to a campaign that does not take Zakat (decision 048).
      if (!campaign?.acceptedFunds.includes(row.fund)) throw conflict("funds.no_longer_accepted");
      campaignCompleted = await completeIfTargetReached(tx, row.campaignId);
    }
    // The statement line tied to this gift is its evidence: confirmed with the approval, released by a disapproval.
    const line = await settleStatementLine(tx, row.id, status, actor.id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: status === "approved" ? "donation.approved" : "donation.rejected",
      targetUserId: row.donorId,
      details: {
        donationId: row.id,
        campaignId: row.campaignId,
        amount: row.amount,
        method: row.method,
        receiptNumber,
        reason,
        ...(line ? { statementLineId: line.id, statementDay: line.postedOn, statementReference: line.reference } : {}),
      },
    });
    await tellDonor({ ...services, db: tx }, row, status, reason, receiptNumber);
    return { status, changed: true, receiptNumber, campaignCompleted };
  });

  return {
    status: outcome.status,
    changed: outcome.changed,
    receiptNumber: outcome.receiptNumber,
    campaignCompleted: outcome.campaignCompleted,
  };
}

async function tellDonor(
  services: Pick<Services, "db" | "mailer" | "config" | "log">,
  donation: typeof donations.$inferSelect,
  status: "approved" | "rejected",
  reason: string | null,
  receiptNumber: number | null,
): Promise<void> {
  await tellWithin(services, { donationId: donation.id }, async () => {
    const [info] = await services.db
      .select({
        campaign: campaigns.title,
        ngo: ngoProfiles.name,
        receiptSeries: ngoProfiles.receiptSeries,
        firstName: donorProfiles.firstName,
      })
      .from(campaigns)
      .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donation.recipientNgoId))
      .leftJoin(donorProfiles, eq(donorProfiles.userId, donation.donorId))
      .where(eq(campaigns.id, donation.campaignId))
      .limit(1);
    const amount = formatRupees(donation.amount ?? 0);
    const params = { amount, campaign: info?.campaign ?? "", ngo: info?.ngo ?? "", reason: reason ?? "" };
    await notify(services, {
      userId: donation.donorId,
      type: status === "approved" ? "donationApproved" : "donationRejected",
      params,
      link: "/dvh",
      email: {
        subject: `donations:mail.${status}.subject`,
        body: `donations:mail.${status}.body`,
        params: {
          ...params,
          name: info?.firstName ?? "",
          link: appLink(services.config, "/dvh"),
          // The number the donor's receipt carries, with the NGO's prefix (decision 027).
          receipt: info && receiptNumber !== null ? formatReceiptNumber(info.receiptSeries, receiptNumber) : "",
        },
      },
    });
  });
}

export interface QueueItem {
  id: string;
  createdAt: Date;
  amount: number;
  method: PaymentMethod;
  phone: string | null;
  transactionId: string | null;
  campaignId: string;
  campaignTitle: string;
  donorName: string;
  donorEmail: string;
  /** Another donation (of anyone, to anyone) gave the same transaction ID. */
  duplicateTransaction: boolean;
  /** Another donation's screenshot has the same fingerprint. */
  duplicateImage: boolean;
  /** The amount of the NGO's statement line tied to this gift, in paisa (decision 022), or null while none is. */
  statementPaisa: number | null;
  /** The donor answered a disapproval with a corrected proof (decision 025). */
  resubmitted: boolean;
  /** The fund given to, whether the donor is named in public, and in whose name (decision 048): the NGO sees the donor either way. */
  fund: FundKind;
  showName: boolean;
  inNameOf: string | null;
}

function queueColumns() {
  return {
    id: donations.id,
    createdAt: donations.createdAt,
    amount: sql<number>`${donations.amount}`.mapWith(Number),
    method: sql<PaymentMethod>`${donations.method}`,
    phone: donations.phone,
    transactionId: donations.transactionId,
    campaignId: donations.campaignId,
    campaignTitle: campaigns.title,
    donorName: sql<string>`coalesce(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}, ${users.email})`,
    donorEmail: users.email,
    duplicateTransaction: sql<boolean>`exists (select 1 from donations other where other.transaction_id = ${donations.transactionId} and other.id <> ${donations.id})`,
    duplicateImage: sql<boolean>`exists (select 1 from donations other where other.proof_fingerprint = ${donations.proofFingerprint} and other.id <> ${donations.id})`,
    statementPaisa: sql<
      number | null
    >`(select line.amount_paisa from statement_lines line where line.donation_id = ${donations.id} and line.status in ('matched', 'confirmed'))`.mapWith(
      (v) => (v === null ? null : Number(v)),
    ),
    resubmitted: repliedSql().mapWith(Boolean),
    fund: donations.fund,
    showName: donations.showName,
    inNameOf: donations.inNameOf,
  };
}

/**
 * The NGO's pending cash donations, oldest first (first come, first reviewed), optionally of one campaign.
 * Only donations paid to this NGO: a partner of a joint campaign reviews its own.
 */
export async function reviewQueue(
  db: DbOrTx,
  actor: DonationActor,
  opts: { campaignId?: string; page: number },
): Promise<Paged<QueueItem>> {
  const where = and(
    donationScope(actor, "review"),
    eq(donations.kind, "cash"),
    inArray(donations.status, fromStates("approve")),
    opts.campaignId && isUuid(opts.campaignId) ? eq(donations.campaignId, opts.campaignId) : undefined,
  );
  const [total, rows] = await Promise.all([
    pendingReviewCount(db, actor, opts.campaignId && isUuid(opts.campaignId) ? opts.campaignId : null),
    db
      .select(queueColumns())
      .from(donations)
      .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
      .innerJoin(users, eq(users.id, donations.donorId))
      .leftJoin(donorProfiles, eq(donorProfiles.userId, donations.donorId))
      .where(where)
      .orderBy(asc(donations.createdAt), asc(donations.id))
      .limit(PAGE_SIZE)
      .offset(pageOffset(opts.page)),
  ]);
  return paged(rows, opts.page, total);
}

/**
 * How many cash donations wait for this NGO's review (its home, the queue's count), of one campaign or all: from the
 * kept tallies (decision 044). Only an NGO reviews (the `review` reading's one relation is the recipient).
 */
export async function pendingReviewCount(db: DbOrTx, actor: DonationActor, campaignId: string | null = null): Promise<number> {
  if (actor.role !== "ngo") return 0;
  const waiting: readonly DonationStatus[] = fromStates("approve");
  const rows = await tallies(db, actor.id, { kind: "cash", campaignId });
  return rows.filter((r) => waiting.includes(r.status)).reduce((sum, r) => sum + r.n, 0);
}

/** The campaigns with pending cash donations to this NGO, for the queue's filter (a bounded list, A–Z). */
export async function reviewCampaigns(db: DbOrTx, actor: DonationActor): Promise<{ id: string; title: string }[]> {
  if (actor.role !== "ngo") return [];
  // The kept tallies count the NGO's cash by state (donationScope's "review": the recipient NGO), the queue's states.
  return campaignChoices(db, actor.id, (id) => tallied(actor.id, id, { kind: "cash", statuses: fromStates("approve") }));
}

/** Another donation that shares a transaction ID or a screenshot with the one under review. */
export interface RelatedDonation {
  id: string;
  createdAt: Date;
  status: DonationStatus;
  /** Null when it was paid to another NGO: the reviewer learns it exists, not whose it is. */
  campaignTitle: string | null;
  sameDonor: boolean;
}

/** The NGO's own statement line tied to the gift, as the workbench shows it beside what the donor typed. */
export interface StatementEvidence {
  postedOn: string;
  postedAt: string | null;
  amountPaisa: number;
  reference: string;
  sender: string;
  description: string;
  rule: string | null;
  confidence: number | null;
  status: string;
}

export interface ReviewDetail extends QueueItem {
  /** The pledge code the donor was asked to write in the transfer's remark. */
  pledgeCode: string | null;
  /** The NGO's account the donor was shown for this method (what "paid to" should say). */
  accountNumber: string | null;
  statement: StatementEvidence | null;
  status: DonationStatus;
  proofKey: string | null;
  rejectionReason: string | null;
  sameTransaction: RelatedDonation[];
  sameImage: RelatedDonation[];
  /** Sent, disapproved, answered, re-sent, decided (decision 025). */
  history: GiftStep[];
}

const RELATED_LIMIT = 5;

/** One cash donation paid to this NGO, with its proof and what it shares with other donations; not found for anyone else's. */
export async function reviewDetail(db: DbOrTx, actor: DonationActor, donationId: string): Promise<ReviewDetail> {
  if (!isUuid(donationId)) throw notFound();
  const [row] = await db
    .select({
      ...queueColumns(),
      status: donations.status,
      proofKey: donations.proofKey,
      rejectionReason: donations.rejectionReason,
      decidedAt: donations.decidedAt,
      donorId: donations.donorId,
      fingerprint: donations.proofFingerprint,
      pledgeId: donations.pledgeId,
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(users, eq(users.id, donations.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, donations.donorId))
    .where(and(eq(donations.id, donationId), donationScope(actor, "review"), eq(donations.kind, "cash")))
    .limit(1);
  if (!row) throw notFound();
  const related = async (column: typeof donations.transactionId | typeof donations.proofFingerprint, value: string | null) => {
    if (!value) return [];
    const rows = await db
      .select({
        id: donations.id,
        createdAt: donations.createdAt,
        status: donations.status,
        recipientNgoId: donations.recipientNgoId,
        donorId: donations.donorId,
        campaignTitle: campaigns.title,
      })
      .from(donations)
      .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
      .where(and(eq(column, value), ne(donations.id, donationId)))
      .orderBy(desc(donations.createdAt))
      .limit(RELATED_LIMIT);
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      status: r.status,
      campaignTitle: r.recipientNgoId === actor.id ? r.campaignTitle : null,
      sameDonor: r.donorId === row.donorId,
    }));
  };
  const { donorId: _donor, fingerprint, pledgeId, decidedAt, ...item } = row;
  const [line] = await db
    .select({
      postedOn: statementLines.postedOn,
      postedAt: statementLines.postedAt,
      amountPaisa: statementLines.amountPaisa,
      reference: statementLines.reference,
      sender: statementLines.sender,
      description: statementLines.description,
      rule: statementLines.matchRule,
      confidence: statementLines.confidence,
      status: statementLines.status,
    })
    .from(statementLines)
    .where(and(eq(statementLines.donationId, donationId), eq(statementLines.ngoId, actor.id)))
    .limit(1);
  const [pledge] = pledgeId ? await db.select({ code: pledges.code }).from(pledges).where(eq(pledges.id, pledgeId)).limit(1) : [];
  const [profile] = await db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, actor.id)).limit(1);
  return {
    ...item,
    pledgeCode: pledge?.code ?? null,
    accountNumber: (profile && accountsOf(profile).find((a) => a.method === item.method)?.number) ?? null,
    statement: line ? { ...line, amountPaisa: Number(line.amountPaisa) } : null,
    sameTransaction: await related(donations.transactionId, row.transactionId),
    sameImage: await related(donations.proofFingerprint, fingerprint),
    history: await giftHistory(db, { ...item, decidedAt }),
  };
}

export interface DonorDonationSummary {
  id: string;
  amount: number;
  method: PaymentMethod;
  status: DonationStatus;
  campaignTitle: string;
  campaignSlug: string;
  ngoName: string;
  createdAt: Date;
}

/** A cash donation of this donor (the thank-you page); not found for anyone else (policy.ts, `summary`). */
export async function cashDonationOfDonor(db: DbOrTx, actor: DonationActor, donationId: string): Promise<DonorDonationSummary> {
  if (!isUuid(donationId)) throw notFound();
  const [row] = await db
    .select({
      id: donations.id,
      amount: sql<number>`${donations.amount}`.mapWith(Number),
      method: sql<PaymentMethod>`${donations.method}`,
      status: donations.status,
      campaignTitle: campaigns.title,
      campaignSlug: campaigns.slug,
      ngoName: ngoProfiles.name,
      createdAt: donations.createdAt,
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .where(and(eq(donations.id, donationId), donationScope(actor, "summary"), eq(donations.kind, "cash")))
    .limit(1);
  if (!row) throw notFound();
  return row;
}
