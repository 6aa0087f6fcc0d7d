import type { Route } from "./+types/public-updates";
import { KeysetPager } from "#app/components/keyset-pager.tsx";
import { PublicSubpage } from "#app/components/public-subpage.tsx";
import { UpdatesBlock, WordsBlock } from "#app/components/updates/updates-parts.tsx";
import { updatesView, wordsView } from "#app/components/updates/updates-section.server.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { throwHttp } from "#app/lib/http.server.ts";
import { publicUpdatesPages } from "#server/domain/updates/public.ts";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const pages = await publicUpdatesPages(context.services.db, params.slug, {
    updates: query.get("updates"),
    words: query.get("words"),
    updatesBefore: query.get("updatesBefore"),
    wordsBefore: query.get("wordsBefore"),
  }).catch(throwHttp);
  return {
    slug: params.slug,
    title: pages.title,
    updates: updatesView(pages.updates, context.lang),
    words: wordsView(pages.words),
  };
}

/**
 * /campaign/:slug/updates: every published update and every approved word of support of a campaign, for anyone, each
 * list a page at a time by keyset, with plain links (decision 050). Like /campaign/:slug/ledger, no client code of its
 * own.
 */
export default function PublicUpdatesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { slug, title, updates, words } = loaderData;
  return (
    <PublicSubpage slug={slug} heading={t("updates:page.title", { title })} back={t("updates:page.back")} headingId="updates-page-title">
      <UpdatesBlock updates={updates.rows}>
        <KeysetPager
          next={updates.next}
          prev={updates.prev}
          param="updates"
          beforeParam="updatesBefore"
          previous={t("common:previous")}
          anchor="updates"
          label={t("updates:page.updatesPages")}
          older={t("updates:public.olderUpdates")}
          newest={t("updates:page.newestUpdates")}
        />
      </UpdatesBlock>
      <WordsBlock words={words.rows}>
        <KeysetPager
          next={words.next}
          prev={words.prev}
          param="words"
          beforeParam="wordsBefore"
          previous={t("common:previous")}
          anchor="words"
          label={t("updates:page.wordsPages")}
          older={t("updates:public.moreWords")}
          newest={t("updates:page.newestWords")}
        />
      </WordsBlock>
    </PublicSubpage>
  );
}
