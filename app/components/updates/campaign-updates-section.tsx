import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";
import { publicUpdatesPath } from "#app/lib/campaign-links.ts";
import { formatCount } from "#shared/money.ts";
import type { KeysetPage } from "#shared/paging.ts";
import { UpdateCard, WordsCard } from "./update-card.tsx";

export interface UpdateView {
  id: string;
  body: string;
  publishedAt: { iso: string; text: string };
  photos: { key: string }[];
}
export interface WordsView {
  id: string;
  body: string;
  name: string | null;
}
/** What the loader sends: the domain's section (server/domain/updates/public.ts) with its dates written out. */
export interface UpdatesSectionData {
  slug: string;
  donorCount: number;
  updates: KeysetPage<UpdateView>;
  words: KeysetPage<WordsView>;
}

const MORE_CLASS =
  "inline-flex min-h-11 items-center self-start rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-brand-800 hover:bg-brand-50";

/** Updates as cards, newest first (the campaign's page and its updates page). */
export function UpdateList({ updates }: { updates: UpdateView[] }) {
  const { t } = useTranslation();
  if (updates.length === 0) return <p className="text-slate-700">{t("updates:public.noUpdates")}</p>;
  return (
    <ol className="flex flex-col gap-4">
      {updates.map((u) => (
        <UpdateCard
          key={u.id}
          testId="public-update"
          when={
            <span>
              {t("updates:public.posted")} <time dateTime={u.publishedAt.iso}>{u.publishedAt.text}</time>
            </span>
          }
          body={u.body}
          photos={u.photos}
        />
      ))}
    </ol>
  );
}

/** Approved words of support, newest first (the campaign's page and its updates page). */
export function WordsList({ words }: { words: WordsView[] }) {
  const { t } = useTranslation();
  if (words.length === 0) return <p className="text-slate-700">{t("updates:public.noWords")}</p>;
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {words.map((w) => (
        <WordsCard key={w.id} body={w.body} name={w.name} />
      ))}
    </ul>
  );
}

/** The updates' section: heading, cards, and what follows them (a link to more, or the pager). */
export function UpdatesBlock({ updates, children }: { updates: UpdateView[]; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="updates" className="flex flex-col gap-3">
      <h2 id="updates" className="text-xl font-bold">
        {t("updates:public.updatesTitle")}
      </h2>
      <UpdateList updates={updates} />
      {children}
    </section>
  );
}

/** The words' section: heading, cards, and what follows them (a link to more, the pager, the link to write). */
export function WordsBlock({ words, children }: { words: WordsView[]; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="words" className="flex flex-col gap-3">
      <h2 id="words" className="text-xl font-bold">
        {t("updates:public.wordsTitle")}
      </h2>
      <WordsList words={words} />
      {children}
    </section>
  );
}

/**
 * The public page's updates, words of support and donor count (decision 050). No client code of its own: text, photos
 * (responsive copies, lazy: they sit below the fold), a link to the older updates and the other words where there are
 * more than the page shows, and one link to the donor's form. No icons: the page is held to the JavaScript budget
 * (tests/e2e/budget.spec.ts).
 */
export function CampaignUpdatesSection({ section }: { section: UpdatesSectionData }) {
  const { t, i18n } = useTranslation();
  const { donorCount, updates, words, slug } = section;
  return (
    <>
      {donorCount > 0 && (
        <p className="flex items-center gap-2 font-medium text-slate-800" data-testid="donor-count">
          {t(donorCount === 1 ? "updates:public.donors_one" : "updates:public.donors_other", {
            count: formatCount(donorCount, i18n.language),
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
