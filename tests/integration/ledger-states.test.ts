import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spendingRecords, spendingStatusEnum } from "#server/db/schema.ts";
import { discardSpending, publishSpending, writeSpending } from "#server/domain/ledger/spending.ts";
import { takeDownSpending } from "#server/domain/ledger/takedown.ts";
import { SPENDING_STATES, spendingState, spendingStates, type SpendingRole } from "#server/domain/ledger/states.ts";
import { SPENDING_STATUSES } from "#shared/statuses.ts";
import { asAdmin, asNgo } from "#tests/helpers/actors.ts";
import { makeCampaign, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { makeSpending } from "#tests/helpers/ledger.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkTable } from "#tests/helpers/states.ts";

describe("spending record states", () => {
  let s: TestServices;
  let actors: Record<SpendingRole, string>;
  beforeAll(async () => {
    s = await createTestServices();
    const [spender, partner, other, admin] = await Promise.all([
      makeUser(s.db, "ngo"),
      makeUser(s.db, "ngo"),
      makeUser(s.db, "ngo"),
      makeUser(s.db, "admin"),
    ]);
    actors = { spender: spender.id, campaignNgo: partner.id, otherNgo: other.id, admin: admin.id };
  });
  afterAll(async () => s.close());

  it("the vocabulary is the database enum's, with `none` for no row", () => {
    expect([...SPENDING_STATUSES]).toEqual(spendingStatusEnum.enumValues);
    expect(SPENDING_STATES).toEqual(["none", ...spendingStatusEnum.enumValues]);
    expect(spendingState(null)).toBe("none");
  });

  it("every action from every state by every role does what the table says, through the spending functions", async () => {
    // The subject is a campaign of `spender` with `campaignNgo` as its partner, and, unless `none`, a record that
    // `spender` wrote: "campaign|record". Writing makes a record where there is none; the other steps take the record.
    const values = async (correctsId?: string) => ({
      intent: "write" as const,
      fund: "general" as const,
      amount: 100,
      spentOn: "2026-01-01",
      purpose: "Walk",
      document: new File([new Uint8Array(await makeProofPng())], "r.png", { type: "image/png" }),
      correctsId,
    });
    const { expected, actual } = await walkTable(spendingStates, {
      setUp: async (state) => {
        const campaign = await makeCampaign(s.db, actors.spender, { partners: [actors.campaignNgo] });
        if (state === "none") return `${campaign.id}|`;
        const record = await makeSpending(s, campaign, { status: state });
        return `${campaign.id}|${record.id}`;
      },
      perform: (action, role, id) => {
        const [campaignId, recordId] = id.split("|") as [string, string];
        const actor = role === "admin" ? asAdmin(actors.admin) : asNgo(actors[role]);
        if (action === "write") return recordId ? undefined : values().then((v) => writeSpending(s, actor, campaignId, v));
        if (!recordId) return undefined;
        if (action === "publish") return publishSpending(s.db, actor, recordId);
        if (action === "discard") return discardSpending(s, actor, recordId);
        if (action === "takeDown") return takeDownSpending(s, actor, recordId, "The invoice shows a donor's CNIC");
        return values(recordId).then((v) => writeSpending(s, actor, campaignId, v));
      },
      stateOf: async (id) => {
        const [campaignId, recordId] = id.split("|") as [string, string];
        const [row] = await s.db
          .select({ status: spendingRecords.status })
          .from(spendingRecords)
          .where(recordId ? eq(spendingRecords.id, recordId) : eq(spendingRecords.campaignId, campaignId))
          .limit(1);
        return spendingState(row?.status);
      },
    });
    expect(actual).toEqual(expected);
  });
});
