/**
 * What each long main-thread task of a page's load runs (decision 036): the production build on PostgreSQL with the
 * demo data, the page opened in Debian's Chromium with its CPU four times slower (CDP
 * `Emulation.setCPUThrottlingRate`), traced with JavaScript samples; for every task of 50 ms or more (what Total
 * Blocking Time counts), its length, its CPU time, the trace events directly inside it and the functions its samples
 * were in (inclusive time, by name and place in the bundle; a build with `minify: false` names them).
 *
 *   npx tsx bench/trace-tasks.ts --path /donate1 --as donor --port 4615 --database tbt15b_trace --runs 2 [--build build]
 *
 * Options: --path (default /donate1), --as donor|ngo|rider|none (default donor), --build DIR (as BUILD_DIR), --port N,
 * --database NAME (re-created), --runs N, --rate N (CPU slowdown, default 4), --top N (functions a task, default 25),
 * --save FILE (the last run's trace as JSON, for Chromium's Performance panel).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { DEMO_ACCOUNTS } from "#server/demo/seed.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "#tests/e2e/env.ts";
import { benchDatabase, demoSession } from "#scripts/bench-setup.ts";
import { startServer, stopServer } from "#scripts/server-process.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};
const PAGE = arg("path", "/donate1");
const AS = arg("as", "donor");
const PORT = Number(arg("port", "4615"));
const DATABASE = arg("database", "trace_tasks");
const RUNS = Number(arg("runs", "1"));
const RATE = Number(arg("rate", "4"));
const TOP = Number(arg("top", "25"));
/** A task is listed when its CPU time is at least this many ms (Lantern counts what exceeds 50 ms after its 4x). */
const MIN = Number(arg("min", String(50 / RATE)));
const SAVE = process.argv.includes("--save") ? arg("save", "") : null;
/** A style rule to try without a build: put into the page's head (the page is then fetched whole, not streamed). */
const CSS = process.argv.includes("--css") ? arg("css", "") : null;
if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE)) throw new Error("--database takes a name of lower-case letters, digits and _");
const BASE = `http://127.0.0.1:${PORT}`;

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; parent?: number };
type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    elementCount?: number;
    beginData?: { dirtyObjects?: number; totalObjects?: number };
    data?: {
      url?: string;
      functionName?: string;
      type?: string;
      startTime?: number;
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
    };
  };
};

/** The samples of every profile in the trace, as [timestamp µs, node] with each profile's nodes. */
function samplesOf(events: TraceEvent[], pid: number, tid: number) {
  const nodes = new Map<string, Map<number, ProfileNode>>();
  const samples: { ts: number; node: ProfileNode; nodes: Map<number, ProfileNode> }[] = [];
  const clock = new Map<string, number>();
  for (const e of events) {
    if (e.pid !== pid) continue;
    if (e.name === "Profile" && e.tid === tid) clock.set(e.id!, e.args!.data!.startTime!);
    if (e.name !== "ProfileChunk") continue;
    const id = e.id!;
    if (!clock.has(id)) continue;
    const map = nodes.get(id) ?? new Map<number, ProfileNode>();
    nodes.set(id, map);
    const profile = e.args!.data!.cpuProfile ?? {};
    for (const n of profile.nodes ?? []) map.set(n.id, n);
    const deltas = e.args!.data!.timeDeltas ?? [];
    let ts = clock.get(id)!;
    (profile.samples ?? []).forEach((s, i) => {
      ts += deltas[i] ?? 0;
      samples.push({ ts, node: map.get(s)!, nodes: map });
    });
    clock.set(id, ts);
  }
  return samples.filter((s) => s.node);
}

