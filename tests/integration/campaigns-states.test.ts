import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampaignInput } from "#shared/forms/campaigns.ts";
import { campaignStatusEnum, campaigns } from "#server/db/schema.ts";
import {
  closeCampaign,
  completeIfTargetReached,
  deleteCampaign,
  parseCampaign,
  updateCampaign,
} from "#server/domain/campaigns/campaigns.ts";
import { conflict } from "#server/domain/errors.ts";
import { CAMPAIGN_STATUSES } from "#shared/statuses.ts";
import { actionsFor, campaignStates, type CampaignActor } from "#server/domain/campaigns/states.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkTable } from "#tests/helpers/states.ts";
import { asNgo } from "#tests/helpers/actors.ts";

describe("campaign states", () => {
  let s: TestServices;
  let owner: string;
  let partner: string;
  let otherNgo: string;
  let donor: string;
  beforeAll(async () => {
    s = await createTestServices();
    const users = await Promise.all([makeUser(s.db, "ngo"), makeUser(s.db, "ngo"), makeUser(s.db, "ngo"), makeUser(s.db, "donor")]);
    [owner, partner, otherNgo, donor] = users.map((u) => u.id) as [string, string, string, string];
  });
  afterAll(async () => s.close());

  it("the vocabulary is the database enum's", () => {
    expect([...CAMPAIGN_STATUSES]).toEqual(campaignStatusEnum.enumValues);
  });

  it("every action from every state by every role does what the table says, through the campaign functions", async () => {
    const ngoOf: Record<Exclude<CampaignActor, "system">, string> = { owner, partner, otherNgo };
    const { expected, actual } = await walkTable(campaignStates, {
      // A campaign with a partner and one donation (so deleting archives it), its collected amount at its target
      // (so completing it by the target is possible) and its place unchanged by an edit (no geocoding).
      setUp: async (status) => {
        const c = await makeCampaign(s.db, owner, { status, partners: [partner], targetAmount: 1000, collectedAmount: 1000 });
        await makeDonation(s.db, c, donor, { status: "approved" });
        return c.id;
      },
      perform: (action, role, id) => {
        if (role === "system") {
          if (action !== "complete") return undefined;
          // Called inside every approval, it refuses by answering false rather than throwing.
          return completeIfTargetReached(s.db, id).then((done) => {
            if (!done) throw conflict("campaigns.not_active");
          });
        }
        const ngo = asNgo(ngoOf[role]);
        switch (action) {
          case "edit":
            return (async () => {
              const [c] = await s.db.select().from(campaigns).where(eq(campaigns.id, id));
              const values = parseCampaign({
                title: `${c!.title} (edited)`,
                description: c!.description,
                targetAmount: "5000",
                location: c!.locationLabel,
                cause: c!.cause,
              } as CampaignInput);
              await updateCampaign(s, ngo, id, values);
            })();
          case "close":
            return closeCampaign(s.db, ngo, id);
          case "delete":
            return deleteCampaign(s, ngo, id);
          case "complete":
            // No NGO completes a campaign by its target: the approval that reaches it does.
            return undefined;
        }
      },
      stateOf: async (id) => (await s.db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, id)))[0]!.status,
    });
    expect(actual).toEqual(expected);
  });

  it("the screens are offered what the table allows", () => {
    expect(actionsFor("active", "owner")).toEqual(["edit", "close", "delete"]);
    expect(actionsFor("completed", "owner")).toEqual(["edit", "delete"]);
    expect(actionsFor("archived", "owner")).toEqual([]);
    expect(actionsFor("active", "partner")).toEqual([]);
  });
});
