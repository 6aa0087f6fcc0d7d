/**
 * Total Blocking Time of two builds side by side (decision 036, 2026-11-27): each build's production server on its
 * own PostgreSQL database with the demo data, then Lighthouse (the bench's default mobile configuration) on `/` and
 * the first public campaign page `/` links to, the two builds' runs taken in turn so both meet the same load.
 *
 * Beside Lighthouse's TBT, which follows the machine's load as much as the page, it counts from Lighthouse's own
 * trace the main thread's tasks after the observed first paint by their CPU time (`tdur`), which the load moves much
 * less: "long" is how many would exceed 50 ms four times slower, "sum" what they exceed it by (Lantern's rule, on CPU
 * time instead of wall time).
 *
 *   npm run build && cp -a build build-before          # the build to compare with (build-* is git-ignored)
 *   ... change, npm run build ...
 *   npx tsx bench/tbt-pair.ts --builds before=build-before,after=build --port 4627 --runs 3
 *
 * Options: --builds NAME=DIR,… (folders inside the checkout, as BUILD_DIR), --port N (the first build's; the next
 * takes N+1, …), --runs N, --pages /,campaign,/donate1 (a path, or `campaign`), --as donor|ngo|rider (the pages are
 * opened signed in as the demo account of that role, as the bench opens /donate1), --database PREFIX (default
 * tbt_pair: the databases `PREFIX_<NAME>` are re-created).
 *
 * It also gives Lantern's TBT of the work alone ("TBT by CPU", a lower bound of what a quiet machine gives): Lighthouse audits the run's own artifacts
 * again (its audit mode) after every main-thread task of the renderer has been shortened, with all it holds, to its
 * CPU time (a task waiting for the busy machine's cores is longer than the work it did; Lantern replays lengths).
 *
 * Each run also prints the tasks Lantern counts (Lighthouse's `long-tasks` audit: the simulated start and length of
 * every task of 50 ms or more, and what its time went to), with the simulated first contentful paint, after which
 * their time counts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launch as launchChrome } from "chrome-launcher";
import lighthouse from "lighthouse";
import { saveArtifacts } from "lighthouse/core/lib/asset-saver.js";
import { SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { DEMO_ACCOUNTS } from "#server/demo/seed.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "#tests/e2e/env.ts";
import { benchDatabase, demoSession } from "#scripts/bench-setup.ts";
import { startServer, stopServer, type ServerProcess } from "#scripts/server-process.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};
const RUNS = Number(arg("runs", "3"));
const BASE_PORT = Number(arg("port", "4627"));
const PAGES = arg("pages", "/,campaign").split(",");
const SIDES = arg("builds", "before=build-before,after=build")
  .split(",")
  .map((s) => s.split("=") as [string, string]);
const AS = process.argv.includes("--as") ? (arg("as", "donor") as keyof typeof DEMO_ACCOUNTS) : null;
if (AS && !(AS in DEMO_ACCOUNTS)) throw new Error(`--as takes one of ${Object.keys(DEMO_ACCOUNTS).join(", ")}`);
const DATABASE = arg("database", "tbt_pair");
/** A folder to keep each run's Lighthouse trace in (`<page>-<build>-<run>.json`, for Chromium's Performance panel). */
const SAVE = process.argv.includes("--save") ? arg("save", "") : null;
if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE)) throw new Error("--database takes a name of lower-case letters, digits and _");

type LongTask = { startTime: number; duration: number; urlIndex: number } & Record<string, number>;

/** Lighthouse's simulated long tasks, one line each: start–end ms, and the groups their time went to. */
function longTasks(audit: { details?: unknown } | undefined): string[] {
  const debug = (audit?.details as { debugData?: { urls: string[]; tasks: LongTask[] } } | undefined)?.debugData;
  if (!debug) return [];
  return [...debug.tasks]
    .sort((a, b) => a.startTime - b.startTime)
    .map((t) => {
      const { startTime, duration, urlIndex, ...groups } = t;
      const parts = Object.entries(groups)
        .filter(([, ms]) => ms >= 1)
        .sort((a, b) => b[1] - a[1])
        .map(([group, ms]) => `${group} ${Math.round(ms)}`);
      const url = (debug.urls[urlIndex] ?? "").replace(/^https?:\/\/[^/]+/, "").replace(/^.*\/assets\//, "");
      return `${Math.round(startTime)}–${Math.round(startTime + duration)} (${Math.round(duration)} ms; ${parts.join(", ")}) ${url}`;
    });
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } };

