import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignPartners, ngoProfiles, users } from "#server/db/schema.ts";
import { ngosWithPublicProfile, PROFILE_LIST_LIMIT, publicNgoProfile } from "#server/domain/accounts/public-profile.ts";
import { accept, suspend } from "#server/domain/admin/vetting.ts";
import { publicCampaign } from "#server/domain/campaigns/public.ts";
import { givePaymentAccounts, makeCampaign, makeDonation, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { failureKind } from "#tests/helpers/failure.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

describe("an NGO's public profile", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("shows who the NGO is, when the platform accepted it, its active campaigns and open positions", async () => {
    const admin = await makeUser(s.db, "admin");
    const ngo = await makeUser(s.db, "ngo", { name: "Roshni Welfare", verification: "pending" });
    await s.db
      .update(ngoProfiles)
      .set({ registrationNumber: "SECP-77", address: "Plot 4, Saddar, Karachi", contactNumber: "02134567890" })
      .where(eq(ngoProfiles.userId, ngo.id));
    await givePaymentAccounts(s.db, ngo.id);
    // Not public before the administrator accepts it.
    expect(await failureKind(publicNgoProfile(s.db, ngo.id))).toBe("not_found");
    const before = Date.now();
    await accept(s, { id: admin.id, role: "admin" }, ngo.id);

    const other = await makeUser(s.db, "ngo");
    const own = await makeCampaign(s.db, ngo.id, { title: `Own ${Math.random()}` });
    const joint = await makeCampaign(s.db, other.id, { title: `Joint ${Math.random()}`, partners: [ngo.id] });
    const invited = await makeCampaign(s.db, other.id, { title: `Invited ${Math.random()}` });
    await s.db.insert(campaignPartners).values({ campaignId: invited.id, ngoId: ngo.id, direction: "invited", status: "pending" });
    await makeCampaign(s.db, ngo.id, { status: "completed" });
    await makeCampaign(s.db, ngo.id, { status: "archived", archivedAt: new Date() });
    const open = await makePosition(s.db, ngo.id, { title: "Teachers for Saturdays" });
    await makePosition(s.db, ngo.id, { status: "closed", closedAt: new Date() });
    await makePosition(s.db, ngo.id, { closesOn: "2020-01-01" });
    await makePosition(s.db, other.id);
    // A gift to the NGO: nothing of it shows.
    await makeDonation(s.db, own, (await makeUser(s.db, "donor")).id, { amount: 5000 });

    const p = await publicNgoProfile(s.db, ngo.id);
    expect(p).toMatchObject({
      id: ngo.id,
      name: "Roshni Welfare",
      registrationNumber: "SECP-77",
      address: "Plot 4, Saddar, Karachi",
      contactNumber: "02134567890",
    });
    expect(p.verifiedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(p.campaigns.total).toBe(2);
    expect(p.campaigns.rows.map((c) => [c.slug, c.role])).toEqual([
      [joint.slug, "partner"],
      [own.slug, "owner"],
    ]);
    expect(p.positions).toEqual({
      total: 1,
      rows: [
        {
          id: open.id,
          title: "Teachers for Saturdays",
          cityLabel: open.cityLabel,
          cityLabelUr: open.cityLabelUr,
          closesOn: open.closesOn,
          volunteersNeeded: open.volunteersNeeded,
        },
      ],
    });

    // Nothing private: no member's email, no payment account or its change history, no donor, no internal counters.
    const text = JSON.stringify(p);
    expect(Object.keys(p).sort()).toEqual(
      ["address", "campaigns", "contactNumber", "id", "logoKey", "name", "positions", "registrationNumber", "verifiedAt"].sort(),
    );
    for (const secret of [ngo.email, "03001112222", "PK36SCBL0000001123456702", "Meezan", "receipt", "payment"]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it("lists at most a bounded number of campaigns and positions, and says how many there are", async () => {
    const ngo = await makeUser(s.db, "ngo");
    for (let i = 0; i < PROFILE_LIST_LIMIT + 2; i++) {
      await makeCampaign(s.db, ngo.id);
      await makePosition(s.db, ngo.id);
    }
    const p = await publicNgoProfile(s.db, ngo.id);
    expect(p.campaigns.rows).toHaveLength(PROFILE_LIST_LIMIT);
    expect(p.campaigns.total).toBe(PROFILE_LIST_LIMIT + 2);
    expect(p.positions.rows).toHaveLength(PROFILE_LIST_LIMIT);
    expect(p.positions.total).toBe(PROFILE_LIST_LIMIT + 2);
  });

  it("does not list a joint campaign whose owner is suspended: it is paused (decision 028)", async () => {
    const partner = await makeUser(s.db, "ngo");
    const owner = await makeUser(s.db, "ngo");
    const joint = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const ids = async () => (await publicNgoProfile(s.db, partner.id)).campaigns.rows.map((c) => c.slug);
    expect(await ids()).toEqual([joint.slug]);
    await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, owner.id));
    expect(await ids()).toEqual([]);
    expect((await publicNgoProfile(s.db, partner.id)).campaigns.total).toBe(0);
  });

  it("is not found for an unverified, rejected or suspended NGO, another role, or an id that is not one", async () => {
    const admin = await makeUser(s.db, "admin");
    const pending = await makeUser(s.db, "ngo", { verification: "pending" });
    const rejected = await makeUser(s.db, "ngo", { verification: "rejected" });
    const suspended = await makeUser(s.db, "ngo");
    await makeCampaign(s.db, suspended.id);
    await suspend(s, { id: admin.id, role: "admin" }, suspended.id);
    const donor = await makeUser(s.db, "donor");
    for (const id of [
      pending.id,
      rejected.id,
      suspended.id,
      donor.id,
      admin.id,
      "not-a-uuid",
      "3f1d8c1e-9a8b-4c1d-8f2e-0a1b2c3d4e5f",
      "",
    ]) {
      expect(await failureKind(publicNgoProfile(s.db, id)), id).toBe("not_found");
    }
    expect(await ngosWithPublicProfile(s.db, [pending.id, rejected.id, suspended.id, donor.id])).toEqual(new Set());
  });

  it("the public campaign page links only NGOs whose profile is public", async () => {
    const admin = await makeUser(s.db, "admin");
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const c = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const before = await publicCampaign(s.db, c.slug);
    expect(before.ngos.map((n) => [n.id, n.hasProfile])).toEqual([
      [owner.id, true],
      [partner.id, true],
    ]);
    await suspend(s, { id: admin.id, role: "admin" }, partner.id);
    const after = await publicCampaign(s.db, c.slug);
    expect(after.ngos.find((n) => n.id === partner.id)?.hasProfile).toBe(false);
    // Still only what the page shows: no email of anyone.
    const [row] = await s.db.select({ email: users.email }).from(users).where(eq(users.id, owner.id));
    expect(JSON.stringify(after)).not.toContain(row!.email);
  });
});
