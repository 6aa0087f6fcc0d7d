import { isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { users } from "#server/db/schema.ts";
import { forbidden } from "#server/domain/errors.ts";
import { policy, type Actor, type Relation } from "#server/domain/policy.ts";
import {
  suspensionStates,
  verificationStates,
  type AccountRole,
  type SuspensionAction,
  type SuspensionState,
  type VerificationAction,
} from "#server/domain/accounts/states.ts";

/**
 * Who may see and vet an NGO's or rider's account, as data (decision 016). Who may take each step is the two
 * tables of accounts/states.ts; who may read which list is ACCOUNT_READS. The administrator stands in the `admin` relation
 * to every account; an account stands in `self` to its own (its re-submission, resubmit.ts); no one else in any.
 */
const RELATIONS: Partial<Record<AccountRole, Relation>> = {
  admin: { account: "admin", where: () => sql`true` },
};

/**
 * What may be read, and by whom:
 * - `queue`: the sign-ups waiting for a decision, with every field the applicant gave (/admin);
 * - `accounts`: every NGO and rider account, whatever its state (/admin/accounts);
 * - `checks`: what the vetting of an NGO checked, revoked and expired checks and their documents included
 *   (/admin/ngos/:id/checks; the public sees only the standing ones, as the badge).
 */
export const ACCOUNT_READS = {
  queue: ["admin"],
  accounts: ["admin"],
  checks: ["admin"],
} as const satisfies Record<string, readonly AccountRole[]>;

export type AccountRead = keyof typeof ACCOUNT_READS;

const verification = policy({ relations: RELATIONS, reads: ACCOUNT_READS, machine: verificationStates });
const suspension = policy({ relations: RELATIONS, reads: ACCOUNT_READS, machine: suspensionStates });

/** The accounts `actor` may read this way, as a condition for a query's `where`; anyone but the administrator sees none. */
export const accountScope = verification.scope;

/** How `actor` stands to the account `userId`: the administrator, the account itself, or another. */
export function accountRole(actor: Actor, userId: string): AccountRole {
  if (actor.role === "admin") return "admin";
  return actor.id === userId ? "self" : "other";
}

/** Refuses (403) anyone the verification table does not give `action`; the account's state is the update's `WHERE`. */
export function assertMayVet(actor: Actor, userId: string, action: VerificationAction): void {
  if (!verification.rolesFor(action).includes(accountRole(actor, userId))) throw forbidden();
}

/** Refuses (403) anyone the suspension table does not give `action`. */
export function assertMaySuspend(actor: Actor, userId: string, action: SuspensionAction): void {
  if (!suspension.rolesFor(action).includes(accountRole(actor, userId))) throw forbidden();
}

const SUSPENSION_COLUMN: Record<SuspensionState, SQL> = {
  active: isNull(users.suspendedAt),
  suspended: isNotNull(users.suspendedAt),
};

/** The accounts `action` changes something on, by the table: the `WHERE` of its guarded update. */
export function suspensionFrom(action: SuspensionAction): SQL {
  return or(...suspensionStates.fromStates(action).map((s) => SUSPENSION_COLUMN[s]))!;
}

/** Who may record, renew and revoke the checks of an NGO's vetting (decision 051): the administrator only. */
export const CHECK_STEPS = {
  record: ["admin"],
  renew: ["admin"],
  revoke: ["admin"],
} as const satisfies Record<string, readonly AccountRole[]>;

export type CheckStep = keyof typeof CHECK_STEPS;

/** Refuses (403) anyone CHECK_STEPS does not give `step` on the NGO `ngoId`'s checks. */
export function assertMayCheck(actor: Actor, ngoId: string, step: CheckStep): void {
  if (!(CHECK_STEPS[step] as readonly AccountRole[]).includes(accountRole(actor, ngoId))) throw forbidden();
}
