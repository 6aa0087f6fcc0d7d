import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { TFunction } from "#shared/i18n/i18n.ts";
import { PAGE_SIZE, PAYMENT_METHODS, type PaymentMethod } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donations, donorProfiles, ngoProfiles, pickups, users } from "#server/db/schema.ts";
import {
  isUuid,
  keysetBackwards,
  keysetCursor,
  keysetOperator,
  keysetPage,
  keysetReads,
  pageOffset,
  type KeysetRead,
  type KeysetSide,
} from "#server/db/query.ts";
import { type KeysetPage, type PreviousPage } from "#shared/paging.ts";
import {
  DONATION_STATUSES,
  FUND_KINDS,
  PICKUP_STATUSES,
  type DonationKind,
  type DonationStatus,
  type FundKind,
  type PickupStatus,
} from "#shared/statuses.ts";
import { donationScope } from "./policy.ts";
import { formatReceiptNumber, receiptPrefix, RECEIPT_NUMBER_DIGITS } from "./receipt-number.ts";
import { ngoContactColumns, repliedSql } from "./replies.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { campaignChoices } from "#server/domain/campaigns/access.ts";
import { tallied, tallies, type Tally } from "./tallies.ts";

/** The NGO history's sort orders, in the order the screen offers them; the first is the default. */
export const HISTORY_SORTS = ["newest", "oldest", "amountDesc", "amountAsc", "campaign"] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

/** How many rows the CSV export reads at a time: the export never holds more than this in memory. */
export const EXPORT_BATCH_SIZE = 5_000;

/** What every history row shows; in-kind rows carry items instead of an amount and a method. */
interface HistoryRowBase {
  id: string;
  kind: DonationKind;
  status: DonationStatus;
  amount: number | null;
  method: PaymentMethod | null;
  items: string | null;
  campaignTitle: string;
  createdAt: Date;
  rejectionReason: string | null;
  /** Formatted with the NGO's prefix ("N042-000123"), for approved cash donations only. */
  receiptNumber: string | null;
  /** An in-kind donation's pick-up state (new … received, cancelled); null for cash. */
  pickupStatus: PickupStatus | null;
  /** The fund it was given to, whether the donor is named in public, and in whose name (decision 048). */
  fund: FundKind;
  showName: boolean;
  inNameOf: string | null;
}

export interface DonorHistoryRow extends HistoryRowBase {
  campaignSlug: string;
  /** An archived campaign has no public page to link to. */
  campaignArchived: boolean;
  ngoName: string;
  /** How to reach the NGO, as it keeps it in its settings (shown with a disapproval, decision 025). */
  ngoAddress: string;
  ngoPhone: string;
  ngoEmail: string;
  /** The donor answered a disapproval of this gift (once per gift). */
  replied: boolean;
}

export interface NgoHistoryRow extends HistoryRowBase {
  campaignId: string;
  donorName: string;
  donorEmail: string;
  transactionId: string | null;
  /** The donor answered a disapproval with a corrected proof (decision 025). */
  resubmitted: boolean;
}

function baseColumns() {
  return {
    id: donations.id,
    kind: donations.kind,
    status: donations.status,
    amount: sql<number | null>`${donations.amount}`.mapWith((v: unknown) => (v === null ? null : Number(v))),
    method: sql<PaymentMethod | null>`${donations.method}`,
    items: donations.items,
    campaignTitle: campaigns.title,
    createdAt: donations.createdAt,
    rejectionReason: donations.rejectionReason,
    receiptNumber: donations.receiptNumber,
    receiptSeries: ngoProfiles.receiptSeries,
    pickupStatus: sql<PickupStatus | null>`${pickups.status}`,
    fund: donations.fund,
    showName: donations.showName,
    inNameOf: donations.inNameOf,
  };
}

/** A receipt exists only for approved cash; the number is shown in one format everywhere, with the NGO's prefix. */
function withReceipt<T extends { kind: DonationKind; status: DonationStatus; receiptNumber: number | null; receiptSeries: number }>(
  row: T,
): Omit<T, "receiptNumber" | "receiptSeries"> & { receiptNumber: string | null } {
  const { receiptSeries, receiptNumber, ...rest } = row;
  const hasReceipt = row.kind === "cash" && row.status === "approved" && receiptNumber !== null;
  return { ...rest, receiptNumber: hasReceipt ? formatReceiptNumber(receiptSeries, receiptNumber) : null };
}

