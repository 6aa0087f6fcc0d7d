/**
 * `npm run bench`: the performance bench of issue 15, run before and after a change (decision 031). In one run it
 *
 * 1. builds the app if its inputs changed (as quickstart does) and the bare React Router app of bench/bare;
 * 2. re-creates the PostgreSQL database `ekc_bench` and starts the production build on it with demo data (`npm start`
 *    with SEED_DEMO=true), and the bare app's server beside it, both on 127.0.0.1;
 * 3. signs in the demo donor, NGO and rider through the sign-in forms, and runs Lighthouse (mobile preset: simulated
 *    Slow 4G, 4× CPU slowdown) on the nine pages of the issue and the bare shell page: LCP, TBT, CLS, LCP ÷ bare;
 * 4. loads each page once more in a fresh Chromium profile with Lighthouse's phone screen, in English and in Urdu,
 *    and counts the bytes received (scripts/measure-first-visit.ts): JavaScript and in all, compressed as sent;
 * 5. compares the throughput (autocannon) of /donate1 for the signed-in donor with the bare page listing as many rows;
 * Lighthouse's figures are the median of a page's runs, and LCP ÷ bare is the page's median over the bare shell's
 * median (decision 036: the best run picked the luckier side of a race, see there); each run's figures and their
 * best are in the JSON too. Throughput is the best round (the highest requests per second, the lowest CPU each).
 *
 * 6. prints one table with the issue's goals, writes the figures to bench/results/<time>.json, stops both servers.
 *
 *   npm run bench                              # 3 Lighthouse runs a page, 3 rounds of 10 s of throughput
 *   npm run bench -- --runs 1 --rounds 1       # quicker, noisier
 *
 * Options: --port N (the app; the bare app takes N+1; default 3410), --runs N, --rounds N, --seconds N (each
 * throughput measurement), --connections N (default 10), --warmup-requests N (requests each server answers before
 * the throughput rounds, default 20,000: the JIT's steady state, decision 031), --database NAME (the database re-created, default
 * ekc_bench; two benches at once need two), --throughput-only (step 5 alone: no Lighthouse, no first visits, no
 * table; for timing a change to the server), --pages LIST (only these of the nine, by label, comma separated:
 * `--pages /,/donor_signin,/campaign/…`; for a quick look at a change), --bytes-only (step 4 alone, with Lighthouse's phone
 * screen: the first visits' bytes, which the machine's load barely moves (within about 1.5 KB a page), in a few minutes). BENCH_PG_URL names the PostgreSQL server (default
 * postgres://postgres:postgres@127.0.0.1:5432/postgres). Goals that are missed are reported, not failed: the exit
 * status is 0 unless the bench itself could not run.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { launch as launchChrome } from "chrome-launcher";
import lighthouse from "lighthouse";
import { defaultSettings as lighthouseDefaults } from "lighthouse/core/config/constants.js";
import { SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { buildIfChanged } from "#scripts/build-if-changed.ts";
import { firstVisit, launchChromium } from "#scripts/measure-first-visit.ts";
import { precompressDir } from "#scripts/precompress.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "#tests/e2e/env.ts";
import { benchDatabase, demoSession } from "#scripts/bench-setup.ts";
import { cpuMs, root, serverPid, sleep, startServer, stopServer, type ServerProcess } from "#scripts/server-process.ts";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

const PORT = option("port", 3410);
const databaseArg = process.argv.indexOf("--database");
const DATABASE = databaseArg === -1 ? "ekc_bench" : process.argv[databaseArg + 1]!;
if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE)) throw new Error("--database takes a name of lower-case letters, digits and _");
const THROUGHPUT_ONLY = process.argv.includes("--throughput-only");
const BYTES_ONLY = process.argv.includes("--bytes-only");
const BARE_PORT = PORT + 1;
const RUNS = option("runs", 3);
const ROUNDS = option("rounds", 3);
const SECONDS = option("seconds", 10);
const CONNECTIONS = option("connections", 10);
const WARMUP_REQUESTS = option("warmup-requests", 20_000);
const PAGES = process.argv.includes("--pages") ? process.argv[process.argv.indexOf("--pages") + 1]?.split(",") : undefined;
const APP = `http://127.0.0.1:${PORT}`;
const BARE = `http://127.0.0.1:${BARE_PORT}`;
const BARE_DIR = path.join(root, "bench", "bare");
const RESULTS_DIR = path.join(root, "bench", "results");

/** The issue's goals (issue 15). KB are 1,024 bytes, as scripts/measure-first-visit.ts counts them. */
const GOALS = { lcpMs: 1500, lcpRatio: 2.2, tbtMs: 150, cls: 0.05, firstVisitKb: { en: 200, ur: 300 }, throughputRatio: 0.25 };

