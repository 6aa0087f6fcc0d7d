import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goodsOfferSchema, type GoodsOfferValues } from "#shared/forms/pickups.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import {
  ADDRESS_MAX_LENGTH,
  ITEMS_MAX_LENGTH,
  PAGE_SIZE,
  PICKUP_CODE_TRIES,
  PICKUP_MAX_DAYS_AHEAD,
  RIDER_CHOICES,
} from "#shared/constants.ts";
import {
  auditLog,
  campaigns,
  donations,
  mailOutbox,
  notifications,
  pickupEvents,
  pickups,
  rateLimits,
  riderProfiles,
  users,
} from "#server/db/schema.ts";
import {
  assignRider,
  cancelPickup,
  confirmCollected,
  confirmReceived,
  markDelivered,
  ngoPickupQueue,
  offerGoods,
  pickupCampaigns,
  pickupForNgo,
  pickupsOfDonor,
  respondToAssignment,
  riderChoices,
  riderPickups,
} from "#server/domain/pickups/pickups.ts";
import { type PickupStatus } from "#shared/statuses.ts";
import { makeCampaign, makeDonation, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { NOT_FOUND, failure } from "#tests/helpers/failure.ts";
import { asDonor } from "#tests/helpers/actors.ts";

/** The domain error a call fails with (kind, message key, field), or "no error". */

const RATE_LIMITED = { kind: "rate_limited", message: "errors:rateLimited" };
const RIDER_UNAVAILABLE = { kind: "invalid", message: "pickups:errors.riderUnavailable", field: "riderId" };
const CODE_WRONG = { kind: "invalid", message: "pickups:errors.codeWrong", field: "code" };

/** Where the gazetteer puts the towns these tests use. */
const LAHORE = { label: "Lahore, Lahore District, Punjab", lat: 31.558, lng: 74.3507 };
const KARACHI = { label: "Karachi, Sindh", lat: 24.8608, lng: 67.0104 };
const ISLAMABAD = { label: "Islamabad, Islamabad Capital Territory", lat: 33.7215, lng: 73.0433 };

type Fields = Record<string, string | undefined>;

function parseOffer(fields: Fields) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  return parseWithZod(form, { schema: goodsOfferSchema });
}

/** The goods form as the browser posts it, parsed as the server action parses it; fails when refused. */
function offerValues(fields: Fields): GoodsOfferValues {
  const submission = parseOffer(fields);
  if (submission.status !== "success") throw new Error(`the goods form was refused: ${JSON.stringify(submission.error)}`);
  return submission.value;
}

/** Every message the goods form gives, by field; fails the test when the form is accepted. */
function offerErrors(fields: Fields): Record<string, string[] | null> {
  const submission = parseOffer(fields);
  if (submission.status === "success") throw new Error("the goods form was accepted");
  return (submission.error ?? {}) as Record<string, string[] | null>;
}

/** The first message for one field when only that field takes `value`, or undefined when the form is accepted. */
function fieldError(base: Fields, name: string, value: string | undefined): string | undefined {
  const submission = parseOffer({ ...base, [name]: value });
  if (submission.status === "success") return undefined;
  return (submission.error as Record<string, string[] | null> | undefined)?.[name]?.[0];
}

/** YYYY-MM-DD `days` after `day`. */
function plusDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Today in Pakistan (UTC+5), as the goods form's day is checked. */
const pakToday = (now = new Date()) => new Date(now.getTime() + 5 * 3600 * 1000).toISOString().slice(0, 10);

