import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaigns, users } from "#server/db/schema.ts";
import { closeCampaign, deleteCampaign, listCampaigns } from "#server/domain/campaigns/campaigns.ts";
import { campaignScope } from "#server/domain/campaigns/policy.ts";
import { campaignCountDrift, ownerInGoodStanding, takesCash } from "#server/domain/campaigns/standing.ts";
import { pickerCampaignsAfter } from "#server/domain/donations/picker.ts";
import { asNgo } from "#tests/helpers/actors.ts";
import { givePaymentAccounts, makeCampaign, makeUser, TEST_ACCOUNTS } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

const NO_ACCOUNTS = { jazzcashNumber: "", easypaisaNumber: "", bankName: "", bankAccountTitle: "", bankAccountNumber: "" };

/**
 * The kept campaign counts (campaign_counts, migration 0022, decision 044) against a fresh count after each change of a
 * campaign's state or of its NGO's standing, and the totals read from them (the donors' picker, an NGO's campaign list)
 * against counting the campaigns those screens show.
 */
describe("campaign counts", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("equal a fresh count, and so do the picker's and the campaign list's totals, after every change", async () => {
    const [a, b, c] = [await makeUser(s.db, "ngo"), await makeUser(s.db, "ngo"), await makeUser(s.db, "ngo")];
    await givePaymentAccounts(s.db, a.id, TEST_ACCOUNTS);
    await givePaymentAccounts(s.db, b.id, NO_ACCOUNTS);
    await givePaymentAccounts(s.db, c.id, NO_ACCOUNTS);
    const own = [];
    for (let i = 0; i < 8; i++) own.push(await makeCampaign(s.db, a.id, { title: `Counted water well ${i}` }));
    // B cannot be paid: its campaign with A as a partner takes cash, the other does not. C's joint one has A too.
    const joint = await makeCampaign(s.db, b.id, { title: "Counted joint kitchen", partners: [a.id] });
    await makeCampaign(s.db, b.id, { title: "Counted unpaid school" });
    const cJoint = await makeCampaign(s.db, c.id, { title: "Counted water tanker", partners: [a.id] });

    const counted = async (cash: boolean) =>
      (
        await s.db
          .select({ n: count() })
          .from(campaigns)
          .where(and(eq(campaigns.status, "active"), ownerInGoodStanding(), cash ? takesCash() : undefined))
      )[0]!.n;
    const listed = async (tab: "ongoing" | "successful", q?: string) =>
      (
        await s.db
          .select({ n: count() })
          .from(campaigns)
          .where(
            and(
              campaignScope(asNgo(a.id), "run"),
              eq(campaigns.status, tab === "ongoing" ? "active" : "completed"),
              q ? sql`${campaigns.title} ilike ${`%${q}%`}` : undefined,
            ),
          )
      )[0]!.n;
    const check = async (step: string) => {
      expect(await campaignCountDrift(s.db), step).toEqual([]);
      for (const kind of ["cash", "goods", "browse"] as const) {
        const page = await pickerCampaignsAfter(s.db, { kind });
        expect(page.total, `${step}: picker ${kind}`).toBe(await counted(kind === "cash"));
      }
      for (const tab of ["ongoing", "successful"] as const) {
        for (const q of [undefined, "water"]) {
          const list = await listCampaigns(s.db, asNgo(a.id), { tab, q, page: 1 });
          expect(list.total, `${step}: ${tab} ${q ?? ""}`).toBe(await listed(tab, q));
          expect(list.rows.length).toBe(Math.min(list.total, 10));
        }
      }
    };
    await check("made");
    await closeCampaign(s.db, asNgo(a.id), own[0]!.id);
    await check("one completed");
    await deleteCampaign(s, asNgo(a.id), own[1]!.id);
    await check("one deleted");
    await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, a.id));
    await check("the payable NGO suspended");
    await s.db.update(users).set({ suspendedAt: null }).where(eq(users.id, a.id));
    await check("reinstated");
    await givePaymentAccounts(s.db, b.id, TEST_ACCOUNTS);
    await check("the other NGO can be paid");
    await s.db.update(campaigns).set({ status: "archived" }).where(eq(campaigns.id, joint.id));
    await s.db.update(campaigns).set({ ownerId: b.id }).where(eq(campaigns.id, cJoint.id));
    await check("archived, and an owner changed");
    await s.db.update(campaigns).set({ status: "completed" }).where(eq(campaigns.ownerId, a.id));
    await check("all completed in one statement");
    await s.db.delete(campaigns).where(eq(campaigns.ownerId, b.id));
    await check("all of one NGO's deleted in one statement");
  });
});