/** A page of a history read by keyset: its rows, the next and previous pages' cursors, and how many rows the whole list holds. */
export interface HistoryPage<T> extends KeysetPage<T> {
  prev: PreviousPage;
  total: number;
}

/** A history page's cursor, as the query string gives it: `after` (Next) or `before` (Previous) a row's id. */
export interface HistoryCursor {
  after?: string | null;
  before?: string | null;
}

/**
 * The rows on `side` of the cursor's row in an order of one direction: `(k1, k2, …) < (the cursor row's k1, k2, …)`
 * (or `>`, `<=`, `>=`: keysetOperator), the cursor's keys read in the same statement from its row, which must be
 * `owned` (the reader's own; otherwise the comparison is null and the read empty). A row comparison is where PostgreSQL
 * starts the index range of the order (walked forwards or backwards), so a page deep in a long list reads what the
 * first one does; the keys never leave the database, so a time keeps its microseconds.
 */
function cursorRow(order: HistoryOrder, side: KeysetSide, cursor: string, owned: (row: string) => SQL): SQL {
  const keys = (table: string) => sql.raw(order.columns.map((c) => keyColumn(c, table)).join(", "));
  return sql`(${keys('"donations"')}) ${sql.raw(keysetOperator(side, order.dir))} (select ${keys("cur")} from ${donations} cur where cur.id = ${cursor} and ${owned("cur")})`;
}

/** The ORDER BY of an order, or of its reverse (a read before the cursor, nearest first). */
function orderOf(order: HistoryOrder, backwards = false): SQL[] {
  const ascending = (order.dir === "asc") !== backwards;
  return order.columns.map((c) => sql.raw(keyColumn(c, '"donations"'))).map((key) => (ascending ? asc(key) : desc(key)));
}

/** The ids of a history list under a condition, in the order or its reverse (a dynamic select, to be limited). */
type IdsOf = (extra: SQL | undefined, backwards: boolean) => ReturnType<typeof donorIds>;

/**
 * A history's page by keyset (decision 044): the reads `keysetReads` asks for, each from the order's index alone (ids
 * only, from the same cursor), and the page's rows joined for its ids only (`rowsOf`, in the list's order). A cursor
 * that is not the reader's own row of the list's kind makes every read empty: an empty page, no Previous, no Next.
 */
async function historyPage<T extends { id: string }>(
  opts: HistoryCursor,
  order: HistoryOrder,
  owned: (row: string) => SQL,
  ids: IdsOf,
  rowsOf: (pageIds: ReturnType<IdsOf>) => Promise<T[]>,
): Promise<KeysetPage<T> & { prev: PreviousPage }> {
  const cursor = keysetCursor(opts);
  const reads = keysetReads(cursor, PAGE_SIZE);
  const at = cursor === null ? null : "after" in cursor ? cursor.after : cursor.before;
  const read = (r: KeysetRead) =>
    ids(cursorRow(order, r.side, at!, owned), keysetBackwards(r.side))
      .limit(r.limit)
      .offset(r.offset);
  const [rows, behind, ahead] = await Promise.all([
    rowsOf(reads.page ? read(reads.page) : ids(undefined, false).limit(PAGE_SIZE + 1)),
    reads.behind ? read(reads.behind) : [],
    reads.ahead ? read(reads.ahead) : [],
  ]);
  const { start: _, ...page } = keysetPage(
    cursor,
    PAGE_SIZE,
    rows,
    behind.map((r) => r.id),
    ahead.length,
  );
  return page;
}

/** The donor's history's order: newest first (donations_donor_created_idx). */
const DONOR_ORDER: HistoryOrder = { columns: ["created_at", "id"], dir: "desc" };

/** The ids of the donor's history in its order or the reverse, from donations_donor_created_idx alone. */
function donorIds(db: DbOrTx, actor: Actor, extra: SQL | undefined, backwards = false) {
  return db
    .select({ id: donations.id })
    .from(donations)
    .where(and(donationScope(actor, "history"), extra))
    .orderBy(...orderOf(DONOR_ORDER, backwards))
    .$dynamic();
}

/**
 * The donor's own donations of every kind, newest first, a page at a time after `after` (the id of the last row shown)
 * or before `before` (the first row shown; none, or not an id: the first page). A cursor that is not one of the donor's
 * donations gives an empty page.
 */
