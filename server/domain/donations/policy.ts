import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { donationReplies, donations } from "#server/db/schema.ts";
import { policy, type Actor, type Relation } from "#server/domain/policy.ts";
import { cashDonationStates, type CashDonationRole } from "./states.ts";

/**
 * Who may read a donation, and in what form, as data (decision 016). Who may decide one is the transition
 * table of states.ts (decision 015); both become the same kind of query scope here, so a read or a command
 * is `where(and(eq(donations.id, id), donationScope(actor, "receipt")))`, and a donation the actor may not
 * see is "not found", never "forbidden": its existence does not leak, and there is no check-then-act.
 */

/** Who is asking: the account and its type, as the session knows them. */
export type DonationActor = Actor;

/** The relations that grant something; `otherNgo` (and anyone else) is everyone the table does not name. */
type GrantingRelation = Exclude<CashDonationRole, "otherNgo">;

/**
 * How an account stands to a donation, each as the account type it needs and a condition on the row: the
 * donor who gave it, the NGO it was paid to (or collected for), and the administrator. Riders stand in no
 * relation to a donation (a rider sees a pick-up, server/domain/pickups).
 */
const RELATIONS: Record<GrantingRelation, Relation> = {
  donor: { account: "donor", where: (actor) => eq(donations.donorId, actor.id) },
  recipient: { account: "ngo", where: (actor) => eq(donations.recipientNgoId, actor.id) },
  admin: { account: "admin", where: () => sql`true` },
};

/**
 * What may be read, and by whom. Each line is the whole rule for its reading:
 * - `summary`: the donor's own page of a cash donation (the thank-you page, /donate4);
 * - `review`: the NGO's review of a donation paid to it, with its proof and what it shares with others (/apps);
 * - `proof`: the payment screenshot (/files/proof/...);
 * - `receipt`: the PDF receipt of an approved cash donation (/receipts/<id>);
 * - `history`: the lists, the donor's (/dvh) and the receiving NGO's (/donHistory and its CSV export);
 * - `statement`: the donor's yearly giving statement and Zakat summary (/dvh/statements, decision 052): the giver only.
 */
export const DONATION_READS = {
  summary: ["donor"],
  review: ["recipient"],
  proof: ["donor", "recipient", "admin"],
  receipt: ["donor", "recipient", "admin"],
  history: ["donor", "recipient"],
  statement: ["donor"],
} as const satisfies Record<string, readonly GrantingRelation[]>;

export type DonationRead = keyof typeof DONATION_READS;

const areaPolicy = policy({ relations: RELATIONS, reads: DONATION_READS, machine: cashDonationStates });

/** The rows `actor` may read this way, as a condition for a query's `where`; nobody signed in sees none. */
export const donationScope = areaPolicy.scope;
export const { rolesFor, decisionScope } = areaPolicy;

/**
 * Whether `actor` may read the payment screenshot stored under `key`: a donation with that proof is in their scope,
 * or one whose corrected proof replaced it (decision 025: the earlier screenshot stays part of the gift's history).
 */
export async function mayReadProof(db: DbOrTx, key: string, actor: DonationActor | null): Promise<boolean> {
  if (!actor) return false;
  const [row] = await db
    .select({ id: donations.id })
    .from(donations)
    .where(and(eq(donations.proofKey, key), donationScope(actor, "proof")))
    .limit(1);
  if (row) return true;
  const [earlier] = await db
    .select({ id: donations.id })
    .from(donationReplies)
    .innerJoin(donations, eq(donations.id, donationReplies.donationId))
    .where(and(eq(donationReplies.previousProofKey, key), donationScope(actor, "proof")))
    .limit(1);
  return earlier !== undefined;
}
