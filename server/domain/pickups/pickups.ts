import { randomInt, timingSafeEqual } from "node:crypto";
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { GoodsOfferValues } from "#shared/forms/pickups.ts";
import {
  PAGE_SIZE,
  PICKUP_CODE_DIGITS,
  PICKUP_CODE_TRIES,
  PICKUP_CODE_WINDOW_SECONDS,
  PICKUP_MAX_DAYS_AHEAD,
  type PickupSlot,
  RIDER_CHOICES,
} from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import {
  campaigns,
  donations,
  donorProfiles,
  dropoffPoints,
  ngoProfiles,
  pickupEvents,
  pickups,
  riderProfiles,
  users,
} from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { isUuid, likePattern, paged, pageOffset, searchTerm } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { campaignChoices, ngosOfCampaigns } from "#server/domain/campaigns/access.ts";
import { campaignToGiveTo } from "#server/domain/campaigns/standing.ts";
import { assertFundAccepted } from "#server/domain/campaigns/funds.ts";
import { campaignGone } from "#server/domain/donations/cash.ts";
import { findDonationByKey } from "#server/domain/donations/idempotency.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { conflict, invalid, notFound } from "#server/domain/errors.ts";
import { appLink, notify } from "#server/domain/notifications/notifications.ts";
import { tallied, tallies } from "#server/domain/donations/tallies.ts";
import { decisionScope, pickupScope, type PickupActor } from "./policy.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { pickupStates } from "./states.ts";
import type { FundKind, PickupEventType, PickupStatus } from "#shared/statuses.ts";
import { resolvePlace } from "#server/domain/places/resolve.ts";
import { distanceKm } from "#server/domain/places/distance.ts";
import { holdDropoffs, nearestDropoff } from "./dropoffs.ts";
import { clearRateLimit, hitRateLimit } from "#server/domain/rate-limit.ts";

type PickupServices = Pick<Services, "db" | "mailer" | "config" | "log">;

function newCode(): string {
  return String(randomInt(0, 10 ** PICKUP_CODE_DIGITS)).padStart(PICKUP_CODE_DIGITS, "0");
}

/**
 * The NGOs of an active campaign that can receive goods: the owner and accepted partners, verified and not
 * suspended (no payment account is needed for goods).
 */
export async function goodsTarget(db: DbOrTx, slug: string) {
  const c = await campaignToGiveTo(db, slug);
  const all = (await ngosOfCampaigns(db, [c.id])).get(c.id) ?? [];
  const able = all.length
    ? await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            inArray(
              users.id,
              all.map((n) => n.id),
            ),
            eq(users.verification, "verified"),
            isNull(users.suspendedAt),
          ),
        )
    : [];
  return {
    campaign: {
      id: c.id,
      slug: c.slug,
      title: c.title,
      otherItems: c.otherItems,
      pictureKey: c.pictureKey,
      locationLabel: c.locationLabel,
      locationLabelUr: c.locationLabelUr,
      acceptedFunds: c.acceptedFunds,
    },
    ngos: all.filter((n) => able.some((a) => a.id === n.id)),
  };
}

/**
 * A donor offers goods to a campaign: one in-kind donation with its pick-up request (`new`), written once per
 * idempotency key (a double submit returns the first). The area is resolved to a point; the day must lie between
 * today and PICKUP_MAX_DAYS_AHEAD days ahead (Pakistan time). The NGO is told.
 */
