import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { donationStatusEnum, donations } from "#server/db/schema.ts";
import { randomUUID } from "node:crypto";
import { decideCashDonation } from "#server/domain/donations/cash.ts";
import { replyToRejection } from "#server/domain/donations/replies.ts";
import { DONATION_STATUSES } from "#shared/statuses.ts";
import { actionsFor, cashDonationStates, type CashDonationRole } from "#server/domain/donations/states.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkTable } from "#tests/helpers/states.ts";

/** The account type behind each role in the table. */
const ACCOUNT = { recipient: "ngo", donor: "donor", otherNgo: "ngo", admin: "admin" } as const;

describe("cash donation states", () => {
  let s: TestServices;
  let actors: Record<CashDonationRole, string>;
  let campaign: { id: string; ownerId: string };
  beforeAll(async () => {
    s = await createTestServices();
    const [recipient, donor, otherNgo, admin] = await Promise.all([
      makeUser(s.db, "ngo"),
      makeUser(s.db, "donor"),
      makeUser(s.db, "ngo"),
      makeUser(s.db, "admin"),
    ]);
    actors = { recipient: recipient.id, donor: donor.id, otherNgo: otherNgo.id, admin: admin.id };
    // A target no test approval reaches: the campaign stays active throughout.
    campaign = await makeCampaign(s.db, recipient.id, { targetAmount: 100_000_000 });
  });
  afterAll(async () => s.close());

  it("the vocabulary is the database enum's", () => {
    expect([...DONATION_STATUSES]).toEqual(donationStatusEnum.enumValues);
  });

  it("every action from every state by every role does what the table says, through decideCashDonation and replyToRejection", async () => {
    const { expected, actual } = await walkTable(cashDonationStates, {
      setUp: async (status) =>
        (await makeDonation(s.db, campaign, actors.donor, { status, transactionId: "TX1000", rejectionReason: "Unreadable." })).id,
      perform: (action, role, donationId) => {
        const actor = { id: actors[role], role: ACCOUNT[role] };
        if (action === "resubmit") {
          return replyToRejection(s, actor, {
            donation: donationId,
            idempotencyKey: randomUUID(),
            message: "Here is the right transaction ID.",
            transactionId: "TX2000",
            screenshot: undefined,
          });
        }
        return decideCashDonation(
          s,
          actor,
          action === "approve" ? { donationId, approve: true } : { donationId, approve: false, reason: "The screenshot is unreadable." },
        );
      },
      stateOf: async (id) => (await s.db.select({ status: donations.status }).from(donations).where(eq(donations.id, id)))[0]!.status,
    });
    expect(actual).toEqual(expected);
  });

  it("the screen is offered what the table allows", () => {
    expect(actionsFor("pending", "recipient")).toEqual(["approve", "disapprove"]);
    expect(actionsFor("pending", "donor")).toEqual([]);
    expect(actionsFor("approved", "recipient")).toEqual([]);
    expect(actionsFor("rejected", "recipient")).toEqual([]);
    // A disapproval is answered by its donor (once: the reply row, see donation-replies.test.ts).
    expect(actionsFor("rejected", "donor")).toEqual(["resubmit"]);
  });
});
