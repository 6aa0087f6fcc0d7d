import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";
import { publicUpdatesPath } from "#app/lib/campaign-links.ts";
import type { KeysetPage } from "#shared/paging.ts";
import { UpdatesBlock, WordsBlock, type UpdateView, type WordsView } from "./updates-parts.tsx";

/** What the loader sends: the domain's section (server/domain/updates/public.ts) with its dates and count written out. */
export interface UpdatesSectionData {
  slug: string;
  donorCount: number;
  /** The count as the page writes it ("1,250"), so the browser needs no number format to hydrate it. */
  donorCountText: string;
  updates: KeysetPage<UpdateView>;
  words: KeysetPage<WordsView>;
}

const MORE_CLASS =
  "inline-flex min-h-11 items-center self-start rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-brand-800 hover:bg-brand-50";

/**
 * The public page's updates, words of support and donor count (decision 050). No client code of its own: text, photos
 * (responsive copies, lazy: they sit below the fold), a link to the older updates and the other words where there are
 * more than the page shows, and one link to the donor's form. No icons: the page is held to the JavaScript budget
 * (tests/e2e/budget.spec.ts).
 */
export function CampaignUpdatesSection({ section }: { section: UpdatesSectionData }) {
  const { t } = useTranslation();
  const { donorCount, donorCountText, updates, words, slug } = section;
  return (
    <>
      {donorCount > 0 && (
        <p className="flex items-center gap-2 font-medium text-slate-800" data-testid="donor-count">
          {t(donorCount === 1 ? "updates:public.donors_one" : "updates:public.donors_other", {
            count: donorCountText,
          })}
        </p>
      )}
      <UpdatesBlock updates={updates.rows}>
        {updates.next && (
          <Link to={`${publicUpdatesPath(slug, { updates: updates.next })}#updates`} className={MORE_CLASS} rel="next">
            {t("updates:public.olderUpdates")}
          </Link>
        )}
      </UpdatesBlock>
      <WordsBlock words={words.rows}>
        {words.next && (
          <Link to={`${publicUpdatesPath(slug, { words: words.next })}#words`} className={MORE_CLASS} rel="next">
            {t("updates:public.moreWords")}
          </Link>
        )}
        <Link
          to={`/support/${encodeURIComponent(slug)}`}
          className="inline-flex items-center gap-2 self-start rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50"
        >
          {t("updates:public.write")}
        </Link>
      </WordsBlock>
    </>
  );
}
