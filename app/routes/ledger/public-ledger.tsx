import type { Route } from "./+types/public-ledger";
import type { ReactNode } from "react";
import { PublicSubpage } from "#app/components/public-subpage.tsx";
import { Pager } from "#app/components/pager.tsx";
import { FundBalances, GiftList, GoodsList, SpendingList } from "#app/components/ledger/ledger-parts.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { throwHttp } from "#app/lib/http.server.ts";
import { fundBalanceView, giftView, goodsView, pagedView, spendingView } from "#shared/ledger.ts";
import { parsePage } from "#server/db/query.ts";
import { ledgerPages } from "#server/domain/ledger/ledger.ts";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const lang = context.lang;
  const pages = { gifts: parsePage(query.get("gifts")), goods: parsePage(query.get("goods")), spending: parsePage(query.get("spending")) };
  const ledger = await ledgerPages(context.services.db, params.slug, pages).catch(throwHttp);
  return {
    slug: params.slug,
    title: ledger.title,
    joint: ledger.joint,
    funds: ledger.funds.map((f) => fundBalanceView(f, lang)),
    gifts: pagedView(ledger.gifts, (g) => giftView(g, lang)),
    goods: pagedView(ledger.goods, (g) => goodsView(g, lang)),
    spending: pagedView(ledger.spending, (s) => spendingView(s, lang)),
  };
}

/** /campaign/:slug/ledger: a campaign's whole public ledger, each list paged on its own, for anyone (decision 049). */
export default function PublicLedgerPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { slug, title, joint, funds, gifts, goods, spending } = loaderData;
  const heading = t("ledger:page.title", { title });
  return (
    <PublicSubpage slug={slug} heading={heading} back={t("ledger:page.back")} headingId="ledger-page-title">
      <LedgerSection id="funds-title" title={t("ledger:funds.title")}>
        <FundBalances funds={funds} />
      </LedgerSection>
      <LedgerSection id="spending-title" title={t("ledger:spending.title")}>
        <SpendingList spending={spending.rows} joint={joint} />
        <Pager page={spending.page} pages={spending.pages} param="spending" label={t("ledger:page.spendingPages")} />
      </LedgerSection>
      <LedgerSection id="gifts-title" title={t("ledger:gifts.title")}>
        <GiftList gifts={gifts.rows} joint={joint} />
        <Pager page={gifts.page} pages={gifts.pages} param="gifts" label={t("ledger:page.giftsPages")} />
      </LedgerSection>
      <LedgerSection id="goods-title" title={t("ledger:goods.title")}>
        <GoodsList goods={goods.rows} joint={joint} />
        <Pager page={goods.page} pages={goods.pages} param="goods" label={t("ledger:page.goodsPages")} />
      </LedgerSection>
    </PublicSubpage>
  );
}

/** One list of the ledger page: a card with its heading, which names the section for screen readers. */
function LedgerSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg bg-white p-4 shadow-sm">
      <h2 id={id} className="mb-2 text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}
