import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { campaignPartners, campaigns } from "#server/db/schema.ts";
import { bucketStarts, campaignAnalytics, seriesUnit } from "#server/domain/campaigns/analytics.ts";
import { publicCampaign } from "#server/domain/campaigns/public.ts";
import { DomainError } from "#server/domain/errors.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";

/** A moment on a Pakistani calendar day (UTC+5). */
const at = (isoLocal: string) => new Date(`${isoLocal}+05:00`);

async function expectNotFound(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).kind).toBe("not_found");
}

describe("campaign analytics", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  /** A joint campaign: owner and one partner, with a mix of donations to each. */
  async function jointCampaign() {
    const owner = await makeUser(s.db, "ngo", { name: "Alpha Trust" });
    const partner = await makeUser(s.db, "ngo", { name: "Beta Welfare" });
    const idle = await makeUser(s.db, "ngo", { name: "Gamma Relief" });
    const [d1, d2, d3] = [await makeUser(s.db, "donor"), await makeUser(s.db, "donor"), await makeUser(s.db, "donor")];
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id, idle.id], targetAmount: 50_000 });
    const toPartner = { recipientNgoId: partner.id };
    // Owner: two approved cash gifts on 1 March (one late at night, still 1 March in Pakistan), one on 3 March.
    await makeDonation(s.db, campaign, d1.id, {
      status: "approved",
      amount: 1000,
      method: "jazzcash",
      createdAt: at("2025-03-01T09:00:00"),
    });
    await makeDonation(s.db, campaign, d2.id, { status: "approved", amount: 2500, method: "bank", createdAt: at("2025-03-01T23:30:00") });
    await makeDonation(s.db, campaign, d1.id, {
      status: "approved",
      amount: 500,
      method: "jazzcash",
      createdAt: at("2025-03-03T10:00:00"),
    });
    // Partner: approved cash on 2 March, approved in-kind.
    await makeDonation(s.db, campaign, d3.id, {
      ...toPartner,
      status: "approved",
      amount: 6000,
      method: "easypaisa",
      createdAt: at("2025-03-02T12:00:00"),
    });
    await makeDonation(s.db, campaign, d1.id, {
      ...toPartner,
      status: "approved",
      kind: "in_kind",
      items: "Rice,  blankets\nWATER bottles",
      createdAt: at("2025-03-02T13:00:00"),
    });
    await makeDonation(s.db, campaign, d2.id, {
      status: "approved",
      kind: "in_kind",
      items: "rice; Blankets ، Tents",
      createdAt: at("2025-03-02T14:00:00"),
    });
    await makeDonation(s.db, campaign, d3.id, {
      status: "approved",
      kind: "in_kind",
      items: "RICE, rice",
      createdAt: at("2025-03-02T15:00:00"),
    });
    // Not collected: pending and rejected cash, pending in-kind.
    await makeDonation(s.db, campaign, d3.id, { status: "pending", amount: 99_000, method: "bank", createdAt: at("2025-03-05T10:00:00") });
    await makeDonation(s.db, campaign, d3.id, {
      ...toPartner,
      status: "rejected",
      amount: 77_000,
      method: "jazzcash",
      createdAt: at("2025-03-06T10:00:00"),
    });
    await makeDonation(s.db, campaign, d2.id, {
      ...toPartner,
      status: "pending",
      kind: "in_kind",
      items: "Shoes",
      createdAt: at("2025-03-06T10:00:00"),
    });
    return { owner, partner, idle, campaign, donors: [d1, d2, d3] };
  }

  it("totals only approved donations, counts donors once and splits cash, in-kind and methods", async () => {
    const { owner, campaign } = await jointCampaign();
    // Another campaign's donations never leak in.
    const other = await makeCampaign(s.db, owner.id);
    await makeDonation(s.db, other, (await makeUser(s.db, "donor")).id, { status: "approved", amount: 40_000 });

    const a = await campaignAnalytics(s.db, campaign.id, owner);
    expect(a.role).toBe("owner");
    expect(a.campaign.id).toBe(campaign.id);
    expect(a.total.collected).toBe(10_000);
    expect(a.total.share).toBe(1);
    // d1, d2, d3 each have an approved donation; d1 has several.
    expect(a.total.donors).toBe(3);
    expect(a.total.cash).toEqual({ count: 4, amount: 10_000, pending: 1 });
    expect(a.total.inKind).toEqual({ count: 3, pending: 1 });
    expect(a.total.methods).toEqual([
      { method: "jazzcash", count: 2, amount: 1500 },
      { method: "easypaisa", count: 1, amount: 6000 },
      { method: "bank", count: 1, amount: 2500 },
    ]);
  });

  it("gives each NGO of a joint campaign its own numbers and share, listing partners with nothing yet", async () => {
    const { owner, partner, idle, campaign } = await jointCampaign();
    const a = await campaignAnalytics(s.db, campaign.id, owner);
    expect(a.ngos.map((n) => [n.name, n.role])).toEqual([
      ["Alpha Trust", "owner"],
      ["Beta Welfare", "partner"],
      ["Gamma Relief", "partner"],
    ]);
    const [mine, theirs, none] = a.ngos.map((n) => n.breakdown);
    expect(mine!.collected).toBe(4000);
    expect(mine!.share).toBeCloseTo(0.4);
    expect(mine!.donors).toBe(3);
    expect(mine!.cash).toEqual({ count: 3, amount: 4000, pending: 1 });
    expect(mine!.methods.find((m) => m.method === "easypaisa")).toEqual({ method: "easypaisa", count: 0, amount: 0 });
    expect(theirs!.collected).toBe(6000);
    expect(theirs!.share).toBeCloseTo(0.6);
    expect(theirs!.donors).toBe(2);
    expect(theirs!.cash).toEqual({ count: 1, amount: 6000, pending: 0 });
    expect(theirs!.inKind).toEqual({ count: 1, pending: 1 });
    expect(none).toMatchObject({ collected: 0, share: 0, donors: 0, topItems: [] });
    expect(none!.series.every((p) => p.amount === 0 && p.cumulative === 0)).toBe(true);
    expect(a.ngos.find((n) => n.id === idle.id)).toBeDefined();
    expect(a.ngos.find((n) => n.id === partner.id)?.breakdown.methods[1]).toEqual({ method: "easypaisa", count: 1, amount: 6000 });
  });

  it("builds a daily series in Pakistan's days, gaps filled, cumulative to the total", async () => {
    const { owner, partner, campaign } = await jointCampaign();
    const a = await campaignAnalytics(s.db, campaign.id, owner);
    expect(a.unit).toBe("day");
    expect(a.total.series).toEqual([
      { date: "2025-03-01", amount: 3500, cumulative: 3500 },
      { date: "2025-03-02", amount: 6000, cumulative: 9500 },
      { date: "2025-03-03", amount: 500, cumulative: 10_000 },
    ]);
    const partnerSeries = a.ngos.find((n) => n.id === partner.id)!.breakdown.series;
    expect(partnerSeries.map((p) => p.cumulative)).toEqual([0, 6000, 6000]);
  });

  it("groups a long history by week so the chart stays short", async () => {
    const owner = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id);
    // Monday 6 Jan 2025 and Wednesday 30 Jul 2025: 206 days apart.
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 100, createdAt: at("2025-01-06T08:00:00") });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 200, createdAt: at("2025-01-12T08:00:00") });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 300, createdAt: at("2025-07-30T08:00:00") });
    const a = await campaignAnalytics(s.db, campaign.id, owner);
    expect(a.unit).toBe("week");
    expect(a.total.series.length).toBeLessThanOrEqual(120);
    expect(a.total.series[0]).toEqual({ date: "2025-01-06", amount: 300, cumulative: 300 });
    expect(a.total.series.at(-1)).toEqual({ date: "2025-07-28", amount: 300, cumulative: 600 });
    expect(a.total.series.reduce((sum, p) => sum + p.amount, 0)).toBe(600);
  });

  it("chooses the series unit by span", () => {
    expect(seriesUnit(null, null)).toBe("day");
    expect(seriesUnit("2025-01-01", "2025-04-30")).toBe("day");
    expect(seriesUnit("2025-01-01", "2025-05-01")).toBe("week");
    expect(seriesUnit("2020-01-01", "2025-01-01")).toBe("month");
    expect(seriesUnit("1990-01-01", "2025-01-01")).toBe("year");
    expect(bucketStarts("2025-01-31", "2025-03-02", "month")).toEqual(["2025-01-01", "2025-02-01", "2025-03-01"]);
  });

  it("lists the top items of approved in-kind gifts, normalised, once per donation", async () => {
    const { owner, partner, campaign } = await jointCampaign();
    const a = await campaignAnalytics(s.db, campaign.id, owner);
    expect(a.total.topItems).toEqual([
      { item: "rice", count: 3 },
      { item: "blankets", count: 2 },
      { item: "tents", count: 1 },
      { item: "water bottles", count: 1 },
    ]);
    // "shoes" is pending, so it is not there.
    expect(a.ngos.find((n) => n.id === partner.id)!.breakdown.topItems).toEqual([
      { item: "blankets", count: 1 },
      { item: "rice", count: 1 },
      { item: "water bottles", count: 1 },
    ]);
    expect(a.ngos.find((n) => n.id === owner.id)!.breakdown.topItems).toEqual([
      { item: "rice", count: 2 },
      { item: "blankets", count: 1 },
      { item: "tents", count: 1 },
    ]);
  });

  it("keeps the top items to ten", async () => {
    const owner = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id);
    const names = Array.from({ length: 14 }, (_, i) => `item ${String(i).padStart(2, "0")}`);
    await makeDonation(s.db, campaign, donor.id, { status: "approved", kind: "in_kind", items: names.join(", ") });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", kind: "in_kind", items: "item 13" });
    const a = await campaignAnalytics(s.db, campaign.id, owner);
    expect(a.total.topItems).toHaveLength(10);
    expect(a.total.topItems[0]).toEqual({ item: "item 13", count: 2 });
    expect(a.total.topItems[1]).toEqual({ item: "item 00", count: 1 });
    expect(a.ngos[0]!.breakdown.topItems).toHaveLength(10);
  });

  it("shows an empty campaign as zeros with no series", async () => {
    const owner = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, owner.id);
    const a = await campaignAnalytics(s.db, campaign.id, owner);
    expect(a.total).toMatchObject({ collected: 0, share: 0, donors: 0, series: [], topItems: [] });
    expect(a.total.cash).toEqual({ count: 0, amount: 0, pending: 0 });
    expect(a.ngos).toHaveLength(1);
  });

  it("counts each fund's approved cash and goods, in total and per NGO, and keeps a fund it no longer takes that holds gifts", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id], acceptedFunds: ["sadaqah", "general"] });
    const gift = (opts: Parameters<typeof makeDonation>[3]) => makeDonation(s.db, campaign, donor.id, { status: "approved", ...opts });
    await gift({ amount: 1000, fund: "general", method: "bank" });
    await gift({ amount: 2000, fund: "sadaqah", method: "easypaisa" });
    await gift({ kind: "in_kind", fund: "sadaqah" });
    await gift({ amount: 5000, fund: "sadaqah", status: "pending" });
    // Zakat given while the campaign took it (its attestation since withdrawn): still shown, apart.
    await gift({ amount: 700, fund: "zakat", recipientNgoId: partner.id });
    await gift({ amount: 9000, fund: "general", status: "rejected", recipientNgoId: partner.id });

    const a = await campaignAnalytics(s.db, campaign.id, owner);
    const funds = (b: { funds: { fund: string; cashCount: number; amount: number; goodsCount: number }[] }) =>
      b.funds.map((f) => [f.fund, f.cashCount, f.amount, f.goodsCount]);
    expect(funds(a.total)).toEqual([
      ["zakat", 1, 700, 0],
      ["sadaqah", 1, 2000, 1],
      ["general", 1, 1000, 0],
    ]);
    const of = (id: string) => a.ngos.find((n) => n.id === id)!.breakdown;
    expect(funds(of(owner.id))).toEqual([
      ["zakat", 0, 0, 0],
      ["sadaqah", 1, 2000, 1],
      ["general", 1, 1000, 0],
    ]);
    expect(funds(of(partner.id))).toEqual([
      ["zakat", 1, 700, 0],
      ["sadaqah", 0, 0, 0],
      ["general", 0, 0, 0],
    ]);
    // The methods and counts from the same pass: approved cash only, pending counted apart.
    expect(a.total.methods).toEqual([
      { method: "jazzcash", count: 1, amount: 700 },
      { method: "easypaisa", count: 1, amount: 2000 },
      { method: "bank", count: 1, amount: 1000 },
    ]);
    expect(a.total.cash).toEqual({ count: 3, amount: 3700, pending: 1 });
    expect(of(partner.id).cash).toEqual({ count: 1, amount: 700, pending: 0 });
    expect(a.total.inKind).toEqual({ count: 1, pending: 0 });
    expect(a.total.donors).toBe(1);
  });

  it("lets an accepted partner read it, and nobody else", async () => {
    const { partner, campaign } = await jointCampaign();
    const asPartner = await campaignAnalytics(s.db, campaign.id, partner);
    expect(asPartner.role).toBe("partner");
    expect(asPartner.total.collected).toBe(10_000);

    const stranger = await makeUser(s.db, "ngo");
    await expectNotFound(campaignAnalytics(s.db, campaign.id, stranger));
    await expectNotFound(campaignAnalytics(s.db, "not-a-uuid", partner));
    // A pending invitation or a partner that left does not open it either.
    const invited = await makeUser(s.db, "ngo");
    await s.db.insert(campaignPartners).values({ campaignId: campaign.id, ngoId: invited.id, direction: "invited", status: "pending" });
    await expectNotFound(campaignAnalytics(s.db, campaign.id, invited));
    await s.db.update(campaignPartners).set({ status: "left" }).where(eq(campaignPartners.ngoId, partner.id));
    await expectNotFound(campaignAnalytics(s.db, campaign.id, partner));
  });

  it("keeps a former partner's donations in the total and lists it so shares add up", async () => {
    const { owner, partner, campaign } = await jointCampaign();
    await s.db.update(campaignPartners).set({ status: "left" }).where(eq(campaignPartners.ngoId, partner.id));
    const a = await campaignAnalytics(s.db, campaign.id, owner);
    expect(a.total.collected).toBe(10_000);
    const former = a.ngos.find((n) => n.id === partner.id);
    expect(former).toMatchObject({ role: "former", name: "Beta Welfare" });
    expect(former!.breakdown.collected).toBe(6000);
    expect(a.ngos.reduce((sum, n) => sum + n.breakdown.share, 0)).toBeCloseTo(1);
  });
});

