import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, spendingRecords } from "#server/db/schema.ts";
import { policy, type Actor, type Relation } from "#server/domain/policy.ts";
import { campaignScope } from "#server/domain/campaigns/policy.ts";
import { spendingStates, type SpendingRole } from "./states.ts";

/**
 * Who may see and change a campaign's spending records on the NGO side, as data (decision 016, 049). The public
 * ledger reads published records without a relation (ledger.ts); drafts are read only through this scope.
 */

/** The campaigns the actor runs (owns, or is an accepted partner of): the campaigns policy's own scope. */
const runsCampaign = (actor: Actor) =>
  sql`${spendingRecords.campaignId} in (select ${campaigns.id} from ${campaigns} where ${campaignScope(actor, "run")})`;

const RELATIONS: Record<Exclude<SpendingRole, "otherNgo">, Relation> = {
  // Its own record, while it still runs the campaign: a partner that left keeps no access to its drafts.
  spender: { account: "ngo", where: (actor) => and(eq(spendingRecords.ngoId, actor.id), runsCampaign(actor))! },
  campaignNgo: { account: "ngo", where: runsCampaign },
  // The platform's administrator: every record, for what the table lets it do (take a published one down).
  admin: { account: "admin", where: () => sql`true` },
};

/**
 * What may be read, and by whom:
 * - `campaign`: every record of a campaign the NGO runs, drafts included (its spending screen); published records
 *   are public as well, through the ledger.
 * - `takenDown`: a record the administrator took down, with its document: the administrator (who judged it) reads it
 *   as well as the campaign's NGOs; the public ledger shows only that it was removed and when.
 */
export const SPENDING_READS = {
  campaign: ["spender", "campaignNgo"],
  takenDown: ["spender", "campaignNgo", "admin"],
} as const satisfies Record<string, readonly SpendingRole[]>;
export type SpendingRead = keyof typeof SPENDING_READS;

const areaPolicy = policy({ relations: RELATIONS, reads: SPENDING_READS, machine: spendingStates });

/** The spending records `actor` may read this way, as a condition for a query's `where`. */
export const spendingScope = areaPolicy.scope;
export const { rolesFor, decisionScope } = areaPolicy;

/**
 * Whether `actor` may read the document stored under `key` (file kind `spending`): anyone while its record is
 * published, the campaign's NGOs while it is a draft, the campaign's NGOs and the administrator once it was taken
 * down; a key no record holds (yet) is nobody's.
 */
export async function mayReadSpendingDocument(db: DbOrTx, key: string, actor: Actor | null): Promise<boolean> {
  const [row] = await db
    .select({ id: spendingRecords.id })
    .from(spendingRecords)
    .where(
      and(
        eq(spendingRecords.documentKey, key),
        sql`(${spendingRecords.status} = 'published'
          or (${spendingRecords.status} = 'draft' and ${spendingScope(actor, "campaign")})
          or (${spendingRecords.status} = 'taken_down' and ${spendingScope(actor, "takenDown")}))`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
