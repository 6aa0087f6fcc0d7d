import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { TFunction } from "#shared/i18n/i18n.ts";
import { PAGE_SIZE, type PaymentMethod } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donations, donorProfiles, ngoProfiles, pickups, users } from "#server/db/schema.ts";
import { isUuid, paged, pageOffset } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { DONATION_STATUSES, type DonationKind, type DonationStatus } from "#shared/statuses.ts";
import { donationScope } from "./policy.ts";
import { formatReceiptNumber } from "./receipts.ts";
import { ngoContactColumns, repliedSql } from "./replies.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";

type PickupStatus = (typeof pickups.$inferSelect)["status"];

/** The NGO history's sort orders, in the order the screen offers them; the first is the default. */
export const HISTORY_SORTS = ["newest", "oldest", "amountDesc", "amountAsc", "campaign"] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];

/** How many rows the CSV export reads at a time: the export never holds more than this in memory. */
export const EXPORT_BATCH_SIZE = 500;
/** The campaign filter lists at most this many campaigns. */
const FILTER_CAMPAIGNS_LIMIT = 200;

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
  /** Formatted ("000123"), for approved cash donations only. */
  receiptNumber: string | null;
  /** An in-kind donation's pick-up state (new … received, cancelled); null for cash. */
  pickupStatus: PickupStatus | null;
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
    pickupStatus: sql<PickupStatus | null>`${pickups.status}`,
  };
}

/** A receipt exists only for approved cash; the number is shown in one format everywhere. */
function withReceipt<T extends { kind: DonationKind; status: DonationStatus; receiptNumber: number | null }>(
  row: T,
): Omit<T, "receiptNumber"> & { receiptNumber: string | null } {
  const hasReceipt = row.kind === "cash" && row.status === "approved" && row.receiptNumber !== null;
  return { ...row, receiptNumber: hasReceipt ? formatReceiptNumber(row.receiptNumber!) : null };
}

