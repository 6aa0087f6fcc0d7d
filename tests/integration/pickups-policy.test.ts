import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goodsDonationOfDonor, pickupForNgo, riderPickups } from "#server/domain/pickups/pickups.ts";
import { PICKUP_READS, type PickupActor, type PickupRead } from "#server/domain/pickups/policy.ts";
import { PICKUP_ROLES, type PickupRole } from "#server/domain/pickups/states.ts";
import { makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { found, walkReads } from "#tests/helpers/policy-walk.ts";

/**
 * Walks PICKUP_READS whole: every reading by every relation to a pick-up. Those the table names see it; everyone
 * else is told it does not exist (or gets an empty list), whatever their account type.
 */
describe("pick-up reads (policy.ts)", () => {
  let s: TestServices;
  let actors: Record<PickupRole, PickupActor>;
  let donationId: string;
  beforeAll(async () => {
    s = await createTestServices();
    const [ngo, assigned, other, otherNgo, donor] = await Promise.all([
      makeUser(s.db, "ngo"),
      makeUser(s.db, "rider"),
      makeUser(s.db, "rider"),
      makeUser(s.db, "ngo"),
      makeUser(s.db, "donor"),
    ]);
    actors = { recipientNgo: ngo, assignedRider: assigned, otherRider: other, otherNgo, donor };
    const campaign = await makeCampaign(s.db, ngo.id);
    donationId = (await makePickup(s.db, campaign, donor.id, { status: "assigned", riderId: assigned.id })).donation.id;
  });
  afterAll(async () => s.close());

  /** Whether `actor` sees the pick-up through the function that serves `read`. */
  const sees: Record<PickupRead, (actor: PickupActor) => Promise<boolean>> = {
    queue: (actor) => found(pickupForNgo(s.db, actor, donationId)),
    riderList: async (actor) => (await riderPickups(s.db, actor, { tab: "pending", page: 1 })).rows.some((r) => r.id === donationId),
    donorView: (actor) => found(goodsDonationOfDonor(s.db, actor, donationId)),
  };

  it("every reading by every relation answers as PICKUP_READS says", async () => {
    // Each relation of the pick-up table is the policy role of the same name.
    const relations = Object.fromEntries(PICKUP_ROLES.map((role) => [role, role])) as Record<PickupRole, PickupRole>;
    const { expected, actual } = await walkReads({ relations, reads: PICKUP_READS, sees: (read, role) => sees[read](actors[role]) });
    expect(actual).toEqual(expected);
  });

  it("the account type counts too: the recipient NGO's id presented as a rider's sees nothing of a rider's", async () => {
    expect(await sees.riderList({ id: actors.recipientNgo.id, role: "rider" })).toBe(false);
    expect(await sees.queue({ id: actors.recipientNgo.id, role: "donor" })).toBe(false);
  });
});
