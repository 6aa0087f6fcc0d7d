import type { DbOrTx } from "#server/db/client.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { formatDate } from "#shared/format.ts";
import { formatCount } from "#shared/money.ts";
import type { KeysetPage } from "#shared/paging.ts";
import { publicUpdatesSection, type PublicUpdate, type PublicWords } from "#server/domain/updates/public.ts";
import type { UpdatesSectionData } from "./campaign-updates-section.tsx";
import type { UpdateView, WordsView } from "./updates-parts.tsx";

/** A page of updates with their dates written in the reader's language. */
export const updatesView = (page: KeysetPage<PublicUpdate>, lang: Lang): KeysetPage<UpdateView> => ({
  next: page.next,
  prev: page.prev ?? null,
  rows: page.rows.map((u) => ({ id: u.id, body: u.body, publishedAt: formatDate(u.publishedAt, lang), photos: u.photos })),
});

/** A page of words as the page shows them: text and name, no date. */
export const wordsView = (page: KeysetPage<PublicWords>): KeysetPage<WordsView> => ({
  next: page.next,
  prev: page.prev ?? null,
  rows: page.rows.map((w) => ({ id: w.id, body: w.body, name: w.name })),
});

/** The public page's updates section, its dates and count written in the reader's language (one call from the page's loader). */
export async function updatesSectionData(db: DbOrTx, slug: string, lang: Lang): Promise<UpdatesSectionData> {
  const s = await publicUpdatesSection(db, slug);
  return {
    slug,
    donorCount: s.donorCount,
    donorCountText: formatCount(s.donorCount, lang),
    updates: updatesView(s.updates, lang),
    words: wordsView(s.words),
  };
}
