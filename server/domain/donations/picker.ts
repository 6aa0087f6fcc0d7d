import { and, arrayContains, desc, eq, fillPlaceholders, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { CampaignCause, CheckKind, FundKind } from "#shared/statuses.ts";
import type { Place } from "#shared/places.ts";
import { DONATE_PICKER_PAGE_SIZE, PICKER_COUNT_BOUND } from "#shared/constants.ts";
import { statementName, type DbOrTx } from "#server/db/client.ts";
import { campaigns, donorProfiles } from "#server/db/schema.ts";
import {
  keysetBackwards,
  keysetCursor,
  keysetOperator,
  keysetPage,
  keysetReads,
  keysetStart,
  likePattern,
  searchTerm,
  type KeysetCursor,
  type KeysetRead,
  type KeysetStart,
} from "#server/db/query.ts";
import type { KeysetPage, PreviousPage } from "#shared/paging.ts";
import { campaignNgosColumn, type CampaignNgo } from "#server/domain/campaigns/access.ts";
import {
  offeredCount,
  ownerInGoodStanding,
  ownerInGoodStandingProbe,
  standingColumnsOfOne,
  takesCashAmongMany,
  takesCashProbe,
} from "#server/domain/campaigns/standing.ts";
import { standingKindsColumnOn } from "#server/domain/admin/checks.ts";
import { pakistanToday } from "#server/domain/dates.ts";

/** One card of the donor's campaign picker (/donate1). */
export interface PickerCampaign {
  id: string;
  slug: string;
  title: string;
  description: string;
  targetAmount: number;
  collectedAmount: number;
  pictureKey: string | null;
  locationLabel: string;
  /** The same place in Urdu, where the gazetteer has it: shown to Urdu readers (placeLabelFor). */
  locationLabelUr: string | null;
  /** The funds it takes (decision 048). */
  acceptedFunds: FundKind[];
  cause: CampaignCause;
  /** Some NGO of it can be paid: the cash picker lists only these; browse offers Donate only on these. */
  takesCash: boolean;
  /** The other items the campaign needs, which the goods picker shows. */
  otherItems: string | null;
  createdAt: Date;
  /** The owner first, then the accepted partners by name. */
  ngos: CampaignNgo[];
  /** The kinds of check its owner has standing today: the card's compact badge, read with the card (decision 051). */
  ownerChecks: CheckKind[];
}

/** Who is browsing: the cash picker (only campaigns that can be paid), the goods picker, or anyone on the landing page. */
export type BrowseKind = "cash" | "goods" | "browse";

/**
 * A regular expression for a label that holds `name` as one of its comma-separated parts, whatever the letter case:
 * "Lahore" in "Gulberg, Lahore, Lahore District, Punjab" and in "Lahore, Punjab, Pakistan" (a geocoder service's), and
 * «لاہور» in «گلبرگ، لاہور، ضلع لاہور، پنجاب»; not "Lahore" inside "Lahore District" or another word.
 */
function labelPart(name: string): string {
  return `(^|[,\u060c])\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*([,\u060c]|$)`;
}

/** What the pickers and the landing page filter by: the search (with the place it names), a cause, Zakat only. */
export interface PickerFilter {
  q?: string;
  kind: BrowseKind;
  cause?: CampaignCause;
  zakatOnly?: boolean;
  place?: Pick<Place, "name" | "nameUr"> | null;
}

/**
 * What the picker's statement is made of: the shape (`cash`, `zakat`, `start`, and whether `pattern` and `cause` are
 * there and how many `places`), which fixes its SQL text, and the request's values, each a parameter of that text. Given
 * as values, the statement is built for them; given as placeholders, it is built once for its shape and prepared
 * (`preparedPicker`).
 */
interface PickerInputs<V> {
  /** The cash picker: only campaigns that can be paid. */
  cash: boolean;
  zakat: boolean;
  /** The page's cursor's kind (its campaign is `at`). */
  start: KeysetStart;
  /** The search's LIKE pattern, or null without a search. */
  pattern: V | null;
  /** The place the search names, as regular expressions of its names (English, Urdu) among a label's parts. */
  places: V[];
  cause: V | null;
  /** The cursor's campaign id; null on the first page. */
  at: V | null;
  /** Pakistan's calendar day: the owner's standing checks that have not lapsed (`ownerChecks`). */
  today: V;
}

/** A statement's inputs from a request: the values, and the shape they imply. */
function pickerInputs(opts: PickerFilter, cursor: KeysetCursor, now: Date): PickerInputs<string> {
  const q = searchTerm(opts.q);
  const placeNames = q && opts.place ? [opts.place.name, opts.place.nameUr].filter((n): n is string => !!n) : [];
  return {
    cash: opts.kind === "cash",
    zakat: !!opts.zakatOnly,
    start: keysetStart(cursor),
    pattern: q ? likePattern(q) : null,
    places: placeNames.map(labelPart),
    cause: opts.cause || null,
    at: cursor === null ? null : "after" in cursor ? cursor.after : cursor.before,
    today: pakistanToday(now),
  };
}

/**
 * The shape of a statement, as the key of its prepared form. Each part takes a few values, and nothing else of a
 * request reaches the SQL text, so the shapes are finite by construction: cash or not (2) × no search, a search, or one
 * naming a place by one or two names (4) × a cause or not (2) × Zakat only or not (2) × the first page, after a cursor or
 * before one (3) = PICKER_SHAPES. The goods picker and the landing page read the same statement.
 */
function pickerShape(i: PickerInputs<unknown>): string {
  return `${i.cash ? "cash" : "any"}/${i.pattern === null ? "all" : `q${i.places.length}`}/${i.cause === null ? "" : "cause"}/${i.zakat ? "zakat" : ""}/${i.start}`;
}

/** How many shapes of the statement there are (`pickerShape`): no more are ever prepared for one database handle. */
export const PICKER_SHAPES = 2 * 4 * 2 * 2 * 3;

/** The inputs with each value a placeholder of its own name, for the statement of their shape. */
function placeholdersOf(i: PickerInputs<unknown>): PickerInputs<Placeholder> {
  return {
    ...i,
    pattern: i.pattern === null ? null : sql.placeholder("pattern"),
    places: i.places.map((_, n) => sql.placeholder(`place${n}`)),
    cause: i.cause === null ? null : sql.placeholder("cause"),
    at: i.at === null ? null : sql.placeholder("at"),
    today: sql.placeholder("today"),
  };
}

/** The placeholders' values (`placeholdersOf`) of a request's inputs. */
function placeholderValues(i: PickerInputs<string>): Record<string, unknown> {
  const values: Record<string, unknown> = { pattern: i.pattern, cause: i.cause, at: i.at, today: i.today };
  i.places.forEach((place, n) => (values[`place${n}`] = place));
  return values;
}

/**
 * The rule of what a donor is offered, as one condition: active campaigns (completed and archived ones take no
 * donations) that are not paused, and for cash only those some NGO of can be paid (campaigns/standing.ts). The search
 * finds its words in the title, the place or the name of an NGO that runs the campaign, case-insensitively with LIKE's
 * wildcards taken literally; a cause and "Zakat-eligible only" narrow it. `filtered` says whether anything narrows it.
 *
 * `places` are the place the search text names, if it names one (`Geocoder.named`: "لاہور", "Pindi", "khi"): the
 * campaigns whose saved place lies in it are found too, by its English and Urdu names among the parts of either label,
 * so a city typed in either script (or a short name) finds the campaigns there, whichever labels they were saved with.
 */
function offeredWhere(i: PickerInputs<unknown>, perRow = false): { where: SQL | undefined; filtered: boolean } {
  const { pattern } = i;
  const inPlace = i.places.map((place) => sql` or ${campaigns.locationLabel} ~* ${place} or ${campaigns.locationLabelUr} ~* ${place}`);
  const where = and(
    eq(campaigns.status, "active"),
    perRow ? ownerInGoodStandingProbe() : ownerInGoodStanding(),
    i.cash ? (perRow ? takesCashProbe() : takesCashAmongMany()) : undefined,
    i.cause !== null ? sql`${campaigns.cause} = ${i.cause}` : undefined,
    i.zakat ? arrayContains(campaigns.acceptedFunds, ["zakat"]) : undefined,
    // Each place a word can be found is an arm of one OR that PostgreSQL answers as a BitmapOr of the trigram indexes
    // (title, place, Urdu place), of campaigns_owner_status_idx (the NGOs named so) and of the primary key (the campaigns
    // such an NGO partners), then one pass over the campaigns found (decision 044). Each as a lookup of its own joined
    // by IN (… UNION ALL …) read the matches by id one at a time, and the page probed that whole list for every campaign.
    pattern !== null
      ? sql`(${campaigns.title} ilike ${pattern} or ${campaigns.locationLabel} ilike ${pattern}
          or ${campaigns.locationLabelUr} ilike ${pattern}
          or ${campaigns.ownerId} = any(array(select np.user_id from ngo_profiles np where np.name ilike ${pattern}))
          or ${campaigns.id} = any(array(select cp.campaign_id from ngo_profiles np join campaign_partners cp
            on cp.ngo_id = np.user_id and cp.status = 'accepted' where np.name ilike ${pattern}))${sql.join(inPlace, sql``)})`
      : undefined,
  );
  return { where, filtered: pattern !== null || i.cause !== null || i.zakat };
}

/** A card's columns, computed for the page's rows only (the caller selects the page's ids first). */
function cardColumns(today: unknown) {
  return {
    id: campaigns.id,
    slug: campaigns.slug,
    title: campaigns.title,
    description: campaigns.description,
    targetAmount: campaigns.targetAmount,
    collectedAmount: campaigns.collectedAmount,
    pictureKey: campaigns.pictureKey,
    locationLabel: campaigns.locationLabel,
    locationLabelUr: campaigns.locationLabelUr,
    acceptedFunds: campaigns.acceptedFunds,
    cause: campaigns.cause,
    // Probed NGO by NGO for the page's few rows: the set form hashed every payable NGO for them (63 buffers at 100×).
    takesCash: standingColumnsOfOne().takesCash,
    otherItems: campaigns.otherItems,
    createdAt: campaigns.createdAt,
    ngos: campaignNgosColumn(),
    ownerChecks: standingKindsColumnOn(campaigns.ownerId, today as string | Placeholder),
  };
}

const NEWEST_FIRST = [desc(campaigns.createdAt), desc(campaigns.id)];

/**
 * The statement of a picker's page: the page's cards, and beside them the count and what the reads before and after
 * the page found (decision 044's keyset reads; see `pickerCampaignsAfter`).
 */
function pickerSelect(db: DbOrTx, i: PickerInputs<unknown>) {
  const { at } = i;
  const size = DONATE_PICKER_PAGE_SIZE;
  const reads = keysetReads(i.start, size);
  const { where, filtered } = offeredWhere(i);
  // A walk tests the rows it passes one by one, newest first, until the read has its rows: each NGO probed by its
  // primary key for them, rather than every NGO in good standing and every payable one hashed first for each read
  // (63 and 143 buffers at 100× a read, and a page has up to three: decision 044).
  const walkWhere = offeredWhere(i, true).where;
  // A read's condition on the cursor: the cursor's own (created_at, id) as the database holds it (no microsecond lost
  // through a JavaScript Date), compared as a row, the start of a range of campaigns_status_created_idx walked backwards
  // (newer to older, the list's order) or forwards (a read before the cursor, the nearest first).
  const onSide = (read: KeysetRead, createdAt: SQL, id: SQL) =>
    at !== null
      ? sql`(${createdAt}, ${id}) ${sql.raw(keysetOperator(read.side, "desc"))} (select c.created_at, c.id from ${campaigns} c where c.id = ${at})`
      : undefined;
  const order = (read: KeysetRead, t: string) =>
    sql.raw(keysetBackwards(read.side) ? `${t}.created_at asc, ${t}.id asc` : `${t}.created_at desc, ${t}.id desc`);
  const page: KeysetRead = reads.page ?? { side: "after", limit: size + 1, offset: 0 }; // the first page: and one more, is there a next?
  // The ids (and times) a read takes: unfiltered, or a search that finds many, a walk of the index that stops at the
  // read's last match.
  const walk = (read: KeysetRead, extra?: SQL) =>
    sql`select ${campaigns.id} as id, ${campaigns.createdAt} as created_at from ${campaigns}
      where ${and(walkWhere, onSide(read, sql`${campaigns.createdAt}`, sql`${campaigns.id}`), extra)}
      order by ${order(read, '"campaigns"')} limit ${read.limit} offset ${read.offset}`;
  // A search or filter reads at most the bound and one more of its matches, by its indexes (a CTE read more than once is
  // materialized): their count is the total ("more than 1,000" past it). Up to the bound, each read is sorted from those
  // rows; past it the matches are many, and the walk finds the read's rows soon. Each arm is guarded by the count, which
  // PostgreSQL computes first (an InitPlan), so only one runs. A walk alone read every active campaign for a search that
  // finds few or none (95,228 buffers at 100×); sorting every match grew with the matches (9,901 for "water").
  const matched$ = db.$with("matched").as(
    db
      .select({ id: sql<string>`${campaigns.id}`.as("id"), createdAt: sql<Date>`${campaigns.createdAt}`.as("created_at") })
      .from(campaigns)
      .where(where)
      .limit(PICKER_COUNT_BOUND + 1),
  );
  const n = sql`(select count(*) from ${matched$})`;
  const ids = (read: KeysetRead) =>
    filtered
      ? sql`(select m.id, m.created_at from ${matched$} m where ${n} <= ${PICKER_COUNT_BOUND}
          ${at !== null ? sql`and ${onSide(read, sql`m.created_at`, sql`m.id`)}` : sql``}
          order by ${order(read, "m")} limit ${read.limit} offset ${read.offset})
        union all (${walk(read, sql`${n} > ${PICKER_COUNT_BOUND}`)})`
      : walk(read);
  // Beside the page's cards, what the reads before and after it found (ids, the nearest first; computed once).
  const nearest = (read: KeysetRead) => order(read, "r");
  return (filtered ? db.with(matched$) : db)
    .select({
      total: (filtered ? n : offeredCount(i.cash, PICKER_COUNT_BOUND)).mapWith(Number),
      behind: (reads.behind
        ? sql<string[]>`array(select r.id from (${ids(reads.behind)}) r order by ${nearest(reads.behind)})`
        : sql<string[]>`'{}'::uuid[]`
      ).mapWith((v: unknown) => parseUuidArray(v)),
      ahead: (reads.ahead ? sql`(select count(*) from (${ids(reads.ahead)}) r)` : sql`0`).mapWith(Number),
      ...cardColumns(i.today),
    })
    .from(campaigns)
    .where(inArray(campaigns.id, sql`(select p.id from (${ids(page)}) p)`))
    .orderBy(...NEWEST_FIRST);
}

type PreparedPicker = ReturnType<ReturnType<typeof pickerSelect>["prepare"]>;

/**
 * Each database handle's prepared statements, one per shape met (at most PICKER_SHAPES): Drizzle builds the SQL of a
 * statement this size from about 1,400 pieces, a tenth of the page's server time (decision 037, session 20), so each
 * shape is built once and run with each request's values. Each is named after its shape on PostgreSQL (`statementName`:
 * parsed and planned once a connection; unnamed where the deployment says so), and a transaction's handle gets its own,
 * unnamed, gone with it.
 */
const preparedPickers = new WeakMap<DbOrTx, Map<string, PreparedPicker>>();

function preparedPicker(db: DbOrTx, i: PickerInputs<string>): PreparedPicker {
  let byShape = preparedPickers.get(db);
  if (!byShape) preparedPickers.set(db, (byShape = new Map()));
  const shape = pickerShape(i);
  let prepared = byShape.get(shape);
  if (!prepared) {
    const statement = pickerSelect(db, placeholdersOf(i));
    byShape.set(shape, (prepared = statement.prepare(statementName(db, `picker/${shape}`, statement))));
  }
  return prepared;
}

/** How many of the picker's statements are prepared for `db` (for the tests: never more than PICKER_SHAPES). */
export function preparedPickerShapes(db: DbOrTx): number {
  return preparedPickers.get(db)?.size ?? 0;
}

/**
 * How the picker's statement is made: "prepared" (what the pickers do) or "fresh", built for the request's values as it
 * was before the statements were prepared (for the tests, which hold the two to the same SQL, parameters and rows).
 */
export type PickerStatement = "prepared" | "fresh";

/** The SQL text and parameters of a page's statement, made either way. */
export function pickerStatementText(
  db: DbOrTx,
  opts: PickerFilter & { after?: string | null; before?: string | null },
  now: Date,
  statement: PickerStatement,
): { sql: string; params: unknown[] } {
  const i = pickerInputs(opts, keysetCursor(opts), now);
  if (statement === "fresh") return pickerSelect(db, i).toSQL();
  const query = preparedPicker(db, i).getQuery();
  return { sql: query.sql, params: fillPlaceholders(query.params, placeholderValues(i)) };
}

/** A page of a picker read by cursor: its cards, the cursor it was read after, the next page's, and how many there are. */
export interface PickerPage extends KeysetPage<PickerCampaign> {
  /**
   * The cursor that names this page (a campaign's id: `?after=` it gives these cards), or null for the first page (also
   * when the one asked for led nowhere); a page reached by "Previous" (`?before=`) is named so too, for its cards'
   * Details and the panel's Go back.
   */
  after: string | null;
  prev: PreviousPage;
  /** How many campaigns the picker offers: exact up to PICKER_COUNT_BOUND, past it the bound and `more`. */
  total: number;
  /** More than `total` (the bound): a search's count stops there rather than count every match (decision 044). */
  more: boolean;
}

/**
 * One page of the campaigns a donor can give to (/donate1 for cash, /donate5 for goods) or anyone may browse (the
 * landing page, `kind: "browse"`), read by keyset: the
 * `offeredWhere` campaigns newest first (ties by id) after the campaign `after` names ("Next"), or just before the one
 * `before` names ("Previous": the same index walked the other way, then put back in order), six a page (the picker's 3
 * upper and 3 lower cards), so a deep page costs what the first does (decision 044; the cursor as decision 050's). A
 * cursor is only a position: the page holds offered campaigns alone whatever it names, and a cursor that is not a
 * uuid, names no campaign, or leads to nothing offered (or, before, to less than a page: the top of the list) reads as
 * the first page. The count is exact unfiltered (kept per NGO); a search or filter counts at most PICKER_COUNT_BOUND
 * matches and then says "more". One statement, prepared once for its shape (`preparedPicker`).
 */
export async function pickerCampaignsAfter(
  db: DbOrTx,
  opts: PickerFilter & { after?: string | null; before?: string | null },
  now = new Date(),
  statement: PickerStatement = "prepared",
): Promise<PickerPage> {
  const cursor = keysetCursor(opts);
  const size = DONATE_PICKER_PAGE_SIZE;
  const i = pickerInputs(opts, cursor, now);
  const found = await (statement === "fresh" ? pickerSelect(db, i) : preparedPicker(db, i).execute(placeholderValues(i)));
  // Nothing offered on the cursor's side (forged, unknown, or the rest closed since), or before it less than a page (the
  // top of the list): the first page.
  if (cursor !== null && (found.length === 0 || ("before" in cursor && found.length < size && !found[0]!.behind.length))) {
    return pickerCampaignsAfter(db, { ...opts, after: null, before: null }, now, statement);
  }
  const n0 = found[0]?.total ?? 0;
  const { rows, next, prev, start } = keysetPage(
    cursor,
    size,
    found.map(({ total: _, behind: _b, ahead: _a, ...r }) => r),
    found[0]?.behind ?? [],
    found[0]?.ahead ?? 0,
  );
  return { rows, next, prev, after: start, total: Math.min(n0, PICKER_COUNT_BOUND), more: n0 > PICKER_COUNT_BOUND };
}

/** A uuid[] as the driver gives it: an array (node-postgres) or PostgreSQL's text form (`{a,b}`). */
function parseUuidArray(v: unknown): string[] {
  if (Array.isArray(v)) return v as string[];
  if (typeof v !== "string" || v.length < 2) return [];
  const inner = v.slice(1, -1);
  return inner ? inner.split(",") : [];
}

/** The contact number a donor gave at sign-up, to prefill the proof form's phone; empty when there is none. */
export async function donorContactNumber(db: DbOrTx, donorId: string): Promise<string> {
  const [row] = await db
    .select({ contactNumber: donorProfiles.contactNumber })
    .from(donorProfiles)
    .where(eq(donorProfiles.userId, donorId))
    .limit(1);
  return row?.contactNumber ?? "";
}