export async function offerGoods(
  services: Pick<Services, "db" | "mailer" | "config" | "log" | "geocoder">,
  actor: Actor,
  values: GoodsOfferValues,
  now = new Date(),
): Promise<{ id: string; created: boolean }> {
  const donorId = idAs(actor, "donor");
  const { db } = services;
  const earlier = await findDonationByKey(db, donorId, values.idempotencyKey);
  if (earlier) return { id: earlier, created: false };

  const target = await goodsTarget(db, values.campaign);
  const ngo = target.ngos.find((n) => n.id === values.ngo);
  if (!ngo) throw notFound();
  if (!target.campaign.acceptedFunds.includes(values.fund)) throw invalid("funds.not_accepted", "fund");
  const today = pakistanToday(now);
  if (
    Number.isNaN(Date.parse(`${values.windowDate}T00:00:00Z`)) ||
    values.windowDate < today ||
    values.windowDate > addDays(today, PICKUP_MAX_DAYS_AHEAD)
  ) {
    throw invalid("pickups.date_range", "windowDate");
  }
  const place = await resolvePlace(
    services.geocoder,
    values.area,
    { lat: values.areaLat, lng: values.areaLng },
    { message: "pickups:errors.areaInvalid", field: "area" },
  );

  const id = await db
    .transaction(async (tx) => {
      await assertFundAccepted(tx, target.campaign.id, values.fund);
      const [row] = await tx
        .insert(donations)
        .values({
          campaignId: target.campaign.id,
          donorId,
          recipientNgoId: ngo.id,
          kind: "in_kind",
          items: values.items,
          phone: values.phone,
          idempotencyKey: values.idempotencyKey,
          fund: values.fund,
          showName: values.showName === "yes",
          inNameOf: values.inNameOf ?? null,
        })
        .onConflictDoNothing({ target: [donations.donorId, donations.idempotencyKey] })
        .returning({ id: donations.id });
      if (!row) return null;
      await holdDropoffs(tx, ngo.id);
      await tx.insert(pickups).values({
        donationId: row.id,
        address: values.address,
        areaLabel: place.label,
        areaLabelUr: place.labelUr,
        lat: place.lat,
        lng: place.lng,
        windowDate: values.windowDate,
        windowSlot: values.windowSlot,
        code: newCode(),
        dropoffId: nearestDropoff(ngo.id, place.lat, place.lng),
      });
      await tx.insert(pickupEvents).values({ donationId: row.id, type: "requested", actorId: donorId });
      await notify(
        { ...services, db: tx },
        { userId: ngo.id, type: "pickupRequested", params: { campaign: target.campaign.title }, link: `/noncash_apps?view=${row.id}` },
      );
      return row.id;
    })
    .catch(campaignGone);
  if (!id) {
    // The same form arrived twice at once and the other request wrote the row first.
    const first = await findDonationByKey(db, donorId, values.idempotencyKey);
    if (!first) throw conflict("donations.upload_failed");
    return { id: first, created: false };
  }
  return { id, created: true };
}

interface Locked {
  donationId: string;
  status: PickupStatus;
  riderId: string | null;
  code: string;
  donorId: string;
  ngoId: string;
  campaignTitle: string;
}

/** The pick-up row locked for a change, with whom it concerns. Not found when `where` (who may act) excludes it. */
async function lockPickup(tx: DbOrTx, donationId: string, where: SQL): Promise<Locked> {
  if (!isUuid(donationId)) throw notFound();
  const [row] = await tx
    .select({
      donationId: pickups.donationId,
      status: pickups.status,
      riderId: pickups.riderId,
      code: pickups.code,
      donorId: donations.donorId,
      ngoId: donations.recipientNgoId,
      campaignTitle: campaigns.title,
    })
    .from(pickups)
    .innerJoin(donations, eq(donations.id, pickups.donationId))
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(and(eq(pickups.donationId, donationId), where))
    .limit(1)
    .for("update", { of: pickups });
  if (!row) throw notFound();
  return row;
}

type PickupChange = { [K in keyof typeof pickups.$inferInsert]?: (typeof pickups.$inferInsert)[K] | SQL };

async function setStatus(tx: DbOrTx, donationId: string, values: PickupChange): Promise<void> {
  await tx
    .update(pickups)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(pickups.donationId, donationId));
}

async function event(tx: DbOrTx, e: typeof pickupEvents.$inferInsert): Promise<void> {
  await tx.insert(pickupEvents).values(e);
}

/** A verified, active rider, or the field error of the Select Rider dropdown. */
async function assertActiveRider(db: DbOrTx, riderId: string): Promise<string> {
  if (!isUuid(riderId)) throw invalid("pickups.rider_unavailable", "riderId");
  const [r] = await db
    .select({ name: sql<string>`${riderProfiles.firstName} || ' ' || ${riderProfiles.lastName}` })
    .from(users)
    .innerJoin(riderProfiles, eq(riderProfiles.userId, users.id))
    .where(and(eq(users.id, riderId), eq(users.role, "rider"), eq(users.verification, "verified"), isNull(users.suspendedAt)))
    .limit(1);
  if (!r) throw invalid("pickups.rider_unavailable", "riderId");
  return r.name;
}

/**
 * The NGO assigns a rider to a new request (`reassign: false`), or another rider to one that is assigned or
 * accepted (`reassign: true`). Two assignments of the same new request at once give one: the second finds it
 * no longer new.
 */
