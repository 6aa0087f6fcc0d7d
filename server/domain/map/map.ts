import { and, asc, between, count, eq, inArray, sql } from "drizzle-orm";
import { DESCRIPTION_PREVIEW_WORDS, PAGE_SIZE } from "#shared/constants.ts";
import { previewWords } from "#shared/text.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns } from "#server/db/schema.ts";
import { pageOffset, paged } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { invalid } from "#server/domain/errors.ts";
import { ownerInGoodStanding } from "#server/domain/campaigns/standing.ts";
import type { ListedCampaign, MapCampaign, MapData } from "#shared/map.ts";

/** The part of the map a browser shows: a box in degrees and Leaflet's (possibly fractional) zoom. */
export interface MapView {
  south: number;
  west: number;
  north: number;
  east: number;
  zoom: number;
}

export const MIN_ZOOM = 0;
export const MAX_ZOOM = 19;
/** From this zoom on, every campaign in view is its own marker (as long as there are at most MAX_ITEMS). */
export const DETAIL_ZOOM = 13;
/** Size of a clustering cell on screen, in pixels of a 256-pixel tile. */
const CELL_PIXELS = 60;
/** At most this many grid cells in one answer, whatever box is asked for: the answer stays small and fast. */
export const MAX_CELLS = 600;
/** At most this many individual markers in one answer. */
export const MAX_ITEMS = 500;

const FIELDS = ["south", "west", "north", "east", "zoom"] as const;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Reads a view from query parameters. Each of south, west, north, east and zoom must be a number; values
 * beyond the world (Leaflet reports longitudes past ±180 when zoomed out) are clamped, zoom to 0–19. A box
 * whose south lies above its north, or whose west lies east of its east, is refused.
 */
export function parseMapView(params: URLSearchParams | Record<string, string | null | undefined>): MapView {
  const get = (k: string) => (params instanceof URLSearchParams ? params.get(k) : params[k]);
  const values = {} as Record<(typeof FIELDS)[number], number>;
  for (const field of FIELDS) {
    const raw = get(field)?.trim() ?? "";
    const n = raw === "" ? Number.NaN : Number(raw);
    if (!Number.isFinite(n)) throw invalid("map.not_number", field, { field });
    values[field] = n;
  }
  const view: MapView = {
    south: clamp(values.south, -90, 90),
    north: clamp(values.north, -90, 90),
    west: clamp(values.west, -180, 180),
    east: clamp(values.east, -180, 180),
    zoom: clamp(values.zoom, MIN_ZOOM, MAX_ZOOM),
  };
  if (view.south > view.north) throw invalid("map.inverted", "south");
  if (view.west > view.east) throw invalid("map.inverted", "west");
  return view;
}

/**
 * The grid cell size in degrees: about 60 screen pixels at this zoom, enlarged when the box would hold more
 * than MAX_CELLS cells (a huge box asked for at a high zoom), so no request can make a large answer.
 */
export function cellSize(view: MapView): number {
  let cell = (360 / 2 ** view.zoom) * (CELL_PIXELS / 256);
  const width = view.east - view.west;
  const height = view.north - view.south;
  // A box may straddle a cell boundary on each side, hence the + 1.
  while ((Math.ceil(width / cell) + 1) * (Math.ceil(height / cell) + 1) > MAX_CELLS) cell *= 1.25;
  return cell;
}

const round = (v: number) => Math.round(v * 1e5) / 1e5;

/**
 * The active campaigns inside a view, clustered on a fixed grid in SQL: cells are aligned to whole
 * multiples of the cell size, so clusters stay put while the map pans. A cell holding one campaign yields
 * that campaign; a busier one yields a cluster with its count, mean point and bounds. From DETAIL_ZOOM on,
 * every campaign is returned when there are at most MAX_ITEMS in view. Completed, archived and paused campaigns
 * never appear. The answer never exceeds MAX_CELLS clusters and MAX_ITEMS campaigns.
 */
