/**
 * `npm run latency -- --small <database URL> --large <database URL>`: each list page's latency at demo scale and at
 * 100× (two PostgreSQL databases made by `npm run seed:scale -- --factor 1` and `--factor 100`), against the
 * production build (`npm run build` first), and the ratio of the two (decision 044). A server is started for each
 * database at once, on 127.0.0.1:`--port` and `--port`+1 (`npm start`), the demo NGO and donor sign in on both, and
 * each page is asked for `--runs` times of each after two warm-up requests (fewer when a page takes seconds: 30 s a
 * page at most), the two databases' requests alternating (small, large, large, small, …) so that both meet the same
 * moments of the machine's load: on a busy machine the ratio holds where the times themselves do not. The table shows
 * each page's medians and their ratio. The CSV export is timed whole, once on each, with the rows it wrote and the
 * server's resident memory before and after. `--pages <regular expression>` measures only the pages whose label it
 * matches (and the export only if it matches "CSV export"); a page a build cannot reach (a "Previous" link it does not
 * have) is reported as "—".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "#server/demo/seed.ts";
import { readMemory, startServer, stopServer } from "#scripts/server-process.ts";

const { values } = parseArgs({
  options: {
    small: { type: "string" },
    large: { type: "string" },
    port: { type: "string", default: "3555" },
    runs: { type: "string", default: "7" },
    json: { type: "string" },
    pages: { type: "string" },
  },
});
if (!values.small || !values.large) {
  console.error(
    "usage: npm run latency -- --small postgres://…/ekc_scale_1x --large postgres://…/ekc_scale [--port 3555] [--runs 7] [--json out.json] [--pages <regexp of labels>]",
  );
  process.exit(2);
}
const port = Number(values.port);
const runs = Number(values.runs);
/** How long one page is measured at most (a slow page's median is then of fewer requests). */
const PAGE_BUDGET_MS = 30_000;
/** How long the export is read at most; one that takes longer is reported as stopped, with the rows it had written. */
const EXPORT_BUDGET_MS = 240_000;

type Who = "ngo" | "donor" | "public";
interface Page {
  label: string;
  who: Who;
  /** The path, given what the database holds. */
  path: (facts: Facts) => string;
  /**
   * Follow the list's pager links from `path`, once and untimed, and time the page they lead to: its last link (its
   * "Next") `times` times, then its "Previous" (`rel="prev"`) `back` times. A list paged by cursor (the donor's picker,
   * decision 044) has no address for "page 20" to type.
   */
  follow?: { times: number; nav: string; back?: number };
}
interface Facts {
  /** The busy NGO's campaign with the most donations. */
  topCampaign: string;
  /** Its slug: the address of its public page, which a donor from a shared link opens. */
  topSlug: string;
}