describe("pick-ups", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  async function statusOf(donationId: string): Promise<PickupStatus | undefined> {
    const [row] = await s.db.select({ status: pickups.status }).from(pickups).where(eq(pickups.donationId, donationId));
    return row?.status;
  }
  async function pickupRow(donationId: string) {
    const [row] = await s.db.select().from(pickups).where(eq(pickups.donationId, donationId));
    return row!;
  }
  async function eventsOf(donationId: string) {
    return s.db.select().from(pickupEvents).where(eq(pickupEvents.donationId, donationId)).orderBy(asc(pickupEvents.id));
  }
  async function noticesOf(userId: string) {
    return s.db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(asc(notifications.createdAt));
  }
  async function mailTo(email: string) {
    return s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(asc(mailOutbox.createdAt));
  }
  async function setArea(riderId: string, place: { label: string; lat: number; lng: number } | null) {
    await s.db
      .update(riderProfiles)
      .set({ areaLabel: place?.label ?? null, areaLat: place?.lat ?? null, areaLng: place?.lng ?? null })
      .where(eq(riderProfiles.userId, riderId));
  }

  /** An NGO, a donor, a rider and an active campaign of the NGO, all new. */
  async function world() {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const rider = await makeUser(s.db, "rider");
    const campaign = await makeCampaign(s.db, ngo.id);
    return { ngo, donor, rider, campaign };
  }

  describe("offering goods", () => {
    let w: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      w = await world();
    });

    const form = (over: Fields = {}): Fields => ({
      campaign: w.campaign.slug,
      ngo: w.ngo.id,
      idempotencyKey: randomUUID(),
      phone: "0300-1234567",
      items: "Two blankets and a box of rice",
      address: "House 12, Street 4, Gulberg III",
      area: "Lahore",
      windowDate: pakToday(),
      windowSlot: "morning",
      ...over,
    });
    const offer = (fields: Fields, donorId = w.donor.id, now?: Date) => offerGoods(s, asDonor(donorId), offerValues(fields), now);

    it("writes one pending in-kind donation, one new pick-up with a 4-digit code at the gazetteer's point, a requested step, and tells the NGO", async () => {
      const fields = form();
      const { id, created } = await offer(fields);
      expect(created).toBe(true);
      const [d] = await s.db.select().from(donations).where(eq(donations.id, id));
      expect(d).toMatchObject({
        kind: "in_kind",
        status: "pending",
        donorId: w.donor.id,
        recipientNgoId: w.ngo.id,
        campaignId: w.campaign.id,
        items: "Two blankets and a box of rice",
        phone: "03001234567",
        amount: null,
        method: null,
        idempotencyKey: fields.idempotencyKey,
      });
      const p = await pickupRow(id);
      expect(p).toMatchObject({
        status: "new",
        riderId: null,
        address: "House 12, Street 4, Gulberg III",
        areaLabel: LAHORE.label,
        windowDate: pakToday(),
        windowSlot: "morning",
        receivedNote: null,
      });
      expect(p.lat).toBeCloseTo(LAHORE.lat, 3);
      expect(p.lng).toBeCloseTo(LAHORE.lng, 3);
      expect(p.code).toMatch(/^\d{4}$/);
      expect((await eventsOf(id)).map((e) => ({ type: e.type, actorId: e.actorId }))).toEqual([{ type: "requested", actorId: w.donor.id }]);
      const notices = (await noticesOf(w.ngo.id)).filter((n) => n.link === `/noncash_apps?view=${id}`);
      expect(notices).toMatchObject([{ type: "pickupRequested", params: { campaign: w.campaign.title } }]);
    });

    it("tells the donor the campaign is gone when its NGO deletes it while the offer is on its way, and writes nothing", async () => {
      const doomed = await makeCampaign(s.db, w.ngo.id);
      // The NGO deletes the campaign (no donations yet) while the donor's area is being looked up.
      const geocoder = {
        ...s.geocoder,
        async resolve(text: string) {
          await s.db.delete(campaigns).where(eq(campaigns.id, doomed.id));
          return s.geocoder.resolve(text);
        },
      };
      const before = (await s.db.select().from(donations).where(eq(donations.donorId, w.donor.id))).length;
      expect(await failure(offerGoods({ ...s, geocoder }, w.donor, offerValues(form({ campaign: doomed.slug }))))).toEqual({
        kind: "not_found",
        message: "donate:details.notFound",
      });
      expect(await s.db.select().from(donations).where(eq(donations.donorId, w.donor.id))).toHaveLength(before);
    });

    it("keeps a point adjusted on the map inside Pakistan, and ignores one outside", async () => {
      const inside = await offer(form({ areaLat: "31.5204", areaLng: "74.3587" }));
      expect(await pickupRow(inside.id)).toMatchObject({ areaLabel: LAHORE.label, lat: 31.5204, lng: 74.3587 });
      const outside = await offer(form({ areaLat: "51.5072", areaLng: "-0.1276" }));
      const p = await pickupRow(outside.id);
      expect(p.lat).toBeCloseTo(LAHORE.lat, 3);
      expect(p.lng).toBeCloseTo(LAHORE.lng, 3);
    });

    it("goes to a partner NGO of a joint campaign when the donor chooses it", async () => {
      const partner = await makeUser(s.db, "ngo");
      const joint = await makeCampaign(s.db, w.ngo.id, { partners: [partner.id] });
      const { id } = await offer(form({ campaign: joint.slug, ngo: partner.id }));
      const [d] = await s.db.select().from(donations).where(eq(donations.id, id));
      expect(d!.recipientNgoId).toBe(partner.id);
      expect((await noticesOf(partner.id)).map((n) => n.type)).toContain("pickupRequested");
    });

    it("a retry with the same key returns the first request and tells the NGO once", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const campaign = await makeCampaign(s.db, ngo.id);
      const fields = form({ campaign: campaign.slug, ngo: ngo.id });
      const first = await offer(fields);
      const again = await offer({ ...fields, items: "Something else" });
      expect(again).toEqual({ id: first.id, created: false });
      const rows = await s.db.select().from(donations).where(eq(donations.idempotencyKey, fields.idempotencyKey!));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.items).toBe("Two blankets and a box of rice");
      expect(await s.db.select().from(pickups).where(eq(pickups.donationId, first.id))).toHaveLength(1);
      expect(await eventsOf(first.id)).toHaveLength(1);
      expect((await noticesOf(ngo.id)).filter((n) => n.type === "pickupRequested")).toHaveLength(1);
    });

    it("10 concurrent submits with the same key create one request", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const campaign = await makeCampaign(s.db, ngo.id);
      const fields = form({ campaign: campaign.slug, ngo: ngo.id });
      const results = await Promise.all(Array.from({ length: 10 }, () => offer(fields)));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const rows = await s.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
      expect(rows).toHaveLength(1);
      expect(await s.db.select().from(pickups).where(eq(pickups.donationId, rows[0]!.id))).toHaveLength(1);
      expect(await eventsOf(rows[0]!.id)).toHaveLength(1);
      expect((await noticesOf(ngo.id)).filter((n) => n.type === "pickupRequested")).toHaveLength(1);
    });

    it("refuses a completed campaign, hides an archived or unknown one, and writes nothing", async () => {
      const completed = await makeCampaign(s.db, w.ngo.id, { status: "completed" });
      const archived = await makeCampaign(s.db, w.ngo.id, { status: "archived" });
      expect(await failure(offer(form({ campaign: completed.slug })))).toEqual({
        kind: "invalid",
        message: "donations:errors.campaignNotActive",
      });
      expect(await failure(offer(form({ campaign: archived.slug })))).toEqual(NOT_FOUND);
      expect(await failure(offer(form({ campaign: `no-such-campaign-${randomUUID()}` })))).toEqual(NOT_FOUND);
      expect(
        await s.db
          .select()
          .from(donations)
          .where(inArray(donations.campaignId, [completed.id, archived.id])),
      ).toEqual([]);
    });

    it("refuses an NGO that is not of the campaign, or not verified, or suspended, and a non-NGO id", async () => {
      const other = await makeUser(s.db, "ngo");
      const pending = await makeUser(s.db, "ngo", { verification: "pending" });
      const suspended = await makeUser(s.db, "ngo");
      await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
      const campaign = await makeCampaign(s.db, w.ngo.id, { partners: [pending.id, suspended.id] });
      for (const ngo of [other.id, pending.id, suspended.id, w.donor.id, randomUUID()]) {
        expect(await failure(offer(form({ campaign: campaign.slug, ngo })))).toEqual(NOT_FOUND);
      }
      expect(await s.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).toEqual([]);
    });

    it("refuses an area the place search does not know, on the area field", async () => {
      const campaign = await makeCampaign(s.db, w.ngo.id);
      for (const area of ["Xyzzyqville", "<script>alert(1)</script>"]) {
        expect(await failure(offer(form({ campaign: campaign.slug, area })))).toEqual({
          kind: "invalid",
          message: "pickups:errors.areaInvalid",
          field: "area",
        });
      }
      expect(await s.db.select().from(donations).where(eq(donations.campaignId, campaign.id))).toEqual([]);
    });

    it("takes a day from today (Pakistan time) to PICKUP_MAX_DAYS_AHEAD days ahead, and no other", async () => {
      const campaign = await makeCampaign(s.db, w.ngo.id);
      // 20:00 UTC is already the next day in Pakistan.
      const now = new Date("2031-03-10T20:00:00Z");
      const today = "2031-03-11";
      const range = { kind: "invalid", message: "pickups:errors.dateRange", field: "windowDate" };
      const at = (windowDate: string) => offer(form({ campaign: campaign.slug, windowDate }), w.donor.id, now);
      expect(await failure(at("2031-03-10"))).toEqual(range);
      expect(await failure(at("2020-01-01"))).toEqual(range);
      expect(await failure(at(plusDays(today, PICKUP_MAX_DAYS_AHEAD + 1)))).toEqual(range);
      expect(await failure(at("2031-02-30"))).toEqual(range);
      expect(await failure(at("2031-13-01"))).toEqual(range);
      expect(await failure(at(today))).toBe("no error");
      expect(await failure(at(plusDays(today, PICKUP_MAX_DAYS_AHEAD)))).toBe("no error");
      const rows = await s.db
        .select({ windowDate: pickups.windowDate })
        .from(pickups)
        .innerJoin(donations, eq(donations.id, pickups.donationId))
        .where(eq(donations.campaignId, campaign.id))
        .orderBy(asc(pickups.windowDate));
      expect(rows.map((r) => r.windowDate)).toEqual([today, plusDays(today, PICKUP_MAX_DAYS_AHEAD)]);
    });

    it("asks for every field with the specification's message when the form is empty", () => {
      const errors = offerErrors({});
      // The NGO of a joint campaign is a choice the donor makes, so leaving it out is a missing field too.
      for (const field of ["phone", "items", "address", "area", "windowDate", "windowSlot", "ngo"]) {
        expect(errors[field], field).toEqual(["donations:errors.fillAll"]);
      }
      expect(errors.campaign).toEqual(["errors:notFound"]);
      expect(errors.idempotencyKey).toEqual(["donations:errors.formExpired"]);
    });

    it("gives each field its message for blank, too long or malformed values", () => {
      const base = form();
      const cases: [string, string | undefined, string | undefined][] = [
        ["phone", "   ", "donations:errors.fillAll"],
        ["phone", "0300123456", "donations:errors.phoneDigits"],
        ["phone", "030012345678", "donations:errors.phoneDigits"],
        ["phone", "0300abc4567", "donations:errors.phoneDigits"],
        ["phone", "+92 300 1234567", undefined],
        ["phone", "12345678901", "donations:errors.phoneDigits"],
        ["phone", "0300 123 4567", undefined],
        ["items", "   ", "donations:errors.fillAll"],
        ["items", "x".repeat(ITEMS_MAX_LENGTH + 1), "validation:tooLong"],
        ["items", "x".repeat(ITEMS_MAX_LENGTH), undefined],
        ["address", " \n ", "donations:errors.fillAll"],
        ["address", "x".repeat(ADDRESS_MAX_LENGTH + 1), "validation:tooLong"],
        ["address", "x".repeat(ADDRESS_MAX_LENGTH), undefined],
        ["area", "  ", "donations:errors.fillAll"],
        ["area", "x".repeat(ADDRESS_MAX_LENGTH + 1), "validation:tooLong"],
        ["windowDate", "tomorrow", "pickups:errors.dateInvalid"],
        ["windowDate", "2031-3-1", "pickups:errors.dateInvalid"],
        ["windowSlot", "night", "donations:errors.fillAll"],
        ["windowSlot", "evening", undefined],
        ["idempotencyKey", "not-a-uuid", "donations:errors.formExpired"],
        ["ngo", "not-a-uuid", "errors:notFound"],
        ["campaign", "x".repeat(201), "errors:notFound"],
      ];
      for (const [field, value, message] of cases) {
        expect(fieldError(base, field, value), `${field} = ${JSON.stringify(value).slice(0, 30)}`).toBe(message);
      }
    });

    it("keeps markup and other text as the donor typed it (trimmed), never running it", async () => {
      const hostile = {
        items: "  <script>alert('x')</script> 10 kg آٹا & \"rice\"; DROP TABLE donations;--  ",
        address: "<img src=x onerror=alert(1)> House 5, گلی 3",
      };
      const { id } = await offer(form(hostile));
      const [d] = await s.db.select().from(donations).where(eq(donations.id, id));
      expect(d!.items).toBe(hostile.items.trim());
      expect((await pickupRow(id)).address).toBe(hostile.address);
    });
  });

  describe("the state machine", () => {
    const STATUSES: PickupStatus[] = ["new", "assigned", "accepted", "collected", "delivered", "received", "cancelled"];
    type Action = "assign" | "reassign" | "cancel" | "confirmReceived" | "accept" | "decline" | "collect" | "deliver";
    /** The status each action needs, and the status it leaves. */
    const RULES: Record<Action, { from: PickupStatus[]; to: PickupStatus; event: string; byRider: boolean }> = {
      assign: { from: ["new"], to: "assigned", event: "assigned", byRider: false },
      reassign: { from: ["assigned", "accepted"], to: "assigned", event: "assigned", byRider: false },
      cancel: { from: ["new", "assigned", "accepted"], to: "cancelled", event: "cancelled", byRider: false },
      confirmReceived: { from: ["delivered"], to: "received", event: "received", byRider: false },
      accept: { from: ["assigned"], to: "accepted", event: "accepted", byRider: true },
      decline: { from: ["assigned"], to: "new", event: "declined", byRider: true },
      collect: { from: ["accepted"], to: "collected", event: "collected", byRider: true },
      deliver: { from: ["collected"], to: "delivered", event: "delivered", byRider: true },
    };
    let w: Awaited<ReturnType<typeof world>>;
    let other: Awaited<ReturnType<typeof makeUser>>;
    beforeAll(async () => {
      w = await world();
      other = await makeUser(s.db, "rider");
    });

    function act(action: Action, donationId: string) {
      switch (action) {
        case "assign":
          return assignRider(s, w.ngo, { donationId, riderId: other.id, reassign: false });
        case "reassign":
          return assignRider(s, w.ngo, { donationId, riderId: other.id, reassign: true });
        case "cancel":
          return cancelPickup(s, w.ngo, { donationId, reason: "Not needed any more" });
        case "confirmReceived":
          return confirmReceived(s, w.ngo, { donationId });
        case "accept":
          return respondToAssignment(s, w.rider, { donationId, accept: true });
        case "decline":
          return respondToAssignment(s, w.rider, { donationId, accept: false, reason: "Too far" });
        case "collect":
          return confirmCollected(s, w.rider, { donationId, code: "1234" });
        case "deliver":
          return markDelivered(s, w.rider, { donationId });
      }
    }

    const cases = STATUSES.flatMap((status) => (Object.keys(RULES) as Action[]).map((action) => ({ status, action })));
    it.each(cases)("$action on a $status request", async ({ status, action }) => {
      const rule = RULES[action];
      // A new request has no rider; every other state keeps the rider it had (cancelled after assignment).
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status, riderId: status === "new" ? null : w.rider.id });
      const before = await pickupRow(donation.id);
      const events = (await eventsOf(donation.id)).length;
      const outcome = await failure(act(action, donation.id));
      if (rule.from.includes(status)) {
        expect(outcome).toBe("no error");
        expect(await statusOf(donation.id)).toBe(rule.to);
        const after = await eventsOf(donation.id);
        expect(after).toHaveLength(events + 1);
        expect(after.at(-1)!.type).toBe(rule.event);
      } else {
        if (rule.byRider && status === "new") {
          // Nobody's request yet: the rider cannot see it at all.
          expect(outcome).toEqual(NOT_FOUND);
        } else {
          expect(outcome, `${action} on ${status}`).toMatchObject({ kind: "conflict" });
          expect((outcome as { message: string }).message).toMatch(/^pickups:errors\./);
        }
        expect(await pickupRow(donation.id)).toEqual(before);
        expect(await eventsOf(donation.id)).toHaveLength(events);
      }
    });

    it("a delivered request can be neither declined nor cancelled nor reassigned", async () => {
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status: "delivered", riderId: w.rider.id });
      expect(await failure(act("decline", donation.id))).toEqual({ kind: "conflict", message: "pickups:errors.notAssigned" });
      expect(await failure(act("cancel", donation.id))).toEqual({ kind: "conflict", message: "pickups:errors.cannotCancel" });
      expect(await failure(act("reassign", donation.id))).toEqual({ kind: "conflict", message: "pickups:errors.cannotReassign" });
      expect(await statusOf(donation.id)).toBe("delivered");
    });

    it("reassigning to the rider already on it is refused on the rider field", async () => {
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status: "accepted", riderId: w.rider.id });
      expect(await failure(assignRider(s, w.ngo, { donationId: donation.id, riderId: w.rider.id, reassign: true }))).toEqual({
        kind: "invalid",
        message: "pickups:errors.sameRider",
        field: "riderId",
      });
      expect(await pickupRow(donation.id)).toMatchObject({ status: "accepted", riderId: w.rider.id });
    });

    it("reassigning gives the request to the new rider, who must answer again, and tells the old one", async () => {
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status: "accepted", riderId: w.rider.id });
      await act("reassign", donation.id);
      expect(await pickupRow(donation.id)).toMatchObject({ status: "assigned", riderId: other.id });
      expect(await failure(act("accept", donation.id))).toEqual(NOT_FOUND);
      expect((await noticesOf(w.rider.id)).filter((n) => n.type === "pickupWithdrawn")).not.toHaveLength(0);
      expect(await failure(respondToAssignment(s, other, { donationId: donation.id, accept: true }))).toBe("no error");
    });
  });

  describe("who may act", () => {
    let w: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      w = await world();
    });

    it("a rider cannot see or change another rider's request", async () => {
      const stranger = await makeUser(s.db, "rider");
      for (const status of ["assigned", "accepted", "collected"] as const) {
        const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status, riderId: w.rider.id });
        const id = donation.id;
        expect(await failure(respondToAssignment(s, stranger, { donationId: id, accept: true }))).toEqual(NOT_FOUND);
        expect(await failure(respondToAssignment(s, stranger, { donationId: id, accept: false, reason: "x" }))).toEqual(NOT_FOUND);
        expect(await failure(confirmCollected(s, stranger, { donationId: id, code: "1234" }))).toEqual(NOT_FOUND);
        expect(await failure(markDelivered(s, stranger, { donationId: id }))).toEqual(NOT_FOUND);
        expect(await pickupRow(id)).toMatchObject({ status, riderId: w.rider.id });
        const mine = await riderPickups(s.db, stranger, { tab: "pending", page: 1 });
        expect(mine.counts).toEqual({ pending: 0, registered: 0, completed: 0 });
      }
      // Nor can the NGO or the donor act as the rider.
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status: "assigned", riderId: w.rider.id });
      expect(await failure(respondToAssignment(s, w.ngo, { donationId: donation.id, accept: true }))).toEqual(NOT_FOUND);
      expect(await failure(respondToAssignment(s, w.donor, { donationId: donation.id, accept: true }))).toEqual(NOT_FOUND);
    });

    it("an NGO cannot assign a suspended, unverified or rejected rider, nor a donor's, NGO's or admin's account", async () => {
      const suspended = await makeUser(s.db, "rider");
      await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
      const unverified = await makeUser(s.db, "rider", { verification: "pending" });
      const rejected = await makeUser(s.db, "rider", { verification: "rejected" });
      const admin = await makeUser(s.db, "admin");
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id);
      for (const riderId of [suspended.id, unverified.id, rejected.id, w.donor.id, w.ngo.id, admin.id, randomUUID()]) {
        expect(await failure(assignRider(s, w.ngo, { donationId: donation.id, riderId, reassign: false }))).toEqual(RIDER_UNAVAILABLE);
      }
      const { donation: onTheWay } = await makePickup(s.db, w.campaign, w.donor.id, { status: "accepted", riderId: w.rider.id });
      expect(await failure(assignRider(s, w.ngo, { donationId: onTheWay.id, riderId: suspended.id, reassign: true }))).toEqual(
        RIDER_UNAVAILABLE,
      );
      expect(await pickupRow(donation.id)).toMatchObject({ status: "new", riderId: null });
      expect(await pickupRow(onTheWay.id)).toMatchObject({ status: "accepted", riderId: w.rider.id });
      expect(await eventsOf(donation.id)).toHaveLength(1);
    });

    it("an NGO cannot act on another NGO's request, even the owner of a joint campaign on its partner's", async () => {
      const partner = await makeUser(s.db, "ngo");
      const stranger = await makeUser(s.db, "ngo");
      const joint = await makeCampaign(s.db, w.ngo.id, { partners: [partner.id] });
      const { donation: fresh } = await makePickup(s.db, joint, w.donor.id, { recipientNgoId: partner.id });
      const { donation: accepted } = await makePickup(s.db, joint, w.donor.id, {
        recipientNgoId: partner.id,
        status: "accepted",
        riderId: w.rider.id,
      });
      const { donation: delivered } = await makePickup(s.db, joint, w.donor.id, {
        recipientNgoId: partner.id,
        status: "delivered",
        riderId: w.rider.id,
      });
      for (const ngo of [w.ngo.id, stranger.id]) {
        expect(
          await failure(assignRider(s, { id: ngo, role: "ngo" as const }, { donationId: fresh.id, riderId: w.rider.id, reassign: false })),
        ).toEqual(NOT_FOUND);
        const other = await makeUser(s.db, "rider");
        expect(
          await failure(assignRider(s, { id: ngo, role: "ngo" as const }, { donationId: accepted.id, riderId: other.id, reassign: true })),
        ).toEqual(NOT_FOUND);
        expect(await failure(cancelPickup(s, { id: ngo, role: "ngo" as const }, { donationId: fresh.id, reason: "no" }))).toEqual(
          NOT_FOUND,
        );
        expect(await failure(confirmReceived(s, { id: ngo, role: "ngo" as const }, { donationId: delivered.id }))).toEqual(NOT_FOUND);
        expect(await failure(pickupForNgo(s.db, { id: ngo, role: "ngo" as const }, fresh.id))).toEqual(NOT_FOUND);
        const queue = await ngoPickupQueue(s.db, { id: ngo, role: "ngo" as const }, { tab: "new", page: 1, campaignId: joint.id });
        expect(queue.counts).toEqual({ new: 0, active: 0 });
      }
      expect(await pickupRow(fresh.id)).toMatchObject({ status: "new", riderId: null });
      expect(await pickupRow(accepted.id)).toMatchObject({ status: "accepted", riderId: w.rider.id });
      expect(await pickupRow(delivered.id)).toMatchObject({ status: "delivered" });
      // The partner it was given to can.
      expect(await failure(assignRider(s, partner, { donationId: fresh.id, riderId: w.rider.id, reassign: false }))).toBe("no error");
      expect((await pickupForNgo(s.db, partner, fresh.id)).events.map((e) => e.type)).toEqual(["requested", "assigned"]);
    });

    it("ids that are not uuids are simply not found", async () => {
      const id = "1' or '1'='1";
      expect(await failure(assignRider(s, w.ngo, { donationId: id, riderId: w.rider.id, reassign: false }))).toEqual(NOT_FOUND);
      expect(await failure(cancelPickup(s, w.ngo, { donationId: id, reason: "x" }))).toEqual(NOT_FOUND);
      expect(await failure(confirmReceived(s, w.ngo, { donationId: id }))).toEqual(NOT_FOUND);
      expect(await failure(respondToAssignment(s, w.rider, { donationId: id, accept: true }))).toEqual(NOT_FOUND);
      expect(await failure(confirmCollected(s, w.rider, { donationId: id, code: "1234" }))).toEqual(NOT_FOUND);
      expect(await failure(markDelivered(s, w.rider, { donationId: id }))).toEqual(NOT_FOUND);
      expect(await failure(pickupForNgo(s.db, w.ngo, id))).toEqual(NOT_FOUND);
      expect((await pickupsOfDonor(s.db, w.donor, [id])).size).toBe(0);
    });

    it("a rider id that is not a uuid is an unavailable rider, not a crash", async () => {
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id);
      expect(await failure(assignRider(s, w.ngo, { donationId: donation.id, riderId: "not-a-uuid", reassign: false }))).toEqual(
        RIDER_UNAVAILABLE,
      );
      expect(await statusOf(donation.id)).toBe("new");
    });
  });

  describe("concurrency", () => {
    let w: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      w = await world();
    });

    for (const n of [2, 10]) {
      it(`${n} concurrent assignments of one new request: exactly one succeeds, one assigned step, one rider told`, async () => {
        const riders = await Promise.all(Array.from({ length: n }, () => makeUser(s.db, "rider")));
        const { donation } = await makePickup(s.db, w.campaign, w.donor.id);
        const outcomes = await Promise.all(
          riders.map((r) => failure(assignRider(s, w.ngo, { donationId: donation.id, riderId: r.id, reassign: false }))),
        );
        expect(outcomes.filter((o) => o === "no error")).toHaveLength(1);
        expect(outcomes.filter((o) => o !== "no error")).toEqual(
          Array.from({ length: n - 1 }, () => ({ kind: "conflict", message: "pickups:errors.alreadyAssigned" })),
        );
        const winner = riders[outcomes.indexOf("no error")]!;
        expect(await pickupRow(donation.id)).toMatchObject({ status: "assigned", riderId: winner.id });
        const assigned = (await eventsOf(donation.id)).filter((e) => e.type === "assigned");
        expect(assigned).toMatchObject([{ riderId: winner.id, actorId: w.ngo.id }]);
        const told = await s.db
          .select({ userId: notifications.userId })
          .from(notifications)
          .where(
            and(
              inArray(
                notifications.userId,
                riders.map((r) => r.id),
              ),
              eq(notifications.type, "pickupAssigned"),
            ),
          );
        expect(told).toEqual([{ userId: winner.id }]);
      });
    }

    it("concurrent accept and decline by the rider: one outcome", async () => {
      for (let round = 0; round < 3; round++) {
        const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status: "assigned", riderId: w.rider.id });
        const outcomes = await Promise.all([
          failure(respondToAssignment(s, w.rider, { donationId: donation.id, accept: true })),
          failure(respondToAssignment(s, w.rider, { donationId: donation.id, accept: false, reason: "Bike broke down" })),
          failure(respondToAssignment(s, w.rider, { donationId: donation.id, accept: true })),
        ]);
        expect(outcomes.filter((o) => o === "no error")).toHaveLength(1);
        for (const o of outcomes.filter((o) => o !== "no error")) {
          // The loser finds it either no longer assigned, or (after a decline) no longer the rider's.
          expect([JSON.stringify({ kind: "conflict", message: "pickups:errors.notAssigned" }), JSON.stringify(NOT_FOUND)]).toContain(
            JSON.stringify(o),
          );
        }
        const answers = (await eventsOf(donation.id)).filter((e) => e.type === "accepted" || e.type === "declined");
        expect(answers).toHaveLength(1);
        expect(await statusOf(donation.id)).toBe(answers[0]!.type === "accepted" ? "accepted" : "new");
      }
    });

    it("concurrent right codes collect once", async () => {
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status: "accepted", riderId: w.rider.id, code: "4821" });
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () => failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "4821" }))),
      );
      expect(outcomes.filter((o) => o === "no error")).toHaveLength(1);
      expect((await eventsOf(donation.id)).filter((e) => e.type === "collected")).toHaveLength(1);
      expect(await statusOf(donation.id)).toBe("collected");
    });
  });

  describe("the donor's code", () => {
    let w: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      w = await world();
    });
    const accepted = (code = "0582") => makePickup(s.db, w.campaign, w.donor.id, { status: "accepted", riderId: w.rider.id, code });
    const limitRow = async (id: string) =>
      (
        await s.db
          .select()
          .from(rateLimits)
          .where(eq(rateLimits.key, `pickup-code:${id}`))
      )[0];

    it("must be exact: a wrong code is refused on the code field and nothing changes", async () => {
      const { donation } = await accepted("0582");
      for (const code of ["0583", "5820", "0000", "582"]) {
        expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code }))).toEqual(CODE_WRONG);
      }
      expect(await statusOf(donation.id)).toBe("accepted");
      expect((await eventsOf(donation.id)).map((e) => e.type)).toEqual(["requested"]);
      expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "0582" }))).toBe("no error");
      expect(await statusOf(donation.id)).toBe("collected");
    });

    it("is exact also for codes longer than four characters or in other digits (the domain does not rely on the form)", async () => {
      const { donation } = await accepted("0582");
      for (const code of ["05829", "0582 ", "٠٥٨٢"]) {
        expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code })), JSON.stringify(code)).toEqual(CODE_WRONG);
      }
      expect(await statusOf(donation.id)).toBe("accepted");
    });

    it(`is limited: after ${PICKUP_CODE_TRIES} wrong tries even the right code is refused for a while`, async () => {
      const { donation } = await accepted("7305");
      for (let i = 0; i < PICKUP_CODE_TRIES; i++) {
        expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "1111" }))).toEqual(CODE_WRONG);
      }
      expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "7305" }))).toEqual(RATE_LIMITED);
      expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "1111" }))).toEqual(RATE_LIMITED);
      expect(await statusOf(donation.id)).toBe("accepted");
      // Another request keeps its own count.
      const { donation: next } = await accepted("7305");
      expect(await failure(confirmCollected(s, w.rider, { donationId: next.id, code: "7305" }))).toBe("no error");
      // Once the window has passed, the right code works.
      await s.db
        .update(rateLimits)
        .set({ windowStart: sql`now() - interval '1 day'` })
        .where(eq(rateLimits.key, `pickup-code:${donation.id}`));
      expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "7305" }))).toBe("no error");
    });

    it("the right code after fewer wrong tries works and clears the count", async () => {
      const { donation } = await accepted("2468");
      for (let i = 0; i < PICKUP_CODE_TRIES - 1; i++) {
        expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "8642" }))).toEqual(CODE_WRONG);
      }
      expect((await limitRow(donation.id))?.count).toBe(PICKUP_CODE_TRIES - 1);
      expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "2468" }))).toBe("no error");
      expect(await limitRow(donation.id)).toBeUndefined();
      expect(await statusOf(donation.id)).toBe("collected");
    });

    it("counts no try when the request is not the rider's or not waiting to be collected", async () => {
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status: "assigned", riderId: w.rider.id, code: "1357" });
      expect(await failure(confirmCollected(s, w.rider, { donationId: donation.id, code: "0000" }))).toEqual({
        kind: "conflict",
        message: "pickups:errors.notAccepted",
      });
      expect(await limitRow(donation.id)).toBeUndefined();
    });
  });

  describe("each step's effects and notices", () => {
    let w: Awaited<ReturnType<typeof world>>;
    beforeAll(async () => {
      w = await world();
    });

    it("assign tells the rider (in app and by email) and the donor (in app and by email)", async () => {
      const rider = await makeUser(s.db, "rider", { name: "Kamran" });
      const donor = await makeUser(s.db, "donor");
      const { donation } = await makePickup(s.db, w.campaign, donor.id);
      await assignRider(s, w.ngo, { donationId: donation.id, riderId: rider.id, reassign: false });
      expect(await noticesOf(rider.id)).toMatchObject([
        { type: "pickupAssigned", params: { campaign: w.campaign.title }, link: "/rider_home" },
      ]);
      const riderMail = await mailTo(rider.email);
      expect(riderMail).toHaveLength(1);
      expect(riderMail[0]!.body).toContain(w.campaign.title);
      expect(riderMail[0]!.body).toContain("/rider_home");
      expect(await noticesOf(donor.id)).toMatchObject([
        { type: "pickupRiderAssigned", params: { campaign: w.campaign.title, rider: "Kamran Rider" }, link: "/dvh" },
      ]);
      const donorMail = await mailTo(donor.email);
      expect(donorMail).toHaveLength(1);
      expect(donorMail[0]!.body).toContain("Kamran Rider");
      expect((await eventsOf(donation.id)).at(-1)).toMatchObject({ type: "assigned", actorId: w.ngo.id, riderId: rider.id });
    });

    it("decline returns the request to the queue with no rider, keeps the reason, and tells the NGO in app and by email", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const campaign = await makeCampaign(s.db, ngo.id);
      const { donation } = await makePickup(s.db, campaign, w.donor.id, { status: "assigned", riderId: w.rider.id });
      await respondToAssignment(s, w.rider, { donationId: donation.id, accept: false, reason: "My bike is in the workshop" });
      expect(await pickupRow(donation.id)).toMatchObject({ status: "new", riderId: null });
      expect((await eventsOf(donation.id)).at(-1)).toMatchObject({
        type: "declined",
        actorId: w.rider.id,
        riderId: w.rider.id,
        reason: "My bike is in the workshop",
      });
      expect(await noticesOf(ngo.id)).toMatchObject([
        {
          type: "pickupDeclined",
          params: { campaign: campaign.title, reason: "My bike is in the workshop" },
          link: `/noncash_apps?view=${donation.id}`,
        },
      ]);
      const mail = await mailTo(ngo.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.body).toContain("My bike is in the workshop");
      const queue = await ngoPickupQueue(s.db, ngo, { tab: "new", page: 1 });
      expect(queue.rows.map((r) => r.id)).toEqual([donation.id]);
      const timeline = await pickupForNgo(s.db, ngo, donation.id);
      expect(timeline.events.at(-1)).toMatchObject({ type: "declined", reason: "My bike is in the workshop" });
      expect(timeline.events.at(-1)!.riderName).toMatch(/Rider$/);
      // The declining rider no longer sees it.
      expect((await riderPickups(s.db, w.rider, { tab: "pending", page: 1 })).rows.map((r) => r.id)).not.toContain(donation.id);
    });

    it("accept and collect tell the NGO in app and by email, collect tells the donor too; deliver tells the NGO", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const campaign = await makeCampaign(s.db, ngo.id);
      const { donation } = await makePickup(s.db, campaign, donor.id, { status: "assigned", riderId: w.rider.id, code: "9090" });
      await respondToAssignment(s, w.rider, { donationId: donation.id, accept: true });
      await confirmCollected(s, w.rider, { donationId: donation.id, code: "9090" });
      await markDelivered(s, w.rider, { donationId: donation.id });
      expect((await noticesOf(ngo.id)).map((n) => n.type)).toEqual(["pickupAccepted", "pickupCollected", "pickupDelivered"]);
      const ngoMail = await mailTo(ngo.email);
      expect(ngoMail.map((m) => m.subject)).toEqual(["A rider accepted a pick-up", "Donated goods are on their way to you"]);
      expect(ngoMail[1]!.body).toContain(`/noncash_apps?view=${donation.id}`);
      expect((await noticesOf(donor.id)).map((n) => n.type)).toEqual(["pickupCollectedDonor"]);
      const mail = await mailTo(donor.email);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.body).toContain(campaign.title);
      expect((await eventsOf(donation.id)).map((e) => e.type)).toEqual(["requested", "accepted", "collected", "delivered"]);
    });

    it("cancel marks the donation rejected with the reason, audits it and tells the donor and the rider", async () => {
      const donor = await makeUser(s.db, "donor");
      const { donation } = await makePickup(s.db, w.campaign, donor.id, { status: "accepted", riderId: w.rider.id });
      await cancelPickup(s, w.ngo, { donationId: donation.id, reason: "We have enough blankets now" });
      expect(await statusOf(donation.id)).toBe("cancelled");
      const [d] = await s.db.select().from(donations).where(eq(donations.id, donation.id));
      expect(d).toMatchObject({ status: "rejected", rejectionReason: "We have enough blankets now", decidedBy: w.ngo.id });
      expect(d!.decidedAt).not.toBeNull();
      expect((await eventsOf(donation.id)).at(-1)).toMatchObject({
        type: "cancelled",
        actorId: w.ngo.id,
        reason: "We have enough blankets now",
      });
      const audit = await s.db
        .select()
        .from(auditLog)
        .where(sql`${auditLog.details}->>'donationId' = ${donation.id}`);
      expect(audit).toMatchObject([
        {
          action: "pickup.cancelled",
          actorId: w.ngo.id,
          targetUserId: donor.id,
          details: { donationId: donation.id, reason: "We have enough blankets now" },
        },
      ]);
      expect(await noticesOf(donor.id)).toMatchObject([{ type: "pickupCancelled", params: { reason: "We have enough blankets now" } }]);
      expect((await noticesOf(w.rider.id)).filter((n) => n.type === "pickupWithdrawn").length).toBeGreaterThan(0);
    });

    it("confirmReceived marks the donation approved with the note, audits it and tells the donor", async () => {
      const donor = await makeUser(s.db, "donor");
      const { donation } = await makePickup(s.db, w.campaign, donor.id, { status: "delivered", riderId: w.rider.id });
      await confirmReceived(s, w.ngo, { donationId: donation.id, note: "Two blankets, one bag of rice" });
      expect(await pickupRow(donation.id)).toMatchObject({ status: "received", receivedNote: "Two blankets, one bag of rice" });
      const [d] = await s.db.select().from(donations).where(eq(donations.id, donation.id));
      expect(d).toMatchObject({ status: "approved", decidedBy: w.ngo.id, amount: null, receiptNumber: null });
      expect((await eventsOf(donation.id)).at(-1)).toMatchObject({
        type: "received",
        actorId: w.ngo.id,
        reason: "Two blankets, one bag of rice",
      });
      const audit = await s.db
        .select()
        .from(auditLog)
        .where(sql`${auditLog.details}->>'donationId' = ${donation.id}`);
      expect(audit).toMatchObject([
        { action: "pickup.received", actorId: w.ngo.id, targetUserId: donor.id, details: { note: "Two blankets, one bag of rice" } },
      ]);
      expect(await noticesOf(donor.id)).toMatchObject([{ type: "pickupReceived", link: "/dvh" }]);
      // The campaign's cash total is not touched by goods.
      const [c] = await s.db.select({ collected: campaigns.collectedAmount }).from(campaigns).where(eq(campaigns.id, w.campaign.id));
      expect(c!.collected).toBe(0);
    });

    it("confirmReceived without a note keeps none", async () => {
      const { donation } = await makePickup(s.db, w.campaign, w.donor.id, { status: "delivered", riderId: w.rider.id });
      await confirmReceived(s, w.ngo, { donationId: donation.id });
      expect(await pickupRow(donation.id)).toMatchObject({ status: "received", receivedNote: null });
    });
  });

  describe("queries", () => {
    it("ngoPickupQueue: tabs with counts, oldest first, a campaign filter, paged, only the NGO's own", async () => {
      const { ngo, donor, rider, campaign } = await world();
      const second = await makeCampaign(s.db, ngo.id);
      const stranger = await makeUser(s.db, "ngo");
      const theirs = await makeCampaign(s.db, stranger.id);
      await makePickup(s.db, theirs, donor.id);
      const base = Date.now() - 100 * 60_000;
      const made: { id: string; status: PickupStatus; campaignId: string }[] = [];
      const plan: [PickupStatus, typeof campaign][] = [
        ["new", campaign],
        ["assigned", campaign],
        ["new", second],
        ["accepted", second],
        ["collected", campaign],
        ["delivered", campaign],
        ["received", campaign],
        ["cancelled", second],
        ["new", campaign],
      ];
      for (const [i, [status, c]] of plan.entries()) {
        const { donation } = await makePickup(s.db, c, donor.id, { status, riderId: status === "new" ? null : rider.id });
        // Written out of order in time, so the order cannot come from insertion.
        const at = new Date(base + ((i * 7) % plan.length) * 60_000);
        await s.db.update(donations).set({ createdAt: at }).where(eq(donations.id, donation.id));
        made.push({ id: donation.id, status, campaignId: c.id });
      }
      const createdAt = async (ids: string[]) =>
        (await s.db.select({ id: donations.id, at: donations.createdAt }).from(donations).where(inArray(donations.id, ids))).sort(
          (a, b) => a.at.getTime() - b.at.getTime(),
        );

      const fresh = await ngoPickupQueue(s.db, ngo, { tab: "new", page: 1 });
      expect(fresh.counts).toEqual({ new: 3, active: 4 });
      expect(fresh.total).toBe(3);
      const newIds = made.filter((m) => m.status === "new").map((m) => m.id);
      expect(fresh.rows.map((r) => r.id)).toEqual((await createdAt(newIds)).map((r) => r.id));
      expect(fresh.rows.every((r) => r.status === "new" && r.riderId === null && r.ngoName)).toBe(true);

      const active = await ngoPickupQueue(s.db, ngo, { tab: "active", page: 1 });
      const activeIds = made.filter((m) => ["assigned", "accepted", "collected", "delivered"].includes(m.status)).map((m) => m.id);
      expect(active.rows.map((r) => r.id)).toEqual((await createdAt(activeIds)).map((r) => r.id));
      expect(active.rows.every((r) => r.riderId === rider.id && r.riderName?.endsWith("Rider"))).toBe(true);

      const filtered = await ngoPickupQueue(s.db, ngo, { tab: "new", page: 1, campaignId: second.id });
      expect(filtered.counts).toEqual({ new: 1, active: 1 });
      expect(filtered.rows.map((r) => r.campaignId)).toEqual([second.id]);
      // Another NGO's campaign as the filter shows nothing; a malformed one is ignored.
      expect((await ngoPickupQueue(s.db, ngo, { tab: "new", page: 1, campaignId: theirs.id })).counts).toEqual({ new: 0, active: 0 });
      expect((await ngoPickupQueue(s.db, ngo, { tab: "new", page: 1, campaignId: "nope" })).counts).toEqual({ new: 3, active: 4 });

      expect((await pickupCampaigns(s.db, ngo)).map((c) => c.id).sort()).toEqual([campaign.id, second.id].sort());
      expect((await pickupCampaigns(s.db, stranger)).map((c) => c.id)).toEqual([theirs.id]);

      // Paged: one more than a page of new requests.
      for (let i = 0; i < PAGE_SIZE; i++) await makePickup(s.db, second, donor.id);
      const page1 = await ngoPickupQueue(s.db, ngo, { tab: "new", page: 1 });
      const page2 = await ngoPickupQueue(s.db, ngo, { tab: "new", page: 2 });
      expect(page1.rows).toHaveLength(PAGE_SIZE);
      expect(page2.rows).toHaveLength(3);
      expect(page1.total).toBe(PAGE_SIZE + 3);
      expect(new Set([...page1.rows, ...page2.rows].map((r) => r.id)).size).toBe(PAGE_SIZE + 3);
    });

    it("pickupCampaigns: the campaigns with an open request to the NGO, from the tallies; one drops out when its last request is received or cancelled, and a partner's goods are its own", async () => {
      const { ngo, donor, campaign } = await world();
      const cashOnly = await makeCampaign(s.db, ngo.id);
      await makeDonation(s.db, cashOnly, donor.id, { amount: 500 });
      const partner = await makeUser(s.db, "ngo");
      const joint = await makeCampaign(s.db, ngo.id, { partners: [partner.id] });
      const first = await makePickup(s.db, campaign, donor.id);
      const second = await makePickup(s.db, campaign, donor.id, { status: "collected" });
      // Goods given to the partner through the joint campaign are in the partner's queue, not the owner's.
      await makePickup(s.db, joint, donor.id, { recipientNgoId: partner.id });
      const ids = async (actor: typeof ngo) => (await pickupCampaigns(s.db, actor)).map((c) => c.id);
      expect(await ids(ngo)).toEqual([campaign.id]);
      expect(await ids(partner)).toEqual([joint.id]);

      // The tally rows of the states they left stay at zero: they do not keep the campaign in the filter.
      await s.db.update(pickups).set({ status: "received" }).where(eq(pickups.donationId, second.donation.id));
      expect(await ids(ngo)).toEqual([campaign.id]);
      await s.db.update(pickups).set({ status: "cancelled" }).where(eq(pickups.donationId, first.donation.id));
      expect(await ids(ngo)).toEqual([]);
      await s.db.update(pickups).set({ status: "new" }).where(eq(pickups.donationId, first.donation.id));
      expect(await ids(ngo)).toEqual([campaign.id]);
    });

    it("riderPickups: tabs with counts, only the rider's own, distance from the rider's area, search with LIKE wildcards taken literally", async () => {
      const { donor, rider, campaign } = await world();
      const stranger = await makeUser(s.db, "rider");
      await setArea(rider.id, KARACHI);
      const plan: [PickupStatus, string][] = [
        ["assigned", "Blankets 100% wool"],
        ["assigned", "Rice_bags"],
        ["accepted", "School books"],
        ["collected", "Warm clothes"],
        ["delivered", "Medicine boxes"],
        ["received", "Tents"],
        ["cancelled", "Water filters"],
      ];
      const ids: Record<string, string> = {};
      for (const [status, items] of plan) {
        const { donation } = await makePickup(s.db, campaign, donor.id, { status, riderId: rider.id, items });
        ids[items] = donation.id;
      }
      await makePickup(s.db, campaign, donor.id, { status: "assigned", riderId: stranger.id, items: "Blankets 50% cotton" });
      await makePickup(s.db, campaign, donor.id, { items: "Blankets nobody has" });

      const pending = await riderPickups(s.db, rider, { tab: "pending", page: 1 });
      expect(pending.counts).toEqual({ pending: 2, registered: 2, completed: 2 });
      expect(pending.rows.map((r) => r.items).sort()).toEqual(["Blankets 100% wool", "Rice_bags"]);
      for (const r of pending.rows) {
        expect(r.distanceKm).toBeGreaterThan(1000);
        expect(r.distanceKm).toBeLessThan(1070);
        expect(r.phone).toBe("03001234567");
        // The NGO lists no drop-off points: the goods go to its office.
        expect(r.dropoff).toMatchObject({ address: "Saddar, Karachi", areaLabel: null, distanceKm: null });
        expect(r.address).toBe("House 12, Street 4");
      }
      expect((await riderPickups(s.db, rider, { tab: "registered", page: 1 })).rows.map((r) => r.items).sort()).toEqual([
        "School books",
        "Warm clothes",
      ]);
      expect((await riderPickups(s.db, rider, { tab: "completed", page: 1 })).rows.map((r) => r.items).sort()).toEqual([
        "Medicine boxes",
        "Tents",
      ]);

      const search = (q: string, tab: "pending" | "registered" | "completed" = "pending") => riderPickups(s.db, rider, { tab, q, page: 1 });
      expect((await search("blankets")).rows.map((r) => r.id)).toEqual([ids["Blankets 100% wool"]]);
      expect((await search("%")).rows.map((r) => r.id)).toEqual([ids["Blankets 100% wool"]]);
      expect((await search("_")).rows.map((r) => r.id)).toEqual([ids["Rice_bags"]]);
      expect((await search("%")).counts).toEqual({ pending: 1, registered: 0, completed: 0 });
      expect((await search("\\")).counts).toEqual({ pending: 0, registered: 0, completed: 0 });
      // Also by address, area, campaign and NGO.
      expect((await search("street 4")).counts).toEqual({ pending: 2, registered: 2, completed: 2 });
      expect((await search("lahore")).counts).toEqual({ pending: 2, registered: 2, completed: 2 });
      expect((await search(campaign.title.slice(-6))).counts).toEqual({ pending: 2, registered: 2, completed: 2 });
      expect((await search("no such thing at all")).rows).toEqual([]);

      // Without an area the distance is unknown; another rider sees only its own.
      await setArea(rider.id, null);
      expect((await riderPickups(s.db, rider, { tab: "pending", page: 1 })).rows.every((r) => r.distanceKm === null)).toBe(true);
      await setArea(stranger.id, LAHORE);
      const theirs = await riderPickups(s.db, stranger, { tab: "pending", page: 1 });
      expect(theirs.rows.map((r) => r.items)).toEqual(["Blankets 50% cotton"]);
      expect(theirs.rows[0]!.distanceKm).toBeLessThan(1);
      expect(theirs.counts).toEqual({ pending: 1, registered: 0, completed: 0 });
    });

    it("pickupsOfDonor: the donor's own pick-ups with code and steps, nobody else's", async () => {
      const { donor, rider, campaign } = await world();
      const other = await makeUser(s.db, "donor");
      const { donation: mine } = await makePickup(s.db, campaign, donor.id, { code: "8080" });
      const { donation: theirs } = await makePickup(s.db, campaign, other.id);
      await assignRider(s, { id: campaign.ownerId, role: "ngo" as const }, { donationId: mine.id, riderId: rider.id, reassign: false });
      const got = await pickupsOfDonor(s.db, donor, [mine.id, theirs.id, "junk"]);
      expect([...got.keys()]).toEqual([mine.id]);
      expect(got.get(mine.id)).toMatchObject({ status: "assigned", code: "8080", areaLabel: LAHORE.label });
      expect(got.get(mine.id)!.events.map((e) => e.type)).toEqual(["requested", "assigned"]);
      expect(got.get(mine.id)!.events[1]!.riderName).toMatch(/Rider$/);
      expect((await pickupsOfDonor(s.db, other, [mine.id])).size).toBe(0);
    });
  });
});