export async function donorHistory(db: DbOrTx, actor: Actor, opts: HistoryCursor = {}): Promise<HistoryPage<DonorHistoryRow>> {
  const donorId = idAs(actor, "donor");
  const where = donationScope(actor, "history");
  const [total] = await db.select({ n: count() }).from(donations).where(where);
  // The page's ids first, from the index of the order alone, from the cursor's row on; only those are joined to their
  // campaign, NGO and pick-up (decision 044).
  const page = await historyPage(
    opts,
    DONOR_ORDER,
    (t) => sql`${sql.raw(t)}.donor_id = ${donorId}`,
    (extra, backwards) => donorIds(db, actor, extra, backwards),
    (pageIds) =>
      db
        .select({
          ...baseColumns(),
          campaignSlug: campaigns.slug,
          campaignArchived: sql<boolean>`${campaigns.status} = 'archived'`,
          ...ngoContactColumns(),
          replied: repliedSql().mapWith(Boolean),
        })
        .from(donations)
        .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
        .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
        .leftJoin(pickups, eq(pickups.donationId, donations.id))
        .where(and(where, inArray(donations.id, pageIds)))
        .orderBy(...orderOf(DONOR_ORDER)),
  );
  return { ...page, rows: page.rows.map(withReceipt), total: total?.n ?? 0 };
}

/**
 * Where an old numbered link (`?page=N`, before the lists were read by keyset) starts: the id of the last row of page
 * N − 1, read by OFFSET once from the index of the order (ids only), to be followed as a cursor. Null for page 1 and
 * for a page past the end (the link leads to the first page).
 */
async function cursorOfPage(ids: { limit: (n: number) => { offset: (n: number) => PromiseLike<{ id: string }[]> } }, page: number) {
  if (page <= 1) return null;
  const [row] = await ids.limit(1).offset(pageOffset(page) - 1);
  return row?.id ?? null;
}

/** The cursor an old `/dvh?page=N` link stands for (see cursorOfPage). */
export async function donorHistoryCursorAt(db: DbOrTx, actor: Actor, page: number): Promise<string | null> {
  idAs(actor, "donor");
  return cursorOfPage(donorIds(db, actor, undefined), page);
}

/**
 * The NGO's history shows cash and goods apart: their states differ (a gift's review against a pick-up's steps)
 * and so do their totals (rupees against items). The URL names the kind as `kind=cash|goods`.
 */
export const HISTORY_KINDS = ["cash", "goods"] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];
/** The database's kind of each history kind. */
const KIND_OF: Record<HistoryKind, DonationKind> = { cash: "cash", goods: "in_kind" };
/** Goods have no amount to sort by. */
export const GOODS_SORTS = ["newest", "oldest", "campaign"] as const satisfies readonly HistorySort[];
/** The goods still on their way to the NGO: neither received nor cancelled. */
export const GOODS_OPEN_STATUSES = ["new", "assigned", "accepted", "collected", "delivered"] as const satisfies readonly PickupStatus[];

export interface NgoHistoryFilter {
  kind: HistoryKind;
  campaignId: string | null;
  /** A cash gift's state (pending, approved, rejected) on the cash list, a pick-up's state on the goods list. */
  status: DonationStatus | PickupStatus | null;
  sort: HistorySort;
}

/** The states and sorts a kind's list offers. */
export function historyChoices(kind: HistoryKind): { statuses: readonly string[]; sorts: readonly HistorySort[] } {
  return kind === "cash" ? { statuses: DONATION_STATUSES, sorts: HISTORY_SORTS } : { statuses: PICKUP_STATUSES, sorts: GOODS_SORTS };
}

/**
 * The filter from a query string (`kind`, `campaign`, `status`, `sort`): anything unknown, or not of the kind
 * shown (an amount sort of goods, a pick-up state of cash), is ignored, never an error.
 */
export function parseNgoHistoryFilter(params: URLSearchParams): NgoHistoryFilter {
  const kind: HistoryKind = params.get("kind") === "goods" ? "goods" : "cash";
  const { statuses, sorts } = historyChoices(kind);
  const campaign = params.get("campaign") ?? "";
  const status = params.get("status") ?? "";
  const sort = params.get("sort") ?? "";
  return {
    kind,
    campaignId: isUuid(campaign) ? campaign : null,
    status: statuses.includes(status) ? (status as DonationStatus | PickupStatus) : null,
    sort: (sorts as readonly string[]).includes(sort) ? (sort as HistorySort) : "newest",
  };
}

