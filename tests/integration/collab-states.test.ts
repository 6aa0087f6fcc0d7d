import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignPartners, partnershipDirectionEnum, partnershipStatusEnum } from "#server/db/schema.ts";
import {
  invitePartners,
  leaveCampaign,
  requestToJoin,
  respondToInvitation,
  respondToRequest,
} from "#server/domain/campaigns/collaboration.ts";
import { PARTNERSHIP_DIRECTIONS, PARTNERSHIP_STATUSES } from "#shared/statuses.ts";
import {
  PARTNERSHIP_STATES,
  STORED_PARTNERSHIP,
  partnershipState,
  partnershipStates,
  type PartnershipRole,
} from "#server/domain/campaigns/states.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkTable } from "#tests/helpers/states.ts";
import { asNgo } from "#tests/helpers/actors.ts";

describe("partnership states", () => {
  let s: TestServices;
  let actors: Record<PartnershipRole, string>;
  beforeAll(async () => {
    s = await createTestServices();
    const [owner, ngo, otherNgo] = await Promise.all([makeUser(s.db, "ngo"), makeUser(s.db, "ngo"), makeUser(s.db, "ngo")]);
    actors = { owner: owner.id, ngo: ngo.id, otherNgo: otherNgo.id };
  });
  afterAll(async () => s.close());

  it("the vocabulary is the database enums'", () => {
    expect([...PARTNERSHIP_STATUSES]).toEqual(partnershipStatusEnum.enumValues);
    expect([...PARTNERSHIP_DIRECTIONS]).toEqual(partnershipDirectionEnum.enumValues);
    const stored = PARTNERSHIP_STATES.filter((st) => st !== "none").map((st) => STORED_PARTNERSHIP[st]);
    expect([...new Set(stored.map((r) => r.status))].sort()).toEqual([...partnershipStatusEnum.enumValues].sort());
    for (const st of PARTNERSHIP_STATES.filter((x) => x !== "none")) {
      expect(partnershipState({ status: STORED_PARTNERSHIP[st].status, direction: STORED_PARTNERSHIP[st].direction ?? "invited" })).toBe(
        st,
      );
    }
  });

  it("every action from every state by every role does what the table says, through the collaboration functions", async () => {
    // The subject is always the partnership of `ngo` with a fresh active campaign of `owner`. The functions an NGO
    // calls about its own partnership (ask, answer an invitation, leave) cannot reach another NGO's: for a third
    // NGO they have no entry point.
    const { expected, actual } = await walkTable(partnershipStates, {
      setUp: async (state) => {
        const c = await makeCampaign(s.db, actors.owner);
        if (state !== "none") {
          const { status, direction = "invited" } = STORED_PARTNERSHIP[state];
          await s.db.insert(campaignPartners).values({ campaignId: c.id, ngoId: actors.ngo, status, direction });
        }
        return c.id;
      },
      perform: (action, role, campaignId) => {
        const actor = asNgo(actors[role]);
        const own = role !== "otherNgo";
        switch (action) {
          case "invite":
            return invitePartners(s, actor, campaignId, [actors.ngo]);
          case "request":
            return own ? requestToJoin(s, actor, campaignId) : undefined;
          case "acceptInvitation":
          case "declineInvitation":
            return own ? respondToInvitation(s, actor, campaignId, action === "acceptInvitation") : undefined;
          case "acceptRequest":
          case "declineRequest":
            return respondToRequest(s, actor, campaignId, actors.ngo, action === "acceptRequest");
          case "leave":
            return own ? leaveCampaign(s, actor, campaignId) : undefined;
        }
      },
      stateOf: async (campaignId) => {
        const [row] = await s.db
          .select({ status: campaignPartners.status, direction: campaignPartners.direction })
          .from(campaignPartners)
          .where(and(eq(campaignPartners.campaignId, campaignId), eq(campaignPartners.ngoId, actors.ngo)));
        return partnershipState(row);
      },
    });
    expect(actual).toEqual(expected);
  });

  it("the screens are offered what the table allows (repeats are not offered)", () => {
    expect(partnershipStates.actionsFor("none", "ngo")).toEqual(["request"]);
    expect(partnershipStates.actionsFor("invited", "ngo")).toEqual(["request", "acceptInvitation", "declineInvitation"]);
    expect(partnershipStates.actionsFor("requested", "ngo")).toEqual([]);
    expect(partnershipStates.actionsFor("requested", "owner")).toEqual(["invite", "acceptRequest", "declineRequest"]);
    expect(partnershipStates.actionsFor("accepted", "ngo")).toEqual(["leave"]);
    expect(partnershipStates.actionsFor("accepted", "owner")).toEqual([]);
  });
});