const PAGES: Page[] = [
  { label: "/noncash_apps", who: "ngo", path: () => "/noncash_apps" },
  { label: "/campaigns", who: "ngo", path: () => "/campaigns" },
  { label: "/campaigns search", who: "ngo", path: () => "/campaigns?q=water" },
  { label: "/comp_camp", who: "ngo", path: () => "/comp_camp" },
  { label: "/donHistory", who: "ngo", path: () => "/donHistory" },
  { label: "/donHistory page 40", who: "ngo", path: () => "/donHistory?page=40" },
  { label: "/donHistory goods", who: "ngo", path: () => "/donHistory?kind=goods" },
  // Each other order of the history, its first page and a deep one (page 40 of the cash list, page 8 of the goods: the
  // busy NGO has about 970 cash gifts and 100 goods at 1×). A build that reads by keyset answers `?page=N` with a
  // redirect to the page's cursor: the page measured is the one it leads to (see `resolve`).
  { label: "/donHistory oldest p40", who: "ngo", path: () => "/donHistory?sort=oldest&page=40" },
  { label: "/donHistory amount ↓", who: "ngo", path: () => "/donHistory?sort=amountDesc" },
  { label: "/donHistory amount ↓ p40", who: "ngo", path: () => "/donHistory?sort=amountDesc&page=40" },
  { label: "/donHistory amount ↑", who: "ngo", path: () => "/donHistory?sort=amountAsc" },
  { label: "/donHistory amount ↑ p40", who: "ngo", path: () => "/donHistory?sort=amountAsc&page=40" },
  { label: "/donHistory campaign", who: "ngo", path: () => "/donHistory?sort=campaign" },
  { label: "/donHistory campaign p40", who: "ngo", path: () => "/donHistory?sort=campaign&page=40" },
  { label: "/donHistory pending amt p15", who: "ngo", path: () => "/donHistory?status=pending&sort=amountDesc&page=15" },
  { label: "/donHistory goods camp. p8", who: "ngo", path: () => "/donHistory?kind=goods&sort=campaign&page=8" },
  { label: "/apps", who: "ngo", path: () => "/apps" },
  { label: "/donate1", who: "donor", path: () => "/donate1" },
  { label: "/donate1 search", who: "donor", path: () => "/donate1?q=water" },
  // The 20th page by following "Next" 19 times (with page numbers, main's build reaches ?page=20 the same way).
  { label: "/donate1 page 20", who: "donor", path: () => "/donate1", follow: { times: 19, nav: "Pages of campaigns" } },
  { label: "/dvh page 20", who: "donor", path: () => "/dvh?page=20" },
  // At 1× the demo donor has 122 gifts (13 pages): page 20 is past the end there, an empty list; page 12 is full at both.
  { label: "/dvh page 12", who: "donor", path: () => "/dvh?page=12" },
  // "Previous" from a deep page (keyset builds only: `?before=`, the first row's id).
  {
    label: "/donHistory amount ↓ p39 ←",
    who: "ngo",
    path: () => "/donHistory?sort=amountDesc&page=40",
    follow: { times: 0, nav: "Pages of the donation history", back: 1 },
  },
  {
    label: "/donHistory campaign p39 ←",
    who: "ngo",
    path: () => "/donHistory?sort=campaign&page=40",
    follow: { times: 0, nav: "Pages of the donation history", back: 1 },
  },
  { label: "/dvh page 11 ←", who: "donor", path: () => "/dvh?page=12", follow: { times: 0, nav: "Pages of your donations", back: 1 } },
  { label: "/donate1 page 19 ←", who: "donor", path: () => "/donate1", follow: { times: 19, nav: "Pages of campaigns", back: 1 } },
  // At 1× "water" finds 101 campaigns (17 pages): the searches' deep pages are the 10th.
  { label: "/donate1 search p10", who: "donor", path: () => "/donate1?q=water", follow: { times: 9, nav: "Pages of campaigns" } },
  { label: "/donate1 search p9 ←", who: "donor", path: () => "/donate1?q=water", follow: { times: 9, nav: "Pages of campaigns", back: 1 } },
  // The landing page: anyone browsing, its first page, a search, and the 20th page (the search's 10th) by following "Next".
  { label: "/", who: "public", path: () => "/" },
  { label: "/ page 20", who: "public", path: () => "/", follow: { times: 19, nav: "Pages of campaigns" } },
  { label: "/ search", who: "public", path: () => "/?q=water" },
  { label: "/ search page 10", who: "public", path: () => "/?q=water", follow: { times: 9, nav: "Pages of campaigns" } },
  { label: "analytics (top campaign)", who: "ngo", path: (f) => `/campaigns/${f.topCampaign}/analytics` },
  { label: "public page (top campaign)", who: "public", path: (f) => `/campaign/${f.topSlug}` },
  { label: "/api/map Pakistan", who: "public", path: () => "/api/map?south=23.5&west=60.8&north=37.1&east=77.9&zoom=5" },
  { label: "/api/map Karachi", who: "public", path: () => "/api/map?south=24.75&west=66.9&north=24.97&east=67.15&zoom=12" },
];

/** The pages `--pages` chose (all by default), and whether the export is timed. */
const chosen = values.pages ? new RegExp(values.pages) : null;
const SELECTED = PAGES.filter((p) => !chosen || chosen.test(p.label));
const EXPORT = !chosen || chosen.test("CSV export");

/**
 * The "Next" (or "Previous") link of the `<nav aria-label=…>` named so in a page's HTML (a pager, in English), as a
 * path from `from`; null when the page has none (the list's last page, or a pager without "Previous").
 */
function linkOf(html: string, nav: string, from: string, which: "next" | "prev" = "next"): string | null {
  const start = html.indexOf(`<nav aria-label="${nav}"`);
  if (start < 0) return null;
  const anchors = [...html.slice(start, html.indexOf("</nav>", start)).matchAll(/<a ([^>]*)>([^<]*)<\/a>/g)];
  const chosen = anchors.find((m) => m[2]!.trim() === (which === "next" ? "Next" : "Previous"));
  const href = chosen?.[1]
    ?.match(/href="([^"]*)"/)?.[1]
    ?.replaceAll("&amp;", "&")
    .replace(/#.*$/, "");
  if (!href) return null;
  const url = new URL(href, `http://127.0.0.1${from}`);
  return `${url.pathname}${url.search}`;
}

/**
 * The page `page` leads to: its path (or where that redirects, see `Client.resolve`), or the page reached by following
 * its pager `follow.times` times.
 */