describe("rider choices", () => {
  // Its own database: the list spans every rider, so other tests' riders must not crowd it.
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  async function rider(
    name: string,
    place: { label: string; lat: number; lng: number } | null,
    opts: { verification?: "pending" | "verified"; suspended?: boolean } = {},
  ) {
    const r = await makeUser(s.db, "rider", { name, verification: opts.verification });
    if (place)
      await s.db
        .update(riderProfiles)
        .set({ areaLabel: place.label, areaLat: place.lat, areaLng: place.lng })
        .where(eq(riderProfiles.userId, r.id));
    if (opts.suspended) await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, r.id));
    return r;
  }

  it("lists verified, active riders nearest first with their distance, riders without an area last, at most RIDER_CHOICES", async () => {
    const karachi = await rider("Karachi", KARACHI);
    const nowhere = await rider("Aaa Nowhere", null);
    const lahore = await rider("Lahore", LAHORE);
    const islamabad = await rider("Islamabad", ISLAMABAD);
    await rider("Suspended", LAHORE, { suspended: true });
    await rider("Unverified", LAHORE, { verification: "pending" });
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    await makePickup(s.db, campaign, donor.id, { status: "accepted", riderId: lahore.id });
    await makePickup(s.db, campaign, donor.id, { status: "received", riderId: lahore.id });

    const list = await riderChoices(s.db, { lat: LAHORE.lat, lng: LAHORE.lng }, 25);
    expect(list.map((r) => r.id)).toEqual([lahore.id, islamabad.id, karachi.id, nowhere.id]);
    expect(list[0]!.distanceKm).toBeLessThan(1);
    expect(list[1]!.distanceKm).toBeGreaterThan(250);
    expect(list[1]!.distanceKm).toBeLessThan(290);
    expect(list[2]!.distanceKm).toBeGreaterThan(1000);
    expect(list[2]!.distanceKm).toBeLessThan(1070);
    expect(list[3]!.distanceKm).toBeNull();
    expect(list[0]).toMatchObject({ name: "Lahore Rider", areaLabel: LAHORE.label, open: 1 });
    expect(list[2]).toMatchObject({ areaLabel: KARACHI.label, open: 0 });

    // From Karachi the order turns round.
    expect((await riderChoices(s.db, { lat: KARACHI.lat, lng: KARACHI.lng }, 25)).map((r) => r.id)).toEqual([
      karachi.id,
      lahore.id,
      islamabad.id,
      nowhere.id,
    ]);

    // More riders than the list holds: the nearest stay, those without an area drop off first.
    for (let i = 0; i < RIDER_CHOICES; i++)
      await rider(`Extra ${String(i).padStart(2, "0")}`, { label: "Multan", lat: 30.1968 + i * 0.001, lng: 71.4782 });
    const full = await riderChoices(s.db, { lat: LAHORE.lat, lng: LAHORE.lng }, 25);
    expect(full).toHaveLength(RIDER_CHOICES);
    expect(full[0]!.id).toBe(lahore.id);
    expect(full.map((r) => r.id)).not.toContain(nowhere.id);
    const distances = full.map((r) => r.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });
});