export async function assignRider(
  services: PickupServices,
  actor: PickupActor,
  input: { donationId: string; riderId: string; reassign: boolean },
): Promise<void> {
  const { db } = services;
  const riderName = await assertActiveRider(db, input.riderId);
  await db.transaction(async (tx) => {
    // Before the pick-up's row, as a drop-off point's removal takes them (dropoffs.ts): the point chosen below stays.
    if (actor.role === "ngo") await holdDropoffs(tx, actor.id);
    const p = await lockPickup(tx, input.donationId, decisionScope(actor, input.reassign ? "reassign" : "assign"));
    const step = pickupStates.assertTransition(input.reassign ? "reassign" : "assign", p.status, "recipientNgo", () =>
      conflict(input.reassign ? "pickups.cannot_reassign" : "pickups.already_assigned"),
    );
    if (input.reassign && p.riderId === input.riderId) throw invalid("pickups.same_rider", "riderId");
    // The goods go to the NGO's drop-off point nearest the pick-up as its points are now (they may have changed).
    await setStatus(tx, p.donationId, {
      status: step.to!,
      riderId: input.riderId,
      dropoffId: nearestDropoff(p.ngoId, sql`${pickups.lat}`, sql`${pickups.lng}`),
    });
    await event(tx, { donationId: p.donationId, type: "assigned", actorId: actor.id, riderId: input.riderId });
    const told = { ...services, db: tx };
    await notify(told, {
      userId: input.riderId,
      type: "pickupAssigned",
      params: { campaign: p.campaignTitle },
      link: "/rider_home",
      email: {
        subject: "pickups:mail.assigned.subject",
        body: "pickups:mail.assigned.body",
        params: { name: riderName, campaign: p.campaignTitle, link: appLink(services.config, "/rider_home") },
      },
    });
    if (p.riderId && p.riderId !== input.riderId) {
      await notify(told, { userId: p.riderId, type: "pickupWithdrawn", params: { campaign: p.campaignTitle }, link: "/rider_home" });
    }
    await notify(told, {
      userId: p.donorId,
      type: "pickupRiderAssigned",
      params: { campaign: p.campaignTitle, rider: riderName },
      link: "/dvh",
      email: {
        subject: "pickups:mail.riderAssigned.subject",
        body: "pickups:mail.riderAssigned.body",
        params: { rider: riderName, campaign: p.campaignTitle, link: appLink(services.config, "/dvh") },
      },
    });
  });
}

