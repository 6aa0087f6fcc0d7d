import { randomUUID } from "node:crypto";
import { parseWithZod } from "#shared/forms/parse.ts";
import { dropoffAddSchema } from "#shared/forms/pickups.ts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DROPOFF_POINTS_MAX, NAME_MAX_LENGTH } from "#shared/constants.ts";
import type { DropoffAddInput } from "#shared/forms/pickups.ts";
import { dropoffPoints, notifications, pickups, riderProfiles } from "#server/db/schema.ts";
import { addDropoffPoint, listDropoffPoints, removeDropoffPoint } from "#server/domain/pickups/dropoffs.ts";
import {
  assignRider,
  goodsDonationOfDonor,
  offerGoods,
  pickupForNgo,
  pickupsOfDonor,
  respondToAssignment,
  riderChoices,
  riderPickups,
} from "#server/domain/pickups/pickups.ts";
import { makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { NOT_FOUND, failure } from "#tests/helpers/failure.ts";
import type { Actor } from "#server/domain/policy.ts";

/** The pick-up point of makePickup (Lahore) and kilometres as degrees of latitude (the haversine's 6371 km earth). */
const POINT = { lat: 31.558, lng: 74.35071 };
const KM = 1 / ((6371 * Math.PI) / 180);
const LAHORE = { label: "Lahore, Lahore District, Punjab", lat: 31.558, lng: 74.3507 };
const KARACHI = { label: "Karachi, Sindh", lat: 24.8608, lng: 67.0104 };

/** Today in Pakistan (UTC+5), the first day a pick-up may be asked for. */
const pakToday = () => new Date(Date.now() + 5 * 3600 * 1000).toISOString().slice(0, 10);

describe("riders by distance for one pick-up", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  async function rider(name: string, kmNorth: number | null) {
    const r = await makeUser(s.db, "rider", { name });
    if (kmNorth !== null)
      await s.db
        .update(riderProfiles)
        .set({ areaLabel: `${name} area`, areaLat: POINT.lat + kmNorth * KM, areaLng: POINT.lng })
        .where(eq(riderProfiles.userId, r.id));
    return r;
  }

  it("lists riders nearest first, marks those beyond the radius far, and puts those who declined this pick-up last", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    const beyond = await rider("Beyond", 40);
    const near = await rider("Near", 5);
    const nowhere = await rider("Nowhere", null);
    const edge = await rider("Edge", 20);
    // The closest of all, but they said no to this request: last, and marked.
    const refuser = await rider("Refuser", 1);
    const { donation } = await makePickup(s.db, campaign, donor.id);
    const other = await makePickup(s.db, campaign, donor.id);
    await assignRider(s, ngo, { donationId: donation.id, riderId: refuser.id, reassign: false });
    await respondToAssignment(s, refuser, { donationId: donation.id, accept: false, reason: "My bike is broken this week" });

    const list = await riderChoices(s.db, { ...POINT, donationId: donation.id }, s.config.RIDER_RADIUS_KM);
    expect(s.config.RIDER_RADIUS_KM).toBe(25);
    expect(list.map((r) => r.id)).toEqual([near.id, edge.id, beyond.id, nowhere.id, refuser.id]);
    expect(list.map((r) => [r.far, r.declined])).toEqual([
      [false, false],
      [false, false],
      [true, false],
      [false, false],
      [false, true],
    ]);
    expect(list[0]!.distanceKm).toBeCloseTo(5, 1);
    expect(list[2]!.distanceKm).toBeCloseTo(40, 1);
    expect(list[3]!.distanceKm).toBeNull();

    // Declining is about one request: for another pick-up the rider is first again.
    const forOther = await riderChoices(s.db, { ...POINT, donationId: other.donation.id }, 25);
    expect(forOther[0]).toMatchObject({ id: refuser.id, declined: false });
    // The radius is the configuration's: wider, nobody here is far.
    expect((await riderChoices(s.db, { ...POINT, donationId: donation.id }, 50)).some((r) => r.far)).toBe(false);
  });
});

