import { SPENDING_STATUSES, type SpendingStatus } from "#shared/statuses.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

/**
 * A spending record's states and who may move it (decision 049). The stored vocabulary is the database enum's
 * (`draft`, `published`); the table is over what the NGO makes, so writing starts from `none` (no row yet) and
 * discarding a draft goes back there (the row is removed).
 *
 * A published record is final for the NGO: it never edits or removes it, so what the public once read stays on the
 * ledger. A mistake is put right by a correction: a new draft that names the published record it corrects; once the
 * correction is published, the ledger shows both and the totals count the correction instead. Only the platform's
 * administrator may take a published record down (its document shows private data after all, or it is abusive): the
 * row stays, the ledger says it was removed and when, and it no longer counts as spent.
 */
export const SPENDING_STATES = ["none", ...SPENDING_STATUSES] as const;
export type SpendingState = (typeof SPENDING_STATES)[number];

/**
 * How an NGO stands to a spending record: the NGO that spent it (it writes, publishes, discards and corrects its
 * own), another NGO running the same campaign (owner or accepted partner: it reads the campaign's drafts, as the
 * ledger is the campaign's), or any other NGO (nothing; the public ledger shows it what everyone sees). The platform's
 * administrator (`admin`) takes published records down, and nothing else.
 */
export const SPENDING_ROLES = ["spender", "campaignNgo", "otherNgo", "admin"] as const;
export type SpendingRole = (typeof SPENDING_ROLES)[number];

export const spendingStates = stateMachine({
  states: SPENDING_STATES,
  roles: SPENDING_ROLES,
  table: [
    // Any NGO running the campaign records what it spent; the record is its own from then on.
    { action: "write", from: ["none"], to: "draft", by: ["spender", "campaignNgo"] },
    { action: "discard", from: ["draft"], to: "none", by: ["spender"] },
    { action: "publish", from: ["draft"], to: "published", by: ["spender"] },
    // A new draft naming this record: the record itself stays as it is.
    { action: "correct", from: ["published"], to: null, by: ["spender"] },
    // The administrator's alone, with a reason; final (a record taken down is not published again).
    { action: "takeDown", from: ["published"], to: "taken_down", by: ["admin"] },
  ],
});
export type SpendingAction = (typeof spendingStates.actions)[number];
export const { canTransition, assertTransition, actionsFor, fromStates } = spendingStates;

export const spendingState = (status: SpendingStatus | null | undefined): SpendingState => status ?? "none";
