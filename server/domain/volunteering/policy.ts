import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { volunteerApplications, volunteerPositions } from "#server/db/schema.ts";
import { policy, type Actor, type Relation } from "#server/domain/policy.ts";
import { applicationStates, positionStates, type ApplicationRole, type PositionRole } from "./states.ts";

/**
 * Who may read a volunteer application, and in what form, as data (decision 016). Who may decide one is the
 * transition table of states.ts (decision 015); both become a query scope here, so a read or a command is
 * `where(and(eq(volunteerApplications.id, id), applicationScope(actor, "detail")))`, and an application the
 * actor may not see is "not found".
 */

/** Who is asking: the account and its type, as the session knows them. */
export type ApplicationActor = Actor;

/** The relations that grant something; `otherNgo` (and anyone else) is everyone the table does not name. */
type GrantingRelation = Exclude<ApplicationRole, "otherNgo">;

/**
 * How an account stands to an application, each as the account type it needs and a condition on the row: the
 * donor who applied, the NGO whose position it was sent to, the administrator. The position's NGO is a
 * subquery, so the scope needs no join and means the same in every query.
 */
const RELATIONS: Record<GrantingRelation, Relation> = {
  applicant: { account: "donor", where: (actor) => eq(volunteerApplications.donorId, actor.id) },
  positionNgo: {
    account: "ngo",
    where: (actor) =>
      sql`exists (select 1 from ${volunteerPositions} where ${volunteerPositions.id} = ${volunteerApplications.positionId} and ${volunteerPositions.ngoId} = ${actor.id})`,
  },
  admin: { account: "admin", where: () => sql`true` },
};

/**
 * What may be read, and by whom. Each line is the whole rule for its reading:
 * - `detail`: one application with the applicant's contact details (/vol3, /volPSDAA);
 * - `resume`: the applicant's PDF resume (/files/resume/...);
 * - `list`: the lists, the NGO's by state (/vol2, /volApproved, /volRejected) and the donor's own (/dvh2).
 */
export const APPLICATION_READS = {
  detail: ["positionNgo"],
  resume: ["applicant", "positionNgo", "admin"],
  list: ["applicant", "positionNgo"],
} as const satisfies Record<string, readonly GrantingRelation[]>;

export type ApplicationRead = keyof typeof APPLICATION_READS;

const areaPolicy = policy({ relations: RELATIONS, reads: APPLICATION_READS, machine: applicationStates });

/** The rows `actor` may read this way, as a condition for a query's `where`; nobody signed in sees none. */
export const applicationScope = areaPolicy.scope;
export const { rolesFor, decisionScope } = areaPolicy;

/** Whether `actor` may read the resume stored under `key`: an application sent with it is in their scope. */
export async function mayReadResume(db: DbOrTx, key: string, actor: ApplicationActor | null): Promise<boolean> {
  if (!actor) return false;
  const [row] = await db
    .select({ id: volunteerApplications.id })
    .from(volunteerApplications)
    .where(and(eq(volunteerApplications.resumeKey, key), applicationScope(actor, "resume")))
    .limit(1);
  return row !== undefined;
}

/**
 * Who may see and move a volunteer position on the NGO side: the NGO that posted it (`owner`). Who may close and
 * reopen is the position table of states.ts; `own` is the NGO's lists (/vol0, /volClosed), the applications
 * filter's choices and the position it closes or reopens. Donors read open positions without a relation
 * (`openPositions`, `positionForDonor`).
 */
const POSITION_RELATIONS: Partial<Record<PositionRole, Relation>> = {
  owner: { account: "ngo", where: (actor) => eq(volunteerPositions.ngoId, actor.id) },
};

export const POSITION_READS = {
  own: ["owner"],
} as const satisfies Record<string, readonly PositionRole[]>;

export type PositionRead = keyof typeof POSITION_READS;

const positionPolicy = policy({ relations: POSITION_RELATIONS, reads: POSITION_READS, machine: positionStates });

/** The positions `actor` may read this way, as a condition for a query's `where`. */
export const positionScope = positionPolicy.scope;