/** CPU ms of the renderer's main-thread tasks after the observed first contentful paint, 8 ms or more. */
function tasksAfterPaint(events: TraceEvent[]): number[] {
  const main = mainThread(events);
  if (!main) return [];
  const { pid, tid } = main;
  const paint = events.find((e) => e.name === "firstContentfulPaint" && e.pid === pid)?.ts ?? 0;
  return events
    .filter((e) => e.pid === pid && e.tid === tid && e.name === "RunTask" && e.ph === "X" && e.ts >= paint && (e.tdur ?? 0) >= 8_000)
    .map((e) => e.tdur! / 1000);
}

/** The renderer's main thread: the one with the most tasks. */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } | null {
  let main: { pid: number; tid: number; count: number } | null = null;
  for (const t of events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")) {
    const count = events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.name === "RunTask").length;
    if (!main || count > main.count) main = { pid: t.pid, tid: t.tid, count };
  }
  return main;
}

/**
 * The trace with each of the main thread's top-level tasks shrunk to its CPU time (`tdur`), the events inside it
 * scaled with it towards its start; the gaps between tasks and the other threads are left as they were.
 */
function withCpuTime(events: TraceEvent[]): TraceEvent[] {
  const main = mainThread(events);
  if (!main) return events;
  const onMain = (e: TraceEvent) => e.pid === main.pid && e.tid === main.tid;
  const tasks = events
    .filter((e) => onMain(e) && e.name === "RunTask" && e.ph === "X" && e.dur && e.tdur !== undefined && e.tdur < e.dur)
    .sort((a, b) => a.ts - b.ts);
  // Top level only: a task inside another is scaled with it.
  const top: TraceEvent[] = [];
  for (const t of tasks) if (!top.length || t.ts >= top.at(-1)!.ts + top.at(-1)!.dur!) top.push(t);
  const scaled = new Map<TraceEvent, { start: number; end: number; f: number }>();
  for (const t of top) scaled.set(t, { start: t.ts, end: t.ts + t.dur!, f: t.tdur! / t.dur! });
  const spans = [...scaled.values()];
  return events.map((e) => {
    if (!onMain(e)) return e;
    // Binary search for the task that holds the event's start.
    let lo = 0;
    let hi = spans.length - 1;
    let span: (typeof spans)[number] | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const s = spans[mid]!;
      if (e.ts < s.start) hi = mid - 1;
      else if (e.ts >= s.end) lo = mid + 1;
      else {
        span = s;
        break;
      }
    }
    if (!span) return e;
    const copy = { ...e, ts: span.start + (e.ts - span.start) * span.f };
    if (e.dur !== undefined) copy.dur = e.dur * span.f;
    return copy;
  });
}

