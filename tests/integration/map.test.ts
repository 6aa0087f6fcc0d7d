import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { campaigns, mapCellMarks, users } from "#server/db/schema.ts";
import { runMaintenance } from "#server/maintenance.ts";
import { loader as mapApi } from "#app/routes/api/map.ts";
import { DomainError } from "#server/domain/errors.ts";
import {
  cellSize,
  foldMapCells,
  listMapCampaigns,
  mapCellDrift,
  mapView,
  MAX_CELLS,
  MAX_ITEMS,
  parseMapView,
  type MapView,
} from "#server/domain/map/map.ts";
import { type MapData } from "#shared/map.ts";
import { tileImageSource } from "#server/http/tile-origin.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";

/** The whole of Pakistan with a margin, as a desktop browser shows it at the initial zoom. */
const COUNTRY: MapView = { south: 22, west: 58, north: 38, east: 82, zoom: 5.8 };

const total = (d: MapData) => d.campaigns.length + d.clusters.reduce((sum, c) => sum + c.count, 0);

/** A small seeded generator (mulberry32), so the "random" campaigns are the same on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function callApi(s: TestServices, query: string, lang: "en" | "ur" = "en"): Promise<Response> {
  const request = new Request(`http://localhost/api/map?${query}`);
  return mapApi({ request, context: { services: s, lang }, params: {} } as never) as Promise<Response>;
}

/** Rows inserted with one statement, for the large tests (the factory inserts one at a time). */
async function bulkInsert(s: TestServices, ownerId: string, points: { lat: number; lng: number }[], prefix: string) {
  const rows = points.map((p, i) => ({ slug: `${prefix}-${i}`, title: `${prefix} campaign ${i}`, lat: p.lat, lng: p.lng }));
  await s.db.execute(sql`
    insert into campaigns (slug, owner_id, title, description, target_amount, location_label, lat, lng)
    select r.slug, ${ownerId}::uuid, r.title, 'Food, water and shelter for families after the floods.', 50000, 'Pakistan', r.lat, r.lng
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(slug text, title text, lat float8, lng float8)`);
}

