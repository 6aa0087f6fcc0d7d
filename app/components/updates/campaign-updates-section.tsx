import { UserText } from "#app/components/user-text.tsx";
import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";
import { formatCount } from "#shared/money.ts";
import { PICTURE_SIZES, pictureSrcSet, pictureUrl } from "#shared/pictures.ts";

/** What the loader sends: the domain's section (server/domain/updates/public.ts) with its dates written out. */
export interface UpdatesSectionData {
  slug: string;
  donorCount: number;
  updates: { id: string; body: string; publishedAt: { iso: string; text: string }; photos: { key: string }[] }[];
  words: { id: string; body: string; name: string | null }[];
}

/**
 * The public page's updates, words of support and donor count (decision 050). No client code of its own: text, photos
 * (responsive copies, lazy: they sit below the fold) and one link to the donor's form. No icons: the page is held to
 * the JavaScript budget (tests/e2e/budget.spec.ts), which it reaches within a few hundred bytes.
 */
export function CampaignUpdatesSection({ section }: { section: UpdatesSectionData }) {
  const { t, i18n } = useTranslation();
  const { donorCount, updates, words } = section;
  return (
    <>
      {donorCount > 0 && (
        <p className="flex items-center gap-2 font-medium text-slate-800" data-testid="donor-count">
          {t(donorCount === 1 ? "updates:public.donors_one" : "updates:public.donors_other", {
            count: formatCount(donorCount, i18n.language),
          })}
        </p>
      )}
      <section aria-labelledby="updates" className="flex flex-col gap-3">
        <h2 id="updates" className="text-xl font-bold">
          {t("updates:public.updatesTitle")}
        </h2>
        {updates.length === 0 ? (
          <p className="text-slate-700">{t("updates:public.noUpdates")}</p>
        ) : (
          <ol className="flex flex-col gap-4">
            {updates.map((u) => (
              <li key={u.id} className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm" data-testid="public-update">
                <p className="text-sm text-slate-700">
                  {t("updates:public.posted")} <time dateTime={u.publishedAt.iso}>{u.publishedAt.text}</time>
                </p>
                <UserText as="p" className="whitespace-pre-line break-words text-start text-slate-900">
                  {u.body}
                </UserText>
                {u.photos.length > 0 && (
                  <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                    {u.photos.map((p, i) => (
                      <li key={p.key}>
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
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="words" className="flex flex-col gap-3">
        <h2 id="words" className="text-xl font-bold">
          {t("updates:public.wordsTitle")}
        </h2>
        {words.length === 0 ? (
          <p className="text-slate-700">{t("updates:public.noWords")}</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {words.map((w) => (
              <li key={w.id} className="rounded-lg bg-white p-4 shadow-sm" data-testid="public-words">
                <blockquote>
                  <UserText as="p" className="whitespace-pre-line break-words text-start text-slate-900">
                    {w.body}
                  </UserText>
                </blockquote>
                <p className="mt-2 text-sm font-medium text-slate-700">
                  {w.name ? <UserText>{w.name}</UserText> : t("updates:public.aDonor")}
                </p>
              </li>
            ))}
          </ul>
        )}
        <Link
          to={`/support/${encodeURIComponent(section.slug)}`}
          className="inline-flex items-center gap-2 self-start rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50"
        >
          {t("updates:public.write")}
        </Link>
      </section>
    </>
  );
}
