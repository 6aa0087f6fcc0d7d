import { eq } from "drizzle-orm";
import { donations, pickups } from "#server/db/schema.ts";
import { policy, type Actor, type Relation } from "#server/domain/policy.ts";
import { pickupStates, type PickupRole } from "./states.ts";

/**
 * Who may see and move a pick-up, as data (decision 016). Who may take each step is the transition table of
 * states.ts; who may read which list is PICKUP_READS. Both become a condition on a query that joins `pickups` with
 * its `donations` row, so a pick-up the actor may not see is "not found", never "forbidden", and there is no
 * check-then-act.
 */

/** Who is asking: the account and its type, as the session knows them. */
export type PickupActor = Actor;

/** The relations that grant something; another rider or NGO (and anyone else) is everyone the table does not name. */
type GrantingRelation = Exclude<PickupRole, "otherRider" | "otherNgo">;

/** How an account stands to a pick-up: the NGO the goods are given to, the rider it is assigned to, the donor. */
const RELATIONS: Record<GrantingRelation, Relation> = {
  recipientNgo: { account: "ngo", where: (actor) => eq(donations.recipientNgoId, actor.id) },
  assignedRider: { account: "rider", where: (actor) => eq(pickups.riderId, actor.id) },
  donor: { account: "donor", where: (actor) => eq(donations.donorId, actor.id) },
};

/**
 * What may be read, and by whom:
 * - `queue`: the NGO's requests, their campaigns filter and one request's dialog (/noncash_apps);
 * - `riderList`: the rider's pending, registered and completed pick-ups (/rider_home);
 * - `donorView`: the donor's timeline and door code (/dvh, /donate6).
 */
export const PICKUP_READS = {
  queue: ["recipientNgo"],
  riderList: ["assignedRider"],
  donorView: ["donor"],
} as const satisfies Record<string, readonly GrantingRelation[]>;

export type PickupRead = keyof typeof PICKUP_READS;

const areaPolicy = policy({ relations: RELATIONS, reads: PICKUP_READS, machine: pickupStates });

/** The rows `actor` may read this way, as a condition for a query's `where`; nobody signed in sees none. */
export const pickupScope = areaPolicy.scope;
export const { rolesFor, decisionScope } = areaPolicy;
