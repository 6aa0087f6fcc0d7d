import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentMethod } from "#shared/constants.ts";
import { rejectionReplySchema, type RejectionReplyValues } from "#shared/forms/donations.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import type { Db } from "#server/db/client.ts";
import {
  auditLog,
  campaigns,
  donationReplies,
  donations,
  files,
  mailOutbox,
  notifications,
  statementImports,
  statementLines,
  users,
} from "#server/db/schema.ts";
import { decideCashDonation, reviewDetail, reviewQueue } from "#server/domain/donations/cash.ts";
import { donorHistory, ngoHistory, parseNgoHistoryFilter } from "#server/domain/donations/history.ts";
import { mayReadProof } from "#server/domain/donations/policy.ts";
import { replyTarget, replyToRejection } from "#server/domain/donations/replies.ts";
import { ignoreLine } from "#server/domain/statements/reconcile.ts";
import { asAdmin, asDonor, asNgo } from "#tests/helpers/actors.ts";
import { givePaymentAccounts, makeCampaign, makeCashDonation, makeDonation, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { failure, NOT_FOUND } from "#tests/helpers/failure.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { until } from "#tests/helpers/queue.ts";
import { workStatementMatching } from "#server/jobs/workers.ts";
import { matchAccount } from "#server/domain/statements/matching.ts";

const pngFile = (bytes: Buffer) => new File([new Uint8Array(bytes)], "proof.png", { type: "image/png" });
const tid = () => `TX${randomUUID().slice(0, 8).toUpperCase()}`;

/** After a disapproval (decision 025): the donor's one reply with a corrected proof, to the same gift. */
describe("replying to a disapproval", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
    // A corrected proof queues the account's matching round (account-match) in its transaction; this file's workers run it.
    await workStatementMatching(s, s.jobs);
  });
  afterAll(async () => s.close());

  async function scene() {
    const ngo = await makeUser(s.db, "ngo");
    await givePaymentAccounts(s.db, ngo.id);
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id, { targetAmount: 10_000_000 });
    return { ngo, donor, campaign };
  }

  /** A gift the NGO disapproved through the product, with a stored screenshot. */
  async function rejectedGift(over: { proof?: Buffer; transactionId?: string } = {}) {
    const scenery = await scene();
    const gift = await makeCashDonation(s, scenery.campaign, scenery.donor.id, {
      transactionId: over.transactionId ?? tid(),
      proof: over.proof,
    });
    await decideCashDonation(s, asNgo(scenery.ngo.id), {
      donationId: gift.id,
      approve: false,
      reason: "The screenshot shows another account.",
    });
    return { ...scenery, gift };
  }

  const reply = (donationId: string, over: Partial<RejectionReplyValues> = {}): RejectionReplyValues => ({
    donation: donationId,
    idempotencyKey: randomUUID(),
    message: "Sorry, I attached the wrong screenshot. Here is the right one.",
    transactionId: tid(),
    screenshot: undefined,
    ...over,
  });
  const row = async (id: string) => (await s.db.select().from(donations).where(eq(donations.id, id)))[0]!;
  const replies = (id: string) => s.db.select().from(donationReplies).where(eq(donationReplies.donationId, id));
  const audits = (id: string) =>
    s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "donation.resubmitted"), sql`${auditLog.details}->>'donationId' = ${id}`));

  it("the donor reads the reason and the NGO's contact as the NGO set them", async () => {
    const { ngo, donor, gift } = await rejectedGift();
    const target = await replyTarget(s.db, asDonor(donor.id), gift.id);
    expect(target).toMatchObject({
      status: "rejected",
      rejectionReason: "The screenshot shows another account.",
      contact: { address: "Saddar, Karachi", phone: "03001234567", email: ngo.email },
      replied: false,
      actions: ["resubmit"],
    });
    const [listed] = (await donorHistory(s.db, asDonor(donor.id))).rows;
    expect(listed).toMatchObject({
      id: gift.id,
      ngoAddress: "Saddar, Karachi",
      ngoPhone: "03001234567",
      ngoEmail: ngo.email,
      replied: false,
    });
  });

  it("a reply with a new screenshot and transaction ID sends the same gift back to the NGO: audited, told in its language, marked re-submitted", async () => {
    const { ngo, donor, campaign, gift } = await rejectedGift();
    await s.db.update(users).set({ language: "ur" }).where(eq(users.id, ngo.id));
    const values = reply(gift.id, { screenshot: pngFile(await makeProofPng()) });
    expect(await replyToRejection(s, asDonor(donor.id), values)).toEqual({ id: gift.id, changed: true });

    const after = await row(gift.id);
    expect(after).toMatchObject({
      status: "pending",
      transactionId: values.transactionId,
      pledgeId: gift.pledgeId,
      campaignId: campaign.id,
      rejectionReason: null,
      decidedAt: null,
    });
    expect(after.proofKey).not.toBe(gift.proofKey);
    const [saved] = await replies(gift.id);
    expect(saved).toMatchObject({
      message: values.message,
      rejectionReason: "The screenshot shows another account.",
      rejectedBy: ngo.id,
      previousTransactionId: gift.transactionId,
      previousProofKey: gift.proofKey,
    });
    expect(await audits(gift.id)).toHaveLength(1);

    const [notice] = await s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ngo.id), eq(notifications.type, "donationResubmitted")));
    expect(notice?.link).toBe(`/apps?view=${gift.id}`);
    const mail = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, ngo.email));
    const resent = mail.find((m) => m.body.includes(values.message));
    // The NGO's language, not the donor's.
    expect(resent?.subject).toMatch(/درست ثبوت/);

    const queue = await reviewQueue(s.db, asNgo(ngo.id), { page: 1 });
    expect(queue.rows.find((r) => r.id === gift.id)).toMatchObject({ resubmitted: true, transactionId: values.transactionId });
    const history = (await ngoHistory(s.db, asNgo(ngo.id), parseNgoHistoryFilter(new URLSearchParams()))).rows;
    expect(history.find((r) => r.id === gift.id)?.resubmitted).toBe(true);

    // Both screenshots stay readable by the gift's donor and NGO (the earlier one is history), and by nobody else.
    const stranger = await makeUser(s.db, "ngo");
    for (const key of [gift.proofKey!, after.proofKey!]) {
      expect(await mayReadProof(s.db, key, asDonor(donor.id))).toBe(true);
      expect(await mayReadProof(s.db, key, asNgo(ngo.id))).toBe(true);
      expect(await mayReadProof(s.db, key, asNgo(stranger.id))).toBe(false);
    }
  });

  it("the NGO approves the re-submitted gift: the receipt is the same gift's, and the history reads in order", async () => {
    const { ngo, donor, gift } = await rejectedGift();
    const values = reply(gift.id);
    await replyToRejection(s, asDonor(donor.id), values);
    const approved = await decideCashDonation(s, asNgo(ngo.id), { donationId: gift.id, approve: true });
    expect(approved).toMatchObject({ status: "approved", changed: true });
    expect((await row(gift.id)).receiptNumber).toBe(approved.receiptNumber);

    const detail = await reviewDetail(s.db, asNgo(ngo.id), gift.id);
    expect(detail.history.map((h) => [h.type, h.text, h.transactionId])).toEqual([
      ["submitted", null, gift.transactionId],
      ["rejected", "The screenshot shows another account.", null],
      ["replied", values.message, null],
      ["resubmitted", null, values.transactionId],
      ["approved", null, null],
    ]);
  });

  it("a decision taken on the proof shown before the donor's correction is refused, and changes nothing", async () => {
    const { ngo, donor, campaign, gift } = await rejectedGift();
    await replyToRejection(s, asDonor(donor.id), reply(gift.id));
    const before = await row(gift.id);
    const collected = async () => (await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id)))[0]!.collectedAmount;
    const collectedBefore = await collected();
    // A page opened before the reply (it showed the first proof) approves or disapproves: refused, nothing counted.
    for (const stale of [
      { donationId: gift.id, approve: true as const, seenReplies: 0 },
      { donationId: gift.id, approve: false as const, reason: "Still wrong.", seenReplies: 0 },
    ]) {
      expect(await failure(decideCashDonation(s, asNgo(ngo.id), stale))).toMatchObject({
        kind: "conflict",
        message: "review:notices.proofChanged",
      });
    }
    expect(await row(gift.id)).toMatchObject({ status: "pending", receiptNumber: before.receiptNumber, updatedAt: before.updatedAt });
    expect(await collected()).toBe(collectedBefore);
    // The page that showed the corrected proof decides.
    expect(await decideCashDonation(s, asNgo(ngo.id), { donationId: gift.id, approve: true, seenReplies: 1 })).toMatchObject({
      status: "approved",
      changed: true,
    });
    expect(await collected()).toBe(collectedBefore + gift.amount!);
  });

  it("only once: a second reply is refused, even after a second disapproval; the same form sent again is answered as done", async () => {
    const { ngo, donor, gift } = await rejectedGift();
    const first = reply(gift.id);
    await replyToRejection(s, asDonor(donor.id), first);
    // The same form again (a retried request): done, nothing more.
    expect(await replyToRejection(s, asDonor(donor.id), first)).toEqual({ id: gift.id, changed: false });
    await decideCashDonation(s, asNgo(ngo.id), { donationId: gift.id, approve: false, reason: "Still not in our account." });
    expect(await failure(replyToRejection(s, asDonor(donor.id), reply(gift.id)))).toEqual({
      kind: "conflict",
      message: "donations:errors.alreadyReplied",
    });
    expect(await row(gift.id)).toMatchObject({ status: "rejected", rejectionReason: "Still not in our account." });
    expect(await replies(gift.id)).toHaveLength(1);
    expect(await audits(gift.id)).toHaveLength(1);
    expect(await replyTarget(s.db, asDonor(donor.id), gift.id)).toMatchObject({ replied: true, actions: [] });
  });

  it("concurrent replies: exactly one lands, the others are refused or answered as done, and no screenshot is left behind", async () => {
    const { ngo, donor, gift } = await rejectedGift();
    const filesBefore = (await s.db.select({ n: sql<number>`count(*)::int` }).from(files))[0]!.n;
    const forms = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => reply(gift.id, i % 2 ? { screenshot: pngFile(await makeProofPng()) } : {})),
    );
    const settled = await Promise.allSettled(forms.map((f) => replyToRejection(s, asDonor(donor.id), f)));
    const landed = settled.filter((r) => r.status === "fulfilled" && r.value.changed);
    expect(landed).toHaveLength(1);
    for (const r of settled) {
      if (r.status === "rejected") expect(r.reason).toMatchObject({ kind: "conflict", code: "donations.already_replied" });
    }
    expect(await replies(gift.id)).toHaveLength(1);
    expect(await audits(gift.id)).toHaveLength(1);
    const told = await s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ngo.id), eq(notifications.type, "donationResubmitted")));
    expect(told).toHaveLength(1);
    // Only the winning reply's screenshot (if it sent one) was kept.
    const filesAfter = (await s.db.select({ n: sql<number>`count(*)::int` }).from(files))[0]!.n;
    const winner = forms[settled.indexOf(landed[0]!)]!;
    expect(filesAfter - filesBefore).toBe(winner.screenshot ? 1 : 0);
  });

  it("only the gift's donor may reply: another donor, the NGO, another NGO and the admin are told it is not found", async () => {
    const { ngo, gift } = await rejectedGift();
    const [otherDonor, otherNgo, admin] = await Promise.all([makeUser(s.db, "donor"), makeUser(s.db, "ngo"), makeUser(s.db, "admin")]);
    for (const actor of [asDonor(otherDonor.id), asNgo(ngo.id), asNgo(otherNgo.id), asAdmin(admin.id)]) {
      expect(await failure(replyToRejection(s, actor, reply(gift.id)))).toEqual(NOT_FOUND);
      expect(await failure(replyTarget(s.db, actor, gift.id))).toEqual(NOT_FOUND);
    }
    expect(await failure(replyToRejection(s, asDonor(otherDonor.id), reply("not-a-uuid")))).toEqual(NOT_FOUND);
    expect(await failure(replyToRejection(s, asDonor(otherDonor.id), reply(randomUUID())))).toEqual(NOT_FOUND);
    expect((await row(gift.id)).status).toBe("rejected");
    expect(await replies(gift.id)).toHaveLength(0);
  });

  it("only a disapproved gift may be answered: pending and approved cash, and in-kind gifts, are refused and keep no file", async () => {
    const { ngo, donor, campaign } = await scene();
    const pending = await makeCashDonation(s, campaign, donor.id);
    const approved = await makeCashDonation(s, campaign, donor.id);
    await decideCashDonation(s, asNgo(ngo.id), { donationId: approved.id, approve: true });
    const filesBefore = (await s.db.select({ n: sql<number>`count(*)::int` }).from(files))[0]!.n;
    for (const g of [pending, approved]) {
      expect(await failure(replyToRejection(s, asDonor(donor.id), reply(g.id, { screenshot: pngFile(await makeProofPng()) })))).toEqual({
        kind: "conflict",
        message: "donations:errors.notRejected",
      });
    }
    const goods = await makeDonation(s.db, campaign, donor.id, { kind: "in_kind", status: "rejected" });
    expect(await failure(replyToRejection(s, asDonor(donor.id), reply(goods.id)))).toEqual(NOT_FOUND);
    expect((await s.db.select({ n: sql<number>`count(*)::int` }).from(files))[0]!.n).toBe(filesBefore);
    expect((await row(pending.id)).status).toBe("pending");
    expect((await row(approved.id)).status).toBe("approved");
  });

  it("a reply must correct something: the same transaction ID without a new screenshot, or with the same one, is refused on that field", async () => {
    const proof = await makeProofPng(7);
    const { donor, gift } = await rejectedGift({ proof });
    const refused = { kind: "invalid", message: "donations:errors.correctionNeeded", field: "transactionId" };
    expect(await failure(replyToRejection(s, asDonor(donor.id), reply(gift.id, { transactionId: gift.transactionId! })))).toEqual(refused);
    const filesBefore = (await s.db.select({ n: sql<number>`count(*)::int` }).from(files))[0]!.n;
    const sameAgain = reply(gift.id, { transactionId: gift.transactionId!, screenshot: pngFile(proof) });
    expect(await failure(replyToRejection(s, asDonor(donor.id), sameAgain))).toEqual(refused);
    // The refused upload is not kept.
    expect((await s.db.select({ n: sql<number>`count(*)::int` }).from(files))[0]!.n).toBe(filesBefore);
    // A new screenshot with the same ID is a correction.
    const values = reply(gift.id, { transactionId: gift.transactionId!, screenshot: pngFile(await makeProofPng()) });
    expect(await replyToRejection(s, asDonor(donor.id), values)).toMatchObject({ changed: true });
  });

  it("the gift is not flagged against its own earlier proof, but still against another gift's", async () => {
    const png = await makeProofPng(4242);
    const { ngo, donor, campaign, gift } = await rejectedGift({ proof: png });
    // The same screenshot, re-encoded by the upload, with a new transaction ID: its own earlier proof is no duplicate.
    await replyToRejection(s, asDonor(donor.id), reply(gift.id, { screenshot: pngFile(png) }));
    const own = await reviewDetail(s.db, asNgo(ngo.id), gift.id);
    expect({ tx: own.duplicateTransaction, image: own.duplicateImage, same: [...own.sameTransaction, ...own.sameImage] }).toEqual({
      tx: false,
      image: false,
      same: [],
    });

    // A new transaction ID another gift already gave is still flagged.
    const other = await makeCashDonation(s, campaign, donor.id);
    const second = await rejectedGift();
    await replyToRejection(s, asDonor(second.donor.id), reply(second.gift.id, { transactionId: other.transactionId! }));
    const flagged = await reviewDetail(s.db, asNgo(second.ngo.id), second.gift.id);
    expect(flagged.duplicateTransaction).toBe(true);
  });

  it("the gift's history is read only by the NGO it was paid to: not the owner of a joint campaign for its partner's gift, nor another NGO", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const stranger = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const gift = await makeCashDonation(s, { id: campaign.id, ownerId: partner.id }, donor.id);
    await decideCashDonation(s, asNgo(partner.id), { donationId: gift.id, approve: false, reason: "Wrong amount." });
    await replyToRejection(s, asDonor(donor.id), reply(gift.id));
    expect((await reviewDetail(s.db, asNgo(partner.id), gift.id)).history.map((h) => h.type)).toEqual([
      "submitted",
      "rejected",
      "replied",
      "resubmitted",
    ]);
    for (const ngo of [owner, stranger]) {
      expect(await failure(reviewDetail(s.db, asNgo(ngo.id), gift.id))).toEqual(NOT_FOUND);
      expect((await reviewQueue(s.db, asNgo(ngo.id), { page: 1 })).rows.some((r) => r.id === gift.id)).toBe(false);
    }
  });

  it("a re-submitted proof goes through statement matching: a line left unmatched now ties by the corrected transaction ID", async () => {
    const { ngo, donor, gift } = await rejectedGift();
    const corrected = tid();
    const [released] = await addLines(s.db, ngo.id, "jazzcash", [{ reference: corrected, amountPaisa: 100_000 }]);
    await replyToRejection(s, asDonor(donor.id), reply(gift.id, { transactionId: corrected }));
    const line = await until(
      async () => (await s.db.select().from(statementLines).where(eq(statementLines.id, released!.id)))[0],
      (l) => l?.status !== "unmatched",
    );
    expect(line).toMatchObject({ status: "matched", donationId: gift.id, matchRule: "transaction_id" });
    // Approving confirms the line in the same transaction, as for any gift.
    await decideCashDonation(s, asNgo(ngo.id), { donationId: gift.id, approve: true });
    const [confirmed] = await s.db.select().from(statementLines).where(eq(statementLines.id, released!.id));
    expect(confirmed?.status).toBe("confirmed");
  });

  it("a line the NGO set aside stays its decision: it is not matched until the NGO puts it back", async () => {
    const { ngo, donor, gift } = await rejectedGift();
    const corrected = tid();
    const [aside] = await addLines(s.db, ngo.id, "jazzcash", [{ reference: corrected, amountPaisa: 100_000 }]);
    await ignoreLine(s.db, asNgo(ngo.id), aside!.id, "Not a gift.");
    await replyToRejection(s, asDonor(donor.id), reply(gift.id, { transactionId: corrected }));
    // No line of the account waits for a gift, so no round was queued; one run now ties nothing either.
    expect(await matchAccount(s.db, ngo.id, "jazzcash")).toBe(0);
    const [line] = await s.db.select().from(statementLines).where(eq(statementLines.id, aside!.id));
    expect(line).toMatchObject({ status: "ignored", donationId: null });
  });

  it("the reply form: a message is required, the screenshot optional, the transaction ID normalised", () => {
    const parse = (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append("screenshot", new File([], "", { type: "application/octet-stream" }));
      return parseWithZod(form, { schema: rejectionReplySchema });
    };
    const ok = parse({ donation: randomUUID(), idempotencyKey: randomUUID(), message: " Here it is ", transactionId: "tx 1234-56" });
    expect(ok.status === "success" && { message: ok.value.message, tx: ok.value.transactionId, shot: ok.value.screenshot }).toEqual({
      message: "Here it is",
      tx: "TX123456",
      shot: undefined,
    });
    const empty = parse({ donation: "", idempotencyKey: "", message: "", transactionId: "" });
    expect(empty.status === "success" ? null : empty.error).toEqual({
      donation: ["errors:notFound"],
      idempotencyKey: ["donations:errors.formExpired"],
      message: ["donations:errors.replyRequired"],
      transactionId: ["donations:errors.fillAll"],
    });
  });
});

/** Statement lines written directly (the file reader has its own tests), as matching.test.ts does. */
async function addLines(db: Db, ngoId: string, method: PaymentMethod, lines: Partial<typeof statementLines.$inferInsert>[]) {
  const [imp] = await db
    .insert(statementImports)
    .values({ ngoId, method, fileName: "t.csv", creditLines: lines.length, debitLines: 0, newLines: lines.length })
    .returning();
  return db
    .insert(statementLines)
    .values(
      lines.map((l, i) => ({
        ngoId,
        method,
        importId: imp!.id,
        fingerprint: randomUUID(),
        occurrence: 1,
        fileRow: i + 2,
        postedOn: new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10),
        amountPaisa: 100_000,
        description: "",
        sender: "",
        reference: "",
        ...l,
      })),
    )
    .returning();
}
