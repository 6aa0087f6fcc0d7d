import { and, asc, desc, eq, ne, sql, type SQL } from "drizzle-orm";
import { PUBLIC_UPDATES_SHOWN, PUBLIC_WORDS_SHOWN } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import {
  keysetBackwards,
  keysetCursor,
  keysetOperator,
  keysetPage,
  keysetReads,
  type KeysetCursor,
  type KeysetRead,
} from "#server/db/query.ts";
import { campaignUpdates, campaigns, donations, donorProfiles, supportWords } from "#server/db/schema.ts";
import { notFound } from "#server/domain/errors.ts";
import type { KeysetPage } from "#shared/paging.ts";
import { photosOf } from "./updates.ts";
import { namedColumn } from "./words.ts";

/** A published update as the public reads it: its text, when, and its photos in order. */
export interface PublicUpdate {
  id: string;
  body: string;
  publishedAt: Date;
  photos: { key: string }[];
}
/** Approved words; `name` is the donor's first name, or null for "a donor". */
export interface PublicWords {
  id: string;
  body: string;
  name: string | null;
  createdAt: Date;
}

/** What the public page shows of a campaign's updates and its donors' words (decision 050): no id of a person. */
export interface PublicUpdatesSection {
  /** Distinct donors with an approved gift (the partial index on donations answers it without the table). */
  donorCount: number;
  /** The newest published updates, newest first, with their photos in order; `next` when there are older ones. */
  updates: KeysetPage<PublicUpdate>;
  /** The newest approved words; `next` when there are more. */
  words: KeysetPage<PublicWords>;
}

/** Longer than any slug the product makes: not looked up at all. */
const MAX_SLUG_LENGTH = 200;

/** A public (not archived) campaign by its slug. */
async function publicCampaign(db: DbOrTx, slug: string): Promise<{ id: string; title: string } | undefined> {
  if (!slug || slug.length > MAX_SLUG_LENGTH) return undefined;
  const [campaign] = await db
    .select({ id: campaigns.id, title: campaigns.title })
    .from(campaigns)
    .where(and(eq(campaigns.slug, slug), ne(campaigns.status, "archived")))
    .limit(1);
  return campaign;
}

/**
 * A cursor names a row, and the next page starts after that row's own (time, id) as the database holds it, so no time
 * is rounded through JavaScript and no OFFSET walks the rows before (decision 050).
 */
export type { KeysetPage };

/**
 * A page of one list, newest first by (time, id), read by keyset from `cursor` (`keysetReads`: the page, and beside it
 * the rows before and after it, for "Previous" and "Next"). `read` reads the rows on a side of the cursor's row (a
 * condition and an order), or from the top. A cursor that is not a row of this campaign's list reads nothing.
 */
async function keysetList<T extends { id: string }>(
  cursor: KeysetCursor,
  size: number,
  read: (
    where: (time: SQL, id: SQL, cursorRow: (id: string) => SQL) => SQL | undefined,
    backwards: boolean,
    limit: number,
    offset: number,
  ) => Promise<T[]>,
): Promise<KeysetPage<T>> {
  const reads = keysetReads(cursor, size);
  const at = cursor === null ? null : "after" in cursor ? cursor.after : cursor.before;
  const on = (r: KeysetRead) =>
    read(
      (time, id, cursorRow) => sql`(${time}, ${id}) ${sql.raw(keysetOperator(r.side, "desc"))} ${cursorRow(at!)}`,
      keysetBackwards(r.side),
      r.limit,
      r.offset,
    );
  const [rows, behind, ahead] = await Promise.all([
    reads.page ? on(reads.page) : read(() => undefined, false, size + 1, 0),
    reads.behind ? on(reads.behind) : [],
    reads.ahead ? on(reads.ahead) : [],
  ]);
  const {
    rows: shown,
    next,
    prev,
  } = keysetPage(
    cursor,
    size,
    reads.page && keysetBackwards(reads.page.side) ? [...rows].reverse() : rows,
    behind.map((r) => r.id),
    ahead.length,
  );
  return { rows: shown, next, prev };
}