describe("drop-off points", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  const point = (name: string, place: string, extra: Partial<DropoffAddInput> = {}): DropoffAddInput => ({
    name,
    address: `${name} street`,
    place,
    ...extra,
  });

  async function offer(donor: Actor, campaign: { slug: string }, ngoId: string, area: string) {
    return offerGoods(s, donor, {
      fund: "general",
      campaign: campaign.slug,
      ngo: ngoId,
      idempotencyKey: randomUUID(),
      phone: "03001234567",
      items: "Blankets",
      address: "House 1",
      area,
      areaLat: undefined,
      areaLng: undefined,
      windowDate: pakToday(),
      windowSlot: "morning",
    });
  }

  async function dropoffOf(donationId: string) {
    const [row] = await s.db.select({ id: pickups.dropoffId }).from(pickups).where(eq(pickups.donationId, donationId));
    return row!.id;
  }

  it("sends each pick-up to the NGO's point nearest it, chosen again at assignment; the office when it lists none", async () => {
    const ngo = await makeUser(s.db, "ngo", { name: "Roshni" });
    const donor = await makeUser(s.db, "donor");
    const rider = await makeUser(s.db, "rider");
    const campaign = await makeCampaign(s.db, ngo.id);
    const lahore = await addDropoffPoint(s, ngo, point("Lahore store", "Lahore"));
    const karachi = await addDropoffPoint(s, ngo, point("Karachi store", "Karachi"));
    expect(lahore).toMatchObject({ areaLabel: LAHORE.label, lat: LAHORE.lat, lng: LAHORE.lng });

    const fromKarachi = await offer(donor, campaign, ngo.id, "Karachi");
    const fromLahore = await offer(donor, campaign, ngo.id, "Lahore");
    expect(await dropoffOf(fromKarachi.id)).toBe(karachi.id);
    expect(await dropoffOf(fromLahore.id)).toBe(lahore.id);

    // What the NGO, the donor and (once assigned) the rider see: the point's name, address, place and distance.
    const detail = await pickupForNgo(s.db, ngo, fromKarachi.id);
    expect(detail.dropoff).toMatchObject({ name: "Karachi store", address: "Karachi store street", areaLabel: KARACHI.label });
    expect(detail.dropoff.distanceKm).toBeLessThan(0.01);
    const seen = (await pickupsOfDonor(s.db, donor, [fromKarachi.id])).get(fromKarachi.id)!;
    expect(seen.dropoff).toEqual({
      name: "Karachi store",
      address: "Karachi store street",
      areaLabel: KARACHI.label,
      areaLabelUr: "کراچی، سندھ",
    });
    expect((await goodsDonationOfDonor(s.db, donor, fromKarachi.id)).dropoff.name).toBe("Karachi store");

    // A nearer point listed after the request was made: the assignment takes it.
    const closer = await addDropoffPoint(
      s,
      ngo,
      point("Karachi depot", "Karachi", { placeLat: KARACHI.lat + 0.001, placeLng: KARACHI.lng }),
    );
    await s.db
      .update(dropoffPoints)
      .set({ lat: KARACHI.lat + 5 * KM })
      .where(eq(dropoffPoints.id, karachi.id));
    await assignRider(s, ngo, { donationId: fromKarachi.id, riderId: rider.id, reassign: false });
    expect(await dropoffOf(fromKarachi.id)).toBe(closer.id);
    const mine = await riderPickups(s.db, rider, { tab: "pending", page: 1 });
    expect(mine.rows.find((r) => r.id === fromKarachi.id)!.dropoff).toMatchObject({ name: "Karachi depot", areaLabel: KARACHI.label });

    // An NGO with no points receives at its office: no point, its own address.
    const plain = await makeUser(s.db, "ngo", { name: "Plain" });
    const plainCampaign = await makeCampaign(s.db, plain.id);
    const toOffice = await offer(donor, plainCampaign, plain.id, "Karachi");
    expect(await dropoffOf(toOffice.id)).toBeNull();
    expect((await pickupForNgo(s.db, plain, toOffice.id)).dropoff).toEqual({
      name: "Plain",
      address: "Saddar, Karachi",
      areaLabel: null,
      areaLabelUr: null,
      lat: null,
      lng: null,
      distanceKm: null,
    });
  });

  it("moves open pick-ups off a removed point to the nearest remaining one; finished ones keep where their goods went", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    const near = await addDropoffPoint(s, ngo, point("Near", "Lahore"));
    const far = await addDropoffPoint(s, ngo, point("Far", "Karachi"));
    const rider = await makeUser(s.db, "rider");
    const open = await makePickup(s.db, campaign, donor.id, { status: "collected", riderId: rider.id, dropoffId: near.id });
    const done = await makePickup(s.db, campaign, donor.id, { status: "received", dropoffId: near.id });

    await removeDropoffPoint(s, ngo, { id: near.id });
    expect(await dropoffOf(open.donation.id)).toBe(far.id);
    // The rider carrying the goods is told where they go now.
    const told = await s.db.select().from(notifications).where(eq(notifications.userId, rider.id));
    expect(told.map((n) => [n.type, n.params, n.link])).toEqual([["pickupDropoffMoved", { campaign: campaign.title }, "/rider_home"]]);
    expect(await dropoffOf(done.donation.id)).toBe(near.id);
    expect((await pickupForNgo(s.db, ngo, done.donation.id)).dropoff.name).toBe("Near");
    expect((await listDropoffPoints(s.db, ngo)).map((p) => p.id)).toEqual([far.id]);
    // Removed once: a second removal finds nothing.
    expect(await failure(removeDropoffPoint(s, ngo, { id: near.id }))).toEqual(NOT_FOUND);

    // The last point gone, the open pick-up goes to the office.
    await removeDropoffPoint(s, ngo, { id: far.id });
    expect(await dropoffOf(open.donation.id)).toBeNull();
    expect((await pickupForNgo(s.db, ngo, open.donation.id)).dropoff).toMatchObject({ address: "Saddar, Karachi", areaLabel: null });
  });

  it("only the NGO lists, adds and removes its own points; anyone else is told they do not exist", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const other = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const rider = await makeUser(s.db, "rider");
    const admin = await makeUser(s.db, "admin");
    const mine = await addDropoffPoint(s, ngo, point("Mine", "Lahore"));

    for (const stranger of [donor, rider, admin]) {
      expect(await failure(addDropoffPoint(s, stranger, point("Not theirs", "Lahore")))).toEqual(NOT_FOUND);
      expect(await failure(listDropoffPoints(s.db, stranger))).toEqual(NOT_FOUND);
      expect(await failure(removeDropoffPoint(s, stranger, { id: mine.id }))).toEqual(NOT_FOUND);
    }
    // Another NGO neither sees nor removes it; an NGO's id presented as a donor's finds nothing either.
    expect(await listDropoffPoints(s.db, other)).toEqual([]);
    expect(await failure(removeDropoffPoint(s, other, { id: mine.id }))).toEqual(NOT_FOUND);
    expect(await failure(removeDropoffPoint(s, { id: ngo.id, role: "donor" }, { id: mine.id }))).toEqual(NOT_FOUND);
    expect((await listDropoffPoints(s.db, ngo)).map((p) => p.id)).toEqual([mine.id]);
    const [row] = await s.db.select().from(dropoffPoints).where(eq(dropoffPoints.id, mine.id));
    expect(row!.removedAt).toBeNull();
  });

  it("refuses empty, too long and control-character fields and a place that is nowhere, by field", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const add = (input: Partial<DropoffAddInput>) => failure(addDropoffPoint(s, ngo, { ...point("Store", "Lahore"), ...input }));
    const field = (message: string, name: string) => ({ kind: "invalid", message, field: name });
    expect(await add({ name: "  " })).toEqual(field("pickups:dropoffs.errors.nameRequired", "name"));
    expect(await add({ address: "" })).toEqual(field("pickups:dropoffs.errors.addressRequired", "address"));
    expect(await add({ place: "" })).toEqual(field("pickups:dropoffs.errors.placeRequired", "place"));
    expect(await add({ name: "x".repeat(NAME_MAX_LENGTH + 1) })).toEqual(field("validation:tooLong", "name"));
    expect(await add({ name: "Store\u0000" })).toEqual(field("validation:controlCharacters", "name"));
    expect(await add({ address: "Line one\nLine two" })).toEqual(field("validation:controlCharacters", "address"));
    expect(await add({ place: "Lahore\u0007" })).toEqual(field("validation:controlCharacters", "place"));
    expect(await add({ place: "Atlantis under the sea" })).toEqual(field("pickups:dropoffs.errors.placeInvalid", "place"));
    expect(await failure(removeDropoffPoint(s, ngo, { id: "not-a-uuid" }))).toMatchObject({ kind: "invalid" });
    // A point moved on the map outside Pakistan is ignored: the place's own point is kept.
    const moved = await addDropoffPoint(s, ngo, point("Moved", "Lahore", { placeLat: 51.5, placeLng: -0.12 }));
    expect(moved).toMatchObject({ lat: LAHORE.lat, lng: LAHORE.lng });
  });

  it(`holds at most ${DROPOFF_POINTS_MAX} points per NGO, also when two are added at once`, async () => {
    const ngo = await makeUser(s.db, "ngo");
    for (let i = 0; i < DROPOFF_POINTS_MAX - 1; i++) await addDropoffPoint(s, ngo, point(`Point ${i}`, "Lahore"));
    const both = await Promise.all([
      failure(addDropoffPoint(s, ngo, point("Racer A", "Lahore"))),
      failure(addDropoffPoint(s, ngo, point("Racer B", "Lahore"))),
    ]);
    const full = { kind: "invalid", message: "pickups:dropoffs.errors.full", params: { max: String(DROPOFF_POINTS_MAX) } };
    expect(both.filter((f) => f === "no error")).toHaveLength(1);
    expect(both.filter((f) => f !== "no error")).toEqual([full]);
    expect(await listDropoffPoints(s.db, ngo)).toHaveLength(DROPOFF_POINTS_MAX);
    // Removing one makes room again.
    const [first] = await listDropoffPoints(s.db, ngo);
    await removeDropoffPoint(s, ngo, { id: first!.id });
    expect(await failure(addDropoffPoint(s, ngo, point("Again", "Lahore")))).toBe("no error");
  });
});

describe("the drop-off form's coordinates", () => {
  it("takes the first of a field sent twice, and ignores what is not a number, instead of a message nobody sees", () => {
    const form = (entries: [string, string][]) => {
      const f = new FormData();
      for (const [k, v] of [["name", "Gulberg store"], ["address", "Main Boulevard 12"], ["place", "Lahore"], ...entries]) f.append(k!, v!);
      return parseWithZod(f, { schema: dropoffAddSchema });
    };
    const twice = form([
      ["placeLat", "31.5"],
      ["placeLat", "32"],
      ["placeLng", "74.3"],
    ]);
    expect(twice.status).toBe("success");
    expect(twice.status === "success" && [twice.value.placeLat, twice.value.placeLng]).toEqual([31.5, 74.3]);
    const junk = form([["placeLat", "north"]]);
    expect(junk.status).toBe("success");
    expect(junk.status === "success" && Number.isNaN(junk.value.placeLat)).toBe(true);
  });
});
