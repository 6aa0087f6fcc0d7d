import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPledgeCode, normalizePledgeCode, PLEDGE_ALPHABET } from "#shared/pledges.ts";
import { donations, pledges } from "#server/db/schema.ts";
import { submitCashDonation } from "#server/domain/donations/cash.ts";
import { newPledgeCode, pledgeCodesIn, pledgeFor, PLEDGE_REUSE_DAYS } from "#server/domain/donations/pledges.ts";
import { asDonor, asNgo } from "#tests/helpers/actors.ts";
import { givePaymentAccounts, makeCampaign, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeOlder } from "#tests/helpers/time.ts";

/** Pledge codes (decision 022): short, unambiguous, one per gift, found in a transfer's remark. */
describe("pledge codes", () => {
  it("are six characters without 0, O, 1 or I, shown as EK-XXX-XXX", () => {
    expect(PLEDGE_ALPHABET).not.toMatch(/[01OI]/);
    for (let i = 0; i < 500; i++) {
      const code = newPledgeCode();
      expect(code).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}$/);
      expect(normalizePledgeCode(formatPledgeCode(code))).toBe(code);
    }
    expect(formatPledgeCode("7KQ4M9")).toBe("EK-7KQ-4M9");
  });

  it("are read as people type them, and refused when they cannot be one", () => {
    for (const typed of ["ek-7kq-4m9", "EK 7KQ 4M9", "7kq4m9", "EK7KQ4M9", " 7KQ-4M9 "])
      expect(normalizePledgeCode(typed), typed).toBe("7KQ4M9");
    for (const bad of ["7KQ4M", "7KQ4M90", "OKQ4M9", "1KQ4M9", ""]) expect(normalizePledgeCode(bad), bad).toBeNull();
  });

  it("are found in remarks however they were written, and not inside longer words", () => {
    expect(pledgeCodesIn("Donation EK-7KQ-4M9 for flood")).toEqual(["7KQ4M9"]);
    expect(pledgeCodesIn("ek7kq4m9")).toEqual(["7KQ4M9"]);
    expect(pledgeCodesIn("zakat 7KQ 4M9")).toEqual(["7KQ4M9"]);
    expect(pledgeCodesIn("IBFT/EK 7KQ4M9/03001234567")).toEqual(["7KQ4M9"]);
    expect(pledgeCodesIn("TRANSFERXYZABCDEF")).toEqual([]);
    expect(pledgeCodesIn("")).toEqual([]);
  });
});

describe("pledges of the payment screen", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  async function setUp() {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    await givePaymentAccounts(s.db, ngo.id);
    const campaign = await makeCampaign(s.db, ngo.id);
    return { ngo, donor, campaign, target: { campaignId: campaign.id, ngoId: ngo.id, method: "jazzcash" as const } };
  }

  it("shows the same code each time the screen is opened, a new one for another method or after a gift used it", async () => {
    const { donor, campaign, ngo, target } = await setUp();
    const first = await pledgeFor(s.db, asDonor(donor.id), target);
    expect(await pledgeFor(s.db, asDonor(donor.id), target)).toEqual(first);
    const bank = await pledgeFor(s.db, asDonor(donor.id), { ...target, method: "bank" });
    expect(bank.code).not.toBe(first.code);

    const gift = await submitCashDonation(s, asDonor(donor.id), {
      campaign: campaign.slug,
      ngo: ngo.id,
      method: "jazzcash",
      fund: "general",
      idempotencyKey: crypto.randomUUID(),
      pledge: formatPledgeCode(first.code),
      phone: "03001234567",
      amount: 1500,
      screenshot: new File([new Uint8Array(await makeProofPng())], "p.png", { type: "image/png" }),
      transactionId: "TXPLEDGE1",
    });
    const [row] = await s.db.select().from(donations).where(eq(donations.id, gift.id));
    expect(row!.pledgeId).toBe(first.id);
    const next = await pledgeFor(s.db, asDonor(donor.id), target);
    expect(next.code).not.toBe(first.code);
  });

  it("starts again after a week unused", async () => {
    const { donor, target } = await setUp();
    const first = await pledgeFor(s.db, asDonor(donor.id), target);
    await makeOlder(s.db, pledges, pledges.createdAt, eq(pledges.id, first.id), (PLEDGE_REUSE_DAYS + 1) * 86_400);
    expect((await pledgeFor(s.db, asDonor(donor.id), target)).id).not.toBe(first.id);
  });

  it("gives a gift a pledge of its own when the form names someone else's, a used one, or none", async () => {
    const { donor, campaign, ngo, target } = await setUp();
    const other = await makeUser(s.db, "donor");
    const theirs = await pledgeFor(s.db, asDonor(other.id), target);
    const submit = (pledge: string | undefined) =>
      makeProofPng().then((png) =>
        submitCashDonation(s, asDonor(donor.id), {
          campaign: campaign.slug,
          ngo: ngo.id,
          fund: "general",
          method: "jazzcash",
          idempotencyKey: crypto.randomUUID(),
          pledge,
          phone: "03001234567",
          amount: 700,
          screenshot: new File([new Uint8Array(png)], "p.png", { type: "image/png" }),
          transactionId: `TX${crypto.randomUUID().slice(0, 8)}`.toUpperCase(),
        }),
      );
    const ids = [(await submit(formatPledgeCode(theirs.code))).id, (await submit(undefined)).id];
    const rows = await s.db.select({ pledgeId: donations.pledgeId }).from(donations).where(eq(donations.donorId, donor.id));
    expect(rows).toHaveLength(ids.length);
    const used = rows.map((r) => r.pledgeId);
    expect(used).not.toContain(theirs.id);
    expect(new Set(used).size).toBe(2);
    expect(used.every(Boolean)).toBe(true);
  });

  it("is the donor's own: another account type cannot have one", async () => {
    const { ngo, target } = await setUp();
    await expect(pledgeFor(s.db, asNgo(ngo.id), target)).rejects.toThrow();
  });
});
