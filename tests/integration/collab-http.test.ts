import { describe, expect, it } from "vitest";
import { changedTables, databaseFingerprint, signIn, withWholeApp, type TestApp } from "#tests/helpers/app.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import type { TestServices } from "#tests/helpers/services.ts";
import { invitePartners } from "#server/domain/campaigns/collaboration.ts";

/** /collab through the real route: Collaborate that changes nothing, and how joint campaigns show each share. */
let s: TestServices;
let t: TestApp;

withWholeApp((app) => ({ s, t } = app));

/** Tables a signed-in request may touch whatever it does. */
const BOOKKEEPING = { exclude: ["sessions", "rate_limits"] };

describe("/collab", () => {
  it("Collaborate for NGOs already invited or partners says nothing changed, writes nothing and tells nobody", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const invited = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    await invitePartners(s, owner, campaign.id, [invited.id]);
    const cookie = await signIn(s.db, owner.id);

    const before = await databaseFingerprint(s.db, BOOKKEEPING);
    const post = (ids: string[]) => {
      const form = new FormData();
      form.set("intent", "invite");
      form.set("campaignId", campaign.id);
      for (const id of ids) form.append("ngoIds", id);
      return t.request(`/collab?campaignId=${campaign.id}`, { method: "POST", body: form, cookie, headers: { accept: "text/html" } });
    };
    const one = await post([invited.id]);
    // Not a redirect to the "successfully made" page: the form again, saying why nothing happened. (The page's
    // strings travel in it as JSON too, so the words are looked for in the element that shows them.)
    expect(one.status).toBe(200);
    expect(await one.text()).toMatch(
      /<p role="status"[^>]*>Nothing changed: the NGO you selected was already invited to this campaign or is already its partner\./,
    );
    const two = await post([invited.id, partner.id]);
    expect(two.status).toBe(200);
    expect(await two.text()).toMatch(/<p role="status"[^>]*>Nothing changed: the 2 NGOs you selected were already invited/);
    expect(changedTables(before, await databaseFingerprint(s.db, BOOKKEEPING))).toEqual([]);
  });

  it("shows each partner's share as a part of what was raised, and the NGO's own campaigns without a search", async () => {
    const owner = await makeUser(s.db, "ngo", { name: "Owner Trust" });
    const partner = await makeUser(s.db, "ngo", { name: "Partner Aid" });
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id], targetAmount: 100_000, collectedAmount: 50_000 });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 20_000 });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 30_000, recipientNgoId: partner.id });
    const solo = await makeCampaign(s.db, owner.id);

    const html = await (await t.request("/collab", { cookie: await signIn(s.db, owner.id) })).text();
    expect(html).toContain("Rs. 30,000 — 60% of what was raised");
    expect(html).toContain("Rs. 20,000 — 40% of what was raised");
    // Both own campaigns are listed, each leading to the invite form with it chosen.
    expect(html).toMatch(/<h2 id="own-heading"[^>]*>Your active campaigns/);
    for (const c of [campaign, solo]) expect(html).toContain(`?campaignId=${c.id}#invite-partners`);
    expect(html).toMatch(/>1 partner</);
    expect(html).toMatch(/>No partners yet</);
  });
});