/** The campaign's published updates from `cursor` (an update of this campaign), newest first. */
async function updatesAfter(db: DbOrTx, campaignId: string, cursor: KeysetCursor, size: number): Promise<KeysetPage<PublicUpdate>> {
  const page = await keysetList(cursor, size, (where, backwards, limit, offset) =>
    db
      .select({ id: campaignUpdates.id, body: campaignUpdates.body, publishedAt: campaignUpdates.publishedAt })
      .from(campaignUpdates)
      .where(
        and(
          eq(campaignUpdates.campaignId, campaignId),
          eq(campaignUpdates.status, "published"),
          where(
            sql`${campaignUpdates.publishedAt}`,
            sql`${campaignUpdates.id}`,
            (id) => sql`(select c.published_at, c.id from ${campaignUpdates} c where c.id = ${id} and c.campaign_id = ${campaignId})`,
          ),
        ),
      )
      .orderBy(
        ...(backwards
          ? [asc(campaignUpdates.publishedAt), asc(campaignUpdates.id)]
          : [desc(campaignUpdates.publishedAt), desc(campaignUpdates.id)]),
      )
      .limit(limit)
      .offset(offset),
  );
  const photos = await photosOf(
    db,
    page.rows.map((u) => u.id),
  );
  return {
    ...page,
    rows: page.rows.map((u) => ({
      id: u.id,
      body: u.body,
      publishedAt: u.publishedAt!,
      photos: (photos.get(u.id) ?? []).map((p) => ({ key: p.key })),
    })),
  };
}

/** The campaign's approved words from `cursor` (words of this campaign), newest first. */
async function wordsAfter(db: DbOrTx, campaignId: string, cursor: KeysetCursor, size: number): Promise<KeysetPage<PublicWords>> {
  const page = await keysetList(cursor, size, (where, backwards, limit, offset) =>
    db
      .select({
        id: supportWords.id,
        body: supportWords.body,
        firstName: donorProfiles.firstName,
        named: namedColumn(),
        createdAt: supportWords.createdAt,
      })
      .from(supportWords)
      .leftJoin(donorProfiles, eq(donorProfiles.userId, supportWords.donorId))
      .where(
        and(
          eq(supportWords.campaignId, campaignId),
          eq(supportWords.status, "approved"),
          where(
            sql`${supportWords.createdAt}`,
            sql`${supportWords.id}`,
            (id) => sql`(select w.created_at, w.id from ${supportWords} w where w.id = ${id} and w.campaign_id = ${campaignId})`,
          ),
        ),
      )
      .orderBy(...(backwards ? [asc(supportWords.createdAt), asc(supportWords.id)] : [desc(supportWords.createdAt), desc(supportWords.id)]))
      .limit(limit)
      .offset(offset),
  );
  return {
    ...page,
    rows: page.rows.map((w) => ({
      id: w.id,
      body: w.body,
      name: w.named === true && w.firstName ? w.firstName : null,
      createdAt: w.createdAt,
    })),
  };
}

const EMPTY: KeysetPage<never> = { rows: [], next: null };

/** The updates section of a campaign's public page, by its slug; nothing for an archived or unknown campaign. */
export async function publicUpdatesSection(db: DbOrTx, slug: string): Promise<PublicUpdatesSection> {
  const campaign = await publicCampaign(db, slug);
  if (!campaign) return { donorCount: 0, updates: EMPTY, words: EMPTY };
  const [count, updates, words] = await Promise.all([
    db
      .select({ n: sql<number>`count(distinct ${donations.donorId})`.mapWith(Number) })
      .from(donations)
      .where(and(eq(donations.campaignId, campaign.id), eq(donations.status, "approved"))),
    updatesAfter(db, campaign.id, null, PUBLIC_UPDATES_SHOWN),
    wordsAfter(db, campaign.id, null, PUBLIC_WORDS_SHOWN),
  ]);
  return { donorCount: count[0]?.n ?? 0, updates, words };
}

/**
 * /campaign/:slug/updates: every published update and every approved word of a campaign, each list a page at a time
 * from its own cursors (`updates`/`words`: after the last row of the page before, "Next"; `updatesBefore`/`wordsBefore`:
 * before the first row of the page after, "Previous"), as many a page as the campaign's page shows. Not found for an
 * archived or unknown campaign.
 */
export async function publicUpdatesPages(
  db: DbOrTx,
  slug: string,
  cursors: { updates?: string | null; words?: string | null; updatesBefore?: string | null; wordsBefore?: string | null },
): Promise<{ title: string; updates: KeysetPage<PublicUpdate>; words: KeysetPage<PublicWords> }> {
  const campaign = await publicCampaign(db, slug);
  if (!campaign) throw notFound();
  const [updates, words] = await Promise.all([
    updatesAfter(db, campaign.id, keysetCursor({ after: cursors.updates, before: cursors.updatesBefore }), PUBLIC_UPDATES_SHOWN),
    wordsAfter(db, campaign.id, keysetCursor({ after: cursors.words, before: cursors.wordsBefore }), PUBLIC_WORDS_SHOWN),
  ]);
  return { title: campaign.title, updates, words };
}
