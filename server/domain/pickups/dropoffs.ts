import { and, asc, count, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type * as z from "zod/mini";
import { DROPOFF_POINTS_MAX } from "#shared/constants.ts";
import { dropoffAddSchema, dropoffRemoveSchema, type DropoffAddInput } from "#shared/forms/pickups.ts";
import type { PickupStatus } from "#shared/statuses.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donations, dropoffPoints, ngoProfiles, pickups } from "#server/db/schema.ts";
import { notify } from "#server/domain/notifications/notifications.ts";
import type { Services } from "#server/services.ts";
import { invalid, invalidInput, notFound } from "#server/domain/errors.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { distanceKm } from "#server/domain/places/distance.ts";
import { resolvePlace } from "#server/domain/places/resolve.ts";
import { pickupStates } from "./states.ts";

/**
 * An NGO's drop-off points (decision 026): where riders take the goods. Each pick-up goes to the point nearest its
 * pick-up place, chosen when the request is made and again when a rider is assigned; an NGO that lists none
 * receives at its office address. Only the NGO itself lists, adds or removes its points: every function takes the
 * actor and works on the actor's own rows, so another account's point is "not found".
 */

export interface DropoffPoint {
  id: string;
  name: string;
  address: string;
  areaLabel: string;
  /** The same place in Urdu, where the gazetteer has it: shown to Urdu readers (placeLabelFor). */
  areaLabelUr: string | null;
  lat: number;
  lng: number;
}

/** Pick-ups whose goods have not reached the NGO yet: their drop-off may still change. */
const OPEN: PickupStatus[] = pickupStates.statesLeadingTo("deliver");

/** Checks input again on the server (the form already did): the first problem becomes a field error. */
function parse<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalidInput(issue.message, issue.path[0] === undefined ? undefined : String(issue.path[0]));
}

/**
 * The id of the NGO's listed point nearest a place, as a SQL subquery (null when it lists none), so a pick-up's
 * insert or update can take it in the same statement. `lat`/`lng` may be the pick-up row's own columns.
 */
export function nearestDropoff(ngoId: string | SQL, lat: number | SQL, lng: number | SQL): SQL<string | null> {
  return sql<string | null>`(select ${dropoffPoints.id} from ${dropoffPoints}
    where ${dropoffPoints.ngoId} = ${ngoId} and ${dropoffPoints.removedAt} is null
    order by ${distanceKm(lat, lng, sql`${dropoffPoints.lat}`, sql`${dropoffPoints.lng}`)} asc, ${dropoffPoints.createdAt} asc
    limit 1)`;
}

/** The NGO's listed drop-off points, oldest first (at most DROPOFF_POINTS_MAX). */
export async function listDropoffPoints(db: DbOrTx, actor: Actor): Promise<DropoffPoint[]> {
  const ngoId = idAs(actor, "ngo");
  return db
    .select({
      id: dropoffPoints.id,
      name: dropoffPoints.name,
      address: dropoffPoints.address,
      areaLabel: dropoffPoints.areaLabel,
      areaLabelUr: dropoffPoints.areaLabelUr,
      lat: dropoffPoints.lat,
      lng: dropoffPoints.lng,
    })
    .from(dropoffPoints)
    .where(and(eq(dropoffPoints.ngoId, ngoId), isNull(dropoffPoints.removedAt)))
    .orderBy(asc(dropoffPoints.createdAt), asc(dropoffPoints.id))
    .limit(DROPOFF_POINTS_MAX);
}

/**
 * Adds a drop-off point. The place must resolve to a place in Pakistan; the NGO's profile row is locked while the
 * points are counted, so two adds at once cannot pass DROPOFF_POINTS_MAX together.
 */
