import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CampaignInput } from "#shared/forms/campaigns.ts";
import { goodsOfferSchema } from "#shared/forms/pickups.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { placeLabelFor } from "#shared/places.ts";
import { campaigns, dropoffPoints, pickups, riderProfiles, volunteerPositions } from "#server/db/schema.ts";
import { publicNgoProfile } from "#server/domain/accounts/public-profile.ts";
import { findRiderArea, setRiderArea } from "#server/domain/accounts/settings.ts";
import { createCampaign, listCampaigns, parseCampaign, updateCampaign } from "#server/domain/campaigns/campaigns.ts";
import { joinTarget } from "#server/domain/campaigns/collaboration.ts";
import { publicCampaign } from "#server/domain/campaigns/public.ts";
import { pickerCampaignsAfter } from "#server/domain/donations/picker.ts";
import { listMapCampaigns } from "#server/domain/map/map.ts";
import { backfillPlaceLabels } from "#server/domain/places/saved-labels.ts";
import { addDropoffPoint, listDropoffPoints } from "#server/domain/pickups/dropoffs.ts";
import { offerGoods, pickupForNgo, pickupsOfDonor, riderChoices } from "#server/domain/pickups/pickups.ts";
import { createPosition, openPositions, parsePosition, positionForDonor, positionsOfNgo } from "#server/domain/volunteering/positions.ts";
import { asSessionUser, makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { asDonor, asNgo } from "#tests/helpers/actors.ts";

/** The gazetteer's labels of the two towns these tests save, in English and in Urdu. */
const LAHORE = { en: "Lahore, Lahore District, Punjab", ur: "لاہور، ضلع لاہور، پنجاب" };
const KARACHI = { en: "Karachi, Sindh", ur: "کراچی، سندھ" };

/** What an English and an Urdu reader are shown of a saved place read back with both its labels. */
const shown = (label: string | null, labelUr: string | null) => ({
  en: label === null ? null : placeLabelFor({ label, labelUr }, "en"),
  ur: label === null ? null : placeLabelFor({ label, labelUr }, "ur"),
});

const tag = () => randomUUID().slice(0, 8);

function campaignInput(location: string, title = `Place labels ${tag()}`): CampaignInput {
  return {
    title,
    description: "Warm clothes for the winter.",
    targetAmount: "50000",
    location,
    cause: "shelter",
  } as CampaignInput;
}

describe("a saved place is shown in the reader's language, whichever it was written in (issue 16)", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("campaigns: the public page, the NGO's list, the pickers and the landing page, the NGO's profile, the join page, the map's list", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    // An Urdu-writing NGO types the Urdu name; another writes in English.
    const inUrdu = await createCampaign(s, asNgo(ngo.id), parseCampaign(campaignInput("لاہور")));
    const inEnglish = await createCampaign(s, asNgo(ngo.id), parseCampaign(campaignInput("Karachi")));
    expect(inUrdu).toMatchObject({ locationLabel: LAHORE.en, locationLabelUr: LAHORE.ur });
    expect(inEnglish).toMatchObject({ locationLabel: KARACHI.en, locationLabelUr: KARACHI.ur });

    const reads = async (c: typeof inUrdu) => {
      const pub = await publicCampaign(s.db, c.slug);
      const own = (await listCampaigns(s.db, asNgo(ngo.id), { tab: "ongoing", q: c.title, page: 1 })).rows[0]!;
      const picked = (await pickerCampaignsAfter(s.db, { q: c.title, kind: "browse" })).rows[0]!;
      const profile = (await publicNgoProfile(s.db, ngo.id)).campaigns.rows.find((r) => r.slug === c.slug)!;
      const join = await joinTarget(s.db, asNgo(partner.id), c.id);
      let listed;
      for (let page = 1; !listed; page++) listed = (await listMapCampaigns(s.db, page)).rows.find((r) => r.slug === c.slug);
      return [pub, own, picked, profile, join, listed].map((r) => shown(r.locationLabel, r.locationLabelUr));
    };
    for (const read of await reads(inUrdu)) expect(read).toEqual(LAHORE);
    for (const read of await reads(inEnglish)) expect(read).toEqual(KARACHI);

    // Either language's name finds a campaign, whichever it was saved in.
    const found = async (q: string) => (await pickerCampaignsAfter(s.db, { q, kind: "browse" })).rows.map((r) => r.id);
    expect(await found("کراچی")).toContain(inEnglish.id);
    expect(await found("Lahore")).toContain(inUrdu.id);
  });

  it("campaigns: the edit form prefilled in the editor's language saves the same place, both labels and the point", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const c = await createCampaign(s, asNgo(ngo.id), parseCampaign(campaignInput("Lahore")));
    // The owner moved the point on the map; an Urdu editor's form holds the Urdu label and no new point.
    await s.db.update(campaigns).set({ lat: 31.6, lng: 74.4 }).where(eq(campaigns.id, c.id));
    const edited = await updateCampaign(s, asNgo(ngo.id), c.id, parseCampaign(campaignInput(LAHORE.ur, c.title)));
    expect(edited).toMatchObject({ locationLabel: LAHORE.en, locationLabelUr: LAHORE.ur, lat: 31.6, lng: 74.4 });
    const moved = await updateCampaign(s, asNgo(ngo.id), c.id, parseCampaign(campaignInput("کراچی", c.title)));
    expect(moved).toMatchObject({ locationLabel: KARACHI.en, locationLabelUr: KARACHI.ur });
    expect(moved.lat).toBeCloseTo(24.86, 1);
  });

  it("pick-ups and drop-off points: the NGO's queue and the donor's history, both places of each", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    const point = await addDropoffPoint(s, asNgo(ngo.id), { name: "Store", address: "Shop 4", place: "لاہور" });
    expect(shown(point.areaLabel, point.areaLabelUr)).toEqual(LAHORE);
    const [listed] = await listDropoffPoints(s.db, asNgo(ngo.id));
    expect(shown(listed!.areaLabel, listed!.areaLabelUr)).toEqual(LAHORE);

    const form = new FormData();
    const fields = {
      campaign: campaign.slug,
      ngo: ngo.id,
      idempotencyKey: randomUUID(),
      phone: "03001234567",
      items: "Blankets",
      address: "House 1",
      area: "Karachi",
      windowDate: new Date(Date.now() + 5 * 3600 * 1000).toISOString().slice(0, 10),
      windowSlot: "morning",
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const submission = parseWithZod(form, { schema: goodsOfferSchema });
    if (submission.status !== "success") throw new Error("the goods form was refused");
    const { id } = await offerGoods(s, asDonor(donor.id), submission.value);

    const forNgo = await pickupForNgo(s.db, asNgo(ngo.id), id);
    expect(shown(forNgo.areaLabel, forNgo.areaLabelUr)).toEqual(KARACHI);
    expect(shown(forNgo.dropoff.areaLabel, forNgo.dropoff.areaLabelUr)).toEqual(LAHORE);
    const forDonor = (await pickupsOfDonor(s.db, asDonor(donor.id), [id])).get(id)!;
    expect(shown(forDonor.areaLabel, forDonor.areaLabelUr)).toEqual(KARACHI);
    expect(shown(forDonor.dropoff.areaLabel, forDonor.dropoff.areaLabelUr)).toEqual(LAHORE);
  });

  it("riders' areas: the rider's profile and the NGO's choice of rider", async () => {
    const rider = await makeUser(s.db, "rider");
    const actor = asSessionUser(rider, "rider");
    await setRiderArea(s, actor, { area: "لاہور" });
    const area = (await findRiderArea(s.db, actor))!;
    expect(shown(area.label, area.labelUr)).toEqual(LAHORE);
    const choice = (await riderChoices(s.db, { lat: 31.558, lng: 74.35 }, 20)).find((r) => r.id === rider.id)!;
    expect(shown(choice.areaLabel, choice.areaLabelUr)).toEqual(LAHORE);
  });

  it("volunteer positions: the NGO's list, the donors' list and a position's page; either language's name finds it", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const input = (city: string) => ({
      title: `Reading teacher ${tag()}`,
      description: "Teach children to read.",
      workingHours: "4 hours a day",
      timings: "Saturdays",
      volunteersNeeded: "2",
      city,
    });
    const inUrdu = await createPosition(s, asNgo(ngo.id), parsePosition(input("لاہور")));
    const inEnglish = await createPosition(s, asNgo(ngo.id), parsePosition(input("Karachi")));
    const own = (await positionsOfNgo(s.db, asNgo(ngo.id), { state: "open", page: 1 })).rows;
    for (const [p, place] of [
      [inUrdu, LAHORE],
      [inEnglish, KARACHI],
    ] as const) {
      const mine = own.find((r) => r.id === p.id)!;
      const open = (await openPositions(s.db, asDonor(donor.id), { q: p.title, page: 1 })).rows[0]!;
      const page = await positionForDonor(s.db, p.id, asDonor(donor.id));
      for (const r of [mine, open, page]) expect(shown(r.cityLabel, r.cityLabelUr)).toEqual(place);
    }
    const found = async (q: string) => (await openPositions(s.db, asDonor(donor.id), { q, page: 1 })).rows.map((r) => r.id);
    expect(await found("کراچی")).toContain(inEnglish.id);
    expect(await found("Lahore")).toContain(inUrdu.id);
  });
});

