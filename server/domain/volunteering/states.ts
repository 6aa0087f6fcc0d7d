import { APPLICATION_STATUSES, type PositionStatus } from "#shared/statuses.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

/**
 * A volunteer application's states and who may move it (decision 009): `pending` until the position's NGO
 * approves or declines it, once. The vocabulary is the database enum's.
 */

/** How an account stands to an application: the NGO of its position, the donor who applied, another NGO, the administrator. */
export const APPLICATION_ROLES = ["positionNgo", "applicant", "otherNgo", "admin"] as const;
export type ApplicationRole = (typeof APPLICATION_ROLES)[number];

export const applicationStates = stateMachine({
  states: APPLICATION_STATUSES,
  roles: APPLICATION_ROLES,
  table: [
    // Approving beyond the number needed also asks for a confirmation (decideApplication): a count, not a state.
    { action: "approve", from: ["pending"], to: "approved", by: ["positionNgo"] },
    { action: "decline", from: ["pending"], to: "declined", by: ["positionNgo"] },
    // The same decision again (a repeated or concurrent click) is answered as done and changes nothing.
    { action: "approve", from: ["approved"], to: null, by: ["positionNgo"], repeat: true },
    { action: "decline", from: ["declined"], to: null, by: ["positionNgo"], repeat: true },
  ],
});
export type ApplicationAction = (typeof applicationStates.actions)[number];

/**
 * A position is stored `active` or `closed` (the database enum), but whether it takes applications also depends
 * on its closing day, worked out on every read. The table is over what that makes it: `open`, `lapsed` (active,
 * but its closing day has passed) or `closed` (closed by the NGO).
 */
export const POSITION_STATES = ["open", "lapsed", "closed"] as const;
export type PositionState = (typeof POSITION_STATES)[number];

/** The stored status each state is kept as. */
export const STORED_POSITION_STATUS: Record<PositionState, PositionStatus> = { open: "active", lapsed: "active", closed: "closed" };

/** What a position is on `today` (a Pakistan calendar day, YYYY-MM-DD): its closing day counts in full. */
export function positionState(p: { status: PositionStatus; closesOn: string | null }, today: string): PositionState {
  if (p.status === "closed") return "closed";
  return p.closesOn !== null && p.closesOn < today ? "lapsed" : "open";
}

/** How an NGO stands to a position: it posted it, or it did not. */
export const POSITION_ROLES = ["owner", "otherNgo"] as const;
export type PositionRole = (typeof POSITION_ROLES)[number];

export const positionStates = stateMachine({
  states: POSITION_STATES,
  roles: POSITION_ROLES,
  table: [
    { action: "close", from: ["open", "lapsed"], to: "closed", by: ["owner"] },
    // Reopening a lapsed position removes the passed closing day (or sets a new one), so it is open again.
    { action: "reopen", from: ["closed", "lapsed"], to: "open", by: ["owner"] },
  ],
});
export type PositionAction = (typeof positionStates.actions)[number];