export async function mapView(db: DbOrTx, input: MapView): Promise<MapData> {
  const view = parseMapView(Object.fromEntries(FIELDS.map((f) => [f, String(input[f])])));
  const inView = and(
    eq(campaigns.status, "active"),
    ownerInGoodStanding(),
    between(campaigns.lat, view.south, view.north),
    between(campaigns.lng, view.west, view.east),
  );
  const cell = cellSize(view);
  const cells = await db
    .select({
      count: sql<number>`count(*)::int`,
      lat: sql<number>`avg(${campaigns.lat})::float8`,
      lng: sql<number>`avg(${campaigns.lng})::float8`,
      south: sql<number>`min(${campaigns.lat})::float8`,
      west: sql<number>`min(${campaigns.lng})::float8`,
      north: sql<number>`max(${campaigns.lat})::float8`,
      east: sql<number>`max(${campaigns.lng})::float8`,
      only: sql<string | null>`case when count(*) = 1 then min(${campaigns.id}::text) end`,
      gy: sql<number>`floor(${campaigns.lat} / ${cell}::float8)::int`.as("gy"),
      gx: sql<number>`floor(${campaigns.lng} / ${cell}::float8)::int`.as("gx"),
    })
    .from(campaigns)
    .where(inView)
    .groupBy(sql`gy, gx`)
    .orderBy(sql`count(*) desc, gy, gx`)
    .limit(MAX_CELLS);

  const total = cells.reduce((sum, c) => sum + Number(c.count), 0);
  if (view.zoom >= DETAIL_ZOOM && total <= MAX_ITEMS) {
    const rows = await db
      .select({
        id: campaigns.id,
        slug: campaigns.slug,
        title: campaigns.title,
        description: campaigns.description,
        lat: campaigns.lat,
        lng: campaigns.lng,
      })
      .from(campaigns)
      .where(inView)
      .orderBy(asc(campaigns.title), asc(campaigns.id))
      .limit(MAX_ITEMS);
    return { clusters: [], campaigns: rows.map(toMapCampaign) };
  }

  const singles = cells.flatMap((c) => (c.only ? [c.only] : []));
  const rows = singles.length
    ? await db
        .select({
          id: campaigns.id,
          slug: campaigns.slug,
          title: campaigns.title,
          description: campaigns.description,
          lat: campaigns.lat,
          lng: campaigns.lng,
        })
        .from(campaigns)
        .where(and(inArray(campaigns.id, singles), eq(campaigns.status, "active"), ownerInGoodStanding()))
        .orderBy(asc(campaigns.title), asc(campaigns.id))
    : [];
  return {
    clusters: cells
      .filter((c) => !c.only)
      .map((c) => ({
        lat: round(Number(c.lat)),
        lng: round(Number(c.lng)),
        count: Number(c.count),
        bounds: [
          [round(Number(c.south)), round(Number(c.west))],
          [round(Number(c.north)), round(Number(c.east))],
        ],
      })),
    campaigns: rows.map(toMapCampaign),
  };
}

function toMapCampaign(row: { id: string; slug: string; title: string; description: string; lat: number; lng: number }): MapCampaign {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    preview: previewWords(row.description, DESCRIPTION_PREVIEW_WORDS),
    lat: round(row.lat),
    lng: round(row.lng),
  };
}

/** Every active campaign as a paged list, by title: the map pages' companion without JavaScript or a pointer. */
export async function listMapCampaigns(db: DbOrTx, page: number): Promise<Paged<ListedCampaign>> {
  const active = and(eq(campaigns.status, "active"), ownerInGoodStanding());
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: campaigns.id,
        slug: campaigns.slug,
        title: campaigns.title,
        description: campaigns.description,
        locationLabel: campaigns.locationLabel,
        locationLabelUr: campaigns.locationLabelUr,
      })
      .from(campaigns)
      .where(active)
      .orderBy(asc(sql`lower(${campaigns.title})`), asc(campaigns.id))
      .limit(PAGE_SIZE)
      .offset(pageOffset(page)),
    db.select({ total: count() }).from(campaigns).where(active),
  ]);
  return paged(
    rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      preview: previewWords(r.description, DESCRIPTION_PREVIEW_WORDS),
      locationLabel: r.locationLabel,
      locationLabelUr: r.locationLabelUr,
    })),
    page,
    totals?.total ?? 0,
  );
}