type Role = "donor" | "ngo" | "rider";
type Page = { label: string; path: string; as: Role | null };
type Metrics = { lcpMs: number; tbtMs: number; cls: number; fcpMs: number };
type Lab = Metrics & { best: Metrics; runs: Metrics[] };
type Bytes = { jsKb: number; totalKb: number; fontKb: number };

const kb = (bytes: number) => bytes / 1024;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

// ---------------------------------------------------------------------------------------------------------------
// Building and starting

function buildBare() {
  fs.rmSync(path.join(BARE_DIR, "build"), { recursive: true, force: true });
  execFileSync(path.join(root, "node_modules", ".bin", "react-router"), ["build", BARE_DIR], { cwd: root, stdio: "pipe" });
}

async function startBare(logFile: string): Promise<{ child: ChildProcess; pid: number }> {
  const log = fs.openSync(logFile, "a");
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), [path.join(BARE_DIR, "server.ts")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(BARE_PORT) },
    detached: true,
    stdio: ["ignore", log, log],
  });
  fs.closeSync(log);
  for (let i = 0; i < 60; i += 1) {
    if (child.exitCode !== null) break;
    const res = await fetch(`${BARE}/`).catch(() => null);
    const pid = serverPid(child.pid!);
    if (res?.status === 200 && pid) return { child, pid };
    await sleep(500);
  }
  await stopServer(child);
  throw new Error(`The bare server did not start; its output is in ${logFile}:\n${fs.readFileSync(logFile, "utf8").slice(-2000)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Signing in and finding the pages

async function html(url: string, token?: string): Promise<string> {
  const res = await fetch(url, { headers: token ? { cookie: `${SESSION_COOKIE}=${token}` } : {}, redirect: "manual" });
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return res.text();
}

const hrefs = (page: string, prefix: string) =>
  [...page.matchAll(new RegExp(`href="(${prefix.replace(/[?]/g, "\\?")}[^"]*)"`, "g"))].map((m) => m[1]!.replaceAll("&amp;", "&"));