describe("public campaign page", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("shows public fields, every NGO with its share, and nothing about donors", async () => {
    const owner = await makeUser(s.db, "ngo", { name: "Owner Foundation" });
    const partner = await makeUser(s.db, "ngo", { name: "Partner Society" });
    const donor = await makeUser(s.db, "donor", { name: "Secretive" });
    const campaign = await makeCampaign(s.db, owner.id, {
      partners: [partner.id],
      collectedAmount: 4000,
      otherItems: "Blankets",
      acceptedFunds: ["zakat", "general"],
    });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 1000 });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 3000, recipientNgoId: partner.id });
    await makeDonation(s.db, campaign, donor.id, { status: "pending", amount: 5000, recipientNgoId: partner.id });

    const p = await publicCampaign(s.db, campaign.slug);
    expect(p).toMatchObject({
      slug: campaign.slug,
      title: campaign.title,
      description: campaign.description,
      targetAmount: 100_000,
      collectedAmount: 4000,
      otherItems: "Blankets",
      acceptedFunds: ["zakat", "general"],
      status: "active",
      locationLabel: campaign.locationLabel,
    });
    // An NGO's id is the address of its public profile (/ngo/:id, decision 027): shown, and linked while it is public.
    expect(p.ngos).toEqual([
      { id: owner.id, hasProfile: true, name: "Owner Foundation", logoKey: null, role: "owner", collected: 1000, share: 0.25 },
      { id: partner.id, hasProfile: true, name: "Partner Society", logoKey: null, role: "partner", collected: 3000, share: 0.75 },
    ]);
    const text = JSON.stringify(p);
    expect(text).not.toContain(donor.id);
    expect(text).not.toContain(donor.email);
    expect(text).not.toContain("Secretive");
    expect(text).not.toContain(owner.email);
    expect(text).not.toContain(campaign.id);
  });

  it("shows a completed campaign, and not an archived, unknown or silly one", async () => {
    const owner = await makeUser(s.db, "ngo");
    const done = await makeCampaign(s.db, owner.id, { status: "completed", completedAt: new Date() });
    expect((await publicCampaign(s.db, done.slug)).status).toBe("completed");
    const gone = await makeCampaign(s.db, owner.id);
    await s.db.update(campaigns).set({ status: "archived", archivedAt: new Date() }).where(eq(campaigns.id, gone.id));
    await expectNotFound(publicCampaign(s.db, gone.slug));
    await expectNotFound(publicCampaign(s.db, "no-such-campaign"));
    await expectNotFound(publicCampaign(s.db, ""));
    await expectNotFound(publicCampaign(s.db, "x".repeat(500)));
  });
});
