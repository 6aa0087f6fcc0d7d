import { STATEMENT_LINE_STATUSES } from "#shared/statuses.ts";
import { stateMachine } from "#server/domain/state-machine.ts";

/**
 * A statement line's states and who moves it (decision 022). `system` is the matcher and the cash decision: a
 * line is matched by rule, confirmed in the transaction that approves its gift, and released (`unmatch`) when the gift
 * is disapproved. The NGO that owns the statement (`owner`) matches by hand, confirms, ignores a line that is no gift through the platform (with a reason) and restores it.
 */
export const STATEMENT_LINE_ROLES = ["owner", "system"] as const;
export type StatementLineRole = (typeof STATEMENT_LINE_ROLES)[number];

export const statementLineStates = stateMachine({
  states: STATEMENT_LINE_STATUSES,
  roles: STATEMENT_LINE_ROLES,
  table: [
    { action: "match", from: ["unmatched"], to: "matched", by: ["owner", "system"] },
    { action: "unmatch", from: ["matched"], to: "unmatched", by: ["system"] },
    { action: "confirm", from: ["matched"], to: "confirmed", by: ["owner", "system"] },
    { action: "confirm", from: ["confirmed"], to: null, by: ["owner", "system"], repeat: true },
    { action: "ignore", from: ["unmatched"], to: "ignored", by: ["owner"] },
    { action: "restore", from: ["ignored"], to: "unmatched", by: ["owner"] },
  ],
});

export type StatementLineAction = (typeof statementLineStates.actions)[number];
export const { assertTransition, actionsFor, fromStates } = statementLineStates;