async function target(page: Page, f: Facts, client: Client): Promise<string> {
  let at = await client.resolve(page.path(f));
  const steps = page.follow ? [...Array<"next">(page.follow.times).fill("next"), ...Array<"prev">(page.follow.back ?? 0).fill("prev")] : [];
  for (const which of steps) {
    const res = await client.get(at);
    const next = res.status === 200 ? linkOf(res.body, page.follow!.nav, at, which) : null;
    if (!next)
      throw new Unreachable(
        `${at} answered ${res.status} with no ${which === "next" ? "Next" : "Previous"} in "${page.follow!.nav}" to follow`,
      );
    at = next;
  }
  return at;
}

/** A page this build has no link to (a "Previous" of a list paged without one). */
class Unreachable extends Error {}

class Client {
  private cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  async get(pathname: string): Promise<{ status: number; body: string; location: string | null }> {
    const headers = new Headers();
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(`${this.base}${pathname}`, { headers, redirect: "manual" });
    return { status: res.status, body: await res.text(), location: res.headers.get("location") };
  }

  /**
   * The page a path shows: itself, or where it redirects (a numbered link of a list read by keyset leads to its cursor's
   * page), so the same paths measure a build that pages by number and one that pages by keyset, each at the same rows.
   */
  async resolve(pathname: string): Promise<string> {
    const res = await this.get(pathname);
    if (res.status < 300 || res.status >= 400 || !res.location) return pathname;
    const to = new URL(res.location, this.base);
    return `${to.pathname}${to.search}`;
  }

