import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaigns, donations, pickups } from "#server/db/schema.ts";
import { decideCashDonation } from "#server/domain/donations/cash.ts";
import { replyToRejection } from "#server/domain/donations/replies.ts";
import { tallies, tallyDrift } from "#server/domain/donations/tallies.ts";
import { FUND_KINDS } from "#shared/statuses.ts";
import {
  assignRider,
  cancelPickup,
  confirmCollected,
  confirmReceived,
  markDelivered,
  respondToAssignment,
} from "#server/domain/pickups/pickups.ts";
import { asDonor, asNgo, asRider } from "#tests/helpers/actors.ts";
import { makeCampaign, makeCashDonation, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * The kept tallies (migration 0020, decision 044) against a fresh count of the donations, after every step of the
 * domain's own operations, in random order, and under parallel decisions.
 */
describe("donation tallies", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  /** Every failure a step may meet is one the domain answers (a state it cannot leave, a tried reply): not a 5xx. */
  async function expected(step: Promise<unknown>) {
    try {
      await step;
    } catch (err) {
      if (!(err instanceof Error) || !("kind" in err)) throw err;
    }
  }

  it("equal a fresh count after each of a random sequence of gifts, decisions, replies and pick-up steps", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const rider = await makeUser(s.db, "rider");
    const owned = [
      await makeCampaign(s.db, ngo.id, { targetAmount: 10_000_000, acceptedFunds: [...FUND_KINDS] }),
      await makeCampaign(s.db, ngo.id, { targetAmount: 10_000_000, acceptedFunds: [...FUND_KINDS] }),
    ];
    const cash: string[] = [];
    const goods: string[] = [];
    const pick = (list: string[], i: number) => list[i % list.length];

    const step = fc.oneof(
      fc.record({
        op: fc.constant("give" as const),
        campaign: fc.nat(1),
        amount: fc.integer({ min: 1, max: 90_000 }),
        // Each gift's fund (decision 048): the tallies keep every fund apart.
        fund: fc.constantFrom(...FUND_KINDS),
      }),
      fc.record({ op: fc.constant("offer" as const), campaign: fc.nat(1) }),
      fc.record({ op: fc.constantFrom("approve" as const, "disapprove" as const, "resubmit" as const), i: fc.nat() }),
      fc.record({
        op: fc.constantFrom(
          "assign" as const,
          "reassign" as const,
          "accept" as const,
          "decline" as const,
          "collect" as const,
          "deliver" as const,
          "receive" as const,
          "cancel" as const,
        ),
        i: fc.nat(),
      }),
    );

    type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;
    async function run(command: Step) {
      const id =
        "i" in command
          ? pick(command.op === "approve" || command.op === "disapprove" || command.op === "resubmit" ? cash : goods, command.i)
          : undefined;
      switch (command.op) {
        case "give":
          cash.push((await makeCashDonation(s, owned[command.campaign]!, donor.id, { amount: command.amount, fund: command.fund })).id);
          return;
        case "offer":
          goods.push((await makePickup(s.db, owned[command.campaign]!, donor.id)).donation.id);
          return;
      }
      if (!id) return;
      const ngoActor = asNgo(ngo.id);
      const riderActor = asRider(rider.id);
      switch (command.op) {
        case "approve":
          return expected(decideCashDonation(s, ngoActor, { donationId: id, approve: true }));
        case "disapprove":
          return expected(
            decideCashDonation(s, ngoActor, { donationId: id, approve: false, reason: "The screenshot shows another amount" }),
          );
        case "resubmit":
          return expected(
            replyToRejection(s, asDonor(donor.id), {
              donation: id,
              idempotencyKey: randomUUID(),
              message: "Here is the right transfer.",
              transactionId: `TX${randomUUID().slice(0, 8).toUpperCase()}`,
              screenshot: undefined,
            }),
          );
        case "assign":
        case "reassign":
          return expected(assignRider(s, ngoActor, { donationId: id, riderId: rider.id, reassign: command.op === "reassign" }));
        case "accept":
          return expected(respondToAssignment(s, riderActor, { donationId: id, accept: true }));
        case "decline":
          return expected(respondToAssignment(s, riderActor, { donationId: id, accept: false, reason: "Too far" }));
        case "collect":
          return expected(confirmCollected(s, riderActor, { donationId: id, code: "1234" }));
        case "deliver":
          return expected(markDelivered(s, riderActor, { donationId: id }));
        case "receive":
          return expected(confirmReceived(s, ngoActor, { donationId: id }));
        case "cancel":
          return expected(cancelPickup(s, ngoActor, { donationId: id, reason: "Not needed any more" }));
      }
    }

    // Every kind of step once, in an order where each lands; then random sequences, where many are refused.
    const walk: Step[] = [
      { op: "give", campaign: 0, amount: 5000, fund: "zakat" },
      { op: "approve", i: 0 },
      { op: "give", campaign: 1, amount: 700, fund: "general" },
      { op: "disapprove", i: 1 },
      { op: "resubmit", i: 1 },
      { op: "offer", campaign: 1 },
      ...(["assign", "decline", "assign", "reassign", "accept", "collect", "deliver", "receive"] as const).map((op) => ({ op, i: 0 })),
      { op: "offer", campaign: 0 },
      { op: "cancel", i: 1 },
    ];
    for (const command of walk) {
      await run(command);
      expect(await tallyDrift(s.db), JSON.stringify(command)).toEqual([]);
    }
    const walked = await tallies(s.db, ngo.id);
    expect(walked.map((t) => [t.kind, t.fund, t.status, t.pickupStatus, t.n, t.amount]).sort()).toEqual([
      ["cash", "general", "pending", null, 1, 700],
      ["cash", "zakat", "approved", null, 1, 5000],
      ["in_kind", "general", "approved", "received", 1, 0],
      ["in_kind", "general", "rejected", "cancelled", 1, 0],
    ]);

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (commands) => {
        for (const command of commands) {
          await run(command);
          expect(await tallyDrift(s.db), JSON.stringify(command)).toEqual([]);
        }
        // Per fund, the approved total the NGO reads is the sum of its approved gifts of that fund (decision 048).
        const kept = await tallies(s.db, ngo.id, { kind: "cash" });
        const given = await s.db.select().from(donations).where(eq(donations.recipientNgoId, ngo.id));
        for (const fund of FUND_KINDS) {
          const approved = (rows: { fund: string; status: string; amount: number | null }[]) =>
            rows.filter((r) => r.fund === fund && r.status === "approved").reduce((sum, r) => sum + (r.amount ?? 0), 0);
          expect(approved(kept), fund).toBe(approved(given.filter((d) => d.kind === "cash")));
        }
      }),
      { numRuns: 6 },
    );
  });

  it("stay equal to a fresh count under parallel decisions and replies on one NGO's gifts", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id, { targetAmount: 10_000_000 });
    const gifts = await Promise.all(Array.from({ length: 12 }, (_, i) => makeCashDonation(s, campaign, donor.id, { amount: 1000 + i })));
    // Each gift approved twice and disapproved once at the same moment: one decision lands per gift.
    await Promise.all(
      gifts.flatMap((g) => [
        expected(decideCashDonation(s, asNgo(ngo.id), { donationId: g.id, approve: true })),
        expected(decideCashDonation(s, asNgo(ngo.id), { donationId: g.id, approve: true })),
        expected(decideCashDonation(s, asNgo(ngo.id), { donationId: g.id, approve: false, reason: "The amount differs" })),
      ]),
    );
    // The disapproved ones answered twice at once while the NGO's other gifts are decided.
    const rejected = (await s.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).filter(
      (d) => d.status === "rejected",
    );
    const more = await Promise.all(Array.from({ length: 6 }, () => makeCashDonation(s, campaign, donor.id, { amount: 700 })));
    await Promise.all([
      ...rejected.flatMap((g) =>
        [1, 2].map(() =>
          expected(
            replyToRejection(s, asDonor(donor.id), {
              donation: g.id,
              idempotencyKey: randomUUID(),
              message: "Here is the right transfer.",
              transactionId: `TX${randomUUID().slice(0, 8).toUpperCase()}`,
              screenshot: undefined,
            }),
          ),
        ),
      ),
      ...more.map((g) => expected(decideCashDonation(s, asNgo(ngo.id), { donationId: g.id, approve: true }))),
    ]);
    expect(await tallyDrift(s.db)).toEqual([]);
    const rows = await s.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
    const kept = await tallies(s.db, ngo.id, { campaignId: campaign.id });
    const approved = rows.filter((r) => r.status === "approved");
    expect(kept.find((t) => t.status === "approved")).toMatchObject({
      n: approved.length,
      amount: approved.reduce((a, r) => a + r.amount!, 0),
    });
    const [c] = await s.db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(c!.collectedAmount).toBe(approved.reduce((a, r) => a + r.amount!, 0));
  });

  it("follow a donation's pick-up when either row is deleted", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    const first = await makePickup(s.db, campaign, donor.id, { status: "assigned" });
    const second = await makePickup(s.db, campaign, donor.id, { status: "delivered" });
    expect((await tallies(s.db, ngo.id)).map((t) => [t.pickupStatus, t.n]).sort()).toEqual([
      ["assigned", 1],
      ["delivered", 1],
    ]);
    await s.db.delete(pickups).where(eq(pickups.donationId, first.donation.id));
    expect(await tallyDrift(s.db)).toEqual([]);
    await s.db.delete(donations).where(eq(donations.id, second.donation.id));
    expect(await tallyDrift(s.db)).toEqual([]);
    expect((await tallies(s.db, ngo.id)).map((t) => [t.kind, t.status, t.pickupStatus, t.n])).toEqual([["in_kind", "pending", null, 1]]);
  });
});
