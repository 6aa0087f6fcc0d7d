import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignAnalytics } from "#server/domain/campaigns/analytics.ts";
import { campaignFor, campaignForNgo } from "#server/domain/campaigns/access.ts";
import { listCampaigns } from "#server/domain/campaigns/campaigns.ts";
import { collabOverview } from "#server/domain/campaigns/collaboration.ts";
import { CAMPAIGN_READS, rolesFor, type CampaignRead } from "#server/domain/campaigns/policy.ts";
import { campaignStates, type CampaignAction } from "#server/domain/campaigns/states.ts";
import type { Actor } from "#server/domain/policy.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { found, walkReads } from "#tests/helpers/policy-walk.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * Every way an account can stand to a campaign on the NGO side, and the policy role each one is (null: none).
 * `ownerAsDonor` is the owner's id presented as another account type: the type counts, not only the id.
 */
const RELATIONS = {
  owner: "owner",
  partner: "partner",
  otherNgo: null,
  donor: null,
  ownerAsDonor: null,
} as const satisfies Record<string, string | null>;
type Relation = keyof typeof RELATIONS;

describe("who may read and change a campaign on the NGO side (campaigns/policy.ts and states.ts)", () => {
  let s: TestServices;
  let actors: Record<Relation, Actor>;
  let campaignId: string;
  beforeAll(async () => {
    s = await createTestServices();
    const [owner, partner, otherNgo, donor] = await Promise.all([
      makeUser(s.db, "ngo"),
      makeUser(s.db, "ngo"),
      makeUser(s.db, "ngo"),
      makeUser(s.db, "donor"),
    ]);
    actors = { owner, partner, otherNgo, donor, ownerAsDonor: { id: owner.id, role: "donor" } };
    campaignId = (await makeCampaign(s.db, owner.id, { partners: [partner.id] })).id;
  });
  afterAll(async () => s.close());

  /** Whether each real read that serves `run` lets the actor see the campaign; they must agree. */
  async function sees(read: CampaignRead, relation: Relation): Promise<boolean> {
    const actor = actors[relation];
    switch (read) {
      case "run": {
        const answers = [
          await found(campaignForNgo(s.db, campaignId, actor)),
          await found(campaignAnalytics(s.db, campaignId, actor)),
          await found(listCampaigns(s.db, actor, { tab: "ongoing", page: 1 }).then((l) => assertListed(l.rows, campaignId))),
          await found(collabOverview(s.db, actor, { page: 1 }).then((o) => assertListed(o.joint.rows, campaignId))),
        ];
        expect(new Set(answers).size, `${relation}: the reads of "run" disagree (${answers.join(", ")})`).toBe(1);
        return answers[0]!;
      }
    }
  }

  it("every reading by every relation does what CAMPAIGN_READS says, through every read that serves it", async () => {
    const { expected, actual } = await walkReads({ relations: RELATIONS, reads: CAMPAIGN_READS, sees });
    expect(actual).toEqual(expected);
  });

  it("each step is the table's to allow: the owner may, a partner is told only the owner may, anyone else finds nothing", async () => {
    for (const action of campaignStates.actions as CampaignAction[]) {
      if (action === "complete") continue; // the system's step, inside an approval; no NGO takes it
      for (const relation of Object.keys(RELATIONS) as Relation[]) {
        const role = RELATIONS[relation];
        const expected = role !== null && rolesFor(action).includes(role) ? "allowed" : role === "partner" ? "forbidden" : "not_found";
        const outcome = await campaignFor(s.db, campaignId, actors[relation], action).then(
          () => "allowed",
          (err: { kind?: string }) => err.kind ?? String(err),
        );
        expect(outcome, `${relation} ${action}`).toBe(expected);
      }
    }
  });
});

/** A list read "finds" the campaign when it lists it, and answers "not found" otherwise. */
function assertListed(rows: readonly { id: string }[], id: string): void {
  if (!rows.some((r) => r.id === id)) throw Object.assign(new Error("not listed"), { kind: "not_found" });
}
