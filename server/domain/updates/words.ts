import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { SupportWordStatus } from "#shared/statuses.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid } from "#server/db/query.ts";
import { campaignPartners, campaigns, donations, donorProfiles, supportWords } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { campaignForNgo, type Campaign } from "#server/domain/campaigns/access.ts";
import { conflict, forbidden, notFound } from "#server/domain/errors.ts";
import { notifyAll } from "#server/domain/notifications/notifications.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { supportWordScope } from "./policy.ts";
import { supportWordStates, type SupportWordAction, type SupportWordState } from "./states.ts";

/**
 * Words of support (decision 050): a donor with an approved gift to a campaign writes a short message; it waits until
 * an NGO of the campaign approves it (or hides it); only approved words are public, under the donor's first name when
 * every approved gift of theirs to the campaign chose to be named, otherwise as "a donor".
 */

/** The most words the moderation screen lists: those waiting first, then the newest. */
export const MODERATED_WORDS_SHOWN = 100;

/** A donor has given to the campaign: an approved gift, as for its notices and its donor count. */
async function hasGiven(db: DbOrTx, campaignId: string, donorId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(donations)
    .where(and(eq(donations.campaignId, campaignId), eq(donations.donorId, donorId), eq(donations.status, "approved")))
    .limit(1);
  return row !== undefined;
}

