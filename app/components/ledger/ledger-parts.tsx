import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { FundBalanceView, GiftView, GoodsView, SpendingView } from "#shared/ledger.ts";
import type { FundKind } from "#shared/statuses.ts";

/**
 * The pieces of the public ledger (decision 049), shared by the campaign's page and the whole ledger's page: plain
 * markup, no state, so the public page ships no code for them; amounts and dates come written (shared/ledger.ts). Tables would not fit 360 px with five columns; each
 * entry is a short card of two lines instead.
 */

const rowClass = "flex flex-col gap-0.5 border-b border-slate-200 py-2 last:border-b-0";

/** Raised, spent and balance per fund; a balance below zero is shown as such, in red, with what it means. */
export function FundBalances({ funds }: { funds: FundBalanceView[] }) {
  const { t } = useTranslation();
  if (funds.length === 0) return <p className="text-slate-700">{t("ledger:funds.none")}</p>;
  const overspent = funds.some((f) => f.overspent);
  return (
    <div>
      <table className="w-full table-fixed border-collapse text-sm" data-testid="fund-balances">
        <caption className="sr-only">{t("ledger:funds.title")}</caption>
        <thead>
          <tr className="border-b border-slate-300 text-start">
            <th scope="col" className="py-1 text-start font-medium text-slate-700">
              {t("ledger:funds.fund")}
            </th>
            <th scope="col" className="py-1 text-end font-medium text-slate-700">
              {t("ledger:funds.raised")}
            </th>
            <th scope="col" className="py-1 text-end font-medium text-slate-700">
              {t("ledger:funds.spent")}
            </th>
            <th scope="col" className="py-1 text-end font-medium text-slate-700">
              {t("ledger:funds.balance")}
            </th>
          </tr>
        </thead>
        <tbody>
          {funds.map((f) => (
            <tr key={f.fund} className="border-b border-slate-200 last:border-b-0" data-fund={f.fund}>
              <th scope="row" className="py-1.5 text-start font-bold text-slate-900">
                {t(`ledger:fund.${f.fund}`)}
              </th>
              <td className="py-1.5 text-end break-words">{f.raised}</td>
              <td className="py-1.5 text-end break-words">{f.spent}</td>
              <td
                className={`py-1.5 text-end font-bold break-words ${f.overspent ? "text-red-700" : "text-slate-900"}`}
                data-testid="balance"
              >
                {f.balance}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {overspent && <p className="mt-2 text-sm text-slate-700">{t("ledger:funds.overspent")}</p>}
    </div>
  );
}

export function GiftList({ gifts, joint }: { gifts: GiftView[]; joint: boolean }) {
  const { t } = useTranslation();
  if (gifts.length === 0) return <p className="text-slate-700">{t("ledger:gifts.empty")}</p>;
  return (
    <ul data-testid="ledger-gifts">
      {gifts.map((g, i) => (
        <li key={`${g.date.iso}-${i}`} className={rowClass}>
          <p className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-bold text-slate-900">{g.amount}</span>
            <time dateTime={g.date.iso} className="text-sm text-slate-700">
              {g.date.text}
            </time>
          </p>
          <p className="text-sm text-slate-700">
            {g.donorName ? <UserText>{g.donorName}</UserText> : t("ledger:gifts.anonymous")}
            {" · "}
            {t(`ledger:fund.${g.fund}`)}
            {joint && (
              <>
                {" · "}
                {t("ledger:gifts.to", { ngo: g.ngoName })}
              </>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}

export function GoodsList({ goods, joint }: { goods: GoodsView[]; joint: boolean }) {
  const { t } = useTranslation();
  if (goods.length === 0) return <p className="text-slate-700">{t("ledger:goods.empty")}</p>;
  return (
    <ul data-testid="ledger-goods">
      {goods.map((g, i) => (
        <li key={`${g.date.iso}-${i}`} className={rowClass}>
          <p className="flex flex-wrap items-baseline justify-between gap-x-3">
            <UserText className="min-w-0 break-words font-medium text-slate-900">{g.items}</UserText>
            <time dateTime={g.date.iso} className="text-sm text-slate-700">
              {g.date.text}
            </time>
          </p>
          {joint && <p className="text-sm text-slate-700">{t("ledger:goods.by", { ngo: g.ngoName })}</p>}
        </li>
      ))}
    </ul>
  );
}

export function SpendingList({ spending, joint }: { spending: SpendingView[]; joint: boolean }) {
  const { t } = useTranslation();
  if (spending.length === 0) return <p className="text-slate-700">{t("ledger:spending.empty")}</p>;
  return (
    <ul data-testid="ledger-spending">
      {spending.map((s) =>
        s.removed ? (
          <li key={s.id} className={rowClass} data-removed="true">
            <p className="font-medium text-slate-700">{t("ledger:spending.removed", { date: s.removed.text })}</p>
            <SpentBy fund={s.fund} ngoName={s.ngoName} joint={joint} note={t("ledger:spending.removedNotCounted")} />
          </li>
        ) : (
          <li key={s.id} className={rowClass} data-corrected={s.corrected || undefined}>
            <p className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span className={`font-bold ${s.corrected ? "text-slate-500 line-through" : "text-slate-900"}`}>{s.amount}</span>
              <time dateTime={s.date.iso} className="text-sm text-slate-700">
                {s.date.text}
              </time>
            </p>
            <UserText as="p" className="break-words text-start text-slate-900">
              {s.purpose}
            </UserText>
            <SpentBy fund={s.fund} ngoName={s.ngoName} joint={joint} />
            {s.corrects && (
              <p className="text-sm text-slate-700">
                {t("ledger:spending.corrects", { date: s.corrects.date, amount: s.corrects.amount })}
              </p>
            )}
            {s.corrected && <p className="text-sm font-medium text-amber-900">{t("ledger:spending.corrected")}</p>}
            <p>
              <a
                href={s.documentUrl}
                className="inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2"
                aria-label={t("ledger:spending.documentLabel", { purpose: s.purpose })}
                data-testid="spending-document"
              >
                {t("ledger:spending.document")}
              </a>
            </p>
          </li>
        ),
      )}
    </ul>
  );
}

/** Which fund an entry was spent from, by which NGO on a joint campaign, and a note where there is one. */
function SpentBy({ fund, ngoName, joint, note }: { fund: FundKind; ngoName: string; joint: boolean; note?: string }) {
  const { t } = useTranslation();
  const parts = [t(`ledger:fund.${fund}`), joint ? t("ledger:spending.by", { ngo: ngoName }) : null, note ?? null];
  return <p className="text-sm text-slate-700">{parts.filter(Boolean).join(" · ")}</p>;
}
