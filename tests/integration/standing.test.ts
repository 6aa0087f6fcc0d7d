import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignPartners, campaigns, users } from "#server/db/schema.ts";
import { publicCampaign } from "#server/domain/campaigns/public.ts";
import { standingColumns, standingColumnsOfOne } from "#server/domain/campaigns/standing.ts";
import { givePaymentAccounts, makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => {
  await s?.close();
});

describe("a campaign's standing read for one campaign (campaigns/standing.ts)", () => {
  it("gives the list form's answer (paused, takes cash) for every kind of owner and partner", async () => {
    const { db } = s;
    const paid = await makeUser(db, "ngo");
    await givePaymentAccounts(db, paid.id);
    const unpaid = await makeUser(db, "ngo");
    const halfBank = await makeUser(db, "ngo");
    await givePaymentAccounts(db, halfBank.id, { bankName: "HBL", bankAccountTitle: "Half", jazzcashNumber: null, easypaisaNumber: null });
    const bankOnly = await makeUser(db, "ngo");
    await givePaymentAccounts(db, bankOnly.id, { jazzcashNumber: null, easypaisaNumber: null });
    const suspendedPaid = await makeUser(db, "ngo");
    await givePaymentAccounts(db, suspendedPaid.id);
    const unverifiedPaid = await makeUser(db, "ngo");
    await givePaymentAccounts(db, unverifiedPaid.id);
    const pendingPartner = await makeUser(db, "ngo");
    await givePaymentAccounts(db, pendingPartner.id);

    const made = [
      await makeCampaign(db, paid.id),
      await makeCampaign(db, unpaid.id),
      await makeCampaign(db, halfBank.id),
      await makeCampaign(db, bankOnly.id),
      await makeCampaign(db, unpaid.id, { partners: [paid.id] }),
      await makeCampaign(db, unpaid.id, { partners: [suspendedPaid.id] }),
      await makeCampaign(db, unpaid.id, { partners: [unverifiedPaid.id, halfBank.id] }),
      await makeCampaign(db, unpaid.id, { partners: [halfBank.id, bankOnly.id] }),
      await makeCampaign(db, suspendedPaid.id),
      await makeCampaign(db, suspendedPaid.id, { partners: [paid.id] }),
      await makeCampaign(db, unverifiedPaid.id),
      await makeCampaign(db, unpaid.id, { partners: [pendingPartner.id] }),
    ];
    await db
      .update(campaignPartners)
      .set({ status: "pending" })
      .where(and(eq(campaignPartners.campaignId, made.at(-1)!.id), eq(campaignPartners.ngoId, pendingPartner.id)));
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspendedPaid.id));
    await db.update(users).set({ verification: "pending" }).where(eq(users.id, unverifiedPaid.id));
    const ids = made.map((c) => c.id);

    const listed = await db
      .select({ id: campaigns.id, ...standingColumns() })
      .from(campaigns)
      .where(inArray(campaigns.id, ids));
    const byList = new Map(listed.map(({ id, ...standing }) => [id, standing]));
    const one = async (id: string) => {
      const [row] = await db
        .select({ ...standingColumnsOfOne() })
        .from(campaigns)
        .where(eq(campaigns.id, id));
      return row;
    };
    for (const c of made) {
      expect(await one(c.id)).toEqual(byList.get(c.id));
      const page = await publicCampaign(db, c.slug);
      expect({ paused: page.paused, takesCash: page.takesCash }).toEqual(byList.get(c.id));
    }
    // Every case is here: paused and not, taking cash and not.
    expect(new Set(listed.map((r) => `${r.paused}/${r.takesCash}`))).toEqual(
      new Set(["false/true", "false/false", "true/true", "true/false"]),
    );
  });
});
