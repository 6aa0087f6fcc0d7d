import { and, asc, desc, eq, or, sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignPartners, campaigns, users } from "#server/db/schema.ts";
import { campaignChoices, partneredDrift } from "#server/domain/campaigns/access.ts";
import { closeCampaign, listCampaigns } from "#server/domain/campaigns/campaigns.ts";
import { tallied } from "#server/domain/donations/tallies.ts";
import { asNgo } from "#tests/helpers/actors.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * The kept copy of the partnerships (partnered_campaigns, migration 0028, decision 044) against campaign_partners and
 * campaigns after each change of either, and the two readers that use it against the rule written plainly: the NGO's
 * campaign list (owned, or an accepted partner's: campaignScope's "run") and a list's campaign filter (owned, or
 * partnered in any state, with `having`, A–Z). A trigger that missed a change, or a fast path that read the copy
 * differently from the rule, gives other rows or other titles here.
 */
describe("partnered campaigns", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("equal the partnerships and their campaigns, and the lists read from them equal the rule, after every change", async () => {
    const [a, b, c] = [await makeUser(s.db, "ngo"), await makeUser(s.db, "ngo"), await makeUser(s.db, "ngo")];
    const donor = await makeUser(s.db, "donor");
    // A owns five (titles out of creation order), B and C own campaigns A partners, in every partnership state.
    const own = [];
    for (const title of ["Kept mango orchard", "kept Apple school", "Kept zinc roofs", "Kept bread", "kept Water well"])
      own.push(await makeCampaign(s.db, a.id, { title }));
    const joint = [];
    for (const title of ["Kept almond kitchen", "kept Clinic", "Kept tents", "Kept yarn", "Kept blankets", "Kept quilts"])
      joint.push(await makeCampaign(s.db, title.length % 2 ? b.id : c.id, { title, partners: [a.id] }));
    await makeCampaign(s.db, b.id, { title: "Kept not A's" });
    const pending = await makeCampaign(s.db, c.id, { title: "Kept pending ask" });
    await s.db.insert(campaignPartners).values({ campaignId: pending.id, ngoId: a.id, direction: "requested", status: "pending" });
    // Donations to A: on three of its own and three joint ones (one of them pending, which the filter's `having` asks).
    for (const campaign of [own[0]!, own[2]!, own[4]!, joint[0]!, joint[3]!, pending])
      await makeDonation(s.db, { id: campaign.id, ownerId: a.id }, donor.id, { status: "pending" });

    const having = (id: SQL) => tallied(a.id, id, { kind: "cash", statuses: ["pending"] });
    const chosen = async (limit: number) =>
      s.db
        .select({ id: campaigns.id, title: campaigns.title })
        .from(campaigns)
        .where(
          and(
            or(
              eq(campaigns.ownerId, a.id),
              sql`exists (select 1 from ${campaignPartners} cp where cp.campaign_id = ${campaigns.id} and cp.ngo_id = ${a.id})`,
            ),
            having(sql`${campaigns.id}`),
          ),
        )
        .orderBy(sql`lower(${campaigns.title})`, asc(campaigns.id))
        .limit(limit);
    const listed = async (tab: "ongoing" | "successful") =>
      s.db
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(
          and(
            eq(campaigns.status, tab === "ongoing" ? "active" : "completed"),
            or(
              eq(campaigns.ownerId, a.id),
              sql`exists (select 1 from ${campaignPartners} cp where cp.campaign_id = ${campaigns.id} and cp.ngo_id = ${a.id} and cp.status = 'accepted')`,
            ),
          ),
        )
        .orderBy(desc(tab === "ongoing" ? campaigns.createdAt : campaigns.completedAt), desc(campaigns.id));
    const check = async (step: string) => {
      expect(await partneredDrift(s.db), step).toEqual([]);
      // The filter, whole and cut short (the merge of the two halves stops at the limit).
      for (const limit of [1, 3, 200])
        expect(await campaignChoices(s.db, a.id, having, limit), `${step}: choices ${limit}`).toEqual(await chosen(limit));
      for (const tab of ["ongoing", "successful"] as const) {
        const expected = (await listed(tab)).map((r) => r.id);
        const seen: string[] = [];
        for (let page = 1; page <= Math.max(1, Math.ceil(expected.length / 10)); page++) {
          const list = await listCampaigns(s.db, asNgo(a.id), { tab, page });
          expect(list.total, `${step}: ${tab} total`).toBe(expected.length);
          seen.push(...list.rows.map((r) => r.id));
        }
        expect(seen, `${step}: ${tab} rows`).toEqual(expected);
      }
    };
    await check("made");
    await s.db.update(campaigns).set({ title: "Kept aardvark kitchen" }).where(eq(campaigns.id, joint[3]!.id));
    await check("a partnered campaign renamed");
    await closeCampaign(s.db, asNgo(joint[0]!.ownerId), joint[0]!.id);
    await check("a partnered campaign completed by its owner");
    await s.db.update(campaignPartners).set({ status: "declined" }).where(eq(campaignPartners.campaignId, joint[1]!.id));
    await check("a partnership declined");
    await s.db.update(campaignPartners).set({ status: "accepted" }).where(eq(campaignPartners.campaignId, pending.id));
    await check("a pending partnership accepted");
    await s.db.update(campaigns).set({ status: "archived", archivedAt: new Date() }).where(eq(campaigns.id, joint[2]!.id));
    await check("a partnered campaign archived");
    // The owner changed, to A itself: the campaign is A's own and read once.
    await s.db.update(campaigns).set({ ownerId: a.id }).where(eq(campaigns.id, joint[4]!.id));
    await check("a partnered campaign now A's own");
    await s.db
      .update(campaigns)
      .set({ createdAt: sql`${campaigns.createdAt} - interval '1 day'`, title: sql`${campaigns.title} || ' again'` })
      .where(eq(campaigns.ownerId, b.id));
    await check("all of B's renamed and moved back in one statement");
    await s.db.delete(campaignPartners).where(eq(campaignPartners.campaignId, joint[5]!.id));
    await check("a partnership removed");
    await s.db.delete(campaigns).where(eq(campaigns.id, joint[2]!.id));
    await check("a partnered campaign deleted");
    await s.db
      .delete(campaigns)
      .where(and(eq(campaigns.ownerId, c.id), sql`not exists (select 1 from donations d where d.campaign_id = ${campaigns.id})`));
    await check("all of an owner's campaigns without donations deleted in one statement");
    // A partner's account removed: its partnerships go with it (another NGO's copy, D's, must go too).
    const d = await makeUser(s.db, "ngo");
    await s.db.insert(campaignPartners).values({ campaignId: own[1]!.id, ngoId: d.id, direction: "invited", status: "accepted" });
    await check("D partners one of A's");
    await s.db.delete(users).where(eq(users.id, d.id));
    await check("D's account deleted");
  });

  it("a new partnership copies the campaign as it is once a concurrent change of it has committed", async () => {
    const [a, b] = [await makeUser(s.db, "ngo"), await makeUser(s.db, "ngo")];
    const campaign = await makeCampaign(s.db, b.id, { title: "Kept concurrent title" });
    // The rename holds the campaign's row; the partnership's copy waits for it and reads the new title.
    await Promise.all([
      s.db.transaction(async (tx) => {
        await tx.update(campaigns).set({ title: "Kept concurrent renamed" }).where(eq(campaigns.id, campaign.id));
        await tx.execute(sql`select pg_sleep(0.2)`);
      }),
      (async () => {
        await new Promise((r) => setTimeout(r, 50));
        await s.db.insert(campaignPartners).values({ campaignId: campaign.id, ngoId: a.id, direction: "invited", status: "accepted" });
      })(),
    ]);
    expect(await partneredDrift(s.db)).toEqual([]);
  });
});