  /** Reads a streamed answer line by line, counting CRLF lines; stops reading after `budgetMs`. */
  async stream(pathname: string, budgetMs: number): Promise<{ status: number; lines: number; complete: boolean }> {
    const headers = new Headers();
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), budgetMs);
    const res = await fetch(`${this.base}${pathname}`, { headers, redirect: "manual", signal: controller.signal });
    let lines = 0;
    let complete = true;
    try {
      const reader = res.body!.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        for (const byte of next.value) if (byte === 10) lines += 1;
      }
    } catch {
      complete = false;
    } finally {
      clearTimeout(timer);
    }
    return { status: res.status, lines, complete };
  }

  async signIn(role: "ngo" | "donor", email: string): Promise<void> {
    const res = await fetch(`${this.base}/${role}_signin`, {
      method: "POST",
      headers: { origin: this.base },
      body: new URLSearchParams({ email, password: DEMO_PASSWORD, redirectTo: "" }),
      redirect: "manual",
    });
    await res.arrayBuffer();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    if (res.status !== 302 || this.cookies.size === 0) throw new Error(`could not sign in as ${email}: ${res.status}`);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function facts(url: string): Promise<Facts & { campaigns: number; donations: number; pickups: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select top.id as "topCampaign", (select slug from campaigns where id = top.id) as "topSlug",
              (select count(*) from campaigns)::int as campaigns, (select count(*) from donations)::int as donations,
              (select count(*) from pickups)::int as pickups
       from (select d.campaign_id as id from donations d join users u on u.id = d.recipient_ngo_id
             where u.email = $1 group by d.campaign_id order by count(*) desc, d.campaign_id limit 1) top`,
      [DEMO_ACCOUNTS.ngo],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

interface Measured {
  pages: Record<string, number>;
  export: { ms: number; rows: number; complete: boolean; rssBeforeMb: number; rssAfterMb: number; peakMb: number } | null;
  sizes: { campaigns: number; donations: number; pickups: number };
}

/** One database's server, its signed-in clients and the facts its pages' addresses need. */
interface Arm {
  name: string;
  facts: Awaited<ReturnType<typeof facts>>;
  server: Awaited<ReturnType<typeof startServer>>;
  dataDir: string;
  clients: Record<Who, Client>;
  measured: Measured;
}

async function startArm(name: string, url: string, armPort: number): Promise<Arm> {
  const f = await facts(url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-latency-"));
  const server = await startServer({ port: armPort, dataDir, databaseUrl: url });
  const base = `http://127.0.0.1:${armPort}`;
  const clients: Record<Who, Client> = { ngo: new Client(base), donor: new Client(base), public: new Client(base) };
  await clients.ngo.signIn("ngo", DEMO_ACCOUNTS.ngo);
  await clients.donor.signIn("donor", DEMO_ACCOUNTS.donor);
  const measured: Measured = {
    pages: {},
    export: null,
    sizes: { campaigns: f.campaigns, donations: f.donations, pickups: f.pickups },
  };
  return { name, facts: f, server, dataDir, clients, measured };
}

async function stopArm(arm: Arm): Promise<void> {
  await stopServer(arm.server.child, arm.server.pid);
  fs.rmSync(arm.dataDir, { recursive: true, force: true });
}

/** The page's address on one arm, or null (reported as "—") when that build cannot reach it. */
async function addressOn(arm: Arm, page: Page): Promise<string | null> {
  try {
    return await target(page, arm.facts, arm.clients[page.who]);
  } catch (error) {
    if (!(error instanceof Unreachable)) throw error;
    process.stdout.write(`  ${page.label.padEnd(28)} ${arm.name}: —    ${error.message}\n`);
    return null;
  }
}

/** Each chosen page on both arms, their requests alternating; the medians go into each arm's `measured.pages`. */
async function measurePages(arms: [Arm, Arm]): Promise<void> {
  for (const page of SELECTED) {
    const addresses = [await addressOn(arms[0], page), await addressOn(arms[1], page)];
    const times: [number[], number[]] = [[], []];
    const live = [0, 1].filter((a) => addresses[a] !== null);
    let spent = 0;
    // A page that takes seconds is asked for fewer times: at least once each, then until PAGE_BUDGET_MS is spent.
    for (let i = 0; live.length && i < runs + 2 && (times[live.at(-1)!]!.length === 0 || spent < PAGE_BUDGET_MS); i++) {
      for (const a of i % 2 === 0 ? live : [...live].reverse()) {
        const t0 = performance.now();
        const res = await arms[a]!.clients[page.who].get(addresses[a]!);
        const ms = performance.now() - t0;
        spent += ms;
        if (res.status !== 200) throw new Error(`${arms[a]!.name}: ${addresses[a]} answered ${res.status}`);
        if (i >= 2 || spent >= PAGE_BUDGET_MS) times[a]!.push(ms);
      }
    }
    arms.forEach((arm, a) => (arm.measured.pages[page.label] = addresses[a] === null ? Number.NaN : median(times[a]!)));
    const shown = arms.map((arm) => ms(arm.measured.pages[page.label]!).padStart(8));
    const followed = page.follow ? `  ${addresses.join("  ")}` : "";
    process.stdout.write(`  ${page.label.padEnd(28)} ${shown.join(" ms ")} ms${followed}\n`);
  }
}

async function measureExport(arm: Arm): Promise<void> {
  const before = readMemory(arm.server.pid);
  const t0 = performance.now();
  const { status, lines, complete } = await arm.clients.ngo.stream("/donHistory/export", EXPORT_BUDGET_MS);
  const exportMs = performance.now() - t0;
  if (status !== 200) throw new Error(`${arm.name}: the export answered ${status}`);
  const after = readMemory(arm.server.pid);
  const rows = lines - 1;
  process.stdout.write(
    `  ${`CSV export ${arm.name}`.padEnd(28)} ${exportMs.toFixed(0).padStart(8)} ms  ${rows} rows${complete ? "" : " (stopped)"}\n`,
  );
  arm.measured.export = {
    ms: exportMs,
    rows,
    complete,
    rssBeforeMb: before?.rssMb ?? 0,
    rssAfterMb: after?.rssMb ?? 0,
    peakMb: after?.hwmMb ?? 0,
  };
}

const ms = (x: number) => (Number.isNaN(x) ? "—" : x.toFixed(1));

console.log(`small: ${values.small} (port ${port})\nlarge: ${values.large} (port ${port + 1})`);
const arms: Arm[] = [];
try {
  arms.push(await startArm("1×", values.small, port));
  arms.push(await startArm("100×", values.large, port + 1));
  console.log(`${"page".padEnd(30)} ${"1×".padStart(8)}    ${"100×".padStart(8)}`);
  await measurePages(arms as [Arm, Arm]);
  if (EXPORT) for (const arm of arms) await measureExport(arm);
} finally {
  for (const arm of arms) await stopArm(arm);
}
const [small, large] = arms.map((arm) => arm.measured) as [Measured, Measured];

const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
console.log(
  `\nmedian of ${runs} requests each (after 2 warm-ups), the two databases' requests alternating; small ${small.sizes.campaigns} campaigns, ${small.sizes.donations} donations, ${small.sizes.pickups} pick-ups; large ${large.sizes.campaigns}, ${large.sizes.donations}, ${large.sizes.pickups}\n`,
);
console.log(line(["page", "1× ms", "100× ms", "ratio"]));
console.log(line(["---", "---:", "---:", "---:"]));
for (const page of SELECTED) {
  const a = small.pages[page.label]!;
  const b = large.pages[page.label]!;
  console.log(line([page.label, ms(a), ms(b), Number.isNaN(a / b) ? "—" : `${(b / a).toFixed(2)}×`]));
}
for (const [name, m] of [
  ["1×", small],
  ["100×", large],
] as const) {
  if (!m.export) continue;
  console.log(
    `CSV export ${name}: ${m.export.rows} rows${m.export.complete ? "" : " (stopped: more to come)"} in ${(m.export.ms / 1000).toFixed(2)} s; server RSS ${m.export.rssBeforeMb} → ${m.export.rssAfterMb} MB (peak ${m.export.peakMb} MB)`,
  );
}
if (values.json) fs.writeFileSync(values.json, JSON.stringify({ runs, small, large }, null, 2));
