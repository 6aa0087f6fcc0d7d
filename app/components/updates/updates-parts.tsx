import type { ReactNode } from "react";
import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { PICTURE_SIZES, pictureSrcSet, pictureUrl } from "#shared/pictures.ts";

/**
 * The pieces of the updates' public sections (decision 050), shared by the campaign's page, its updates page and (the
 * card) the NGO's updates screen, as ledger-parts.tsx is for the ledger: plain markup, no state, so the public pages
 * ship no code for them beyond their JSX.
 */

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
/**
 * One campaign update as a card: a line saying when (and, for the NGO, where it stands), its text and its photos
 * (responsive copies, lazy). One markup for the public page, the updates page and the NGO's screen (decision 050); the
 * NGO's screen adds what it may do under a photo (`photoExtra`) and below the card (`children`). Markup only, no state,
 * so the public pages ship no code for it.
 */
export function UpdateCard<P extends { key: string }>({
  when,
  body,
  photos,
  photoExtra,
  children,
  testId,
  columns = 2,
}: {
  /** The line above the text: when it was posted, and for the NGO its state. */
  when: ReactNode;
  body: string;
  photos: P[];
  photoExtra?: (photo: P, index: number) => ReactNode;
  children?: ReactNode;
  testId: string;
  /** Photos side by side from the `sm` width: two on the public pages, three on the NGO's (smaller) cards. */
  columns?: 2 | 3;
}) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">{when}</p>
      <UserText as="p" className="whitespace-pre-line break-words text-start text-slate-900">
        {body}
      </UserText>
      {photos.length > 0 && (
        <ul className={`grid grid-cols-1 gap-3 ${columns === 3 ? "sm:grid-cols-3" : "sm:grid-cols-2"}`}>
          {photos.map((p, i) => (
            <li key={p.key} className="flex flex-col gap-1">
              <img
                src={pictureUrl(p.key, "campaign")}
                srcSet={pictureSrcSet(p.key)}
                sizes={PICTURE_SIZES.card}
                alt={t("updates:photo.alt", { n: i + 1 })}
                width={960}
                height={720}
                loading="lazy"
                decoding="async"
                className="aspect-[4/3] w-full rounded-md bg-slate-100 object-cover"
              />
              {photoExtra?.(p, i)}
            </li>
          ))}
        </ul>
      )}
      {children}
    </li>
  );
}

/** One donor's approved words, under their first name or "A donor" (decision 050). */
export function WordsCard({ body, name }: { body: string; name: string | null }) {
  const { t } = useTranslation();
  return (
    <li className="rounded-lg bg-white p-4 shadow-sm" data-testid="public-words">
      <blockquote>
        <UserText as="p" className="whitespace-pre-line break-words text-start text-slate-900">
          {body}
        </UserText>
      </blockquote>
      <p className="mt-2 text-sm font-medium text-slate-700">{name ? <UserText>{name}</UserText> : t("updates:public.aDonor")}</p>
    </li>
  );
}

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
