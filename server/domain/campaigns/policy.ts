import { eq, sql } from "drizzle-orm";
import { campaignPartners, campaigns, partneredCampaigns } from "#server/db/schema.ts";
import { policy, type Relation } from "#server/domain/policy.ts";
import { campaignStates, type CampaignActor } from "./states.ts";

/**
 * Who may see and change a campaign on the NGO side, as data (decision 016). Who may take each step (edit, close,
 * delete) is the transition table of states.ts; who may read the NGO's views of a campaign is CAMPAIGN_READS. Both
 * become a condition for a query's `where`, so a campaign the NGO does not run is "not found". The public page,
 * the donors' pickers and the map read active campaigns without a relation (public.ts, map.ts).
 */

/** The relations that grant something; another NGO (and anyone else) is everyone the table does not name. */
type GrantingRelation = Exclude<CampaignActor, "otherNgo" | "system">;

/** How an NGO stands to a campaign: it owns it, or it is an accepted partner. */
const RELATIONS: Record<GrantingRelation, Relation> = {
  owner: {
    account: "ngo",
    where: (actor) => eq(campaigns.ownerId, actor.id),
    // Its own campaigns, narrowed (and cut at a page's end) when the reader says what it keeps: an index of the owner,
    // the state and the list's order answers it (campaigns_owner_status_idx, decision 044).
    ids: (actor, within) =>
      within
        ? sql`select owned.id from (select o.id from ${campaigns} o where o.owner_id = ${actor.id} and ${within.where("o", sql.raw("o.owner_id"))}${
            within.first ? sql` order by ${within.first.orderBy("o")} limit ${within.first.limit}` : sql``
          }) owned`
        : sql`select owned.id from ${campaigns} owned where owned.owner_id = ${actor.id}`,
  },
  partner: {
    account: "ngo",
    where: (actor) =>
      sql`exists (select 1 from ${campaignPartners} where ${campaignPartners.campaignId} = ${campaigns.id}
        and ${campaignPartners.ngoId} = ${actor.id} and ${campaignPartners.status} = 'accepted')`,
    // Narrowed, from the kept copy of its partnerships with their campaigns' columns (partnered_campaigns, named as in
    // `campaigns`): an index of the NGO, the state and the list's order answers it up to the page's end, where every
    // partnered campaign was looked up and sorted (decision 044).
    ids: (actor, within) =>
      within
        ? sql`select partnered.id from (select r.id from ${partneredCampaigns} r where r.ngo_id = ${actor.id}
            and r.partnership = 'accepted' and r.owner_id <> r.ngo_id and ${within.where("r", sql.raw("r.ngo_id"))}${
              within.first ? sql` order by ${within.first.orderBy("r")} limit ${within.first.limit}` : sql``
            }) partnered`
        : sql`select ${campaignPartners.campaignId} from ${campaignPartners} where ${campaignPartners.ngoId} = ${actor.id}
            and ${campaignPartners.status} = 'accepted'`,
  },
};

/**
 * What may be read, and by whom:
 * - `run`: the campaigns an NGO runs, owned or as a partner: its lists (/campaigns, /comp_camp), a campaign's
 *   analytics, the joint campaigns of /collab.
 */
export const CAMPAIGN_READS = {
  run: ["owner", "partner"],
} as const satisfies Record<string, readonly GrantingRelation[]>;

export type CampaignRead = keyof typeof CAMPAIGN_READS;

const areaPolicy = policy({ relations: RELATIONS, reads: CAMPAIGN_READS, machine: campaignStates, id: campaigns.id });

/** The campaigns `actor` may read this way, as a condition for a query's `where`. */
export const campaignScope = areaPolicy.scope;
export const { rolesFor, decisionScope } = areaPolicy;