export async function addDropoffPoint(
  services: Pick<Services, "db" | "geocoder">,
  actor: Actor,
  input: DropoffAddInput,
): Promise<DropoffPoint> {
  const ngoId = idAs(actor, "ngo");
  const v = parse(dropoffAddSchema, input);
  const place = await resolvePlace(
    services.geocoder,
    v.place,
    { lat: v.placeLat, lng: v.placeLng },
    { message: "pickups:dropoffs.errors.placeInvalid", field: "place" },
  );
  return services.db.transaction(async (tx) => {
    const [ngo] = await tx.select({ id: ngoProfiles.userId }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngoId)).for("update");
    if (!ngo) throw notFound();
    const [listed] = await tx
      .select({ n: count() })
      .from(dropoffPoints)
      .where(and(eq(dropoffPoints.ngoId, ngoId), isNull(dropoffPoints.removedAt)));
    if ((listed?.n ?? 0) >= DROPOFF_POINTS_MAX) throw invalid("pickups.dropoffs_full", undefined, { max: String(DROPOFF_POINTS_MAX) });
    const [row] = await tx
      .insert(dropoffPoints)
      .values({
        ngoId,
        name: v.name,
        address: v.address,
        areaLabel: place.label,
        areaLabelUr: place.labelUr,
        lat: place.lat,
        lng: place.lng,
      })
      .returning();
    return {
      id: row!.id,
      name: row!.name,
      address: row!.address,
      areaLabel: row!.areaLabel,
      areaLabelUr: row!.areaLabelUr,
      lat: row!.lat,
      lng: row!.lng,
    };
  });
}

/**
 * Takes the NGO's profile row for as long as the transaction runs, shared: a pick-up being offered or assigned, which
 * chooses among the NGO's points, waits for a removal of one of them to finish (and a removal waits for it), so no
 * pick-up is left pointing at a point removed meanwhile. Taken before any pick-up row, as the removal does.
 */
export async function holdDropoffs(tx: DbOrTx, ngoId: string): Promise<void> {
  await tx.select({ id: ngoProfiles.userId }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngoId)).for("share");
}

/**
 * Removes one of the NGO's own points (another's, or one already removed, is not found). Pick-ups whose goods are
 * still on their way there move to the NGO's nearest remaining point, or to its office when none is left, in the
 * same transaction, and a rider who has one of them is told in the app (the rider card shows the new place);
 * finished ones keep showing where their goods went. The NGO's profile row is locked first, so two removals, or a
 * removal and an offer or assignment choosing a point, happen one after the other.
 */
export async function removeDropoffPoint(
  services: Pick<Services, "db" | "mailer" | "log">,
  actor: Actor,
  input: { id: string },
): Promise<void> {
  const ngoId = idAs(actor, "ngo");
  const { id } = parse(dropoffRemoveSchema, input);
  await services.db.transaction(async (tx) => {
    const [ngo] = await tx.select({ id: ngoProfiles.userId }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngoId)).for("update");
    if (!ngo) throw notFound();
    const [gone] = await tx
      .update(dropoffPoints)
      .set({ removedAt: sql`now()` })
      .where(and(eq(dropoffPoints.id, id), eq(dropoffPoints.ngoId, ngoId), isNull(dropoffPoints.removedAt)))
      .returning({ id: dropoffPoints.id });
    if (!gone) throw notFound();
    const moved = await tx
      .update(pickups)
      .set({ dropoffId: nearestDropoff(ngoId, sql`${pickups.lat}`, sql`${pickups.lng}`), updatedAt: sql`now()` })
      .where(and(eq(pickups.dropoffId, id), inArray(pickups.status, OPEN)))
      .returning({ donationId: pickups.donationId, riderId: pickups.riderId });
    const withRider = moved.filter((m) => m.riderId !== null);
    if (withRider.length === 0) return;
    const titles = await tx
      .select({ id: donations.id, title: campaigns.title })
      .from(donations)
      .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
      .where(
        inArray(
          donations.id,
          withRider.map((m) => m.donationId),
        ),
      );
    for (const m of withRider) {
      const campaign = titles.find((t) => t.id === m.donationId)?.title ?? "";
      await notify({ ...services, db: tx }, { userId: m.riderId!, type: "pickupDropoffMoved", params: { campaign }, link: "/rider_home" });
    }
  });
}
