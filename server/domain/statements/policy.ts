import { eq } from "drizzle-orm";
import { statementImports, statementLines, statementUploads } from "#server/db/schema.ts";
import { policy, type Actor } from "#server/domain/policy.ts";
import { statementLineStates } from "./states.ts";

/**
 * Who may read an NGO's statements (decision 016's shape): only the NGO whose account it is. Another NGO, a
 * partner of a joint campaign included, finds nothing: a statement shows every transfer to the account, not only
 * the campaign's. The administrator reads the audit log, not the statement.
 */
const owner = (column: typeof statementLines.ngoId | typeof statementImports.ngoId | typeof statementUploads.ngoId) => ({
  account: "ngo" as const,
  where: (actor: Actor) => eq(column, actor.id),
});

export const STATEMENT_READS = { lines: ["owner"] } as const;

const linePolicy = policy({ relations: { owner: owner(statementLines.ngoId) }, reads: STATEMENT_READS, machine: statementLineStates });
const importPolicy = policy({ relations: { owner: owner(statementImports.ngoId) }, reads: STATEMENT_READS, machine: statementLineStates });
const uploadPolicy = policy({ relations: { owner: owner(statementUploads.ngoId) }, reads: STATEMENT_READS, machine: statementLineStates });

/** The statement lines `actor` may read and work on. */
export const lineScope = (actor: Actor | null) => linePolicy.scope(actor, "lines");
/** The lines `actor` may take `action` on (the transition table's roles). */
export const lineDecisionScope = linePolicy.decisionScope;
export const importScope = (actor: Actor | null) => importPolicy.scope(actor, "lines");
export const uploadScope = (actor: Actor | null) => uploadPolicy.scope(actor, "lines");