/** A campaign the public can see, by its slug; an archived or unknown one is not found. */
async function publicCampaignBySlug(db: DbOrTx, slug: string): Promise<Pick<Campaign, "id" | "title" | "slug">> {
  if (!slug || slug.length > 200) throw notFound();
  const [row] = await db
    .select({ id: campaigns.id, title: campaigns.title, slug: campaigns.slug })
    .from(campaigns)
    .where(and(eq(campaigns.slug, slug), ne(campaigns.status, "archived")))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export interface OwnWords {
  campaign: { title: string; slug: string };
  /** The donor has an approved gift to the campaign, so may write. */
  mayWrite: boolean;
  state: SupportWordState;
  body: string | null;
}

/** The donor's words for a campaign, and whether they may write or rewrite them. */
export async function ownWords(db: DbOrTx, actor: Actor, slug: string): Promise<OwnWords> {
  const donorId = idAs(actor, "donor");
  const campaign = await publicCampaignBySlug(db, slug);
  const [row] = await db
    .select({ status: supportWords.status, body: supportWords.body })
    .from(supportWords)
    .where(and(eq(supportWords.campaignId, campaign.id), supportWordScope(actor, "own")))
    .limit(1);
  const state: SupportWordState = row?.status ?? "none";
  return {
    campaign: { title: campaign.title, slug: campaign.slug },
    mayWrite: (await hasGiven(db, campaign.id, donorId)) && supportWordStates.canTransition("write", state, "author"),
    state,
    body: row?.body ?? null,
  };
}

/** Writes (or, while they wait, rewrites) the donor's words for a campaign they gave to. */
export async function writeWords(services: Pick<Services, "db" | "log">, actor: Actor, slug: string, body: string): Promise<void> {
  const donorId = idAs(actor, "donor");
  await services.db.transaction(async (tx) => {
    const campaign = await publicCampaignBySlug(tx, slug);
    if (!(await hasGiven(tx, campaign.id, donorId))) throw forbidden("updates.not_a_donor");
    const [row] = await tx
      .select({ status: supportWords.status })
      .from(supportWords)
      .where(and(eq(supportWords.campaignId, campaign.id), supportWordScope(actor, "own")))
      .for("update")
      .limit(1);
    supportWordStates.assertTransition("write", row?.status ?? "none", "author", () => conflict("updates.words_decided"));
    // Two posts at once: the unique index makes one row, and the rewrite touches it only while it waits.
    const written = await tx
      .insert(supportWords)
      .values({ campaignId: campaign.id, donorId, body })
      .onConflictDoUpdate({
        target: [supportWords.campaignId, supportWords.donorId],
        set: { body, updatedAt: sql`now()` },
        setWhere: eq(supportWords.status, "pending"),
      })
      .returning({ id: supportWords.id });
    if (written.length === 0) throw conflict("updates.words_decided");
    await recordAudit(tx, {
      actorId: donorId,
      action: "updates.wordsWritten",
      details: { campaignId: campaign.id, wordsId: written[0]!.id },
    });
    // Every NGO that moderates them is told, once: a notice already unread for this campaign stands for these too.
    await notifyAll(
      { db: tx, log: services.log },
      {
        userIds: moderatorsOf(campaign.id),
        type: "supportWordsWaiting",
        params: { campaign: campaign.title, campaignId: campaign.id },
        link: `/campaigns/${campaign.id}/words`,
        unreadOnce: true,
      },
    );
  });
}

/** The NGOs that moderate a campaign's words (the `moderate` read): its owner and its accepted partners, as one column. */
const moderatorsOf = (campaignId: string) =>
  sql`select ${campaigns.ownerId} from ${campaigns} where ${campaigns.id} = ${campaignId}
    union select ${campaignPartners.ngoId} from ${campaignPartners}
    where ${campaignPartners.campaignId} = ${campaignId} and ${campaignPartners.status} = 'accepted'`;

export interface ModeratedWords {
  id: string;
  body: string;
  status: SupportWordStatus;
  /** The donor's name as the NGO sees it (the NGO always sees its donors). */
  donorName: string;
  /** How the public page names them: their first name, or null for "a donor". */
  publicName: string | null;
  createdAt: Date;
  actions: SupportWordAction[];
}

/** The words for a campaign the NGO runs, waiting ones first. */
export async function wordsForNgo(
  db: DbOrTx,
  actor: Actor,
  campaignId: string,
): Promise<{ campaign: Pick<Campaign, "id" | "title" | "slug">; words: ModeratedWords[] }> {
  const { campaign } = await campaignForNgo(db, campaignId, actor);
  if (campaign.status === "archived") throw notFound();
  const role = campaign.ownerId === actor.id ? "owner" : "partner";
  const rows = await db
    .select({
      id: supportWords.id,
      body: supportWords.body,
      status: supportWords.status,
      createdAt: supportWords.createdAt,
      firstName: donorProfiles.firstName,
      lastName: donorProfiles.lastName,
      named: namedColumn(),
    })
    .from(supportWords)
    .leftJoin(donorProfiles, eq(donorProfiles.userId, supportWords.donorId))
    .where(and(eq(supportWords.campaignId, campaign.id), supportWordScope(actor, "moderate")))
    .orderBy(sql`${supportWords.status} = 'pending' desc`, desc(supportWords.createdAt), asc(supportWords.id))
    .limit(MODERATED_WORDS_SHOWN);
  return {
    campaign: { id: campaign.id, title: campaign.title, slug: campaign.slug },
    words: rows.map((r) => ({
      id: r.id,
      body: r.body,
      status: r.status,
      donorName: [r.firstName, r.lastName].filter(Boolean).join(" "),
      publicName: r.named === true && r.firstName ? r.firstName : null,
      createdAt: r.createdAt,
      actions: supportWordStates.actionsFor(r.status, role),
    })),
  };
}

/**
 * Whether the public may see the author's first name beside their words: every approved gift of theirs to the
 * campaign was given with "show my name" (`donations.show_name`); one anonymous gift keeps them "a donor".
 */
export function namedColumn() {
  return sql<boolean | null>`(select bool_and(${donations.showName}) from ${donations}
    where ${donations.campaignId} = ${supportWords.campaignId} and ${donations.donorId} = ${supportWords.donorId}
    and ${donations.status} = 'approved')`;
}

/** Approves or hides words for a campaign the NGO runs. */
export async function decideWords(
  services: Pick<Services, "db">,
  actor: Actor,
  wordsId: string,
  action: Exclude<SupportWordAction, "write">,
): Promise<void> {
  const ngoId = idAs(actor, "ngo");
  if (!isUuid(wordsId)) throw notFound();
  await services.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(supportWords)
      .where(and(eq(supportWords.id, wordsId), supportWordScope(actor, "moderate")))
      .for("update")
      .limit(1);
    if (!row) throw notFound();
    const { campaign } = await campaignForNgo(tx, row.campaignId, actor);
    const role = campaign.ownerId === actor.id ? "owner" : "partner";
    supportWordStates.assertTransition(action, row.status, role, () => conflict("updates.state_changed"));
    const to = supportWordStates.target(action, row.status) as SupportWordStatus;
    await tx
      .update(supportWords)
      .set({ status: to, decidedBy: ngoId, decidedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(supportWords.id, row.id), inArray(supportWords.status, supportWordStates.fromStates(action) as SupportWordStatus[])));
    await recordAudit(tx, { actorId: ngoId, action: `updates.words.${action}`, details: { campaignId: row.campaignId, wordsId } });
  });
}
