import { and, desc, eq, ne, sql } from "drizzle-orm";
import { PUBLIC_UPDATES_SHOWN, PUBLIC_WORDS_SHOWN } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaignUpdates, campaigns, donations, donorProfiles, supportWords } from "#server/db/schema.ts";
import { photosOf } from "./updates.ts";
import { namedColumn } from "./words.ts";

/** What the public page shows of a campaign's updates and its donors' words (decision 050): no id of a person. */
export interface PublicUpdatesSection {
  /** Distinct donors with an approved gift (the partial index on donations answers it without the table). */
  donorCount: number;
  /** The newest published updates, newest first, with their photos in order. */
  updates: { id: string; body: string; publishedAt: Date; photos: { key: string }[] }[];
  /** The newest approved words; `name` is the donor's first name, or null for "a donor". */
  words: { id: string; body: string; name: string | null; createdAt: Date }[];
}

/** The updates section of a campaign's public page, by its slug; nothing for an archived or unknown campaign. */
export async function publicUpdatesSection(db: DbOrTx, slug: string): Promise<PublicUpdatesSection> {
  const [campaign] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.slug, slug), ne(campaigns.status, "archived")))
    .limit(1);
  if (!campaign) return { donorCount: 0, updates: [], words: [] };
  const [count, updates, words] = await Promise.all([
    db
      .select({ n: sql<number>`count(distinct ${donations.donorId})`.mapWith(Number) })
      .from(donations)
      .where(and(eq(donations.campaignId, campaign.id), eq(donations.status, "approved"))),
    db
      .select({ id: campaignUpdates.id, body: campaignUpdates.body, publishedAt: campaignUpdates.publishedAt })
      .from(campaignUpdates)
      .where(and(eq(campaignUpdates.campaignId, campaign.id), eq(campaignUpdates.status, "published")))
      .orderBy(desc(campaignUpdates.publishedAt), desc(campaignUpdates.id))
      .limit(PUBLIC_UPDATES_SHOWN),
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
      .where(and(eq(supportWords.campaignId, campaign.id), eq(supportWords.status, "approved")))
      .orderBy(desc(supportWords.createdAt), desc(supportWords.id))
      .limit(PUBLIC_WORDS_SHOWN),
  ]);
  const photos = await photosOf(
    db,
    updates.map((u) => u.id),
  );
  return {
    donorCount: count[0]?.n ?? 0,
    updates: updates.map((u) => ({
      id: u.id,
      body: u.body,
      publishedAt: u.publishedAt!,
      photos: (photos.get(u.id) ?? []).map((p) => ({ key: p.key })),
    })),
    words: words.map((w) => ({
      id: w.id,
      body: w.body,
      name: w.named === true && w.firstName ? w.firstName : null,
      createdAt: w.createdAt,
    })),
  };
}
