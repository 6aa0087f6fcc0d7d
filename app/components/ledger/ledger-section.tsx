import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";
import { ledgerPath } from "#app/lib/ledger-links.ts";
import type { LedgerView } from "#shared/ledger.ts";
import { FundBalances, GiftList, GoodsList, SpendingList } from "./ledger-parts.tsx";

/**
 * The public ledger on a campaign's page (decision 049): balances per fund, then the most recent gifts, goods and
 * spending, each with a link to the whole ledger when there is more. Server-drawn, no state, no client code.
 */
export function LedgerSection({ ledger, slug, joint }: { ledger: LedgerView; slug: string; joint: boolean }) {
  const { t } = useTranslation();
  const more = ledger.more.gifts || ledger.more.goods || ledger.more.spending;
  return (
    <section aria-labelledby="ledger-title" className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm" data-testid="ledger">
      <header>
        <h2 id="ledger-title" className="text-xl font-bold">
          {t("ledger:title")}
        </h2>
        <p className="text-sm text-slate-700">{t("ledger:lead")}</p>
      </header>
      <div>
        <h3 className="mb-1 font-bold text-slate-900">{t("ledger:funds.title")}</h3>
        <FundBalances funds={ledger.funds} />
      </div>
      <div>
        <h3 className="mb-1 font-bold text-slate-900">{t("ledger:spending.title")}</h3>
        <SpendingList spending={ledger.spending} joint={joint} />
      </div>
      <div>
        <h3 className="mb-1 font-bold text-slate-900">{t("ledger:gifts.title")}</h3>
        <GiftList gifts={ledger.gifts} joint={joint} />
      </div>
      <div>
        <h3 className="mb-1 font-bold text-slate-900">{t("ledger:goods.title")}</h3>
        <GoodsList goods={ledger.goods} joint={joint} />
      </div>
      {more && (
        <p>
          <Link to={ledgerPath(slug)} className="font-medium text-brand-800 underline underline-offset-2" data-testid="ledger-see-all">
            {t("ledger:seeAll")}
          </Link>
        </p>
      )}
    </section>
  );
}