/** The donor's own donations of every kind, newest first, paged. */
export async function donorHistory(db: DbOrTx, actor: Actor, opts: { page: number }): Promise<Paged<DonorHistoryRow>> {
  idAs(actor, "donor");
  const where = donationScope(actor, "history");
  const [total] = await db.select({ n: count() }).from(donations).where(where);
  const rows = await db
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
    .where(where)
    .orderBy(desc(donations.createdAt), desc(donations.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(opts.page));
  return paged(rows.map(withReceipt), opts.page, total?.n ?? 0);
}

export interface NgoHistoryFilter {
  campaignId: string | null;
  status: DonationStatus | null;
  sort: HistorySort;
}

/** The filter from a query string (`campaign`, `status`, `sort`): anything unknown is ignored, never an error. */
export function parseNgoHistoryFilter(params: URLSearchParams): NgoHistoryFilter {
  const campaign = params.get("campaign") ?? "";
  const status = params.get("status") ?? "";
  const sort = params.get("sort") ?? "";
  return {
    campaignId: isUuid(campaign) ? campaign : null,
    status: (DONATION_STATUSES as readonly string[]).includes(status) ? (status as DonationStatus) : null,
    sort: (HISTORY_SORTS as readonly string[]).includes(sort) ? (sort as HistorySort) : "newest",
  };
}

/** The same filter as a query string, for links (export, paging) that keep it. Defaults are left out. */
export function ngoHistoryQuery(filter: NgoHistoryFilter): string {
  const params = new URLSearchParams();
  if (filter.campaignId) params.set("campaign", filter.campaignId);
  if (filter.status) params.set("status", filter.status);
  if (filter.sort !== "newest") params.set("sort", filter.sort);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Only donations paid to (or collected for) this NGO: a joint campaign's partner keeps its own history. */
function ngoWhere(actor: Actor, filter: NgoHistoryFilter): SQL {
  idAs(actor, "ngo");
  return and(
    donationScope(actor, "history"),
    filter.campaignId ? eq(donations.campaignId, filter.campaignId) : undefined,
    filter.status ? eq(donations.status, filter.status) : undefined,
  )!;
}

/** Every order ends on the id, so pages and export batches never repeat or skip a row. */
function ngoOrder(sort: HistorySort): SQL[] {
  const newest = [desc(donations.createdAt), desc(donations.id)];
  switch (sort) {
    case "oldest":
      return [asc(donations.createdAt), asc(donations.id)];
    case "amountDesc":
      return [sql`${donations.amount} desc nulls last`, ...newest];
    case "amountAsc":
      return [sql`${donations.amount} asc nulls last`, ...newest];
    case "campaign":
      return [sql`lower(${campaigns.title}) asc`, asc(campaigns.id), ...newest];
    default:
      return newest;
  }
}

function ngoRows(db: DbOrTx, actor: Actor, filter: NgoHistoryFilter, limit: number, offset: number) {
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
    .innerJoin(users, eq(users.id, donations.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, donations.donorId))
    .leftJoin(pickups, eq(pickups.donationId, donations.id))
    .where(ngoWhere(actor, filter))
    .orderBy(...ngoOrder(filter.sort))
    .limit(limit)
    .offset(offset);
}

/** The donations this NGO received, filtered and sorted, paged. */
export async function ngoHistory(
  db: DbOrTx,
  actor: Actor,
  filter: NgoHistoryFilter,
  opts: { page: number },
): Promise<Paged<NgoHistoryRow>> {
  const [total] = await db.select({ n: count() }).from(donations).where(ngoWhere(actor, filter));
  const rows = await ngoRows(db, actor, filter, PAGE_SIZE, pageOffset(opts.page));
  return paged(rows.map(withReceipt), opts.page, total?.n ?? 0);
}

export interface NgoHistoryTotals {
  /** Whole rupees of approved cash. */
  approvedAmount: number;
  /** Whole rupees of cash still waiting for review. */
  pendingAmount: number;
  counts: Record<DonationStatus, number>;
  count: number;
}

/** Totals of what the current filter shows: money approved and pending, and how many donations in each state. */
export async function ngoHistoryTotals(db: DbOrTx, actor: Actor, filter: NgoHistoryFilter): Promise<NgoHistoryTotals> {
  const rows = await db
    .select({
      status: donations.status,
      n: count(),
      amount: sql<number>`coalesce(sum(${donations.amount}) filter (where ${donations.kind} = 'cash'), 0)`.mapWith(Number),
    })
    .from(donations)
    .where(ngoWhere(actor, filter))
    .groupBy(donations.status);
  const counts = Object.fromEntries(DONATION_STATUSES.map((s) => [s, 0])) as Record<DonationStatus, number>;
  let approvedAmount = 0;
  let pendingAmount = 0;
  for (const r of rows) {
    counts[r.status] = r.n;
    if (r.status === "approved") approvedAmount = r.amount;
    if (r.status === "pending") pendingAmount = r.amount;
  }
  return { approvedAmount, pendingAmount, counts, count: rows.reduce((sum, r) => sum + r.n, 0) };
}

/** The campaigns with donations to this NGO, for the history's filter: a bounded list, A–Z. */
export async function ngoHistoryCampaigns(db: DbOrTx, actor: Actor): Promise<{ id: string; title: string }[]> {
  const rows = await db
    .selectDistinct({ id: campaigns.id, title: campaigns.title, key: sql<string>`lower(${campaigns.title})` })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(donationScope({ id: idAs(actor, "ngo"), role: "ngo" }, "history"))
    .orderBy(sql`lower(${campaigns.title})`, asc(campaigns.id))
    .limit(FILTER_CAMPAIGNS_LIMIT);
  return rows.map(({ id, title }) => ({ id, title }));
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

/** The export's columns, in order; headings come from `history:csv.*` in the user's language. */
export const CSV_COLUMNS = [
  "date",
  "receiptNumber",
  "campaign",
  "donorName",
  "donorEmail",
  "kind",
  "method",
  "amount",
  "items",
  "transactionId",
  "status",
  "pickupStatus",
  "reason",
] as const;

function csvRow(row: NgoHistoryRow, t: TFunction): string {
  return csvLine([
    row.createdAt.toISOString(),
    row.receiptNumber,
    row.campaignTitle,
    row.donorName,
    row.donorEmail,
    t(`donations:kind.${row.kind}`, { defaultValue: row.kind }),
    row.method ? t(`donations:methods.${row.method}`, { defaultValue: row.method }) : "",
    row.amount,
    row.items,
    row.transactionId,
    t(`donations:status.${row.status}`, { defaultValue: row.status }),
    row.pickupStatus ? t(`pickups:status.${row.pickupStatus}`, { defaultValue: row.pickupStatus }) : "",
    row.rejectionReason,
  ]);
}

/** Every row of the filter, in order, `batchSize` rows at a time. */
export async function* ngoHistoryBatches(
  db: DbOrTx,
  actor: Actor,
  filter: NgoHistoryFilter,
  batchSize: number = EXPORT_BATCH_SIZE,
): AsyncGenerator<NgoHistoryRow[]> {
  for (let offset = 0; ; offset += batchSize) {
    const rows = (await ngoRows(db, actor, filter, batchSize, offset)).map(withReceipt);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
  }
}

/**
 * The NGO's donations under the filter as a CSV stream (UTF-8 with a BOM, so Excel reads Urdu names), read
 * from the database one batch at a time as the client takes it: an export of any size never sits in memory.
 */
export function ngoHistoryCsv(
  db: DbOrTx,
  actor: Actor,
  filter: NgoHistoryFilter,
  t: TFunction,
  batchSize: number = EXPORT_BATCH_SIZE,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let batches: AsyncGenerator<NgoHistoryRow[]> | null = null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvLine(CSV_COLUMNS.map((c) => t(`history:csv.${c}`)))}`));
    },
    async pull(controller) {
      batches ??= ngoHistoryBatches(db, actor, filter, batchSize);
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map((row) => csvRow(row, t)).join("")));
    },
    async cancel() {
      await batches?.return(undefined);
    },
  });
}