/** The same filter as a query string, for links (export, paging, the other tab) that keep it. Defaults are left out. */
export function ngoHistoryQuery(filter: NgoHistoryFilter): string {
  const params = new URLSearchParams();
  if (filter.kind !== "cash") params.set("kind", filter.kind);
  if (filter.campaignId) params.set("campaign", filter.campaignId);
  if (filter.status) params.set("status", filter.status);
  if (filter.sort !== "newest") params.set("sort", filter.sort);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Only donations paid to (or collected for) this NGO: a joint campaign's partner keeps its own history. */
function ngoScopeWhere(actor: Actor, campaignId: string | null): SQL {
  idAs(actor, "ngo");
  return and(donationScope(actor, "history"), campaignId ? eq(donations.campaignId, campaignId) : undefined)!;
}

/** The rows of one kind under the filter; a goods state is its pick-up's (the query joins `pickups`). */
function ngoWhere(actor: Actor, filter: NgoHistoryFilter): SQL {
  const status =
    filter.status === null
      ? undefined
      : filter.kind === "cash"
        ? eq(donations.status, filter.status as DonationStatus)
        : eq(pickups.status, filter.status as PickupStatus);
  return and(ngoScopeWhere(actor, filter.campaignId), eq(donations.kind, KIND_OF[filter.kind]), status)!;
}

/**
 * An order of a history list: columns of `donations`, all sorted one way, the id last, so pages and export batches
 * never repeat or skip a row, and a row comparison states "after this row" (an index range's start). Each NGO order
 * has an index that starts with the NGO and the kind (migration 0031): the amount orders walk
 * `donations_recipient_kind_amount_idx` one way or the other (so "low to high" is the exact reverse of "high to low":
 * equal amounts oldest first), and the campaign order walks `donations_recipient_kind_campaign_idx` on the campaign's
 * title kept on the donation (`campaign_title`), A–Z, each campaign's gifts oldest first, as a ledger reads. Amounts
 * sort only cash, which always has one, so no key is ever null.
 */
interface HistoryOrder {
  columns: readonly string[];
  dir: "asc" | "desc";
}

const NGO_ORDERS: Record<HistorySort, HistoryOrder> = {
  newest: { columns: ["created_at", "id"], dir: "desc" },
  oldest: { columns: ["created_at", "id"], dir: "asc" },
  amountDesc: { columns: ["amount", "created_at", "id"], dir: "desc" },
  amountAsc: { columns: ["amount", "created_at", "id"], dir: "asc" },
  campaign: { columns: ["lower(campaign_title)", "campaign_id", "created_at", "id"], dir: "asc" },
};

/** A key of an order as SQL text on `table` (a column, or `lower(column)`). */
function keyColumn(column: string, table: string): string {
  const lower = /^lower\((\w+)\)$/.exec(column);
  return lower ? `lower(${table}.${lower[1]})` : `${table}.${column}`;
}

function ngoSortKeys(sort: HistorySort): SQL[] {
  return NGO_ORDERS[sort].columns.map((c) => sql.raw(keyColumn(c, '"donations"')));
}

function ngoOrder(sort: HistorySort, backwards = false): SQL[] {
  return orderOf(NGO_ORDERS[sort], backwards);
}

/**
 * The rows after `cursor` (the last row's keys, as text: a timestamp keeps its microseconds) in the order of `sort`: a
 * row comparison, which PostgreSQL takes as the start of the index range. The export reads batch after batch this way.
 */
function after(sort: HistorySort, cursor: string[]): SQL {
  const row = (items: SQL[]) => sql`(${sql.join(items, sql`, `)})`;
  return sql`${row(ngoSortKeys(sort))} ${sql.raw(NGO_ORDERS[sort].dir === "asc" ? ">" : "<")} ${row(cursor.map((v) => sql`${v}`))}`;
}

/** A cursor of the NGO's list: a donation paid to it, of the kind shown (whatever its state or campaign now). */
function ngoOwned(actor: Actor, kind: HistoryKind): (table: string) => SQL {
  const ngoId = idAs(actor, "ngo");
  return (t) => sql`${sql.raw(t)}.recipient_ngo_id = ${ngoId} and ${sql.raw(t)}.kind = ${KIND_OF[kind]}`;
}

/**
 * The ids of the filter's rows in its order: from the index of the order alone (the pick-up joined only when its state
 * is the filter).
 */
function ngoIds(db: DbOrTx, actor: Actor, filter: NgoHistoryFilter, extra?: SQL, backwards = false) {
  let ids = db.select({ id: donations.id }).from(donations).$dynamic();
  if (filter.kind === "goods" && filter.status !== null) ids = ids.leftJoin(pickups, eq(pickups.donationId, donations.id));
  return ids.where(and(ngoWhere(actor, filter), extra)).orderBy(...ngoOrder(filter.sort, backwards));
}

/** The rows of a page: its ids (ngoIds, at most a page and one), joined to their campaign, donor and pick-up. */
function ngoRows(db: DbOrTx, actor: Actor, filter: NgoHistoryFilter, ids: ReturnType<IdsOf>) {
  return db
    .select({
      ...baseColumns(),
      campaignId: donations.campaignId,
      donorName: sql<string>`coalesce(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}, ${users.email})`,
      donorEmail: users.email,
      transactionId: donations.transactionId,
      resubmitted: repliedSql().mapWith(Boolean),
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .innerJoin(users, eq(users.id, donations.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, donations.donorId))
    .leftJoin(pickups, eq(pickups.donationId, donations.id))
    .where(and(ngoWhere(actor, filter), inArray(donations.id, ids)))
    .orderBy(...ngoOrder(filter.sort));
}

/** The cursor an old `/donHistory?page=N` link stands for under its filter (see cursorOfPage). */
export async function ngoHistoryCursorAt(db: DbOrTx, actor: Actor, filter: NgoHistoryFilter, page: number): Promise<string | null> {
  return cursorOfPage(ngoIds(db, actor, filter), page);
}

/**
 * The donations of one kind this NGO received, filtered and sorted, a page at a time after `after` (the id of the last
 * row shown) or before `before` (the first row shown; none, or not an id: the first page). A cursor that is not one of
 * the NGO's donations of the kind shown gives an empty page, never another NGO's rows. The total is the kept tallies'
 * (decision 044).
 */
export async function ngoHistory(
  db: DbOrTx,
  actor: Actor,
  filter: NgoHistoryFilter,
  opts: HistoryCursor = {},
): Promise<HistoryPage<NgoHistoryRow>> {
  const [{ count: total }, page] = await Promise.all([
    ngoHistoryTotals(db, actor, filter),
    historyPage(
      opts,
      NGO_ORDERS[filter.sort],
      ngoOwned(actor, filter.kind),
      (extra, backwards) => ngoIds(db, actor, filter, extra, backwards),
      (ids) => ngoRows(db, actor, filter, ids),
    ),
  ]);
  return { ...page, rows: page.rows.map((row) => withReceipt(row)), total };
}

export interface NgoHistoryTotals {
  /** How many donations of each kind the campaign filter holds (the tabs' counts), whatever the state filter. */
  kinds: Record<HistoryKind, number>;
  /** Whole rupees of approved cash (cash list). */
  approvedAmount: number;
  /** Whole rupees of cash still waiting for review (cash list). */
  pendingAmount: number;
  /** Goods on their way: neither received nor cancelled (goods list). */
  openCount: number;
  /** How many of the shown kind are in each of its states (a cash gift's, or a pick-up's). */
  counts: Record<string, number>;
  /** How many of the shown kind the filter holds. */
  count: number;
  /**
   * The shown kind under the filter, per fund (decision 048), each fund apart: how many, and (cash) the rupees approved
   * and waiting. Only funds with any gift.
   */
  byFund: { fund: FundKind; n: number; approvedAmount: number; pendingAmount: number }[];
}

/**
 * Totals of what the current filter shows, of its kind only: for cash the money approved and pending and the
 * count in each review state, for goods the count in each pick-up state; and each kind's count for the tabs.
 */
export async function ngoHistoryTotals(db: DbOrTx, actor: Actor, filter: NgoHistoryFilter): Promise<NgoHistoryTotals> {
  // The kept tallies (decision 044): a few rows per NGO and campaign, where counting read every donation.
  const all = await tallies(db, idAs(actor, "ngo"), { campaignId: filter.campaignId });
  const shown = all.filter((r) => r.kind === KIND_OF[filter.kind] && (filter.status === null || stateOf(filter.kind, r) === filter.status));
  const counts: Record<string, number> = Object.fromEntries(historyChoices(filter.kind).statuses.map((s) => [s, 0]));
  for (const r of shown) {
    const state = stateOf(filter.kind, r);
    if (state !== null) counts[state] = (counts[state] ?? 0) + r.n;
  }
  const amountIn = (status: DonationStatus) =>
    filter.kind === "cash" ? shown.filter((r) => r.status === status).reduce((sum, r) => sum + r.amount, 0) : 0;
  const openCount = filter.kind === "goods" ? GOODS_OPEN_STATUSES.reduce((sum, s) => sum + (counts[s] ?? 0), 0) : 0;
  const countOf = (kind: DonationKind) => all.filter((r) => r.kind === kind).reduce((sum, r) => sum + r.n, 0);
  return {
    kinds: { cash: countOf("cash"), goods: countOf("in_kind") },
    approvedAmount: amountIn("approved"),
    pendingAmount: amountIn("pending"),
    openCount,
    counts,
    count: shown.reduce((sum, r) => sum + r.n, 0),
    byFund: FUND_KINDS.map((fund) => {
      const of = shown.filter((r) => r.fund === fund);
      const sumIn = (status: DonationStatus) =>
        filter.kind === "cash" ? of.filter((r) => r.status === status).reduce((sum, r) => sum + r.amount, 0) : 0;
      return { fund, n: of.reduce((sum, r) => sum + r.n, 0), approvedAmount: sumIn("approved"), pendingAmount: sumIn("pending") };
    }).filter((f) => f.n > 0),
  };
}

/** A tally's state as the list of its kind names it: a cash gift's review, a pick-up's step (none before it exists). */
function stateOf(kind: HistoryKind, tally: Tally): string | null {
  return kind === "cash" ? tally.status : tally.pickupStatus;
}

/** The campaigns with donations to this NGO, for the history's filter: a bounded list, A–Z. */
export async function ngoHistoryCampaigns(db: DbOrTx, actor: Actor): Promise<{ id: string; title: string }[]> {
  // The kept tallies count every donation paid to the NGO (donationScope's "history" for an NGO: the recipient).
  const ngoId = idAs(actor, "ngo");
  return campaignChoices(db, ngoId, (id) => tallied(ngoId, id));
}

// ---------------------------------------------------------------------------------------------------------
// CSV export

/** A cell that a spreadsheet would run as a formula starts with one of these; it gets a leading apostrophe. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell per RFC 4180 (always quoted, quotes doubled), guarded against formula injection. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine(cells: (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/**
 * The export's columns, in order; headings come from `history:csv.*` in the user's language. The date is
 * Pakistan's clock (the heading names the zone); the kind says cash or goods; the state is in the row's own
 * vocabulary (a cash gift's review, a pick-up's step).
 */
export const CSV_COLUMNS = [
  "date",
  "kind",
  "receiptNumber",
  "campaign",
  "donorName",
  "donorEmail",
  "method",
  "amount",
  "items",
  "transactionId",
  "status",
  "reason",
  "fund",
  "showName",
  "inNameOf",
] as const;

/** A column's heading: the funds' columns (decision 048) have theirs in the funds namespace. */
function csvHeading(column: (typeof CSV_COLUMNS)[number]): string {
  return column === "fund" || column === "showName" || column === "inNameOf" ? `funds:csv.${column}` : `history:csv.${column}`;
}

/**
 * The export's translations, each looked up once per export: an export writes the same few words (kinds, states,
 * methods) 100,000 times, and a lookup costs more than the rest of the row (decision 044).
 */
function labels(t: TFunction): (key: string, fallback?: string) => string {
  const known = new Map<string, string>();
  return (key, fallback) => {
    let text = known.get(key);
    if (text === undefined) {
      text = fallback === undefined ? t(key) : t(key, { defaultValue: fallback });
      known.set(key, text);
    }
    return text;
  };
}

/** A CSV cell of a text expression, in SQL, as `csvCell` writes it: quoted, quotes doubled, a formula's start guarded. */
function csvCellSql(value: SQL): SQL {
  return sql`('"' || replace(case when left(${value}, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || ${value} else coalesce(${value}, '') end, '"', '""') || '"')`;
}

/** A translated word per value of a column, chosen in SQL among cells written once: `case <column> when … then <cell> … end`. */
function labelSql(column: string, cells: [value: string, cell: string][], otherwise: string): SQL {
  return sql`(case ${sql.raw(column)}::text ${sql.join(
    cells.map(([value, cell]) => sql`when ${value} then ${cell}`),
    sql` `,
  )} else ${otherwise} end)`;
}

/**
 * One CSV line (its cells and the line's end) of a row `r` of the export's batch, written by PostgreSQL: the bytes
 * `csvLine` writes of the row. Each label is translated once in JavaScript and passed as its finished cell. Every
 * cell reads a column of `r`, never a query: a cell's value appears three times in its expression.
 */
function csvLineSql(label: (key: string, fallback?: string) => string, prefix: string): SQL {
  const donationState = labelSql(
    "r.status",
    DONATION_STATUSES.map((s) => [s, csvCell(label(`donations:status.${s}`, s))]),
    csvCell(null),
  );
  const pickupState = labelSql(
    "r.pickup_status",
    PICKUP_STATUSES.map((s) => [s, csvCell(label(`pickups:status.${s}`, s))]),
    csvCell(null),
  );
  const receipt = sql.raw("r.receipt_number::text");
  const cells = [
    // Pakistan's clock to the second, as `pakistanTimestamp` writes it (the zone's rules, here PostgreSQL's).
    csvCellSql(sql.raw(`to_char(r.created_at at time zone 'Asia/Karachi', 'YYYY-MM-DD HH24:MI:SS')`)),
    labelSql("r.kind", [["cash", csvCell(label("history:ngo.kinds.cash"))]], csvCell(label("history:ngo.kinds.goods"))),
    // As `withReceipt`: approved cash only, with the NGO's prefix, padded as `padStart` pads (never cutting).
    sql`(case when r.kind = 'cash' and r.status = 'approved' and r.receipt_number is not null then ${csvCellSql(
      sql`${prefix} || '-' || lpad(${receipt}, greatest(${RECEIPT_NUMBER_DIGITS}, length(${receipt})), '0')`,
    )} else '""' end)`,
    csvCellSql(sql.raw("r.campaign_title")),
    csvCellSql(sql.raw("r.donor_name")),
    csvCellSql(sql.raw("r.donor_email")),
    labelSql(
      "r.method",
      PAYMENT_METHODS.map((m) => [m, csvCell(label(`donations:methods.${m}`, m))]),
      csvCell(""),
    ),
    csvCellSql(sql.raw("r.amount::text")),
    csvCellSql(sql.raw("r.items")),
    csvCellSql(sql.raw("r.transaction_id")),
    sql`(case when r.kind = 'cash' or r.pickup_status is null then ${donationState} else ${pickupState} end)`,
    csvCellSql(sql.raw("r.rejection_reason")),
    labelSql(
      "r.fund",
      FUND_KINDS.map((f) => [f, csvCell(label(`funds:kinds.${f}`, f))]),
      csvCell(null),
    ),
    sql`(case when r.show_name then ${csvCell(label("funds:csv.yes"))} else ${csvCell(label("funds:csv.no"))} end)`,
    csvCellSql(sql.raw("r.in_name_of")),
  ];
  return sql`${sql.join(cells, sql.raw(` || ',' || `))} || chr(13) || chr(10)`;
}

/** One batch of the export: its CSV text, how many rows it holds, and the last row's sort keys when it is full. */
export interface CsvBatch {
  text: string;
  rows: number;
  cursor: string[] | null;
}

/**
 * Every row of the filter as CSV text, in order, `batchSize` rows at a time, each batch read after the last one's
 * keys. PostgreSQL reads a batch's donations from the index of its order, then names their campaigns and donors,
 * writes each line (the date, the labels, the quoting) and returns the batch as one text: the driver parses one
 * value where it parsed a dozen a row, and JavaScript touches no row (decision 044). One query for PGlite and
 * PostgreSQL alike.
 */
export async function* ngoHistoryCsvBatches(
  db: DbOrTx,
  actor: Actor,
  filter: NgoHistoryFilter,
  t: TFunction,
  batchSize: number = EXPORT_BATCH_SIZE,
): AsyncGenerator<CsvBatch> {
  const label = labels(t);
  const ngoId = idAs(actor, "ngo");
  const keys = ngoSortKeys(filter.sort);
  const dir = NGO_ORDERS[filter.sort].dir;
  const [profile] = await db.select({ series: ngoProfiles.receiptSeries }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngoId));
  const line = csvLineSql(label, receiptPrefix(profile?.series ?? 0));
  // The batch's sort keys as columns k0, k1, …: the lines are put in the batch's order by them.
  const order = sql.raw(keys.map((_, i) => `b.k${i} ${dir}`).join(", "));
  let cursor: string[] | null = null;
  for (;;) {
    // The batch alone (with its pick-up), limited before anything is joined.
    const batch: SQL = sql`select ${donations.kind} as kind, ${donations.status} as status, ${donations.amount} as amount,
        ${donations.method} as method, ${donations.items} as items, ${donations.createdAt} as created_at,
        ${donations.rejectionReason} as rejection_reason, ${donations.receiptNumber} as receipt_number,
        ${donations.transactionId} as transaction_id, ${donations.fund} as fund, ${donations.showName} as show_name,
        ${donations.inNameOf} as in_name_of, ${donations.campaignId} as campaign_id, ${donations.donorId} as donor_id,
        ${filter.kind === "goods" ? sql`${pickups.status}::text` : sql`null::text`} as pickup_status,
        ${sql.join(
          keys.map((key, i) => sql`${key} as ${sql.raw(`k${i}`)}`),
          sql`, `,
        )},
        json_build_array(${sql.join(
          keys.map((key) => sql`${key}::text`),
          sql`, `,
        )})::text as cursor
      from ${donations}
      ${filter.kind === "goods" ? sql`left join ${pickups} on ${pickups.donationId} = ${donations.id}` : sql``}
      where ${and(ngoWhere(actor, filter), cursor ? after(filter.sort, cursor) : undefined)}
      order by ${sql.join(ngoOrder(filter.sort), sql`, `)}
      limit ${batchSize}`;
    // Then the names (a campaign's title by its primary key, one probe a row: joined, a batch of thousands was
    // hashed against a scan of every campaign), each row numbered in the batch's order; the lines are written last.
    const result: unknown = await db.execute(sql`
      select coalesce(string_agg(${line}, '' order by r.ord), '') as text, count(*)::int as rows,
        max(r.cursor) filter (where r.ord = ${batchSize}) as cursor
      from (
        select row_number() over (order by ${order}) as ord, b.*,
          (select c.title from ${campaigns} c where c.id = b.campaign_id) as campaign_title,
          coalesce(p.first_name || ' ' || p.last_name, u.email) as donor_name, u.email as donor_email
        from (${batch}) b
        join ${users} u on u.id = b.donor_id
        left join ${donorProfiles} p on p.user_id = b.donor_id
      ) r`);
    const [found] = (result as { rows: { text: string; rows: number; cursor: string | null }[] }).rows;
    if (!found || found.rows === 0) return;
    cursor = found.cursor === null ? null : (JSON.parse(found.cursor) as string[]);
    yield { text: found.text, rows: found.rows, cursor };
    if (cursor === null) return;
  }
}

/**
 * The NGO's donations under the filter as a CSV stream (UTF-8 with a BOM, so Excel reads Urdu names), read
 * from the database one batch at a time as the client takes it: an export of any size never sits in memory.
 * While the client takes one batch's text, the next batch is read (at most two batches are held): the database's
 * time and the sending overlap.
 */
export function ngoHistoryCsv(
  db: DbOrTx,
  actor: Actor,
  filter: NgoHistoryFilter,
  t: TFunction,
  batchSize: number = EXPORT_BATCH_SIZE,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const label = labels(t);
  let batches: AsyncGenerator<CsvBatch> | null = null;
  let ahead: Promise<IteratorResult<CsvBatch>> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(CSV_COLUMNS.map((c) => label(csvHeading(c))))}`));
      },
      async pull(controller) {
        batches ??= ngoHistoryCsvBatches(db, actor, filter, t, batchSize);
        const next = await (ahead ?? batches.next());
        if (next.done) {
          ahead = null;
          controller.close();
          return;
        }
        ahead = batches.next();
        // A failed read ahead is reported by the pull that awaits it, not as an unhandled rejection meanwhile.
        ahead.catch(() => undefined);
        controller.enqueue(encoder.encode(next.value.text));
      },
      async cancel() {
        await ahead?.catch(() => undefined);
        await batches?.return(undefined);
      },
    },
    // One batch's text waiting for the client is enough: the stream asks for the next one when it was taken.
    { highWaterMark: 1 },
  );
}
