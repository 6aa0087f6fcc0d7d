import { and, eq, sql, type AnyColumn } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { campaignPartners, campaignUpdatePhotos, campaignUpdates, campaigns, supportWords } from "#server/db/schema.ts";
import { policy, type Actor, type Relation } from "#server/domain/policy.ts";
import { supportWordStates, updateStates, type SupportWordRole, type UpdateRole } from "./states.ts";

/**
 * Who may read campaign updates and words of support beyond the public page, as data (decisions 016 and 050). The
 * public page reads published updates and approved words without a relation (public.ts); everything else (drafts,
 * removed updates, words waiting or hidden) is read through these scopes, so a row the actor may not see is "not found".
 */

/** An NGO runs the campaign of the row in `column`: it owns it, or it is an accepted partner. */
function runs(column: AnyColumn): Record<"owner" | "partner", Relation> {
  return {
    owner: {
      account: "ngo",
      where: (actor) => sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${column} and ${campaigns.ownerId} = ${actor.id})`,
    },
    partner: {
      account: "ngo",
      where: (actor) =>
        sql`exists (select 1 from ${campaignPartners} where ${campaignPartners.campaignId} = ${column}
          and ${campaignPartners.ngoId} = ${actor.id} and ${campaignPartners.status} = 'accepted')`,
    },
  };
}

/**
 * - `manage`: every update of a campaign the NGO runs, drafts and removed ones included (its updates screen, a
 *   draft's photos).
 */
export const UPDATE_READS = {
  manage: ["owner", "partner"],
} as const satisfies Record<string, readonly Exclude<UpdateRole, "other">[]>;
export type UpdateRead = keyof typeof UPDATE_READS;

const updatePolicy = policy({ relations: runs(campaignUpdates.campaignId), reads: UPDATE_READS, machine: updateStates });
export const updateScope = updatePolicy.scope;

/**
 * - `moderate`: every word of support for a campaign the NGO runs, whatever its state (the moderation screen).
 * - `own`: the donor's own words, whatever their state (the donor's form shows where they stand).
 */
export const SUPPORT_WORD_READS = {
  moderate: ["owner", "partner"],
  own: ["author"],
} as const satisfies Record<string, readonly Exclude<SupportWordRole, "other">[]>;
export type SupportWordRead = keyof typeof SUPPORT_WORD_READS;

const wordPolicy = policy({
  relations: {
    ...runs(supportWords.campaignId),
    author: { account: "donor", where: (actor) => eq(supportWords.donorId, actor.id) },
  },
  reads: SUPPORT_WORD_READS,
  machine: supportWordStates,
});
export const supportWordScope = wordPolicy.scope;

/**
 * Who may read an update's photo (files.ts): anyone once its update is published; otherwise (a draft, a removed
 * update) the NGOs that run its campaign.
 */
export async function mayReadUpdatePhoto(db: DbOrTx, key: string, actor: Actor | null): Promise<boolean> {
  if (await updatePhotoIsPublic(db, key)) return true;
  if (!actor) return false;
  const [row] = await db
    .select({ id: campaignUpdatePhotos.id })
    .from(campaignUpdatePhotos)
    .innerJoin(campaignUpdates, eq(campaignUpdates.id, campaignUpdatePhotos.updateId))
    .where(and(eq(campaignUpdatePhotos.key, key), updateScope(actor, "manage")))
    .limit(1);
  return row !== undefined;
}

/** A photo of a published update: shown to anyone, and cached like the campaign pictures. */
export async function updatePhotoIsPublic(db: DbOrTx, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: campaignUpdatePhotos.id })
    .from(campaignUpdatePhotos)
    .innerJoin(campaignUpdates, eq(campaignUpdates.id, campaignUpdatePhotos.updateId))
    .where(and(eq(campaignUpdatePhotos.key, key), eq(campaignUpdates.status, "published")))
    .limit(1);
  return row !== undefined;
}
