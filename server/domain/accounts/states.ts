import { VERIFICATION_STATUSES } from "#shared/statuses.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

/**
 * An NGO's or rider's account as the administrator vets it (decision 003; ARCHITECTURE "Accounts"), two tables
 * over two columns. The vocabulary of the first is the database enum's.
 */

/** How an account stands to a vetting step: the administrator, the account itself, or any other account. */
export const ACCOUNT_ROLES = ["admin", "self", "other"] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Verification: a sign-up waits (`pending`) until the administrator accepts or rejects it; a rejected one may send corrected details. */
export const verificationStates = stateMachine({
  states: VERIFICATION_STATUSES,
  roles: ACCOUNT_ROLES,
  table: [
    { action: "accept", from: ["pending"], to: "verified", by: ["admin"] },
    { action: "reject", from: ["pending"], to: "rejected", by: ["admin"] },
    { action: "resubmit", from: ["rejected"], to: "pending", by: ["self"] },
  ],
});
export type VerificationAction = (typeof verificationStates.actions)[number];

/** Suspension, stored as `suspended_at` (null: active): the administrator suspends an account and lifts it again. */
export const SUSPENSION_STATES = ["active", "suspended"] as const;
export type SuspensionState = (typeof SUSPENSION_STATES)[number];

export const suspensionStates = stateMachine({
  states: SUSPENSION_STATES,
  roles: ACCOUNT_ROLES,
  table: [
    { action: "suspend", from: ["active"], to: "suspended", by: ["admin"] },
    { action: "restore", from: ["suspended"], to: "active", by: ["admin"] },
  ],
});
export type SuspensionAction = (typeof suspensionStates.actions)[number];

export const suspensionState = (suspendedAt: Date | null): SuspensionState => (suspendedAt === null ? "active" : "suspended");
