import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pickupStatusEnum, pickups } from "#server/db/schema.ts";
import {
  assignRider,
  cancelPickup,
  confirmCollected,
  confirmReceived,
  markDelivered,
  respondToAssignment,
} from "#server/domain/pickups/pickups.ts";
import type { PickupActor } from "#server/domain/pickups/policy.ts";
import { PICKUP_STATUSES } from "#shared/statuses.ts";
import { actionsFor, donorSeesCode, pickupStates, type PickupRole } from "#server/domain/pickups/states.ts";
import { makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkTable } from "#tests/helpers/states.ts";

describe("pick-up states", () => {
  let s: TestServices;
  /** Each relation as a real account, with its account type: the policy checks both. */
  let actors: Record<PickupRole, PickupActor>;
  /** A rider who is none of the roles: the one an assignment or reassignment goes to. */
  let spareRider: string;
  let campaign: { id: string; ownerId: string };
  beforeAll(async () => {
    s = await createTestServices();
    const [ngo, assigned, other, otherNgo, donor, spare] = await Promise.all([
      makeUser(s.db, "ngo"),
      makeUser(s.db, "rider"),
      makeUser(s.db, "rider"),
      makeUser(s.db, "ngo"),
      makeUser(s.db, "donor"),
      makeUser(s.db, "rider"),
    ]);
    actors = { recipientNgo: ngo, assignedRider: assigned, otherRider: other, otherNgo, donor };
    spareRider = spare.id;
    campaign = await makeCampaign(s.db, ngo.id);
  });
  afterAll(async () => s.close());

  it("the vocabulary is the database enum's", () => {
    expect([...PICKUP_STATUSES]).toEqual(pickupStatusEnum.enumValues);
  });

  it("every action from every state by every role does what the table says, through the pick-up functions", async () => {
    const { expected, actual } = await walkTable(pickupStates, {
      // A fresh request in the state, with the assigned rider on it once it has left `new` (code 1234).
      setUp: async (status) =>
        (await makePickup(s.db, campaign, actors.donor.id, { status, riderId: status === "new" ? null : actors.assignedRider.id })).donation
          .id,
      perform: (action, role, donationId) => {
        const actor = actors[role];
        switch (action) {
          case "assign":
          case "reassign":
            return assignRider(s, actor, { donationId, riderId: spareRider, reassign: action === "reassign" });
          case "cancel":
            return cancelPickup(s, actor, { donationId, reason: "The donor moved away." });
          case "accept":
            return respondToAssignment(s, actor, { donationId, accept: true });
          case "decline":
            return respondToAssignment(s, actor, { donationId, accept: false, reason: "My motorbike broke down." });
          case "collect":
            return confirmCollected(s, actor, { donationId, code: "1234" });
          case "deliver":
            return markDelivered(s, actor, { donationId });
          case "receive":
            return confirmReceived(s, actor, { donationId, note: "All there." });
        }
      },
      stateOf: async (id) => (await s.db.select({ status: pickups.status }).from(pickups).where(eq(pickups.donationId, id)))[0]!.status,
    });
    expect(actual).toEqual(expected);
  });

  it("the screens are offered what the table allows, and the donor sees the code until the goods are collected", () => {
    expect(actionsFor("new", "recipientNgo")).toEqual(["assign", "cancel"]);
    expect(actionsFor("assigned", "recipientNgo")).toEqual(["reassign", "cancel"]);
    expect(actionsFor("accepted", "recipientNgo")).toEqual(["reassign", "cancel"]);
    expect(actionsFor("delivered", "recipientNgo")).toEqual(["receive"]);
    expect(actionsFor("assigned", "assignedRider")).toEqual(["accept", "decline"]);
    expect(actionsFor("accepted", "assignedRider")).toEqual(["collect"]);
    expect(actionsFor("collected", "assignedRider")).toEqual(["deliver"]);
    expect(actionsFor("assigned", "otherRider")).toEqual([]);
    expect(PICKUP_STATUSES.filter(donorSeesCode)).toEqual(["new", "assigned", "accepted"]);
  });
});
