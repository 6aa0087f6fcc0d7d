import { PICKUP_ACTIONS, PICKUP_STATUSES, type PickupStatus } from "#shared/statuses.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

/**
 * A pick-up's states and who may move it (decision 008). The vocabulary is the database enum's: `new` (waiting
 * for a rider) → `assigned` (waiting for the rider's answer) → `accepted` → `collected` (the donor's code was
 * entered at the door) → `delivered` (handed over at the NGO) → `received` (the NGO confirmed); `cancelled` by the
 * NGO until the goods are collected. This table is the one list of which state allows what: the domain functions
 * assert against it, the NGO's and the rider's screens get `actionsFor` from their loaders, and the donor's door
 * code follows `donorSeesCode`.
 */

/**
 * How an account stands to a pick-up: the NGO the goods are given to, the rider it is assigned to, another rider,
 * another NGO, the donor.
 */
export const PICKUP_ROLES = ["recipientNgo", "assignedRider", "otherRider", "otherNgo", "donor"] as const;
export type PickupRole = (typeof PICKUP_ROLES)[number];

export const pickupStates = stateMachine({
  states: PICKUP_STATUSES,
  actions: PICKUP_ACTIONS,
  roles: PICKUP_ROLES,
  table: [
    { action: "assign", from: ["new"], to: "assigned", by: ["recipientNgo"] },
    // To another rider than the current one (assignRider refuses the same rider).
    { action: "reassign", from: ["assigned", "accepted"], to: "assigned", by: ["recipientNgo"] },
    { action: "cancel", from: ["new", "assigned", "accepted"], to: "cancelled", by: ["recipientNgo"] },
    { action: "accept", from: ["assigned"], to: "accepted", by: ["assignedRider"] },
    // Back in the NGO's queue, without a rider.
    { action: "decline", from: ["assigned"], to: "new", by: ["assignedRider"] },
    // Only with the donor's code (confirmCollected).
    { action: "collect", from: ["accepted"], to: "collected", by: ["assignedRider"] },
    { action: "deliver", from: ["collected"], to: "delivered", by: ["assignedRider"] },
    { action: "receive", from: ["delivered"], to: "received", by: ["recipientNgo"] },
  ],
});
export const { canTransition, assertTransition, actionsFor } = pickupStates;

const CODE_STATES: readonly PickupStatus[] = pickupStates.statesLeadingTo("collect");

/** The donor sees the door code while the goods can still be collected: in every state from which "collect" lies ahead. */
export function donorSeesCode(status: PickupStatus): boolean {
  return CODE_STATES.includes(status);
}