const frameName = (f: CallFrame) =>
  `${f.functionName || "(anonymous)"} ${f.url ? `${f.url.replace(/^.*\/assets\//, "")}:${f.lineNumber + 1}:${f.columnNumber + 1}` : ""}`.trim();

function report(events: TraceEvent[]) {
  // The page's renderer: the main thread that parsed the page's HTML (Chromium's own pages have renderers too).
  let main: { pid: number; tid: number } | null = null;
  for (const t of events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")) {
    const parsed = events.some(
      (e) => e.pid === t.pid && e.tid === t.tid && e.name === "ParseHTML" && JSON.stringify(e.args ?? {}).includes(BASE),
    );
    if (parsed) main = { pid: t.pid, tid: t.tid };
  }
  if (!main) throw new Error("No renderer main thread in the trace");
  const { pid, tid } = main;
  const mine = events.filter((e) => e.pid === pid && e.tid === tid);
  const start = mine.find((e) => e.name === "navigationStart")?.ts ?? mine[0]!.ts;
  const fcp = mine.find((e) => e.name === "firstContentfulPaint")?.ts;
  console.log(`  first contentful paint at ${fcp ? ((fcp - start) / 1000).toFixed(0) : "?"} ms`);
  const samples = samplesOf(events, pid, tid);
  // Tasks by their CPU time, which the machine's load moves much less than their length.
  const tasks = mine.filter((e) => e.name === "RunTask" && e.ph === "X" && (e.tdur ?? e.dur ?? 0) >= MIN * 1000);
  let tbt = 0;
  for (const task of tasks) {
    const end = task.ts + task.dur!;
    const blocking = ((task.tdur ?? task.dur!) / 1000) * (4 / RATE) - 50;
    if (fcp && task.ts >= fcp && blocking > 0) tbt += blocking;
    console.log(
      `\n  task at ${((task.ts - start) / 1000).toFixed(0)} ms: ${(task.dur! / 1000).toFixed(1)} ms long, ${((task.tdur ?? 0) / 1000).toFixed(1)} ms of CPU`,
    );
    // The events directly inside it (one level down), longest first.
    const inside = mine
      .filter((e) => e !== task && e.ph === "X" && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) >= 2_000)
      .filter((e) => !["RunTask", "ThreadControllerImpl::RunTask"].includes(e.name));
    const top = inside.filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!));
    for (const e of top.sort((a, b) => b.dur! - a.dur!).slice(0, 8)) {
      const d = e.args?.data;
      const counts = e.args as { elementCount?: number; beginData?: { dirtyObjects?: number; totalObjects?: number } } | undefined;
      const what = [
        d?.type,
        d?.functionName,
        d?.url?.replace(/^.*\/assets\//, ""),
        counts?.elementCount !== undefined && `${counts.elementCount} elements`,
        counts?.beginData?.totalObjects !== undefined && `${counts.beginData.dirtyObjects} of ${counts.beginData.totalObjects} objects`,
      ]
        .filter(Boolean)
        .join(" ");
      console.log(`    ${(e.dur! / 1000).toFixed(1).padStart(6)} ms  ${e.name}${what ? ` (${what})` : ""}`);
    }
    // Inclusive time of each function its samples were in.
    const inTask = samples.filter((s) => s.ts >= task.ts && s.ts <= end);
    const inclusive = new Map<string, number>();
    const self = new Map<string, number>();
    let last = task.ts;
    for (const s of inTask) {
      const weight = (s.ts - last) / 1000;
      last = s.ts;
      const names = new Set<string>();
      for (let n: ProfileNode | undefined = s.node; n; n = n.parent !== undefined ? s.nodes.get(n.parent) : undefined) {
        names.add(frameName(n.callFrame));
      }
      for (const name of names) inclusive.set(name, (inclusive.get(name) ?? 0) + weight);
      const own = frameName(s.node.callFrame);
      self.set(own, (self.get(own) ?? 0) + weight);
    }
    console.log(`    functions (inclusive ms, ${inTask.length} samples):`);
    for (const [name, ms] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`    ${ms.toFixed(1).padStart(6)}  ${name}`);
    }
    console.log(`    self:`);
    for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`    ${ms.toFixed(1).padStart(6)}  ${name}`);
  }
  console.log(
    `\n  blocking time after the first paint, CPU time scaled to 4x: ${tbt.toFixed(0)} ms (${tasks.length} tasks of ${MIN} ms of CPU or more)`,
  );
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "trace-tasks-"));
  if (process.argv.includes("--build")) process.env.BUILD_DIR = arg("build", "build");
  const server = await startServer({ port: PORT, dataDir, databaseUrl: await benchDatabase(DATABASE) });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  try {
    for (let run = 1; run <= RUNS; run += 1) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      });
      if (AS !== "none") {
        await context.addCookies([{ name: SESSION_COOKIE, value: await demoSession(BASE, AS as keyof typeof DEMO_ACCOUNTS), url: BASE }]);
      }
      const page = await context.newPage();
      if (CSS !== null) {
        await page.route(BASE + PAGE, async (route) => {
          const res = await route.fetch();
          const body = (await res.text()).replace("</head>", `<style>${CSS}</style></head>`);
          await route.fulfill({ response: res, body });
        });
      }
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: RATE });
      const events: TraceEvent[] = [];
      cdp.on("Tracing.dataCollected", (m) => void events.push(...(m.value as unknown as TraceEvent[])));
      const done = new Promise<void>((resolve) => cdp.once("Tracing.tracingComplete", () => resolve()));
      await cdp.send("Tracing.start", {
        transferMode: "ReportEvents",
        traceConfig: {
          includedCategories: [
            "toplevel",
            "devtools.timeline",
            "disabled-by-default-devtools.timeline",
            "v8.execute",
            "v8",
            "blink.user_timing",
            "loading",
            "disabled-by-default-v8.cpu_profiler",
          ],
        },
      });
      await page.goto(BASE + PAGE, { waitUntil: "networkidle" });
      if (new URL(page.url()).pathname !== PAGE.split("?")[0]) throw new Error(`${PAGE} ended on ${page.url()}`);
      await page.waitForTimeout(2000);
      await cdp.send("Tracing.end");
      await done;
      console.log(`\n${PAGE} run ${run} (CPU ${RATE}x slower, load average ${os.loadavg()[0]!.toFixed(1)}):`);
      report(events);
      if (SAVE) fs.writeFileSync(SAVE, JSON.stringify({ traceEvents: events }));
      await context.close();
    }
  } finally {
    await browser.close();
    await stopServer(server.child, server.pid);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
