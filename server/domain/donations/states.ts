import { DONATION_STATUSES } from "#shared/statuses.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

/**
 * A cash donation's states and who may move it between them (decision 007). The vocabulary is the database
 * enum's: `pending` until the NGO it was paid to reviews the proof, then `approved` (counted, with a receipt)
 * or `rejected` (the screens say "disapproved"). An approval is final. A disapproval may be answered once by the
 * donor with a corrected proof (`resubmit`, decision 025): the same gift goes back to `pending` for the NGO to
 * decide again. "Once" is the gift's reply row (donation_replies, unique per gift), checked in the same guarded
 * update, so a second answer is refused however the requests race. In-kind donations share the column but move
 * with their pick-up (server/domain/pickups/states.ts).
 */

/** How an account stands to a cash donation: the NGO it was paid to, its donor, another NGO, the administrator. */
export const CASH_DONATION_ROLES = ["recipient", "donor", "otherNgo", "admin"] as const;
export type CashDonationRole = (typeof CASH_DONATION_ROLES)[number];

export const cashDonationStates = stateMachine({
  states: DONATION_STATUSES,
  roles: CASH_DONATION_ROLES,
  table: [
    { action: "approve", from: ["pending"], to: "approved", by: ["recipient"] },
    { action: "disapprove", from: ["pending"], to: "rejected", by: ["recipient"] },
    { action: "resubmit", from: ["rejected"], to: "pending", by: ["donor"] },
    // The same decision again (a repeated or concurrent click) is answered as done and changes nothing.
    { action: "approve", from: ["approved"], to: null, by: ["recipient"], repeat: true },
    { action: "disapprove", from: ["rejected"], to: null, by: ["recipient"], repeat: true },
  ],
});

export type CashDonationAction = (typeof cashDonationStates.actions)[number];
export const { canTransition, assertTransition, actionsFor, fromStates } = cashDonationStates;
