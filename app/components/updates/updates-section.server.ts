import type { DbOrTx } from "#server/db/client.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { formatDate } from "#shared/format.ts";
import { publicUpdatesSection } from "#server/domain/updates/public.ts";
import type { UpdatesSectionData } from "./campaign-updates-section.tsx";

/** The public page's updates section, its dates written in the reader's language (one call from the page's loader). */
export async function updatesSectionData(db: DbOrTx, slug: string, lang: Lang): Promise<UpdatesSectionData> {
  const s = await publicUpdatesSection(db, slug);
  return {
    slug,
    donorCount: s.donorCount,
    updates: s.updates.map((u) => ({ id: u.id, body: u.body, publishedAt: formatDate(u.publishedAt, lang), photos: u.photos })),
    words: s.words.map((w) => ({ id: w.id, body: w.body, name: w.name })),
  };
}