/** The NGO cancels a request that has not been collected; the donation is marked rejected with the reason. */
export async function cancelPickup(
  services: PickupServices,
  actor: PickupActor,
  input: { donationId: string; reason: string },
): Promise<void> {
  const { db } = services;
  await db.transaction(async (tx) => {
    const p = await lockPickup(tx, input.donationId, decisionScope(actor, "cancel"));
    const step = pickupStates.assertTransition("cancel", p.status, "recipientNgo", () => conflict("pickups.cannot_cancel"));
    await setStatus(tx, p.donationId, { status: step.to! });
    await tx
      .update(donations)
      .set({ status: "rejected", rejectionReason: input.reason, decidedBy: actor.id, decidedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(donations.id, p.donationId));
    await event(tx, { donationId: p.donationId, type: "cancelled", actorId: actor.id, reason: input.reason });
    await recordAudit(tx, {
      actorId: actor.id,
      action: "pickup.cancelled",
      targetUserId: p.donorId,
      details: { donationId: p.donationId, reason: input.reason },
    });
    const told = { ...services, db: tx };
    await notify(told, {
      userId: p.donorId,
      type: "pickupCancelled",
      params: { campaign: p.campaignTitle, reason: input.reason },
      link: "/dvh",
    });
    if (p.riderId && p.status !== "new") {
      await notify(told, { userId: p.riderId, type: "pickupWithdrawn", params: { campaign: p.campaignTitle }, link: "/rider_home" });
    }
  });
}

/** The NGO confirms the goods arrived (optionally noting what did): the pick-up is complete and the donation approved. */
export async function confirmReceived(
  services: PickupServices,
  actor: PickupActor,
  input: { donationId: string; note?: string },
): Promise<void> {
  const { db } = services;
  await db.transaction(async (tx) => {
    const p = await lockPickup(tx, input.donationId, decisionScope(actor, "receive"));
    const step = pickupStates.assertTransition("receive", p.status, "recipientNgo", () => conflict("pickups.not_delivered"));
    await setStatus(tx, p.donationId, { status: step.to!, receivedNote: input.note ?? null });
    await tx
      .update(donations)
      .set({ status: "approved", decidedBy: actor.id, decidedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(donations.id, p.donationId));
    await event(tx, { donationId: p.donationId, type: "received", actorId: actor.id, reason: input.note ?? null });
    await recordAudit(tx, {
      actorId: actor.id,
      action: "pickup.received",
      targetUserId: p.donorId,
      details: { donationId: p.donationId, note: input.note ?? null },
    });
    await notify(
      { ...services, db: tx },
      { userId: p.donorId, type: "pickupReceived", params: { campaign: p.campaignTitle }, link: "/dvh" },
    );
  });
}

/** The assigned rider accepts (→ accepted) or declines with a reason (→ new again, back in the NGO's queue). */
export async function respondToAssignment(
  services: PickupServices,
  actor: PickupActor,
  input: { donationId: string; accept: true } | { donationId: string; accept: false; reason: string },
): Promise<void> {
  const { db } = services;
  await db.transaction(async (tx) => {
    const p = await lockPickup(tx, input.donationId, decisionScope(actor, input.accept ? "accept" : "decline"));
    const step = pickupStates.assertTransition(input.accept ? "accept" : "decline", p.status, "assignedRider", () =>
      conflict("pickups.not_assigned"),
    );
    if (input.accept) {
      await setStatus(tx, p.donationId, { status: step.to! });
      await event(tx, { donationId: p.donationId, type: "accepted", actorId: actor.id, riderId: actor.id });
    } else {
      await setStatus(tx, p.donationId, { status: step.to!, riderId: null });
      await event(tx, { donationId: p.donationId, type: "declined", actorId: actor.id, riderId: actor.id, reason: input.reason });
    }
    const riderName = await nameOfRider(tx, actor.id);
    await notify(
      { ...services, db: tx },
      {
        userId: p.ngoId,
        type: input.accept ? "pickupAccepted" : "pickupDeclined",
        params: { campaign: p.campaignTitle, rider: riderName, reason: input.accept ? "" : input.reason },
        link: `/noncash_apps?view=${p.donationId}`,
        email: input.accept
          ? {
              subject: "pickups:mail.accepted.subject",
              body: "pickups:mail.accepted.body",
              params: {
                rider: riderName,
                campaign: p.campaignTitle,
                link: appLink(services.config, `/noncash_apps?view=${p.donationId}`),
              },
            }
          : {
              subject: "pickups:mail.declined.subject",
              body: "pickups:mail.declined.body",
              params: {
                rider: riderName,
                campaign: p.campaignTitle,
                reason: input.reason,
                link: appLink(services.config, `/noncash_apps?view=${p.donationId}`),
              },
            },
      },
    );
  });
}

async function nameOfRider(db: DbOrTx, riderId: string): Promise<string> {
  const [r] = await db
    .select({ name: sql<string>`${riderProfiles.firstName} || ' ' || ${riderProfiles.lastName}` })
    .from(riderProfiles)
    .where(eq(riderProfiles.userId, riderId))
    .limit(1);
  return r?.name ?? "";
}

/**
 * At the door the rider enters the donor's code: the right code marks the goods collected. Tries are limited per
 * request (PICKUP_CODE_TRIES in PICKUP_CODE_WINDOW_SECONDS), counted before the comparison so guessing is slow.
 */
export async function confirmCollected(
  services: PickupServices,
  actor: PickupActor,
  input: { donationId: string; code: string },
): Promise<void> {
  const { db } = services;
  if (!isUuid(input.donationId)) throw notFound();
  const limitKey = `pickup-code:${input.donationId}`;
  const p = await db.transaction(async (tx) => {
    const p = await lockPickup(tx, input.donationId, decisionScope(actor, "collect"));
    pickupStates.assertTransition("collect", p.status, "assignedRider", () => conflict("pickups.not_accepted"));
    return p;
  });
  await hitRateLimit(db, limitKey, PICKUP_CODE_TRIES, PICKUP_CODE_WINDOW_SECONDS);
  const given = Buffer.from(input.code);
  const expected = Buffer.from(p.code);
  // Same length first (timingSafeEqual throws otherwise); the length of the code is no secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid("pickups.code_wrong", "code");
  await db.transaction(async (tx) => {
    const again = await lockPickup(tx, input.donationId, decisionScope(actor, "collect"));
    const step = pickupStates.assertTransition("collect", again.status, "assignedRider", () => conflict("pickups.not_accepted"));
    await setStatus(tx, p.donationId, { status: step.to! });
    await event(tx, { donationId: p.donationId, type: "collected", actorId: actor.id, riderId: actor.id });
    const told = { ...services, db: tx };
    const link = `/noncash_apps?view=${p.donationId}`;
    await notify(told, {
      userId: p.ngoId,
      type: "pickupCollected",
      params: { campaign: p.campaignTitle },
      link,
      email: {
        subject: "pickups:mail.collectedNgo.subject",
        body: "pickups:mail.collectedNgo.body",
        params: {
          rider: await nameOfRider(tx, actor.id),
          campaign: p.campaignTitle,
          link: appLink(services.config, link),
        },
      },
    });
    await notify(told, {
      userId: p.donorId,
      type: "pickupCollectedDonor",
      params: { campaign: p.campaignTitle },
      link: "/dvh",
      email: {
        subject: "pickups:mail.collected.subject",
        body: "pickups:mail.collected.body",
        params: { campaign: p.campaignTitle, link: appLink(services.config, "/dvh") },
      },
    });
  });
  await clearRateLimit(db, limitKey);
}

/** The rider hands the goods over at the NGO (→ delivered); the NGO then confirms receipt. */
export async function markDelivered(services: PickupServices, actor: PickupActor, input: { donationId: string }): Promise<void> {
  const { db } = services;
  await db.transaction(async (tx) => {
    const p = await lockPickup(tx, input.donationId, decisionScope(actor, "deliver"));
    const step = pickupStates.assertTransition("deliver", p.status, "assignedRider", () => conflict("pickups.not_collected"));
    await setStatus(tx, p.donationId, { status: step.to! });
    await event(tx, { donationId: p.donationId, type: "delivered", actorId: actor.id, riderId: actor.id });
    await notify(
      { ...services, db: tx },
      { userId: p.ngoId, type: "pickupDelivered", params: { campaign: p.campaignTitle }, link: `/noncash_apps?view=${p.donationId}` },
    );
  });
}

export interface PickupItem {
  id: string;
  createdAt: Date;
  status: PickupStatus;
  items: string;
  phone: string | null;
  address: string;
  areaLabel: string;
  /** The same place in Urdu, where the gazetteer has it: shown to Urdu readers (placeLabelFor). */
  areaLabelUr: string | null;
  lat: number;
  lng: number;
  windowDate: string;
  windowSlot: PickupSlot;
  campaignId: string;
  campaignTitle: string;
  donorName: string;
  /** The fund given to, whether the donor is named in public, and in whose name (decision 048). */
  fund: FundKind;
  showName: boolean;
  inNameOf: string | null;
  ngoName: string;
  riderId: string | null;
  riderName: string | null;
  receivedNote: string | null;
  /** Where the goods go: the chosen drop-off point, or the NGO's office (name and address) when it lists none. */
  dropoff: Dropoff;
}

export interface Dropoff {
  name: string;
  address: string;
  /** The point's place and coordinates; null for the NGO's office, which has an address but no point. */
  areaLabel: string | null;
  areaLabelUr: string | null;
  lat: number | null;
  lng: number | null;
  /** From the pick-up place to the drop-off point, km; null for the office. */
  distanceKm: number | null;
}

function itemColumns() {
  return {
    id: donations.id,
    createdAt: donations.createdAt,
    status: pickups.status,
    items: sql<string>`${donations.items}`,
    phone: donations.phone,
    address: pickups.address,
    areaLabel: pickups.areaLabel,
    areaLabelUr: pickups.areaLabelUr,
    lat: pickups.lat,
    lng: pickups.lng,
    windowDate: pickups.windowDate,
    windowSlot: pickups.windowSlot,
    campaignId: donations.campaignId,
    campaignTitle: campaigns.title,
    donorName: sql<string>`coalesce(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}, '')`,
    fund: donations.fund,
    showName: donations.showName,
    inNameOf: donations.inNameOf,
    ngoName: ngoProfiles.name,
    riderId: pickups.riderId,
    riderName: sql<string | null>`${riderProfiles.firstName} || ' ' || ${riderProfiles.lastName}`,
    receivedNote: pickups.receivedNote,
    dropoffName: sql<string>`coalesce(${dropoffPoints.name}, ${ngoProfiles.name})`,
    dropoffAddress: sql<string>`coalesce(${dropoffPoints.address}, ${ngoProfiles.address})`,
    dropoffArea: dropoffPoints.areaLabel,
    dropoffAreaUr: dropoffPoints.areaLabelUr,
    dropoffLat: dropoffPoints.lat,
    dropoffLng: dropoffPoints.lng,
    dropoffKm: sql<number | null>`case when ${dropoffPoints.id} is null then null else ${distanceKm(
      sql`${pickups.lat}`,
      sql`${pickups.lng}`,
      sql`${dropoffPoints.lat}`,
      sql`${dropoffPoints.lng}`,
    )} end`,
  };
}

interface DropoffColumns {
  dropoffName: string;
  dropoffAddress: string;
  dropoffArea: string | null;
  dropoffAreaUr: string | null;
  dropoffLat: number | null;
  dropoffLng: number | null;
  dropoffKm: number | null;
}

/** A row of itemQuery as a PickupItem: the drop-off columns gathered into one value. */
function toItem<R extends DropoffColumns>(r: R): Omit<R, keyof DropoffColumns> & { dropoff: Dropoff } {
  const { dropoffName, dropoffAddress, dropoffArea, dropoffAreaUr, dropoffLat, dropoffLng, dropoffKm, ...rest } = r;
  return {
    ...rest,
    dropoff: {
      name: dropoffName,
      address: dropoffAddress,
      areaLabel: dropoffArea,
      areaLabelUr: dropoffAreaUr,
      lat: dropoffLat,
      lng: dropoffLng,
      distanceKm: dropoffKm === null ? null : Number(dropoffKm),
    },
  };
}

function itemQuery<E extends Record<string, SQL> = Record<never, SQL>>(db: DbOrTx, extra: E = {} as E) {
  return db
    .select({ ...itemColumns(), ...extra } as ReturnType<typeof itemColumns> & E)
    .from(pickups)
    .innerJoin(donations, eq(donations.id, pickups.donationId))
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, donations.donorId))
    .leftJoin(riderProfiles, eq(riderProfiles.userId, pickups.riderId))
    .leftJoin(dropoffPoints, eq(dropoffPoints.id, pickups.dropoffId));
}