describe("map view of active campaigns", () => {
  let s: TestServices;
  let ngo: string;
  beforeAll(async () => {
    s = await createTestServices();
    ngo = (await makeUser(s.db, "ngo")).id;
  });
  afterAll(async () => s.close());

  it("shows only active campaigns, never completed or archived ones", async () => {
    const active = await makeCampaign(s.db, ngo, { lat: 33.6844, lng: 73.0479 });
    const completed = await makeCampaign(s.db, ngo, { lat: 33.7, lng: 73.06, status: "completed", completedAt: new Date() });
    const archived = await makeCampaign(s.db, ngo, { lat: 33.71, lng: 73.07, status: "archived", archivedAt: new Date() });
    for (const zoom of [5.8, 15]) {
      const data = await mapView(s.db, { south: 33.5, west: 72.9, north: 33.9, east: 73.2, zoom });
      expect(total(data)).toBe(1);
      expect(data.clusters).toEqual([]);
      expect(data.campaigns.map((c) => c.id)).toEqual([active.id]);
    }
    const ids = (await listMapCampaigns(s.db, 1)).rows.map((r) => r.id);
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(completed.id);
    expect(ids).not.toContain(archived.id);
  });

  it("leaves out the campaigns of a suspended NGO until it is reinstated", async () => {
    const other = (await makeUser(s.db, "ngo")).id;
    const paused = await makeCampaign(s.db, other, { lat: 35.92, lng: 74.31 });
    const around = { south: 35.8, west: 74.2, north: 36.0, east: 74.4, zoom: 15 };
    const seen = async () => ({
      map: (await mapView(s.db, around)).campaigns.map((c) => c.id),
      list: (await listMapCampaigns(s.db, 1)).rows.some((r) => r.id === paused.id),
    });
    expect(await seen()).toEqual({ map: [paused.id], list: true });
    await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, other));
    expect(await seen()).toEqual({ map: [], list: false });
    await s.db.update(users).set({ suspendedAt: null }).where(eq(users.id, other));
    expect(await seen()).toEqual({ map: [paused.id], list: true });
  });

  it("returns only what lies inside the box", async () => {
    const quetta = await makeCampaign(s.db, ngo, { lat: 30.1798, lng: 66.975 });
    const gwadar = await makeCampaign(s.db, ngo, { lat: 25.1264, lng: 62.3225 });
    const around = (lat: number, lng: number) => ({ south: lat - 0.2, west: lng - 0.2, north: lat + 0.2, east: lng + 0.2, zoom: 12 });
    expect((await mapView(s.db, around(30.1798, 66.975))).campaigns.map((c) => c.id)).toEqual([quetta.id]);
    expect((await mapView(s.db, around(25.1264, 62.3225))).campaigns.map((c) => c.id)).toEqual([gwadar.id]);
    // Just outside, on every side.
    for (const box of [
      { south: 30.2, west: 66.8, north: 30.5, east: 67.1 },
      { south: 29.9, west: 66.8, north: 30.17, east: 67.1 },
      { south: 30.1, west: 66.98, north: 30.3, east: 67.2 },
      { south: 30.1, west: 66.7, north: 30.3, east: 66.97 },
    ]) {
      expect(total(await mapView(s.db, { ...box, zoom: 12 }))).toBe(0);
    }
  });

  it("gives a lone campaign its title, slug and a 20-word preview", async () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i + 1}`);
    const c = await makeCampaign(s.db, ngo, { lat: 27.7, lng: 68.85, title: "Clean water for Sukkur", description: words.join(" ") });
    const data = await mapView(s.db, { south: 27.5, west: 68.6, north: 27.9, east: 69.1, zoom: 6 });
    expect(data.campaigns).toEqual([
      { id: c.id, slug: c.slug, title: "Clean water for Sukkur", preview: `${words.slice(0, 20).join(" ")}…`, lat: 27.7, lng: 68.85 },
    ]);
  });

  it("merges dense campaigns into a cluster when zoomed out and splits them when zoomed in", async () => {
    // Twenty campaigns within a few kilometres of Faisalabad.
    const rnd = random(7);
    const made = [];
    for (let i = 0; i < 20; i++) {
      made.push(await makeCampaign(s.db, ngo, { lat: 31.42 + rnd() * 0.04, lng: 73.08 + rnd() * 0.04 }));
    }
    const box = { south: 31.0, west: 72.6, north: 31.8, east: 73.6 };
    const far = await mapView(s.db, { ...box, zoom: 5.8 });
    expect(far.campaigns).toEqual([]);
    expect(far.clusters).toHaveLength(1);
    const [cluster] = far.clusters;
    expect(cluster!.count).toBe(20);
    // The cluster sits at their mean point, and its bounds hold all of them.
    const meanLat = made.reduce((sum, c) => sum + c.lat, 0) / 20;
    expect(cluster!.lat).toBeCloseTo(meanLat, 4);
    for (const c of made) {
      expect(c.lat).toBeGreaterThanOrEqual(cluster!.bounds[0][0] - 1e-5);
      expect(c.lat).toBeLessThanOrEqual(cluster!.bounds[1][0] + 1e-5);
      expect(c.lng).toBeGreaterThanOrEqual(cluster!.bounds[0][1] - 1e-5);
      expect(c.lng).toBeLessThanOrEqual(cluster!.bounds[1][1] + 1e-5);
    }
    // A middle zoom splits them into more, smaller groups; up close each is its own marker.
    const middle = await mapView(s.db, { ...box, zoom: 11 });
    expect(middle.clusters.length + middle.campaigns.length).toBeGreaterThan(1);
    expect(total(middle)).toBe(20);
    const near = await mapView(s.db, { south: 31.4, west: 73.06, north: 31.48, east: 73.14, zoom: 15 });
    expect(near.clusters).toEqual([]);
    expect(near.campaigns.map((c) => c.id).sort()).toEqual(made.map((c) => c.id).sort());
  });

  it("accounts for every campaign in view at every zoom", async () => {
    const t = await createTestServices();
    try {
      const owner = (await makeUser(t.db, "ngo")).id;
      const rnd = random(42);
      const points = Array.from({ length: 400 }, () => ({ lat: 24 + rnd() * 13, lng: 61 + rnd() * 16 }));
      await bulkInsert(t, owner, points, "spread");
      const boxes = [COUNTRY, { south: 28, west: 66, north: 33, east: 72 }, { south: 30, west: 70, north: 31.5, east: 72.5 }];
      for (const box of boxes) {
        const expected = points.filter((p) => p.lat >= box.south && p.lat <= box.north && p.lng >= box.west && p.lng <= box.east).length;
        for (const zoom of [4, 5.8, 7, 9, 12, 14, 18]) {
          const data = await mapView(t.db, { ...box, zoom });
          expect(total(data), `box ${JSON.stringify(box)} at zoom ${zoom}`).toBe(expected);
          for (const c of data.clusters) expect(c.count).toBeGreaterThan(1);
        }
      }
    } finally {
      await t.close();
    }
  });

  it("keeps its grid of clusters (map_cells) equal to counting the campaigns, through every change that moves one on or off the map", async () => {
    const t = await createTestServices();
    try {
      const [a, b] = [(await makeUser(t.db, "ngo")).id, (await makeUser(t.db, "ngo")).id];
      const rnd = random(7);
      // Spread over the country, some exactly on the lines of a zoom-5 and a zoom-12 grid, and a dense town.
      const points = Array.from({ length: 300 }, () => ({ lat: 24 + rnd() * 13, lng: 61 + rnd() * 16 }));
      points.push({ lat: (84.375 / 32) * 11, lng: (84.375 / 32) * 26 }, { lat: (84.375 / 4096) * 1500, lng: (84.375 / 4096) * 3300 });
      points.push(...Array.from({ length: 60 }, () => ({ lat: 24.86 + rnd() * 0.05, lng: 67.0 + rnd() * 0.05 })));
      await bulkInsert(t, a, points.slice(0, 200), "grid-a");
      await bulkInsert(t, b, points.slice(200), "grid-b");
      const one = await makeCampaign(t.db, b, { lat: 31.55, lng: 74.35 });

      const views: MapView[] = [
        { south: 23.5, west: 60.8, north: 37.1, east: 77.9, zoom: 5 },
        { south: 22, west: 58, north: 38, east: 82, zoom: 4 },
        { south: 28, west: 66, north: 33, east: 72, zoom: 7 },
        { south: 24.5, west: 66.5, north: 25.5, east: 67.5, zoom: 9 },
        { south: 24.8, west: 66.95, north: 24.95, east: 67.1, zoom: 12 },
        { south: -90, west: -180, north: 90, east: 180, zoom: 0 },
        // Edges on the lines of the zoom-5 grid, and edges cutting the dense town at several levels.
        { south: (84.375 / 32) * 9, west: (84.375 / 32) * 23, north: (84.375 / 32) * 14, east: (84.375 / 32) * 29, zoom: 5 },
        { south: 24.871, west: 67.013, north: 36, east: 76, zoom: 6 },
        { south: 20, west: 55, north: 24.893, east: 67.031, zoom: 8 },
      ];
      // The mean of a cluster is a sum divided by a count, added up in another order: equal to its fifth decimal, ±1.
      const near = (x: MapData, y: MapData) => {
        expect(x.campaigns).toEqual(y.campaigns);
        expect(x.clusters.map((c) => [c.count, c.bounds])).toEqual(y.clusters.map((c) => [c.count, c.bounds]));
        x.clusters.forEach((c, i) => {
          expect(Math.abs(c.lat - y.clusters[i]!.lat)).toBeLessThanOrEqual(1.1e-5);
          expect(Math.abs(c.lng - y.clusters[i]!.lng)).toBeLessThanOrEqual(1.1e-5);
        });
      };
      const check = async (step: string) => {
        expect(await mapCellDrift(t.db), step).toEqual([]);
        for (const view of views) near(await mapView(t.db, view), await mapView(t.db, view, { grid: false }));
      };
      await check("inserted");
      await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, a));
      await check("owner suspended");
      expect(total(await mapView(t.db, views[1]!))).toBe(points.length - 200 + 1);
      await t.db.update(users).set({ suspendedAt: null }).where(eq(users.id, a));
      await check("owner reinstated");
      await t.db.update(campaigns).set({ status: "completed" }).where(eq(campaigns.id, one.id));
      await check("completed");
      await t.db.update(campaigns).set({ status: "active", lat: 24.9, lng: 67.02 }).where(eq(campaigns.id, one.id));
      await check("moved and reopened");
      await t.db.update(campaigns).set({ collectedAmount: 10 }).where(eq(campaigns.ownerId, b));
      await check("an update that moves nothing");
      await t.db.delete(campaigns).where(eq(campaigns.id, one.id));
      await check("deleted");
      await t.db.delete(campaigns).where(eq(campaigns.ownerId, b));
      await check("all of one NGO's deleted");
      expect(total(await mapView(t.db, views[1]!))).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("lists every active campaign page by page for use without JavaScript", async () => {
    const first = await listMapCampaigns(s.db, 1);
    const all = [];
    for (let page = 1; page <= first.pages; page++) all.push(...(await listMapCampaigns(s.db, page)).rows);
    expect(all).toHaveLength(first.total);
    expect(new Set(all.map((r) => r.id)).size).toBe(first.total);
    const titles = all.map((r) => r.title.toLowerCase());
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe("the kept grid under concurrent changes (map_cell_marks, decision 044)", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());
  const onPostgres = process.env.TEST_DB === "postgres";

  it("lets two transactions changing campaigns in different cells pass each other, and folds both", async () => {
    const ngo = (await makeUser(s.db, "ngo")).id;
    const karachi = await makeCampaign(s.db, ngo, { lat: 24.86, lng: 67.01 });
    const lahore = await makeCampaign(s.db, ngo, { lat: 31.55, lng: 74.34 });
    const moved = { lat: 24.9, lng: 67.05 };
    if (onPostgres) {
      // The first transaction moves its campaign and stays open; the second, in another cell, must not wait for it (with
      // the one lock of migration 0024 it waited to the first's commit: lock_timeout ends it after 2 s).
      let updated!: () => void;
      let finish!: () => void;
      const hasUpdated = new Promise<void>((r) => (updated = r));
      const finished = new Promise<void>((r) => (finish = r));
      const first = s.db.transaction(async (tx) => {
        await tx.update(campaigns).set(moved).where(eq(campaigns.id, karachi.id));
        updated();
        await finished;
      });
      await hasUpdated;
      try {
        await s.db.transaction(async (tx) => {
          await tx.execute(sql`set local lock_timeout = '2s'`);
          await tx.update(campaigns).set({ status: "completed" }).where(eq(campaigns.id, lahore.id));
          await tx.insert(campaigns).values({
            ownerId: ngo,
            slug: `mardan-${karachi.id.slice(0, 8)}`,
            title: "Mardan",
            description: "Blankets for the winter.",
            targetAmount: 50000,
            locationLabel: "Mardan",
            lat: 34.2,
            lng: 72.04,
          });
        });
      } finally {
        finish();
        await first;
      }
    } else {
      // One connection: the same changes one after the other.
      await s.db.update(campaigns).set(moved).where(eq(campaigns.id, karachi.id));
      await s.db.update(campaigns).set({ status: "completed" }).where(eq(campaigns.id, lahore.id));
      await makeCampaign(s.db, ngo, { lat: 34.2, lng: 72.04 });
    }
    const pakistan = await mapView(s.db, { south: 23.5, west: 60.8, north: 37.1, east: 77.9, zoom: 12 });
    expect(pakistan).toEqual(await mapView(s.db, { south: 23.5, west: 60.8, north: 37.1, east: 77.9, zoom: 12 }, { grid: false }));
    expect(await mapCellDrift(s.db)).toEqual([]);
  });

  it("is folded by the hourly maintenance, so the first map request after a bulk change does not pay the recount", async () => {
    const ngo = (await makeUser(s.db, "ngo")).id;
    const waiting = async () => (await s.db.select({ n: sql<number>`count(*)::int` }).from(mapCellMarks))[0]!.n;
    await mapView(s.db, COUNTRY);
    expect(await waiting()).toBe(0);
    // A bulk change: 60 campaigns in one statement, across a few hundred km (cells of several levels), then a suspension.
    const points = Array.from({ length: 60 }, (_, i) => ({ lat: 28 + (i % 10) * 0.3, lng: 68 + Math.floor(i / 10) * 0.4 }));
    await bulkInsert(s, ngo, points, `upkeep-${ngo.slice(0, 8)}`);
    expect(await waiting()).toBeGreaterThan(0);
    const report = await runMaintenance(s);
    expect(report.mapCellMarks).toBeGreaterThan(0);
    expect(await waiting()).toBe(0);
    // What the grid holds now was recounted by the maintenance: the view read from it equals counting the campaigns.
    const view = { south: 27, west: 67, north: 32, east: 71, zoom: 8 };
    expect(total(await mapView(s.db, view))).toBe(60);
    expect(await mapView(s.db, view)).toEqual(await mapView(s.db, view, { grid: false }));
    await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, ngo));
    expect((await runMaintenance(s)).mapCellMarks).toBeGreaterThan(0);
    expect(await waiting()).toBe(0);
    expect(total(await mapView(s.db, view))).toBe(0);
    // Nothing marked: the round reports none and changes nothing.
    expect((await runMaintenance(s)).mapCellMarks).toBe(0);
    expect(await mapCellDrift(s.db)).toEqual([]);
  });

  it("stays exact when many transactions change campaigns of the same cells at once, with folds and a suspension among them", async () => {
    const [a, b] = [(await makeUser(s.db, "ngo")).id, (await makeUser(s.db, "ngo")).id];
    const rnd = random(11);
    // Two dense cells of level 12 (Saddar, Karachi, and one beside it) and a few of level 5 around them.
    const near = () => ({ lat: 24.855 + rnd() * 0.03, lng: 67.005 + rnd() * 0.03 });
    const made = [];
    for (let i = 0; i < 16; i++) made.push(await makeCampaign(s.db, i % 2 ? a : b, near()));
    const view: MapView = { south: 24.5, west: 66.5, north: 25.5, east: 67.5, zoom: 9 };
    await Promise.all([
      ...made.map((c, i) =>
        s.db.transaction(async (tx) => {
          if (i % 4 === 0) await tx.update(campaigns).set({ status: "completed" }).where(eq(campaigns.id, c.id));
          else if (i % 4 === 1) await tx.delete(campaigns).where(eq(campaigns.id, c.id));
          else await tx.update(campaigns).set(near()).where(eq(campaigns.id, c.id));
          if (i % 3 === 0) await tx.update(campaigns).set({ status: "active" }).where(eq(campaigns.id, c.id));
        }),
      ),
      s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, a)),
      ...Array.from({ length: 6 }, () => makeCampaign(s.db, b, near())),
      mapView(s.db, view),
      mapView(s.db, view),
    ]);
    expect(await mapCellDrift(s.db)).toEqual([]);
    const [kept, counted] = [await mapView(s.db, view), await mapView(s.db, view, { grid: false })];
    expect(kept.clusters.map((c) => [c.count, c.bounds])).toEqual(counted.clusters.map((c) => [c.count, c.bounds]));
    expect(kept.campaigns).toEqual(counted.campaigns);
  });
});

describe("map view input", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  const q = (v: Record<string, string>) => new URLSearchParams({ south: "24", west: "61", north: "37", east: "77", zoom: "6", ...v });

  it("refuses missing, empty or non-numeric values and inverted boxes", () => {
    const refused = (params: URLSearchParams) => {
      try {
        parseMapView(params);
      } catch (err) {
        return err instanceof DomainError && err.kind === "invalid" ? err.message : "other";
      }
      return "accepted";
    };
    expect(refused(new URLSearchParams())).toBe("map:errors.notNumber");
    expect(refused(q({ zoom: "" }))).toBe("map:errors.notNumber");
    expect(refused(q({ south: "abc" }))).toBe("map:errors.notNumber");
    expect(refused(q({ east: "Infinity" }))).toBe("map:errors.notNumber");
    expect(refused(q({ north: "NaN" }))).toBe("map:errors.notNumber");
    expect(refused(q({ south: "38" }))).toBe("map:errors.inverted");
    expect(refused(q({ west: "80" }))).toBe("map:errors.inverted");
    expect(refused(q({}))).toBe("accepted");
  });

  it("clamps values beyond the world", () => {
    expect(parseMapView(q({ south: "-120", north: "95", west: "-250", east: "400", zoom: "42" }))).toEqual({
      south: -90,
      north: 90,
      west: -180,
      east: 180,
      zoom: 19,
    });
    expect(parseMapView(q({ zoom: "-3" })).zoom).toBe(0);
  });

  it("answers bad requests over HTTP with 400 and a message, good ones with JSON", async () => {
    const bad = await callApi(s, "south=x&west=61&north=37&east=77&zoom=6");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "south must be a number." });
    const inverted = await callApi(s, "south=37&west=61&north=24&east=77&zoom=6");
    expect(inverted.status).toBe(400);
    expect((await inverted.json()).error).toMatch(/inverted/);
    const urdu = await callApi(s, "zoom=6", "ur");
    expect(urdu.status).toBe(400);
    expect((await urdu.json()).error).toContain("عدد");
    const good = await callApi(s, "south=24&west=61&north=37&east=77&zoom=6");
    expect(good.status).toBe(200);
    expect(good.headers.get("content-type")).toMatch(/application\/json/);
    expect(await good.json()).toEqual({ clusters: [], campaigns: [] });
  });

  it("keeps the grid small whatever box is asked for", () => {
    const world = { south: -90, west: -180, north: 90, east: 180 };
    for (const zoom of [0, 5.8, 13, 19]) {
      const cell = cellSize({ ...world, zoom });
      expect((Math.ceil(360 / cell) + 1) * (Math.ceil(180 / cell) + 1)).toBeLessThanOrEqual(MAX_CELLS);
    }
    // A normal view keeps about 60 screen pixels per cell.
    expect(cellSize({ south: 30, west: 70, north: 30.1, east: 70.1, zoom: 10 })).toBeCloseTo((360 / 1024) * (60 / 256), 8);
  });
});

describe("the map with 10,000 campaigns", () => {
  let s: TestServices;
  let points: { lat: number; lng: number }[];
  beforeAll(async () => {
    s = await createTestServices();
    const owner = (await makeUser(s.db, "ngo")).id;
    // Spread over Pakistan: a third anywhere in the country's box, the rest around its big cities.
    const rnd = random(2024);
    const cities = [
      [24.86, 67.01],
      [31.55, 74.34],
      [33.68, 73.05],
      [33.6, 73.04],
      [31.42, 73.08],
      [30.2, 71.47],
      [25.4, 68.37],
      [34.01, 71.58],
      [30.18, 66.98],
      [32.16, 74.19],
      [27.7, 68.85],
      [35.92, 74.31],
    ];
    points = Array.from({ length: 10_000 }, (_, i) => {
      if (i % 3 === 0) return { lat: 24 + rnd() * 13, lng: 61 + rnd() * 16 };
      const [lat, lng] = cities[Math.floor(rnd() * cities.length)]!;
      return { lat: lat! + (rnd() - 0.5) * 0.6, lng: lng! + (rnd() - 0.5) * 0.6 };
    });
    await bulkInsert(s, owner, points, "bulk");
    // The grid's recount of the 10,000 new campaigns' cells, which the first map request would otherwise pay.
    await foldMapCells(s.db);
  }, 120_000);
  afterAll(async () => s.close());

  it("answers the whole-country view with clusters in under 20 KB gzip, quickly", async () => {
    const started = performance.now();
    const response = await callApi(s, new URLSearchParams(Object.entries(COUNTRY).map(([k, v]) => [k, String(v)])).toString());
    const body = await response.text();
    const elapsed = performance.now() - started;
    expect(response.status).toBe(200);
    const data = JSON.parse(body) as MapData;
    expect(total(data)).toBe(10_000);
    expect(data.clusters.length).toBeGreaterThan(10);
    const gzipped = gzipSync(body).length;
    expect(gzipped, `${gzipped} bytes gzipped`).toBeLessThan(20 * 1024);
    expect(elapsed, `${elapsed.toFixed(0)} ms`).toBeLessThan(3000);
  });

  it("answers from the kept grid as from counting the campaigns, for views whose edges cut dense places at every level", async () => {
    const rnd = random(99);
    const views: MapView[] = [{ south: 23.5, west: 60.8, north: 37.1, east: 77.9, zoom: 5 }];
    for (let i = 0; i < 12; i++) {
      const zoom = 4 + Math.floor(rnd() * 9);
      const [lat, lng] = [24 + rnd() * 12, 61 + rnd() * 15];
      const half = (84.375 / 2 ** zoom) * (1.5 + rnd() * 4);
      views.push({ south: lat - half * 0.8, west: lng - half, north: lat + half * 0.8, east: lng + half, zoom });
    }
    for (const view of views) {
      const [kept, counted] = [await mapView(s.db, view), await mapView(s.db, view, { grid: false })];
      const label = JSON.stringify(view);
      expect(kept.campaigns, label).toEqual(counted.campaigns);
      expect(
        kept.clusters.map((c) => [c.count, c.bounds]),
        label,
      ).toEqual(counted.clusters.map((c) => [c.count, c.bounds]));
      kept.clusters.forEach((c, i) => {
        expect(Math.abs(c.lat - counted.clusters[i]!.lat), label).toBeLessThanOrEqual(1.1e-5);
        expect(Math.abs(c.lng - counted.clusters[i]!.lng), label).toBeLessThanOrEqual(1.1e-5);
      });
    }
  });

  it("stays bounded for any view: a city up close, or the whole world at the highest zoom", async () => {
    for (const view of [
      { south: 31.3, west: 74.0, north: 31.8, east: 74.7, zoom: 13 },
      { south: 24.5, west: 66.6, north: 25.2, east: 67.4, zoom: 16 },
      { south: -90, west: -180, north: 90, east: 180, zoom: 19 },
    ]) {
      const data = await mapView(s.db, view);
      const inside = points.filter((p) => p.lat >= view.south && p.lat <= view.north && p.lng >= view.west && p.lng <= view.east).length;
      expect(total(data)).toBe(inside);
      expect(data.clusters.length).toBeLessThanOrEqual(MAX_CELLS);
      expect(data.campaigns.length).toBeLessThanOrEqual(MAX_ITEMS);
      expect(gzipSync(JSON.stringify(data)).length).toBeLessThan(40 * 1024);
    }
  });
});

describe("tile source in the Content Security Policy", () => {
  it("allows the tile server's origin, widening {s} subdomains", () => {
    expect(tileImageSource("https://tile.openstreetmap.org/{z}/{x}/{y}.png")).toBe("https://tile.openstreetmap.org");
    expect(tileImageSource("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png")).toBe("https://*.tile.openstreetmap.org");
    expect(tileImageSource("http://127.0.0.1:9/{z}/{x}/{y}.png")).toBe("http://127.0.0.1:9");
    expect(tileImageSource("/tiles/{z}/{x}/{y}.png")).toBeNull();
    expect(tileImageSource("javascript:alert(1)")).toBeNull();
  });
});
