import { formatDate, formatDay } from "#shared/format.ts";
import { formatRupees } from "#shared/money.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import type { FundKind } from "#shared/statuses.ts";
import type { Paged } from "#shared/paging.ts";

/**
 * A campaign's public ledger (decision 049), as the domain reads it (server/domain/ledger/ledger.ts) and as the page
 * shows it.
 */

export interface LedgerGift {
  amount: number;
  /** The day it was approved (the NGO confirmed the money arrived). */
  at: Date;
  fund: FundKind;
  /** The donor's name, only when they chose to be named in public; otherwise null ("Anonymous"). */
  donorName: string | null;
  ngoName: string;
}

export interface LedgerGoods {
  items: string;
  /** When the NGO confirmed receipt. */
  at: Date;
  ngoName: string;
}

/**
 * A spending entry of the public ledger. One the administrator took down keeps its place (the public once read it)
 * but carries no amount, purpose or document (null): only when it was removed (`takenDownAt`).
 */
export interface LedgerSpending {
  id: string;
  amount: number | null;
  spentOn: string;
  fund: FundKind;
  purpose: string | null;
  documentKey: string | null;
  takenDownAt: Date | null;
  ngoName: string;
  publishedAt: Date;
  /** The published record this one corrects (its amount and day). */
  corrects: { amount: number; spentOn: string } | null;
  /** A published correction replaced this record in the totals. */
  corrected: boolean;
}

export interface FundBalance {
  fund: FundKind;
  raised: number;
  spent: number;
  /** raised − spent; below zero when the NGO spent more than was given to this fund here (decision 049). */
  balance: number;
}

export interface PublicLedger {
  /** Every fund with money in or out, in FUND_KINDS' order; empty when nothing came in or went out yet. */
  funds: FundBalance[];
  gifts: LedgerGift[];
  goods: LedgerGoods[];
  spending: LedgerSpending[];
  /** Whether each list has more than the page shows: the ledger page has them all. */
  more: { gifts: boolean; goods: boolean; spending: boolean };
}

/**
 * The public ledger as the page shows it: dates and amounts written in the reader's language on the server, so the
 * page needs no date or number code in the browser and hydrates the same text (decision 049). The browser's first
 * number or date format costs tens of milliseconds of the phone's main thread (decision 036, 2026-11-27).
 */

/** A fund's raised, spent and balance in rupees as the page writes them; a balance below zero with its minus sign. */
export interface FundBalanceView {
  fund: FundKind;
  raised: string;
  spent: string;
  balance: string;
  overspent: boolean;
}
export interface GiftView {
  amount: string;
  date: { iso: string; text: string };
  fund: FundKind;
  donorName: string | null;
  ngoName: string;
}
export interface GoodsView {
  items: string;
  date: { iso: string; text: string };
  ngoName: string;
}
export type SpendingView = PublishedSpendingView | RemovedSpendingView;
export interface PublishedSpendingView {
  id: string;
  removed: null;
  amount: string;
  date: { iso: string; text: string };
  fund: FundKind;
  purpose: string;
  documentUrl: string;
  ngoName: string;
  corrects: { amount: string; date: string } | null;
  corrected: boolean;
}
/** Taken down by the administrator: the day it was removed, its fund and NGO, nothing of what it said. */
export interface RemovedSpendingView {
  id: string;
  removed: { iso: string; text: string };
  fund: FundKind;
  ngoName: string;
}
export interface LedgerView {
  funds: FundBalanceView[];
  gifts: GiftView[];
  goods: GoodsView[];
  spending: SpendingView[];
  more: PublicLedger["more"];
}

export const fundBalanceView = (f: FundBalance, lang: Lang): FundBalanceView => ({
  fund: f.fund,
  raised: formatRupees(f.raised, lang),
  spent: formatRupees(f.spent, lang),
  balance: f.balance < 0 ? `−${formatRupees(-f.balance, lang)}` : formatRupees(f.balance, lang),
  overspent: f.balance < 0,
});

export const giftView = (g: LedgerGift, lang: Lang): GiftView => ({
  amount: formatRupees(g.amount, lang),
  date: formatDate(g.at, lang),
  fund: g.fund,
  donorName: g.donorName,
  ngoName: g.ngoName,
});

export const goodsView = (g: LedgerGoods, lang: Lang): GoodsView => ({ items: g.items, date: formatDate(g.at, lang), ngoName: g.ngoName });

export const spendingView = (s: LedgerSpending, lang: Lang): SpendingView =>
  s.takenDownAt || s.amount === null || s.purpose === null || s.documentKey === null
    ? { id: s.id, removed: formatDate(s.takenDownAt ?? s.publishedAt, lang), fund: s.fund, ngoName: s.ngoName }
    : {
        id: s.id,
        removed: null,
        amount: formatRupees(s.amount, lang),
        date: { iso: s.spentOn, text: formatDay(s.spentOn, lang) },
        fund: s.fund,
        purpose: s.purpose,
        documentUrl: `/files/${s.documentKey}`,
        ngoName: s.ngoName,
        corrects: s.corrects ? { amount: formatRupees(s.corrects.amount, lang), date: formatDay(s.corrects.spentOn, lang) } : null,
        corrected: s.corrected,
      };

export function ledgerView(ledger: PublicLedger, lang: Lang): LedgerView {
  return {
    funds: ledger.funds.map((f) => fundBalanceView(f, lang)),
    gifts: ledger.gifts.map((g) => giftView(g, lang)),
    goods: ledger.goods.map((g) => goodsView(g, lang)),
    spending: ledger.spending.map((s) => spendingView(s, lang)),
    more: ledger.more,
  };
}

export const pagedView = <T, V>(page: Paged<T>, view: (row: T) => V): Paged<V> => ({ ...page, rows: page.rows.map(view) });