/**
 * The NGO's queue tabs, from the pick-up table: new requests are those a rider can be assigned to; those under
 * way are the rest of the states the NGO's "receive" still lies ahead of (assigned to delivered).
 */
export type NgoPickupTab = "new" | "active";
const WAITING_FOR_RIDER = pickupStates.fromStates("assign");
const NGO_TAB_STATUSES: Record<NgoPickupTab, PickupStatus[]> = {
  new: WAITING_FOR_RIDER,
  active: pickupStates.statesLeadingTo("receive").filter((s) => !WAITING_FOR_RIDER.includes(s)),
};

/**
 * Only goods have a pick-up, so this changes no answer: it lets PostgreSQL read the NGO's goods in the queue's order
 * from the index on (recipient, kind, created_at, id) and stop at the page's end (decision 044).
 */
const GOODS = eq(donations.kind, "in_kind");

/** One page of the NGO's pick-up requests under a tab, oldest first, optionally of one campaign; with the tab counts. */
export async function ngoPickupQueue(
  db: DbOrTx,
  actor: PickupActor,
  opts: { tab: NgoPickupTab; campaignId?: string; page: number },
): Promise<Paged<PickupItem> & { counts: Record<NgoPickupTab, number> }> {
  const campaignId = opts.campaignId && isUuid(opts.campaignId) ? opts.campaignId : null;
  const campaign = campaignId ? eq(donations.campaignId, campaignId) : undefined;
  const where = and(pickupScope(actor, "queue"), GOODS, inArray(pickups.status, NGO_TAB_STATUSES[opts.tab]), campaign);
  const counts = await ngoPickupCounts(db, actor, campaignId);
  const rows = await itemQuery(db)
    .where(where)
    .orderBy(asc(donations.createdAt), asc(donations.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(opts.page));
  return { ...paged(rows.map(toItem), opts.page, counts[opts.tab]), counts };
}

/**
 * How many of the NGO's pick-up requests are under each tab (optionally of one campaign): the queue's tabs and its
 * home, from the kept tallies (decision 044). Only the NGO the goods are given to has a queue.
 */
export async function ngoPickupCounts(
  db: DbOrTx,
  actor: PickupActor,
  campaignId: string | null = null,
): Promise<Record<NgoPickupTab, number>> {
  const counts = { new: 0, active: 0 };
  if (actor.role !== "ngo") return counts;
  for (const r of await tallies(db, actor.id, { kind: "in_kind", campaignId })) {
    for (const tab of ["new", "active"] as const)
      if ((NGO_TAB_STATUSES[tab] as string[]).includes(r.pickupStatus ?? "")) counts[tab] += r.n;
  }
  return counts;
}

/** The campaigns with open pick-up requests to this NGO, for the queue's filter (a bounded list, A–Z). */
export async function pickupCampaigns(db: DbOrTx, actor: PickupActor): Promise<{ id: string; title: string }[]> {
  if (actor.role !== "ngo") return [];
  // The kept tallies count the NGO's goods by their pick-up's state (pickupScope's "queue": the recipient NGO).
  return campaignChoices(db, actor.id, (id) =>
    tallied(actor.id, id, { kind: "in_kind", pickupStatuses: [...NGO_TAB_STATUSES.new, ...NGO_TAB_STATUSES.active] }),
  );
}

export interface PickupEvent {
  type: PickupEventType;
  at: Date;
  riderName: string | null;
  reason: string | null;
}

/** The steps of several pick-ups, oldest first, by donation id (for histories and the dialogs). */
export async function pickupTimelines(db: DbOrTx, donationIds: string[]): Promise<Map<string, PickupEvent[]>> {
  const out = new Map<string, PickupEvent[]>(donationIds.map((id) => [id, []]));
  if (donationIds.length === 0) return out;
  const rows = await db
    .select({
      donationId: pickupEvents.donationId,
      type: pickupEvents.type,
      at: pickupEvents.createdAt,
      reason: pickupEvents.reason,
      riderName: sql<string | null>`${riderProfiles.firstName} || ' ' || ${riderProfiles.lastName}`,
    })
    .from(pickupEvents)
    .leftJoin(riderProfiles, eq(riderProfiles.userId, pickupEvents.riderId))
    .where(inArray(pickupEvents.donationId, donationIds))
    // Insert order, which the pick-up's row lock makes the order in which the steps committed (decision 012).
    .orderBy(asc(pickupEvents.id));
  for (const r of rows) out.get(r.donationId)?.push({ type: r.type, at: r.at, riderName: r.riderName, reason: r.reason });
  return out;
}

/** One pick-up request of this NGO with its steps; not found for anyone else's. */
export async function pickupForNgo(db: DbOrTx, actor: PickupActor, donationId: string): Promise<PickupItem & { events: PickupEvent[] }> {
  if (!isUuid(donationId)) throw notFound();
  const [row] = await itemQuery(db)
    .where(and(eq(pickups.donationId, donationId), pickupScope(actor, "queue")))
    .limit(1);
  if (!row) throw notFound();
  return { ...toItem(row), events: (await pickupTimelines(db, [row.id])).get(row.id) ?? [] };
}

export interface RiderChoice {
  id: string;
  name: string;
  areaLabel: string | null;
  areaLabelUr: string | null;
  /** Kilometres from the pick-up point; null when the rider has not set an area. */
  distanceKm: number | null;
  /** Farther than the configured radius (RIDER_RADIUS_KM) from the pick-up point. */
  far: boolean;
  /** The rider declined this pick-up before. */
  declined: boolean;
  /** Pick-ups the rider has under way now. */
  open: number;
}

/**
 * Verified, active riders for a pick-up, at most RIDER_CHOICES: nearest first, riders without an area after those
 * with one, and riders who declined this pick-up (`donationId`) last. Riders farther than `radiusKm` are marked far.
 */
export async function riderChoices(
  db: DbOrTx,
  pickup: { lat: number; lng: number; donationId?: string },
  radiusKm: number,
): Promise<RiderChoice[]> {
  const distance = sql<
    number | null
  >`case when ${riderProfiles.areaLat} is null or ${riderProfiles.areaLng} is null then null else ${distanceKm(
    pickup.lat,
    pickup.lng,
    sql`${riderProfiles.areaLat}`,
    sql`${riderProfiles.areaLng}`,
  )} end`;
  const declined =
    pickup.donationId && isUuid(pickup.donationId)
      ? sql<boolean>`exists (select 1 from ${pickupEvents} where ${pickupEvents.donationId} = ${pickup.donationId} and ${pickupEvents.type} = 'declined' and ${pickupEvents.riderId} = ${users.id})`
      : sql<boolean>`(1 = 0)`;
  const rows = await db
    .select({
      id: users.id,
      name: sql<string>`${riderProfiles.firstName} || ' ' || ${riderProfiles.lastName}`,
      areaLabel: riderProfiles.areaLabel,
      areaLabelUr: riderProfiles.areaLabelUr,
      distanceKm: distance,
      declined,
      open: sql<number>`(select count(*) from ${pickups} where ${pickups.riderId} = ${users.id} and ${pickups.status} in ('assigned', 'accepted', 'collected'))`.mapWith(
        Number,
      ),
    })
    .from(users)
    .innerJoin(riderProfiles, eq(riderProfiles.userId, users.id))
    .where(and(eq(users.role, "rider"), eq(users.verification, "verified"), isNull(users.suspendedAt)))
    .orderBy(sql`${declined} asc`, sql`${distance} asc nulls last`, asc(riderProfiles.firstName), asc(users.id))
    .limit(RIDER_CHOICES);
  return rows.map((r) => {
    const km = r.distanceKm === null ? null : Number(r.distanceKm);
    return { ...r, declined: Boolean(r.declined), distanceKm: km, far: km !== null && km > radiusKm };
  });
}

/** The rider's tabs: Pending (assigned, awaiting an answer), Registered (accepted or collected, to finish) and Completed. */
export type RiderTab = "pending" | "registered" | "completed";
const RIDER_TAB_STATUSES: Record<RiderTab, PickupStatus[]> = {
  pending: ["assigned"],
  registered: ["accepted", "collected"],
  completed: ["delivered", "received"],
};

export interface RiderPickup extends PickupItem {
  /** From the rider's area to the pick-up point, km; null when the rider has set no area. */
  distanceKm: number | null;
}

/**
 * One page of the pick-ups assigned to this rider under a tab (only its own), searched by items, address, area,
 * campaign or NGO; with the count of each tab.
 */
export async function riderPickups(
  db: DbOrTx,
  actor: PickupActor,
  opts: { tab: RiderTab; q?: string; page: number },
): Promise<Paged<RiderPickup> & { counts: Record<RiderTab, number> }> {
  const q = searchTerm(opts.q);
  const search = q
    ? or(
        ilike(donations.items, likePattern(q)),
        ilike(pickups.address, likePattern(q)),
        ilike(pickups.areaLabel, likePattern(q)),
        ilike(pickups.areaLabelUr, likePattern(q)),
        ilike(campaigns.title, likePattern(q)),
        ilike(ngoProfiles.name, likePattern(q)),
      )
    : undefined;
  // From the rider's area, read within the query (null when none is set, and so is every distance): no round trip
  // of its own. The tab counts and the page are asked for together.
  const areaOf = (column: typeof riderProfiles.areaLat | typeof riderProfiles.areaLng) =>
    sql`(select ${column} from ${riderProfiles} where ${riderProfiles.userId} = ${actor.id})`;
  const distance = distanceKm(areaOf(riderProfiles.areaLat), areaOf(riderProfiles.areaLng), sql`${pickups.lat}`, sql`${pickups.lng}`);
  const [countRows, rows] = await Promise.all([
    db
      .select({ status: pickups.status, n: count() })
      .from(pickups)
      .innerJoin(donations, eq(donations.id, pickups.donationId))
      .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
      .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
      .where(and(pickupScope(actor, "riderList"), search))
      .groupBy(pickups.status),
    itemQuery(db, { distanceKm: sql<number | null>`${distance}` })
      .where(and(pickupScope(actor, "riderList"), inArray(pickups.status, RIDER_TAB_STATUSES[opts.tab]), search))
      .orderBy(opts.tab === "completed" ? desc(pickups.updatedAt) : asc(pickups.windowDate), asc(donations.id))
      .limit(PAGE_SIZE)
      .offset(pageOffset(opts.page)),
  ]);
  const counts = { pending: 0, registered: 0, completed: 0 };
  for (const r of countRows) {
    for (const tab of ["pending", "registered", "completed"] as const) if (RIDER_TAB_STATUSES[tab].includes(r.status)) counts[tab] += r.n;
  }
  return {
    ...paged(
      rows.map((r) => ({ ...toItem(r), distanceKm: r.distanceKm === null ? null : Number(r.distanceKm) })),
      opts.page,
      counts[opts.tab],
    ),
    counts,
  };
}

/** What the donor's history shows of one of their pick-ups. */
export interface DonorPickup {
  status: PickupStatus;
  code: string;
  address: string;
  areaLabel: string;
  areaLabelUr: string | null;
  windowDate: string;
  windowSlot: PickupSlot;
  /** Where the goods are going: the NGO's drop-off point, or its office. */
  dropoff: { name: string; address: string; areaLabel: string | null; areaLabelUr: string | null };
  events: PickupEvent[];
}

/** What the donor's history shows of their own pick-ups: state, the code for the rider, where the goods go, and each step. */
export async function pickupsOfDonor(db: DbOrTx, actor: PickupActor, donationIds: string[]): Promise<Map<string, DonorPickup>> {
  const out = new Map<string, DonorPickup>();
  const ids = donationIds.filter(isUuid);
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      id: pickups.donationId,
      status: pickups.status,
      code: pickups.code,
      address: pickups.address,
      areaLabel: pickups.areaLabel,
      areaLabelUr: pickups.areaLabelUr,
      windowDate: pickups.windowDate,
      windowSlot: pickups.windowSlot,
      dropoffName: sql<string>`coalesce(${dropoffPoints.name}, ${ngoProfiles.name})`,
      dropoffAddress: sql<string>`coalesce(${dropoffPoints.address}, ${ngoProfiles.address})`,
      dropoffArea: dropoffPoints.areaLabel,
      dropoffAreaUr: dropoffPoints.areaLabelUr,
    })
    .from(pickups)
    .innerJoin(donations, eq(donations.id, pickups.donationId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .leftJoin(dropoffPoints, eq(dropoffPoints.id, pickups.dropoffId))
    .where(and(inArray(pickups.donationId, ids), pickupScope(actor, "donorView")));
  const timelines = await pickupTimelines(
    db,
    rows.map((r) => r.id),
  );
  for (const { id, dropoffName, dropoffAddress, dropoffArea, dropoffAreaUr, ...r } of rows) {
    out.set(id, {
      ...r,
      dropoff: { name: dropoffName, address: dropoffAddress, areaLabel: dropoffArea, areaLabelUr: dropoffAreaUr },
      events: timelines.get(id) ?? [],
    });
  }
  return out;
}

/** A goods donation of this donor (the thank-you page); not found for anyone else's. */
export async function goodsDonationOfDonor(db: DbOrTx, actor: PickupActor, donationId: string) {
  if (!isUuid(donationId)) throw notFound();
  const [row] = await itemQuery(db, { code: sql<string>`${pickups.code}` })
    .where(and(eq(pickups.donationId, donationId), pickupScope(actor, "donorView")))
    .limit(1);
  if (!row) throw notFound();
  return toItem(row);
}
