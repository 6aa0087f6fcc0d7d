import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { donations, ngoProfiles } from "#server/db/schema.ts";
import { campaignForNgo, ngosOfCampaigns, type Campaign, type CampaignRole } from "./access.ts";
import type { Actor } from "#server/domain/policy.ts";
import { FUND_KINDS, type FundKind } from "#shared/statuses.ts";

/** Days, weeks and so on are Pakistan's, whatever zone the database runs in. */
const TIME_ZONE = "Asia/Karachi";
/** The longest series a chart gets; a longer history is grouped into weeks, then months, then years. */
export const MAX_SERIES_POINTS = 120;
export const TOP_ITEMS = 10;
export const PAYMENT_METHODS = ["jazzcash", "easypaisa", "bank"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type SeriesUnit = "day" | "week" | "month" | "year";

export interface SeriesPoint {
  /** First day of the bucket, YYYY-MM-DD in Pakistan's time. */
  date: string;
  /** Approved cash given in the bucket, whole rupees. */
  amount: number;
  /** Approved cash given up to the end of the bucket. */
  cumulative: number;
}

/** The numbers of one NGO of the campaign, or of the whole campaign. Only approved donations count as given. */
export interface Breakdown {
  /** Approved cash, whole rupees. */
  collected: number;
  /** `collected` as a part of the campaign's approved cash (0..1); 0 while nothing is collected. */
  share: number;
  /** Distinct donors with an approved donation, cash or in-kind. */
  donors: number;
  cash: { count: number; amount: number; pending: number };
  inKind: { count: number; pending: number };
  methods: { method: PaymentMethod; count: number; amount: number }[];
  /** Approved gifts per fund (decision 048), every fund the campaign takes or holds gifts of: cash rupees and goods counts. */
  funds: { fund: FundKind; cashCount: number; amount: number; goodsCount: number }[];
  topItems: { item: string; count: number }[];
  series: SeriesPoint[];
}

export interface AnalyticsNgo {
  id: string;
  name: string;
  logoKey: string | null;
  /** `former`: an NGO that has left the campaign but was paid donations while in it. */
  role: CampaignRole | "former";
  breakdown: Breakdown;
}

export interface CampaignAnalytics {
  campaign: Campaign;
  /** How the asking NGO stands to the campaign. */
  role: CampaignRole;
  unit: SeriesUnit;
  total: Breakdown;
  /** Owner first, then partners by name, then former partners that hold donations. */
  ngos: AnalyticsNgo[];
}

/**
 * Which grouping set a row of the analytics' one pass is of: `grouping(ngo, method, fund, kind)`, whose bits have the
 * first argument highest and are 1 for each column the set leaves out.
 */
const SET = { campaign: 0b1111, ngo: 0b0111, method: 0b0011, fund: 0b0100 } as const;

/**
 * Show Analytics for one campaign, in total and per NGO (the NGO a donation was paid to). Only the owner and
 * accepted partners may read it; anyone else gets "not found". Every figure is aggregated in the database,
 * so the cost does not grow with the number of donations beyond one pass over the campaign's rows.
 */
export async function campaignAnalytics(db: DbOrTx, campaignId: string, actor: Actor): Promise<CampaignAnalytics> {
  const { campaign, role } = await campaignForNgo(db, campaignId, actor);
  const ofCampaign = eq(donations.campaignId, campaign.id);
  const approvedCash = and(ofCampaign, eq(donations.status, "approved"), eq(donations.kind, "cash"));

  const counts = {
    collected:
      sql<number>`coalesce(sum(${donations.amount}) filter (where ${donations.status} = 'approved' and ${donations.kind} = 'cash'), 0)`.mapWith(
        Number,
      ),
    cashCount: sql<number>`count(*) filter (where ${donations.status} = 'approved' and ${donations.kind} = 'cash')`.mapWith(Number),
    cashPending: sql<number>`count(*) filter (where ${donations.status} = 'pending' and ${donations.kind} = 'cash')`.mapWith(Number),
    inKindCount: sql<number>`count(*) filter (where ${donations.status} = 'approved' and ${donations.kind} = 'in_kind')`.mapWith(Number),
    inKindPending: sql<number>`count(*) filter (where ${donations.status} = 'pending' and ${donations.kind} = 'in_kind')`.mapWith(Number),
  };
  const day = sql`(${donations.createdAt} at time zone ${sql.raw(`'${TIME_ZONE}'`)})`;

  // Every count and sum of the page in one pass over the campaign's donations (decision 037, session 22): the whole
  // campaign's, each NGO's, each NGO's by payment method and by fund, as grouping sets; `grouping()` says which set a
  // row is of. The span of approved cash, which decides the series' unit, comes with the whole campaign's row.
  const ngo = donations.recipientNgoId;
  const [sets, donorRows, ngoMap, items] = await Promise.all([
    db
      .select({
        set: sql<number>`grouping(${ngo}, ${donations.method}, ${donations.fund}, ${donations.kind})`.mapWith(Number),
        ngoId: sql<string | null>`${ngo}`,
        method: sql<PaymentMethod | null>`${donations.method}`,
        fund: sql<FundKind | null>`${donations.fund}`,
        kind: sql<"cash" | "in_kind" | null>`${donations.kind}`,
        ...counts,
        first: sql<
          string | null
        >`to_char(min(${day}) filter (where ${donations.status} = 'approved' and ${donations.kind} = 'cash'), 'YYYY-MM-DD')`,
        last: sql<
          string | null
        >`to_char(max(${day}) filter (where ${donations.status} = 'approved' and ${donations.kind} = 'cash'), 'YYYY-MM-DD')`,
      })
      .from(donations)
      .where(ofCampaign)
      .groupBy(sql`grouping sets ((), (${ngo}), (${ngo}, ${donations.method}), (${ngo}, ${donations.fund}, ${donations.kind}))`),
    // Distinct donors apart: a distinct count makes PostgreSQL sort the rows for every set, where the sums above are
    // hashed in one pass (a campaign of 100,000 gifts: 390 ms with it in the one query, 150 + 100 ms apart).
    db
      .select({
        whole: sql<number>`grouping(${ngo})`.mapWith(Number),
        ngoId: sql<string | null>`${ngo}`,
        donors: sql<number>`count(distinct ${donations.donorId})`.mapWith(Number),
      })
      .from(donations)
      .where(and(ofCampaign, eq(donations.status, "approved")))
      .groupBy(sql`grouping sets ((), (${ngo}))`),
    ngosOfCampaigns(db, [campaign.id]),
    topItems(db, campaign.id),
  ]);
  const totals = sets.find((r) => r.set === SET.campaign);
  const perNgo = sets.filter((r) => r.set === SET.ngo).map((r) => ({ ...r, ngoId: r.ngoId! }));
  const methods = sets
    .filter((r) => r.set === SET.method && r.cashCount > 0)
    .map((r) => ({ ngoId: r.ngoId!, method: r.method!, count: r.cashCount, amount: r.collected }));
  const fundRows = sets
    .filter((r) => r.set === SET.fund && r.cashCount + r.inKindCount > 0)
    .map((r) => ({ ngoId: r.ngoId!, fund: r.fund!, kind: r.kind!, count: r.cashCount + r.inKindCount, amount: r.collected }));
  const span = { first: totals?.first ?? null, last: totals?.last ?? null };
  const donorsOf = (id: string | null) =>
    donorRows.find((r) => (id === null ? r.whole === 1 : r.whole === 0 && r.ngoId === id))?.donors ?? 0;
  // The funds it takes now, and any it held gifts of before (a withdrawn Zakat attestation keeps its gifts apart).
  const shownFunds = FUND_KINDS.filter((f) => campaign.acceptedFunds.includes(f) || fundRows.some((r) => r.fund === f));

  const unit = seriesUnit(span.first, span.last);
  const bucket = sql<string>`to_char(date_trunc(${sql.raw(`'${unit}'`)}, ${day}), 'YYYY-MM-DD')`;
  const seriesRows = await db
    .select({
      ngoId: donations.recipientNgoId,
      bucket,
      amount: sql<number>`coalesce(sum(${donations.amount}), 0)`.mapWith(Number),
    })
    .from(donations)
    .where(approvedCash)
    .groupBy(donations.recipientNgoId, bucket);
  const buckets = span.first && span.last ? bucketStarts(span.first, span.last, unit) : [];

  // Every NGO of the campaign, plus any former partner that still holds donations, so shares add up.
  const ngos: Omit<AnalyticsNgo, "breakdown">[] = [...(ngoMap.get(campaign.id) ?? [])];
  const known = new Set(ngos.map((n) => n.id));
  const formerIds = perNgo.map((r) => r.ngoId).filter((id) => !known.has(id));
  if (formerIds.length > 0) {
    const former = await db
      .select({ id: ngoProfiles.userId, name: ngoProfiles.name, logoKey: ngoProfiles.logoKey })
      .from(ngoProfiles)
      .where(inArray(ngoProfiles.userId, formerIds));
    former.sort((a, b) => a.name.localeCompare(b.name));
    for (const f of former) ngos.push({ ...f, role: "former" });
  }

  const campaignTotal = totals?.collected ?? 0;
  const breakdown = (ngoId: string | null): Breakdown => {
    const row = ngoId === null ? totals : perNgo.find((r) => r.ngoId === ngoId);
    const collected = row?.collected ?? 0;
    const methodRows = methods.filter((m) => ngoId === null || m.ngoId === ngoId);
    const amounts = new Map<string, number>();
    for (const r of seriesRows) {
      if (ngoId === null || r.ngoId === ngoId) amounts.set(r.bucket, (amounts.get(r.bucket) ?? 0) + r.amount);
    }
    let cumulative = 0;
    return {
      collected,
      share: campaignTotal > 0 ? collected / campaignTotal : 0,
      donors: donorsOf(ngoId),
      cash: { count: row?.cashCount ?? 0, amount: collected, pending: row?.cashPending ?? 0 },
      inKind: { count: row?.inKindCount ?? 0, pending: row?.inKindPending ?? 0 },
      methods: PAYMENT_METHODS.map((method) => {
        const rows = methodRows.filter((m) => m.method === method);
        return {
          method,
          count: rows.reduce((sum, r) => sum + r.count, 0),
          amount: rows.reduce((sum, r) => sum + r.amount, 0),
        };
      }),
      funds: shownFunds.map((fund) => {
        const rows = fundRows.filter((r) => r.fund === fund && (ngoId === null || r.ngoId === ngoId));
        const of = (kind: "cash" | "in_kind") => rows.filter((r) => r.kind === kind);
        return {
          fund,
          cashCount: of("cash").reduce((sum, r) => sum + r.count, 0),
          amount: of("cash").reduce((sum, r) => sum + r.amount, 0),
          goodsCount: of("in_kind").reduce((sum, r) => sum + r.count, 0),
        };
      }),
      topItems: items.get(ngoId) ?? [],
      series: buckets.map((date) => {
        const amount = amounts.get(date) ?? 0;
        cumulative += amount;
        return { date, amount, cumulative };
      }),
    };
  };

  return {
    campaign,
    role,
    unit,
    total: breakdown(null),
    ngos: ngos.map((n) => ({ ...n, breakdown: breakdown(n.id) })),
  };
}

/**
 * The most given in-kind items: each approved donation's item list split on commas (also Urdu's "،"),
 * semicolons and line breaks, with case and spacing normalised, counted once per donation. The top ten of
 * the campaign are keyed by `null`, each NGO's top ten by its id.
 */
async function topItems(db: DbOrTx, campaignId: string): Promise<Map<string | null, { item: string; count: number }[]>> {
  const result = await db.execute(sql`
    with parts as (
      select d.id, d.recipient_ngo_id, lower(btrim(regexp_replace(part, '\\s+', ' ', 'g'))) as item
      from ${donations} d, regexp_split_to_table(d.items, E'[,;\\n\\r\u060C]+') as part
      where d.campaign_id = ${campaignId} and d.kind = 'in_kind' and d.status = 'approved' and d.items is not null
    ),
    counted as (
      select recipient_ngo_id::text as ngo_id, item, count(distinct id)::int as n,
        grouping(recipient_ngo_id)::int as is_total
      from parts where item <> ''
      group by grouping sets ((recipient_ngo_id, item), (item))
    ),
    ranked as (
      select *, row_number() over (partition by is_total, ngo_id order by n desc, item asc) as rank from counted
    )
    select ngo_id, item, n, is_total from ranked where rank <= ${TOP_ITEMS} order by is_total, ngo_id, rank
  `);
  const rows = (result as unknown as { rows: { ngo_id: string | null; item: string; n: number; is_total: number }[] }).rows;
  const map = new Map<string | null, { item: string; count: number }[]>();
  for (const r of rows) {
    const key = Number(r.is_total) === 1 ? null : r.ngo_id;
    const list = map.get(key) ?? [];
    list.push({ item: r.item, count: Number(r.n) });
    map.set(key, list);
  }
  return map;
}

const DAY_MS = 86_400_000;

function parseDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The smallest unit that keeps the series within MAX_SERIES_POINTS. */
export function seriesUnit(first: string | null, last: string | null): SeriesUnit {
  if (!first || !last) return "day";
  for (const unit of ["day", "week", "month"] as const) {
    if (bucketStarts(first, last, unit).length <= MAX_SERIES_POINTS) return unit;
  }
  return "year";
}

/** The start of every bucket from the one holding `first` to the one holding `last`, gaps included. */
export function bucketStarts(first: string, last: string, unit: SeriesUnit): string[] {
  const start = truncate(parseDay(first), unit);
  const end = parseDay(last);
  const out: string[] = [];
  for (let t = start; t <= end && out.length <= MAX_SERIES_POINTS * 40; t = step(t, unit)) out.push(formatDay(t));
  return out;
}

/** Like PostgreSQL's date_trunc: weeks start on Monday. */
function truncate(ms: number, unit: SeriesUnit): number {
  const d = new Date(ms);
  if (unit === "day") return ms;
  if (unit === "week") return ms - ((d.getUTCDay() + 6) % 7) * DAY_MS;
  if (unit === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  return Date.UTC(d.getUTCFullYear(), 0, 1);
}

function step(ms: number, unit: SeriesUnit): number {
  const d = new Date(ms);
  if (unit === "day") return ms + DAY_MS;
  if (unit === "week") return ms + 7 * DAY_MS;
  if (unit === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
}