/** The first public campaign the landing page links to, and the proof form of a campaign, NGO and method the donor can pay. */
async function findPages(donor: string): Promise<{ campaign: string; donate3: string }> {
  const campaign = hrefs(await html(`${APP}/`), "/campaign/")[0];
  if (!campaign) throw new Error("The landing page links no campaign: is the demo data loaded?");
  for (const pay of hrefs(await html(`${APP}/donate1`, donor), "/donate2?")) {
    const payPage = await html(APP + pay, donor);
    // A joint campaign asks for the NGO first.
    const ngoPages = hrefs(payPage, "/donate2?").filter((h) => h.includes("ngo="));
    for (const page of [payPage, ...(await Promise.all(ngoPages.map((h) => html(APP + h, donor))))]) {
      const donate3 = hrefs(page, "/donate3?")[0];
      if (donate3) return { campaign, donate3 };
    }
  }
  throw new Error("No /donate3 link found from the demo donor's /donate1");
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring

type LhSettings = {
  screenEmulation: { width: number; height: number; deviceScaleFactor: number; mobile: boolean };
  emulatedUserAgent: string | boolean;
};

/**
 * One Lighthouse run of `url` (performance only), again up to twice when Lighthouse reports a runtime error and
 * asks to be run again (a trace without its navigation start happens on a busy machine).
 */
async function audit(port: number, url: string, token: string | null) {
  for (let attempt = 1; ; attempt += 1) {
    const out = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      extraHeaders: token ? { Cookie: `${SESSION_COOKIE}=${token}` } : undefined,
    });
    const lhr = out?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (!lhr.runtimeError) return lhr;
    const error = `Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
    if (attempt === 3) throw new Error(error);
    console.log(`  (${error}; again)`);
  }
}

/** Lighthouse's default (mobile) configuration, performance only; each page `RUNS` times in one Chromium. */
async function lab(
  pages: { label: string; url: string; token: string | null; runs: number }[],
): Promise<{ results: Map<string, Lab>; settings: LhSettings; throttling: unknown }> {
  const chrome = await launchChrome({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  const results = new Map<string, Lab>();
  const runsOf = new Map<string, Metrics[]>();
  let settings: LhSettings | null = null;
  let throttling: unknown = null;
  try {
    for (const page of pages) {
      // A page listed twice (the bare shell, at the start and the end) has the runs of both.
      const runs = runsOf.get(page.label) ?? [];
      runsOf.set(page.label, runs);
      for (let run = 0; run < page.runs; run += 1) {
        const lhr = await audit(chrome.port, page.url, page.token);
        // A session that did not count would measure the sign-in page instead.
        if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(page.url).pathname) {
          throw new Error(`Lighthouse on ${page.url} ended on ${lhr.finalDisplayedUrl}`);
        }
        const metric = (id: string) => {
          const value = lhr.audits[id]?.numericValue;
          if (value === undefined) throw new Error(`Lighthouse on ${page.url} gave no ${id}`);
          return value;
        };
        runs.push({
          lcpMs: metric("largest-contentful-paint"),
          tbtMs: metric("total-blocking-time"),
          cls: metric("cumulative-layout-shift"),
          fcpMs: metric("first-contentful-paint"),
        });
        settings ??= lhr.configSettings as unknown as LhSettings;
        throttling ??= { method: lhr.configSettings.throttlingMethod, ...lhr.configSettings.throttling };
      }
      const of = (pick: (xs: number[]) => number) => ({
        lcpMs: pick(runs.map((r) => r.lcpMs)),
        tbtMs: pick(runs.map((r) => r.tbtMs)),
        cls: pick(runs.map((r) => r.cls)),
        fcpMs: pick(runs.map((r) => r.fcpMs)),
      });
      results.set(page.label, { ...of(median), best: of((xs) => Math.min(...xs)), runs });
      console.log(
        `  ${page.label.padEnd(14)} LCP ${runs.map((r) => (r.lcpMs / 1000).toFixed(2)).join(" ")} s  FCP ${runs.map((r) => (r.fcpMs / 1000).toFixed(2)).join(" ")} s  TBT ${runs.map((r) => Math.round(r.tbtMs)).join(" ")} ms`,
      );
    }
  } finally {
    chrome.kill();
  }
  return { results, settings: settings!, throttling };
}

/** Bytes of a first visit (empty cache) on Lighthouse's phone screen, as Chromium receives them (Accept-Encoding br). */
async function firstVisits(
  pages: { label: string; base: string; path: string; token: string | null; langs: Lang[] }[],
  settings: LhSettings,
) {
  const { width, height, deviceScaleFactor, mobile } = settings.screenEmulation;
  const device = {
    viewport: { width, height },
    deviceScaleFactor,
    isMobile: mobile,
    hasTouch: mobile,
    userAgent: typeof settings.emulatedUserAgent === "string" ? settings.emulatedUserAgent : undefined,
  };
  const browser = await launchChromium();
  const results = new Map<string, Partial<Record<Lang, Bytes>>>();
  try {
    for (const page of pages) {
      const byLang: Partial<Record<Lang, Bytes>> = {};
      for (const lang of page.langs) {
        const v = await firstVisit(browser, page.base, page.path, lang, {
          device,
          cookies: page.token ? { [SESSION_COOKIE]: page.token } : {},
        });
        byLang[lang] = { jsKb: kb(v.byType.Script ?? 0), totalKb: kb(v.total), fontKb: kb(v.byType.Font ?? 0) };
      }
      results.set(page.label, byLang);
    }
    return { results, chromium: browser.version() };
  } finally {
    await browser.close();
  }
}

type Side = { url: string; headers: Record<string, string>; pid: number };

/**
 * Requests per second of `url`, `CONNECTIONS` at once for `seconds`, and the CPU milliseconds its server process
 * spent per request meanwhile (a figure other processes on the machine disturb less); any answer but 2xx fails.
 */
async function throughput(
  side: Side,
  length: { seconds: number } | { requests: number },
): Promise<{ rps: number; cpuMsPerRequest: number }> {
  const cpuBefore = cpuMs(side.pid);
  const result = await autocannon({
    url: side.url,
    connections: CONNECTIONS,
    headers: side.headers,
    ...("seconds" in length ? { duration: length.seconds } : { amount: length.requests }),
  });
  const cpu = cpuMs(side.pid) - cpuBefore;
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(`${side.url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} answers other than 2xx`);
  }
  return { rps: result.requests.average, cpuMsPerRequest: cpu / result.requests.total };
}

async function compareThroughput(donor: string, appPid: number, barePid: number) {
  const app: Side = { url: `${APP}/donate1`, headers: { cookie: `${SESSION_COOKIE}=${donor}` }, pid: appPid };
  const bare: Side = { url: `${BARE}/rows`, headers: {}, pid: barePid };
  // Same page both times? The bare page must list the rows the app's does.
  const campaigns = (page: string) =>
    new Set(hrefs(page, "/donate2?").map((h) => new URLSearchParams(h.split("?")[1]).get("campaign"))).size;
  const appRows = campaigns(await html(app.url, donor));
  const bareRows = campaigns(await html(bare.url));
  if (appRows !== bareRows) throw new Error(`/donate1 lists ${appRows} campaigns, the bare page ${bareRows}`);
  // Both servers warmed to their steady state first: V8 optimises a page's code over its first several thousand
  // requests, and a server that has answered fewer spends up to twice the CPU on each (decision 031, session 22).
  for (const side of [app, bare]) await throughput(side, { requests: WARMUP_REQUESTS });
  const rounds: { app: Awaited<ReturnType<typeof throughput>>; bare: Awaited<ReturnType<typeof throughput>> }[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const round = { app: await throughput(app, { seconds: SECONDS }), bare: await throughput(bare, { seconds: SECONDS }) };
    rounds.push(round);
    console.log(
      `  round ${i + 1}: /donate1 ${round.app.rps.toFixed(0)} req/s (${round.app.cpuMsPerRequest.toFixed(2)} ms CPU each), bare ${round.bare.rps.toFixed(0)} req/s (${round.bare.cpuMsPerRequest.toFixed(2)} ms CPU each)`,
    );
  }
  const appRps = Math.max(...rounds.map((r) => r.app.rps));
  const bareRps = Math.max(...rounds.map((r) => r.bare.rps));
  const appCpuMs = Math.min(...rounds.map((r) => r.app.cpuMsPerRequest));
  const bareCpuMs = Math.min(...rounds.map((r) => r.bare.cpuMsPerRequest));
  return {
    rows: appRows,
    warmupRequests: WARMUP_REQUESTS,
    appRps,
    bareRps,
    ratio: appRps / bareRps,
    appCpuMs,
    bareCpuMs,
    cpuRatio: bareCpuMs / appCpuMs,
    rounds,
  };
}

// ---------------------------------------------------------------------------------------------------------------

function gitState(): string {
  const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" }).trim() !== "";
  return dirty ? `${head} (with uncommitted changes)` : head;
}

async function main() {
  const started = Date.now();
  console.log("Building (the app only if its inputs changed; the bare app each time)...");
  buildIfChanged(root, "build");
  if (!BYTES_ONLY) {
    buildBare();
    await precompressDir(path.join(BARE_DIR, "build", "client", "assets"));
  }
  const databaseUrl = await benchDatabase(DATABASE);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-bench-"));
  let app: ServerProcess | null = null;
  let bare: { child: ChildProcess; pid: number } | null = null;
  try {
    console.log(
      `Starting the app on ${APP} (PostgreSQL database ${DATABASE}, demo data)${BYTES_ONLY ? "" : ` and the bare app on ${BARE}`}...`,
    );
    [app, bare] = await Promise.all([
      startServer({ port: PORT, dataDir, databaseUrl }),
      BYTES_ONLY ? null : startBare(path.join(dataDir, "bare.log")),
    ]);
    if (THROUGHPUT_ONLY) {
      console.log(
        `Throughput, ${CONNECTIONS} connections, ${ROUNDS} round(s) of ${SECONDS} s each after ${WARMUP_REQUESTS} requests of warm-up:`,
      );
      const tp = await compareThroughput(await demoSession(APP, "donor"), app.pid, bare!.pid);
      console.log(
        `/donate1 ${tp.appRps.toFixed(0)} req/s against ${tp.bareRps.toFixed(0)} req/s = ${tp.ratio.toFixed(2)}×; server CPU a request ${tp.appCpuMs.toFixed(2)} ms against ${tp.bareCpuMs.toFixed(2)} ms = ${tp.cpuRatio.toFixed(2)}× (best rounds)`,
      );
      return;
    }
    const tokens = { donor: await demoSession(APP, "donor"), ngo: await demoSession(APP, "ngo"), rider: await demoSession(APP, "rider") };
    const { campaign, donate3 } = await findPages(tokens.donor);
    const allPages: Page[] = [
      { label: "/", path: "/", as: null },
      { label: "/campaign/…", path: campaign, as: null },
      { label: "/donor_signin", path: "/donor_signin", as: null },
      { label: "/donate1", path: "/donate1", as: "donor" },
      { label: "/donate3", path: donate3, as: "donor" },
      { label: "/dvh", path: "/dvh", as: "donor" },
      { label: "/rider_home", path: "/rider_home", as: "rider" },
      { label: "/campaigns", path: "/campaigns", as: "ngo" },
      { label: "/apps", path: "/apps", as: "ngo" },
    ];
    const unknown = PAGES?.filter((label) => !allPages.some((p) => p.label === label)) ?? [];
    if (unknown.length) throw new Error(`--pages: no page ${unknown.join(", ")}; the pages are ${allPages.map((p) => p.label).join(" ")}`);
    const pages = PAGES ? allPages.filter((p) => PAGES.includes(p.label)) : allPages;
    const SHELL = "bare shell";
    const token = (p: Page) => (p.as ? tokens[p.as] : null);

    if (BYTES_ONLY) {
      console.log("First visits, English and Urdu, on Lighthouse's phone screen (no Lighthouse, no throughput):");
      const { results } = await firstVisits(
        pages.map((p) => ({ label: p.label, base: APP, path: p.path, token: token(p), langs: ["en", "ur"] as Lang[] })),
        lighthouseDefaults,
      );
      console.log(
        `\n${"page".padEnd(14)} ${"JS en".padStart(8)} ${"all en".padStart(8)} ${"JS ur".padStart(8)} ${"all ur".padStart(8)} ${"ur − en".padStart(8)}   (KB)`,
      );
      for (const p of pages) {
        const { en, ur } = results.get(p.label)! as Record<Lang, Bytes>;
        const cells = [en.jsKb, en.totalKb, ur.jsKb, ur.totalKb, ur.totalKb - en.totalKb].map((n) => n.toFixed(1).padStart(8));
        console.log(`${p.label.padEnd(14)} ${cells.join(" ")}`);
      }
      return;
    }
    console.log(`Lighthouse, mobile preset, ${RUNS} run(s) a page, the median kept (LCP of each run, TBT of each run):`);
    // The shell is the yardstick of every ratio: run before and after the nine pages, three times as often.
    const loadBefore = os.loadavg()[0]!;
    const lh = await lab([
      { label: SHELL, url: `${BARE}/`, token: null, runs: RUNS },
      ...pages.map((p) => ({ label: p.label, url: APP + p.path, token: token(p), runs: RUNS })),
      { label: SHELL, url: `${BARE}/`, token: null, runs: 2 * RUNS },
    ]);
    const loadAfter = os.loadavg()[0]!;

    console.log("First visits, English and Urdu...");
    const bytes = await firstVisits(
      [
        { label: SHELL, base: BARE, path: "/", token: null, langs: ["en"] },
        ...pages.map((p) => ({ label: p.label, base: APP, path: p.path, token: token(p), langs: ["en", "ur"] as Lang[] })),
      ],
      lh.settings,
    );

    console.log(
      `Throughput, ${CONNECTIONS} connections, ${ROUNDS} round(s) of ${SECONDS} s each after ${WARMUP_REQUESTS} requests of warm-up, the best round kept:`,
    );
    const tp = await compareThroughput(tokens.donor, app.pid, bare!.pid);

    // ---- the table and the goals
    const shell = lh.results.get(SHELL)!;
    const rows = [SHELL, ...pages.map((p) => p.label)].map((label) => {
      const l = lh.results.get(label)!;
      const b = bytes.results.get(label)!;
      return { label, ...l, lcpRatio: l.lcpMs / shell.lcpMs, en: b.en!, ur: b.ur ?? null };
    });
    const nine = rows.filter((r) => r.label !== SHELL);
    const f = (n: number, d = 0) => n.toFixed(d);
    console.log(
      `\n${"page".padEnd(14)} ${"LCP s".padStart(6)} ${"×shell".padStart(6)} ${"TBT ms".padStart(6)} ${"CLS".padStart(6)} ${"JS en".padStart(8)} ${"all en".padStart(8)} ${"JS ur".padStart(8)} ${"all ur".padStart(8)}   (KB)`,
    );
    for (const r of rows) {
      console.log(
        `${r.label.padEnd(14)} ${f(r.lcpMs / 1000, 2).padStart(6)} ${f(r.lcpRatio, 2).padStart(6)} ${f(r.tbtMs).padStart(6)} ${f(r.cls, 3).padStart(6)} ${f(r.en.jsKb, 1).padStart(8)} ${f(r.en.totalKb, 1).padStart(8)} ${(r.ur ? f(r.ur.jsKb, 1) : "").padStart(8)} ${(r.ur ? f(r.ur.totalKb, 1) : "").padStart(8)}`,
      );
    }
    const goal = (name: string, misses: string[], extra = "") => ({ goal: name, met: misses.length === 0, misses, extra });
    const over = (pick: (r: (typeof nine)[number]) => number, limit: number, show: (n: number) => string) =>
      nine.filter((r) => pick(r) > limit).map((r) => `${r.label} ${show(pick(r))}`);
    const goals = [
      goal(
        `LCP ≤ ${GOALS.lcpMs / 1000} s on all nine pages`,
        over(
          (r) => r.lcpMs,
          GOALS.lcpMs,
          (n) => `${f(n / 1000, 2)} s`,
        ),
      ),
      goal(
        `LCP ≤ ${GOALS.lcpRatio}× the bare shell's (medians: a page's over the shell's ${f(shell.lcpMs / 1000, 2)} s)`,
        over(
          (r) => r.lcpRatio,
          GOALS.lcpRatio,
          (n) => `${f(n, 2)}×`,
        ),
      ),
      goal(
        `TBT ≤ ${GOALS.tbtMs} ms on all nine pages`,
        over(
          (r) => r.tbtMs,
          GOALS.tbtMs,
          (n) => `${f(n)} ms`,
        ),
      ),
      goal(
        `CLS ≤ ${GOALS.cls} on all nine pages`,
        over(
          (r) => r.cls,
          GOALS.cls,
          (n) => f(n, 3),
        ),
      ),
      goal(
        `First visit ≤ ${GOALS.firstVisitKb.en} KB in English`,
        over(
          (r) => r.en.totalKb,
          GOALS.firstVisitKb.en,
          (n) => `${f(n)} KB`,
        ),
      ),
      goal(
        `First visit ≤ ${GOALS.firstVisitKb.ur} KB in Urdu`,
        over(
          (r) => r.ur!.totalKb,
          GOALS.firstVisitKb.ur,
          (n) => `${f(n)} KB`,
        ),
      ),
      goal(
        `/donate1 throughput ≥ ${GOALS.throughputRatio}× the bare page's (${tp.rows} rows)`,
        tp.ratio < GOALS.throughputRatio ? [`${f(tp.ratio, 2)}×`] : [],
        `${f(tp.appRps)} req/s against ${f(tp.bareRps)} req/s = ${f(tp.ratio, 2)}×; server CPU a request ${f(tp.appCpuMs, 2)} ms against ${f(tp.bareCpuMs, 2)} ms = ${f(tp.cpuRatio, 2)}×`,
      ),
    ];
    const cores = os.cpus().length;
    if (Math.max(loadBefore, loadAfter) > cores) {
      console.log(
        `\nThe load average was ${loadBefore.toFixed(1)} before Lighthouse and ${loadAfter.toFixed(1)} after, on ${cores} cores: other work was running, so the times are longer than on a quiet machine and the bare shell's most of all (compare its runs above); run again when it is quieter before trusting a ratio.`,
      );
    }
    console.log("\nGoals (issue 15):");
    for (const g of goals) {
      const detail = g.met ? g.extra : `${g.misses.length} over: ${g.misses.join(", ")}${g.extra ? `; ${g.extra}` : ""}`;
      console.log(`  ${g.met ? "met   " : "missed"}  ${g.goal}${detail ? `  (${detail})` : ""}`);
    }

    fs.mkdirSync(RESULTS_DIR, { recursive: true });
    const file = path.join(RESULTS_DIR, `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    const report = {
      date: new Date().toISOString(),
      commit: gitState(),
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, chromium: bytes.chromium, loadavg: os.loadavg() },
      settings: {
        runs: RUNS,
        rounds: ROUNDS,
        seconds: SECONDS,
        connections: CONNECTIONS,
        lighthouse: { throttling: lh.throttling, screen: lh.settings.screenEmulation },
      },
      pages: Object.fromEntries(rows.map(({ label, ...r }) => [label, r])),
      paths: Object.fromEntries(pages.map((p) => [p.label, p.path])),
      throughput: tp,
      goals,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nFigures written to ${path.relative(process.cwd(), file)} (${report.seconds} s in all).`);
  } finally {
    await Promise.all([app && stopServer(app.child, app.pid), bare && stopServer(bare.child, bare.pid)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
