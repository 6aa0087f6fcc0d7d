import { and, asc, between, count, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { DESCRIPTION_PREVIEW_WORDS, PAGE_SIZE } from "#shared/constants.ts";
import { previewWords } from "#shared/text.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, mapCellMarks, mapCells } from "#server/db/schema.ts";
import { pageOffset, paged } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { invalid } from "#server/domain/errors.ts";
import { ownerInGoodStanding, ownerInGoodStandingProbe } from "#server/domain/campaigns/standing.ts";
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
 * never appear. The answer never exceeds MAX_CELLS clusters and MAX_ITEMS campaigns. `grid: false` counts every cell from
 * the campaigns instead of the kept grid (clusterCells), for tests.
 */
export async function mapView(db: DbOrTx, input: MapView, opts: { grid?: boolean } = {}): Promise<MapData> {
  const view = parseMapView(Object.fromEntries(FIELDS.map((f) => [f, String(input[f])])));
  const inView = and(
    eq(campaigns.status, "active"),
    ownerInGoodStanding(),
    between(campaigns.lat, view.south, view.north),
    between(campaigns.lng, view.west, view.east),
  );
  const cell = cellSize(view);
  if (opts.grid ?? true) await foldMapCells(db);
  const cells = await clusterCells(db, view, cell, inView, opts.grid ?? true);
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

/**
 * Recounts the cells of `map_cells` that changes committed since the last fold have marked (`map_cell_marks`), so the
 * grid read next counts every committed campaign (migration 0030, decision 044). The changes themselves only mark
 * cells, so they never wait for each other; folds wait for each other (one lock), and when nothing is marked a fold is
 * one look at an empty table.
 */
export async function foldMapCells(db: DbOrTx): Promise<void> {
  await db.execute(sql`select map_cells_fold()`);
}

/**
 * The hourly upkeep's fold (server/maintenance.ts): the marks waiting, then a fold when there are any, so the first map
 * request after a bulk change (a suspended NGO's campaigns, an import) finds its cells already recounted. Returns how
 * many marks were waiting (a change marks each level-12 cell it touches; 0: nothing to fold).
 */
export async function foldMarkedMapCells(db: DbOrTx): Promise<number> {
  const [waiting] = await db.select({ n: sql<number>`count(*)::int` }).from(mapCellMarks);
  const n = Number(waiting?.n ?? 0);
  if (n > 0) await foldMapCells(db);
  return n;
}

/** The deepest zoom level kept in `map_cells` (migration 0024); from DETAIL_ZOOM on a view is small. */
export const GRID_MAX_ZOOM = 12;

/** The cell of a whole zoom level: cellSize's at that zoom, 84.375° / 2^zoom (exact in floating point). */
const gridCell = (zoom: number) => 84.375 / 2 ** zoom;

interface Cell {
  count: number;
  lat: number;
  lng: number;
  south: number;
  west: number;
  north: number;
  east: number;
  only: string | null;
  gy: number;
  gx: number;
}

/**
 * The view's grid cells, busiest first (ties by row, then column), at most MAX_CELLS. At a whole zoom up to
 * GRID_MAX_ZOOM whose cell was not enlarged, the cells wholly inside the view are read from `map_cells`, kept by
 * triggers (decision 044): a few rows, whatever the number of campaigns. Only the cells the view's edges cut through are
 * counted from the campaigns, for the part of each inside the view. Any other view is counted from the campaigns, as is
 * every view when `grid` is false (the tests compare the two).
 */
async function clusterCells(db: DbOrTx, view: MapView, cell: number, inView: SQL | undefined, grid: boolean): Promise<Cell[]> {
  const gy = sql<number>`floor(${campaigns.lat} / ${cell}::float8)::int`;
  const gx = sql<number>`floor(${campaigns.lng} / ${cell}::float8)::int`;
  const counted = (where: SQL | undefined) =>
    db
      .select({
        count: sql<number>`count(*)::int`,
        lat: sql<number>`avg(${campaigns.lat})::float8`,
        lng: sql<number>`avg(${campaigns.lng})::float8`,
        south: sql<number>`min(${campaigns.lat})::float8`,
        west: sql<number>`min(${campaigns.lng})::float8`,
        north: sql<number>`max(${campaigns.lat})::float8`,
        east: sql<number>`max(${campaigns.lng})::float8`,
        only: sql<string | null>`case when count(*) = 1 then min(${campaigns.id}::text) end`,
        gy: gy.as("gy"),
        gx: gx.as("gx"),
      })
      .from(campaigns)
      .where(where)
      .groupBy(sql`gy, gx`)
      .orderBy(sql`count(*) desc, gy, gx`)
      .limit(MAX_CELLS);
  const whole = grid && Number.isInteger(view.zoom) && view.zoom <= GRID_MAX_ZOOM && cell === gridCell(view.zoom);
  // The cells wholly inside: their rows and columns lie strictly between those of the view's edges (a division by a
  // positive number keeps order, so every campaign of such a cell is inside the view).
  const [ylo, yhi] = [Math.floor(view.south / cell) + 1, Math.floor(view.north / cell) - 1];
  const [xlo, xhi] = [Math.floor(view.west / cell) + 1, Math.floor(view.east / cell) - 1];
  if (!whole || ylo > yhi || xlo > xhi) return counted(inView);
  // The edge cells, for the part of each inside the view: the kept cells of finer levels wholly inside the view, found
  // by walking down from the edge cells through the kept cells the view cuts (a recursive query over `map_cells`, a few
  // rows a level, since only non-empty cells are kept), and the campaigns of the level-GRID_MAX_ZOOM cells the view
  // still cuts (thin slivers along its sides), counted from the campaigns. A cell is wholly inside when its bounds lie
  // inside the view with a hair of margin (a campaign's cell is a floor of a division, which may round at the bounds).
  const [south, west, north, east] = [view.south, view.west, view.north, view.east];
  const z = view.zoom;
  const m = 1e-9;
  const c12 = gridCell(GRID_MAX_ZOOM);
  // Whether the cell (gy, gx) of this size lies inside the view.
  const wholeInside = (size: SQL, gy: SQL, gx: SQL) => {
    const margin = sql`${m}::float8`;
    return sql`(${gy} * ${size} - ${margin} >= ${south}::float8 and (${gy} + 1) * ${size} + ${margin} <= ${north}::float8
      and ${gx} * ${size} - ${margin} >= ${west}::float8 and (${gx} + 1) * ${size} + ${margin} <= ${east}::float8)`;
  };
  const keptWhole = wholeInside(sql`(84.375::float8 / 2 ^ m.zoom)`, sql`m.gy`, sql`m.gx`);
  const finestWhole = wholeInside(sql`${c12}::float8`, sql`floor(c.lat / ${c12}::float8)`, sql`floor(c.lng / ${c12}::float8)`);
  // A campaign whose finest cell the view cuts lies within a cell's width of a side: four strips, each one range of a
  // position index (campaigns_status_position_idx, campaigns_status_lng_idx); the cell test decides.
  const [westStrip, eastStrip, southStrip, northStrip] = [west + 2 * c12, east - 2 * c12, south + 2 * c12, north - 2 * c12];
  const [y0, y1, x0, x1] = [Math.floor(south / cell), Math.floor(north / cell), Math.floor(west / cell), Math.floor(east / cell)];
  const edge = db.execute(sql`
    with recursive piece as (
      select m.zoom, m.gy, m.gx, m.n, m.sum_lat, m.sum_lng, m.south, m.west, m.north, m.east, m.single_id, ${keptWhole} as whole
      from ${mapCells} m
      where m.zoom = ${z}::int and m.gy between ${y0}::int and ${y1}::int and m.gx between ${x0}::int and ${x1}::int
        and not (m.gy between ${ylo}::int and ${yhi}::int and m.gx between ${xlo}::int and ${xhi}::int)
      union all
      select m.zoom, m.gy, m.gx, m.n, m.sum_lat, m.sum_lng, m.south, m.west, m.north, m.east, m.single_id, ${keptWhole}
      from piece p join ${mapCells} m on m.zoom = p.zoom + 1 and m.gy between 2 * p.gy and 2 * p.gy + 1
        and m.gx between 2 * p.gx and 2 * p.gx + 1
      where not p.whole and p.zoom < ${GRID_MAX_ZOOM}::int
    ),
    sliver as (
      select c.id, c.lat, c.lng from ${campaigns} c
      where c.status = 'active' and c.lat between ${south}::float8 and ${north}::float8
        and c.lng between ${west}::float8 and ${east}::float8
        and (c.lng < ${westStrip}::float8 or c.lng > ${eastStrip}::float8 or c.lat < ${southStrip}::float8 or c.lat > ${northStrip}::float8)
        and not ${finestWhole}
        and not (floor(c.lat / ${cell}::float8)::int between ${ylo}::int and ${yhi}::int
          and floor(c.lng / ${cell}::float8)::int between ${xlo}::int and ${xhi}::int)
        and ${ownerInGoodStandingProbe(sql`c.owner_id`)}
    ),
    part as (
      select floor(p.gy / 2 ^ (p.zoom - ${z}::int))::int as gy, floor(p.gx / 2 ^ (p.zoom - ${z}::int))::int as gx,
        p.n, p.sum_lat, p.sum_lng, p.south, p.west, p.north, p.east, p.single_id
      from piece p where p.whole
      union all
      select floor(s.lat / ${cell}::float8)::int, floor(s.lng / ${cell}::float8)::int, 1, s.lat, s.lng, s.lat, s.lng, s.lat,
        s.lng, s.id::text
      from sliver s
    )
    select sum(n)::int as count, (sum(sum_lat) / sum(n))::float8 as lat, (sum(sum_lng) / sum(n))::float8 as lng,
      min(south)::float8 as south, min(west)::float8 as west, max(north)::float8 as north, max(east)::float8 as east,
      case when sum(n) = 1 then max(single_id) end as only, gy, gx
    from part group by gy, gx`);
  const inner = db
    .select()
    .from(mapCells)
    .where(and(eq(mapCells.zoom, view.zoom), gte(mapCells.gy, ylo), lte(mapCells.gy, yhi), gte(mapCells.gx, xlo), lte(mapCells.gx, xhi)))
    .orderBy(sql`${mapCells.n} desc, ${mapCells.gy}, ${mapCells.gx}`)
    .limit(MAX_CELLS);
  const [edges, inside] = await Promise.all([edge, inner]);
  return [
    ...(edges as unknown as { rows: Cell[] }).rows,
    ...inside.map((c) => ({
      count: c.n,
      lat: c.sumLat / c.n,
      lng: c.sumLng / c.n,
      south: c.south,
      west: c.west,
      north: c.north,
      east: c.east,
      only: c.single,
      gy: c.gy,
      gx: c.gx,
    })),
  ]
    .sort((a, b) => Number(b.count) - Number(a.count) || a.gy - b.gy || a.gx - b.gx)
    .slice(0, MAX_CELLS);
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

/**
 * The kept cells (`map_cells`), folded first, that differ from a fresh count of the campaigns the map shows, at every level, as
 * `zoom/gy/gx: kept ≠ counted` lines: none when they agree. Coordinates' sums may differ in the last bits (another
 * order of addition); the tests and the scale seed ask it.
 */
export async function mapCellDrift(db: DbOrTx): Promise<string[]> {
  await foldMapCells(db);
  const result = await db.execute(sql`
    with fresh as (
      select z as zoom, floor(${campaigns.lat} / (84.375 / 2 ^ z))::int as gy, floor(${campaigns.lng} / (84.375 / 2 ^ z))::int as gx,
        count(*)::int as n, sum(${campaigns.lat}) as sum_lat, sum(${campaigns.lng}) as sum_lng, min(${campaigns.lat}) as south, min(${campaigns.lng}) as west,
        max(${campaigns.lat}) as north, max(${campaigns.lng}) as east, case when count(*) = 1 then min(${campaigns.id}::text) end as single_id
      from ${campaigns} cross join generate_series(0, ${GRID_MAX_ZOOM}) as z
      where ${campaigns.status} = 'active' and ${ownerInGoodStanding()}
      group by 1, 2, 3
    )
    select coalesce(k.zoom, f.zoom) as zoom, coalesce(k.gy, f.gy) as gy, coalesce(k.gx, f.gx) as gx,
      k.n as kept, f.n as counted
    from ${mapCells} k full join fresh f on f.zoom = k.zoom and f.gy = k.gy and f.gx = k.gx
    where k.zoom is null or f.zoom is null or k.n <> f.n or k.south <> f.south or k.west <> f.west or k.north <> f.north
      or k.east <> f.east or k.single_id is distinct from f.single_id
      or abs(k.sum_lat - f.sum_lat) > 1e-6 * f.n or abs(k.sum_lng - f.sum_lng) > 1e-6 * f.n
    order by 1, 2, 3
  `);
  const rows = (result as unknown as { rows: { zoom: number; gy: number; gx: number; kept: number | null; counted: number | null }[] })
    .rows;
  return rows.map((r) => `${r.zoom}/${r.gy}/${r.gx}: ${r.kept ?? "none"} ≠ ${r.counted ?? "none"}`);
}