/** Lantern's TBT of a run's artifacts with the main thread's tasks at their CPU time (Lighthouse's audit mode). */
async function tbtByCpu(artifacts: { Trace: { traceEvents: TraceEvent[] } }, extraHeaders: Record<string, string> | undefined) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tbt-pair-artifacts-"));
  try {
    const copy = { ...artifacts, Trace: { ...artifacts.Trace, traceEvents: withCpuTime(artifacts.Trace.traceEvents) } };
    delete (copy as { traces?: unknown }).traces;
    await saveArtifacts(copy as never, dir);
    // The settings must be those it gathered with.
    const out = await lighthouse(undefined, {
      auditMode: dir,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      extraHeaders,
    });
    const audits = out?.lhr.audits;
    return {
      tbt: audits?.["total-blocking-time"]?.numericValue ?? NaN,
      fcp: audits?.["first-contentful-paint"]?.numericValue ?? NaN,
      longTasks: longTasks(audits?.["long-tasks"]),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

type Side = { name: string; base: string; server: ServerProcess; token: string | null };
type Row = { tbt: number[]; tbtCpu: number[]; long: number[]; over: number[]; jsBytes: number };

async function main() {
  const dirs: string[] = [];
  const sides: Side[] = [];
  try {
    for (const [i, [name, buildDir]] of SIDES.entries()) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tbt-pair-"));
      dirs.push(dataDir);
      const port = BASE_PORT + i;
      process.env.BUILD_DIR = buildDir;
      const server = await startServer({ port, dataDir, databaseUrl: await benchDatabase(`${DATABASE}_${name}`) });
      const base = `http://127.0.0.1:${port}`;
      sides.push({ name, base, server, token: AS ? await demoSession(base, AS) : null });
    }
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} before Lighthouse`,
    );
    const chrome = await launchChrome({ chromePath: CHROMIUM_PATH, chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS] });
    const rows = new Map<string, Row>();
    try {
      for (const page of PAGES) {
        const paths = new Map<string, string>();
        for (const s of sides) {
          const landing = await (await fetch(`${s.base}/`)).text();
          paths.set(s.name, page === "campaign" ? /href="(\/campaign\/[^"]+)"/.exec(landing)![1]! : page);
        }
        for (let run = 0; run < RUNS; run += 1) {
          for (const s of run % 2 ? [...sides].reverse() : sides) {
            const extraHeaders = s.token ? { Cookie: `${SESSION_COOKIE}=${s.token}` } : undefined;
            const out = await lighthouse(s.base + paths.get(s.name)!, {
              port: chrome.port,
              output: "json",
              logLevel: "error",
              onlyCategories: ["performance"],
              extraHeaders,
            });
            const lhr = out!.lhr;
            if (lhr.runtimeError) {
              console.log(`${page} ${s.name} run ${run + 1}: ${lhr.runtimeError.code}`);
              continue;
            }
            // A session that did not count would measure the sign-in page instead.
            if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(s.base + paths.get(s.name)!).pathname) {
              throw new Error(`Lighthouse on ${paths.get(s.name)} ended on ${lhr.finalDisplayedUrl}`);
            }
            const tbt = lhr.audits["total-blocking-time"]!.numericValue!;
            const cpu = tasksAfterPaint((out!.artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace.traceEvents);
            const blocking = cpu.filter((ms) => ms * 4 > 50);
            const requests = (lhr.audits["network-requests"]?.details as { items?: { resourceType?: string; transferSize?: number }[] })
              ?.items;
            if (SAVE) {
              fs.mkdirSync(SAVE, { recursive: true });
              const file = `${page.replace(/\W+/g, "_")}-${s.name}-${run + 1}.json`;
              fs.writeFileSync(path.join(SAVE, file), JSON.stringify((out!.artifacts as unknown as { Trace: unknown }).Trace));
            }
            const byCpu = await tbtByCpu(out!.artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }, extraHeaders);
            const row = rows.get(`${page} ${s.name}`) ?? { tbt: [], tbtCpu: [], long: [], over: [], jsBytes: 0 };
            rows.set(`${page} ${s.name}`, row);
            row.tbt.push(Math.round(tbt));
            row.tbtCpu.push(Math.round(byCpu.tbt));
            row.long.push(blocking.length);
            row.over.push(Math.round(blocking.reduce((sum, ms) => sum + ms * 4 - 50, 0)));
            row.jsBytes = (requests ?? []).filter((r) => r.resourceType === "Script").reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
            console.log(
              `${page} ${s.name} run ${run + 1}: TBT ${Math.round(tbt)} ms, by CPU ${Math.round(byCpu.tbt)} ms; tasks after the first paint (ms of CPU): ${cpu.map((ms) => ms.toFixed(1)).join(" ")}`,
            );
            const fcp = lhr.audits["first-contentful-paint"]!.numericValue!;
            const tti = lhr.audits["interactive"]?.numericValue;
            console.log(`  simulated: first contentful paint ${Math.round(fcp)} ms, interactive ${Math.round(tti ?? 0)} ms; long tasks:`);
            for (const line of longTasks(lhr.audits["long-tasks"])) console.log(`    ${line}`);
            console.log(`  by CPU time: first contentful paint ${Math.round(byCpu.fcp)} ms; long tasks:`);
            for (const line of byCpu.longTasks) console.log(`    ${line}`);
          }
        }
      }
    } finally {
      chrome.kill();
    }
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} after Lighthouse`,
    );
    console.log(
      "\nLighthouse's TBT (ms) of each run, and by CPU time; tasks over 50 ms at 4x CPU time: how many, and by how much in all (ms)",
    );
    for (const [key, r] of rows) {
      console.log(
        `  ${key.padEnd(18)} TBT ${r.tbt.join(" ")}  by CPU ${r.tbtCpu.join(" ")}  long ${r.long.join(" ")}  over ${r.over.join(" ")}  JS ${r.jsBytes} bytes`,
      );
    }
  } finally {
    for (const s of sides) await stopServer(s.server.child, s.server.pid);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

await main();
