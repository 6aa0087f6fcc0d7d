import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentMethod } from "#shared/constants.ts";
import { auditLog, campaigns, donations, notifications, statementImports, statementLines } from "#server/db/schema.ts";
import type { Db } from "#server/db/client.ts";
import { decideCashDonation } from "#server/domain/donations/cash.ts";
import { createPledge } from "#server/domain/donations/pledges.ts";
import { findMatches, matchAccount, type GiftToMatch, type LineToMatch } from "#server/domain/statements/matching.ts";
import {
  confirmLines,
  ignoreLine,
  linesWithout,
  matchByHand,
  matchedLines,
  pledgesWithoutGift,
  recordPledgedGift,
  restoreLine,
  waitingGifts,
} from "#server/domain/statements/reconcile.ts";
import { formatPledgeCode } from "#shared/pledges.ts";
import { asDonor, asNgo } from "#tests/helpers/actors.ts";
import { givePaymentAccounts, makeCampaign, makeCashDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { failure } from "#tests/helpers/failure.ts";
import { makeOlder } from "#tests/helpers/time.ts";
import { remindWaitingDonors } from "#server/domain/statements/reminders.ts";

const gift = (over: Partial<GiftToMatch>): GiftToMatch => ({
  id: over.id ?? crypto.randomUUID(),
  amount: 1000,
  transactionId: null,
  phone: null,
  pledgeCode: null,
  firstDay: "2026-11-10",
  lastDay: "2026-11-10",
  ...over,
});
const line = (over: Partial<LineToMatch>): LineToMatch => ({
  id: over.id ?? crypto.randomUUID(),
  postedOn: "2026-11-10",
  amountPaisa: 100_000,
  description: "",
  reference: "",
  senderPhone: null,
  ...over,
});

/** The matching rules (decision 022), pure: what ties a statement line to a gift, strongest first. */
describe("matching rules", () => {
  it("ties by transaction ID in the reference or a word of the description, then by pledge code", () => {
    const byRef = gift({ transactionId: "T12345678" });
    const byWord = gift({ transactionId: "ABCD9876" });
    const byCode = gift({ pledgeCode: "7KQ4M9" });
    const matches = findMatches(
      [
        line({ id: "a", reference: "T12345678" }),
        line({ id: "b", description: "IBFT ABCD9876 FROM ALI" }),
        line({ id: "c", description: "zakat EK-7KQ-4M9" }),
      ],
      [byRef, byWord, byCode],
    );
    expect(matches).toEqual([
      { lineId: "a", donationId: byRef.id, rule: "transaction_id", confidence: 100 },
      { lineId: "b", donationId: byWord.id, rule: "transaction_id", confidence: 100 },
      { lineId: "c", donationId: byCode.id, rule: "pledge_code", confidence: 95 },
    ]);
  });

  it("keeps an ID match whose amount differs, with low confidence", () => {
    const g = gift({ transactionId: "T12345678", amount: 1000 });
    expect(findMatches([line({ id: "a", reference: "T12345678", amountPaisa: 90_000 })], [g])).toEqual([
      { lineId: "a", donationId: g.id, rule: "transaction_id", confidence: 60 },
    ]);
  });

  it("ties by amount and days only one to one, preferring the sender's phone", () => {
    const ali = gift({ phone: "03001234567" });
    const sara = gift({ phone: "03111234567" });
    // Two gifts of the same amount on the same day: the phone tells them apart; without it, nothing is guessed.
    expect(findMatches([line({ id: "a", senderPhone: "03111234567" })], [ali, sara])).toEqual([
      { lineId: "a", donationId: sara.id, rule: "amount_phone", confidence: 80 },
    ]);
    expect(findMatches([line({ id: "a" })], [ali, sara])).toEqual([]);
    const lone = gift({ amount: 2500 });
    expect(findMatches([line({ id: "a", amountPaisa: 250_000, postedOn: "2026-11-12" })], [lone])).toEqual([
      { lineId: "a", donationId: lone.id, rule: "amount_date", confidence: 50 },
    ]);
    // Outside the days around the gift, or two lines that fit one gift: no match.
    expect(findMatches([line({ amountPaisa: 250_000, postedOn: "2026-11-20" })], [lone])).toEqual([]);
    expect(findMatches([line({ amountPaisa: 250_000 }), line({ amountPaisa: 250_000 })], [lone])).toEqual([]);
    // Paisas never match a whole-rupee gift by amount.
    expect(findMatches([line({ amountPaisa: 250_050 })], [lone])).toEqual([]);
  });

  it("never ties a line to two gifts or a gift to two lines", () => {
    const shared = gift({ transactionId: "DUPE1234" });
    const twin = gift({ transactionId: "DUPE1234" });
    // Two gifts claim one transaction ID (a reused screenshot): the reviewer decides, the matcher does not.
    expect(findMatches([line({ reference: "DUPE1234" })], [shared, twin])).toEqual([]);
    const g = gift({ transactionId: "ONLY1234", pledgeCode: "ABCDEF" });
    const out = findMatches([line({ id: "a", reference: "ONLY1234" }), line({ id: "b", description: "EK-ABC-DEF" })], [g]);
    expect(out).toHaveLength(1);
    expect(out[0]!.lineId).toBe("a");
  });
});

describe("matching and confirming on the database", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  async function setUp() {
    const ngo = await makeUser(s.db, "ngo");
    await givePaymentAccounts(s.db, ngo.id);
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id, { targetAmount: 10_000_000 });
    return { ngo, donor, campaign };
  }

  /** Statement lines written directly (the file reader has its own tests). */
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
          fingerprint: crypto.randomUUID(),
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

  it("matches an import to pending gifts, confirms a batch once under 20 concurrent confirmations, and records the line", async () => {
    const { ngo, donor, campaign } = await setUp();
    const gifts = await Promise.all(
      Array.from({ length: 5 }, (_, i) => makeCashDonation(s, campaign, donor.id, { amount: 1000 + i, transactionId: `BATCH${i}XYZ` })),
    );
    const lines = await addLines(
      s.db,
      ngo.id,
      "jazzcash",
      gifts.map((g, i) => ({ reference: g.transactionId!, amountPaisa: (1000 + i) * 100 })),
    );
    expect(await matchAccount(s.db, ngo.id, "jazzcash")).toBe(5);
    expect(await matchAccount(s.db, ngo.id, "jazzcash")).toBe(0);
    const ids = lines.map((l) => l.id);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? confirmLines(s, asNgo(ngo.id), ids)
          : decideCashDonation(s, asNgo(ngo.id), { donationId: gifts[i % 5]!.id, approve: true }).then(() => ({
              approved: 0,
              unchanged: 0,
              skipped: 0,
            })),
      ),
    );
    expect(runs.every(Boolean)).toBe(true);
    const rows = await s.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
    expect(rows.every((r) => r.status === "approved")).toBe(true);
    expect(new Set(rows.map((r) => r.receiptNumber)).size).toBe(5);
    const [c] = await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(c!.collectedAmount).toBe(1000 + 1001 + 1002 + 1003 + 1004);
    const confirmed = await s.db.select().from(statementLines).where(eq(statementLines.ngoId, ngo.id));
    expect(confirmed.every((l) => l.status === "confirmed")).toBe(true);
    const audits = await s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "donation.approved"), sql`${auditLog.details}->>'campaignId' = ${campaign.id}`));
    expect(audits).toHaveLength(5);
    expect(audits.every((a) => ids.includes(String(a.details.statementLineId)))).toBe(true);
  });

  it("lets a line match one gift only, also when matching rounds and hand matches race", async () => {
    const { ngo, donor, campaign } = await setUp();
    const g = await makeCashDonation(s, campaign, donor.id, { amount: 1000, transactionId: "RACE1234" });
    const [l1, l2] = await addLines(s.db, ngo.id, "jazzcash", [{ reference: "RACE1234" }, { reference: "OTHER999" }]);
    await Promise.all([
      matchAccount(s.db, ngo.id, "jazzcash"),
      matchAccount(s.db, ngo.id, "jazzcash"),
      failure(matchByHand(s.db, asNgo(ngo.id), l2!.id, g.id)),
      failure(matchByHand(s.db, asNgo(ngo.id), l1!.id, g.id)),
    ]);
    const tied = await s.db.select().from(statementLines).where(eq(statementLines.donationId, g.id));
    expect(tied).toHaveLength(1);
  });

  it("releases the line when the gift is disapproved, and lets the NGO set lines aside and back", async () => {
    const { ngo, donor, campaign } = await setUp();
    const g = await makeCashDonation(s, campaign, donor.id, { amount: 1000, transactionId: "GONE1234" });
    const [l] = await addLines(s.db, ngo.id, "jazzcash", [{ reference: "GONE1234" }]);
    await matchAccount(s.db, ngo.id, "jazzcash");
    expect((await matchedLines(s.db, asNgo(ngo.id), 1)).rows.map((r) => r.id)).toEqual([l!.id]);
    await decideCashDonation(s, asNgo(ngo.id), { donationId: g.id, approve: false, reason: "Not received" });
    expect((await linesWithout(s.db, asNgo(ngo.id), "unmatched", 1)).rows.map((r) => r.id)).toEqual([l!.id]);
    await ignoreLine(s.db, asNgo(ngo.id), l!.id, "Refund from a supplier");
    expect((await linesWithout(s.db, asNgo(ngo.id), "ignored", 1)).rows[0]!.ignoredReason).toBe("Refund from a supplier");
    await restoreLine(s.db, asNgo(ngo.id), l!.id);
    expect((await linesWithout(s.db, asNgo(ngo.id), "unmatched", 1)).total).toBe(1);
  });

  it("keeps each NGO to its own statements and gifts", async () => {
    const a = await setUp();
    const b = await setUp();
    const g = await makeCashDonation(s, a.campaign, a.donor.id, { amount: 1000 });
    const [la] = await addLines(s.db, a.ngo.id, "jazzcash", [{ reference: "NOPE0001" }]);
    const [lb] = await addLines(s.db, b.ngo.id, "jazzcash", [{ reference: "NOPE0002" }]);
    expect((await linesWithout(s.db, asNgo(b.ngo.id), "unmatched", 1)).rows.map((r) => r.id)).toEqual([lb!.id]);
    expect((await failure(matchByHand(s.db, asNgo(b.ngo.id), la!.id, g.id))) as { kind: string }).toMatchObject({ kind: "not_found" });
    expect((await failure(matchByHand(s.db, asNgo(b.ngo.id), lb!.id, g.id))) as { kind: string }).toMatchObject({ kind: "conflict" });
    expect((await failure(ignoreLine(s.db, asNgo(b.ngo.id), la!.id, "x"))) as { kind: string }).toMatchObject({ kind: "not_found" });
    expect(await confirmLines(s, asNgo(b.ngo.id), [la!.id])).toEqual({ approved: 0, unchanged: 0, skipped: 1 });
    expect((await waitingGifts(s.db, asNgo(b.ngo.id), 1)).total).toBe(0);
    expect((await waitingGifts(s.db, asNgo(a.ngo.id), 1)).rows.map((r) => r.id)).toEqual([g.id]);
    await expect(linesWithout(s.db, asDonor(a.donor.id), "unmatched", 1)).resolves.toMatchObject({ total: 0 });
  });

  it("matches by the pledge code written in the remark", async () => {
    const { ngo, donor, campaign } = await setUp();
    const pledge = await createPledge(s.db, donor.id, { campaignId: campaign.id, ngoId: ngo.id, method: "jazzcash" });
    const g = await makeCashDonation(s, campaign, donor.id, { amount: 3000, transactionId: "WRONGTID9", pledgeId: pledge.id });
    await addLines(s.db, ngo.id, "jazzcash", [
      { amountPaisa: 300_000, description: `Donation EK-${pledge.code.slice(0, 3)}-${pledge.code.slice(3)}` },
    ]);
    await matchAccount(s.db, ngo.id, "jazzcash");
    const [m] = (await matchedLines(s.db, asNgo(ngo.id), 1)).rows;
    expect(m).toMatchObject({ rule: "pledge_code", confidence: 95, donation: { id: g.id, pledgeCode: pledge.code } });
  });

  it("reminds a donor once when the NGO's imported statement reaches past the gift without it, and nobody else", async () => {
    const { ngo, donor, campaign } = await setUp();
    const other = await setUp();
    const missing = await makeCashDonation(s, campaign, donor.id, { amount: 4200, transactionId: "LOST4200" });
    const found = await makeCashDonation(s, campaign, donor.id, { amount: 4300, transactionId: "SEEN4300" });
    const noStatement = await makeCashDonation(s, other.campaign, other.donor.id, { amount: 4400 });
    for (const id of [missing.id, found.id, noStatement.id]) {
      await makeOlder(s.db, donations, donations.createdAt, eq(donations.id, id), 5 * 86_400);
    }
    await addLines(s.db, ngo.id, "jazzcash", [{ reference: "SEEN4300", amountPaisa: 430_000 }]);
    await matchAccount(s.db, ngo.id, "jazzcash");
    await s.db.update(statementImports).set({ lastDay: "2999-12-31" }).where(eq(statementImports.ngoId, ngo.id));

    const reminded = await Promise.all([remindWaitingDonors(s), remindWaitingDonors(s)]);
    expect(reminded.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await remindWaitingDonors(s)).toBe(0);
    const notes = await s.db.select().from(notifications).where(eq(notifications.type, "donationNotInStatement"));
    expect(notes.map((n) => n.userId)).toEqual([donor.id]);
    expect(notes[0]!.params).toMatchObject({ amount: "Rs. 4,200", transactionId: "LOST4200" });
    const [row] = await s.db.select().from(donations).where(eq(donations.id, missing.id));
    expect(row!.remindedAt).not.toBeNull();
  });

  it("never reminds when the wait is set to 0 days", async () => {
    expect(await remindWaitingDonors({ ...s, config: { ...s.config, RECONCILE_REMINDER_DAYS: 0 } })).toBe(0);
  });

  it("records and approves the gift a line's pledge code proves when the donor never sent the proof, once", async () => {
    const { ngo, donor, campaign } = await setUp();
    const pledge = await createPledge(s.db, donor.id, { campaignId: campaign.id, ngoId: ngo.id, method: "jazzcash" });
    const [line] = await addLines(s.db, ngo.id, "jazzcash", [
      { amountPaisa: 750_000, reference: "TX7500", senderPhone: "03001234567", description: `zakat ${formatPledgeCode(pledge.code)}` },
    ]);
    const [paisas] = await addLines(s.db, ngo.id, "jazzcash", [{ amountPaisa: 750_050, description: `${formatPledgeCode(pledge.code)}` }]);
    const { rows } = await linesWithout(s.db, asNgo(ngo.id), "unmatched", 1);
    expect(await pledgesWithoutGift(s.db, asNgo(ngo.id), rows)).toMatchObject({ [line!.id]: { code: pledge.code } });
    const other = await setUp();
    expect(await failure(recordPledgedGift(s, asNgo(other.ngo.id), line!.id))).toMatchObject({ kind: "not_found" });
    expect(await failure(recordPledgedGift(s, asNgo(ngo.id), paisas!.id))).toMatchObject({ kind: "invalid" });

    // Two volunteers record it at once: one records and approves it, the other is told the line was taken.
    const outcomes = await Promise.allSettled([
      recordPledgedGift(s, asNgo(ngo.id), line!.id),
      recordPledgedGift(s, asNgo(ngo.id), line!.id),
    ]);
    expect(outcomes.filter((o) => o.status === "fulfilled").map((o) => o.value)).toEqual([{ approved: 1, unchanged: 0, skipped: 0 }]);
    expect(outcomes.filter((o) => o.status === "rejected").map((o) => (o.reason as { kind?: string }).kind)).toEqual(["conflict"]);
    const gifts = await s.db.select().from(donations).where(eq(donations.pledgeId, pledge.id));
    expect(gifts).toHaveLength(1);
    expect(gifts[0]).toMatchObject({
      status: "approved",
      amount: 7500,
      donorId: donor.id,
      transactionId: "TX7500",
      phone: "03001234567",
      receiptNumber: 1,
    });
    const [c] = await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(c!.collectedAmount).toBe(7500);
    const [tied] = await s.db.select().from(statementLines).where(eq(statementLines.id, line!.id));
    expect(tied).toMatchObject({ status: "confirmed", donationId: gifts[0]!.id, matchRule: "pledge_code" });
    const told = await s.db.select().from(notifications).where(eq(notifications.userId, donor.id));
    expect(told.map((n) => n.type)).toContain("donationApproved");
  });
});