describe("places saved with one label get both (the backfill)", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("gives both labels to gazetteer labels in either language, leaves other labels, and changes nothing run again", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const rider = await makeUser(s.db, "rider");
    // As rows were saved before both labels were kept: Urdu writers' in Urdu, everyone else's in English.
    const urdu = await makeCampaign(s.db, ngo.id, { locationLabel: LAHORE.ur });
    const english = await makeCampaign(s.db, ngo.id, { locationLabel: KARACHI.en });
    const area = await makeCampaign(s.db, ngo.id, { locationLabel: `Mohalla Sadiq, ${LAHORE.en}` });
    // A geocoder service's label and a town the gazetteer has no Urdu name for stay as they are.
    const foreign = await makeCampaign(s.db, ngo.id, { locationLabel: "Lahore, Punjab, 54000, Pakistan" });
    const noUrdu = await makeCampaign(s.db, ngo.id, { locationLabel: "Bahawalpur, Punjab" });
    const [point] = await s.db
      .insert(dropoffPoints)
      .values({ ngoId: ngo.id, name: "Store", address: "Shop 4", areaLabel: KARACHI.ur, lat: 24.86, lng: 67.01 })
      .returning();
    const { donation } = await makePickup(s.db, english, donor.id, { areaLabel: LAHORE.ur });
    await s.db
      .update(riderProfiles)
      .set({ areaLabel: LAHORE.en, areaLat: 31.558, areaLng: 74.35 })
      .where(eq(riderProfiles.userId, rider.id));
    const [position] = await s.db
      .insert(volunteerPositions)
      .values({
        ngoId: ngo.id,
        title: "Teacher",
        description: "Teach.",
        workingHours: "4 hours",
        timings: "Sat",
        volunteersNeeded: 1,
        cityLabel: KARACHI.ur,
      })
      .returning();

    const before = await snapshot();
    expect(await backfillPlaceLabels(s.db)).toBe(7);
    const after = await snapshot();
    expect(after.campaigns.get(urdu.id)).toEqual([LAHORE.en, LAHORE.ur]);
    expect(after.campaigns.get(english.id)).toEqual([KARACHI.en, KARACHI.ur]);
    expect(after.campaigns.get(area.id)).toEqual([`Mohalla Sadiq, ${LAHORE.en}`, `Mohalla Sadiq\u060c ${LAHORE.ur}`]);
    expect(after.campaigns.get(foreign.id)).toEqual(before.campaigns.get(foreign.id));
    expect(after.campaigns.get(noUrdu.id)).toEqual(["Bahawalpur, Punjab", null]);
    expect(after.dropoffs.get(point!.id)).toEqual([KARACHI.en, KARACHI.ur]);
    expect(after.pickups.get(donation.id)).toEqual([LAHORE.en, LAHORE.ur]);
    expect(after.riders.get(rider.id)).toEqual([LAHORE.en, LAHORE.ur]);
    expect(after.positions.get(position!.id)).toEqual([KARACHI.en, KARACHI.ur]);

    // Idempotent: a second round finds nothing to do and leaves every row as the first left it.
    expect(await backfillPlaceLabels(s.db)).toBe(0);
    expect(await snapshot()).toEqual(after);
  });

  async function snapshot() {
    const pairs = <R extends { id: string; label: string | null; labelUr: string | null }>(rows: R[]) =>
      new Map(rows.map((r) => [r.id, [r.label, r.labelUr]]));
    return {
      campaigns: pairs(
        await s.db.select({ id: campaigns.id, label: campaigns.locationLabel, labelUr: campaigns.locationLabelUr }).from(campaigns),
      ),
      dropoffs: pairs(
        await s.db.select({ id: dropoffPoints.id, label: dropoffPoints.areaLabel, labelUr: dropoffPoints.areaLabelUr }).from(dropoffPoints),
      ),
      pickups: pairs(await s.db.select({ id: pickups.donationId, label: pickups.areaLabel, labelUr: pickups.areaLabelUr }).from(pickups)),
      riders: pairs(
        await s.db
          .select({ id: riderProfiles.userId, label: riderProfiles.areaLabel, labelUr: riderProfiles.areaLabelUr })
          .from(riderProfiles),
      ),
      positions: pairs(
        await s.db
          .select({ id: volunteerPositions.id, label: volunteerPositions.cityLabel, labelUr: volunteerPositions.cityLabelUr })
          .from(volunteerPositions),
      ),
    };
  }
});
