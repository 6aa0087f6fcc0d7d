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
 * takes N+1, …), --runs N, --pages /,campaign. The databases `tbt_pair_<NAME>` are re-created.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launch as launchChrome } from "chrome-launcher";
import lighthouse from "lighthouse";
import pg from "pg";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "#tests/e2e/env.ts";
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
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";

async function recreate(db: string): Promise<string> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${db}`);
  } finally {
    await client.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${db}`;
  return url.toString();
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } };

/** CPU ms of the renderer's main-thread tasks after the observed first contentful paint, 8 ms or more. */
function tasksAfterPaint(events: TraceEvent[]): number[] {
  let main: { pid: number; tid: number; count: number } | null = null;
  for (const t of events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")) {
    const count = events.filter((e) => e.pid === t.pid && e.tid === t.tid && e.name === "RunTask").length;
    if (!main || count > main.count) main = { pid: t.pid, tid: t.tid, count };
  }
  if (!main) return [];
  const { pid, tid } = main;
  const paint = events.find((e) => e.name === "firstContentfulPaint" && e.pid === pid)?.ts ?? 0;
  return events
    .filter((e) => e.pid === pid && e.tid === tid && e.name === "RunTask" && e.ph === "X" && e.ts >= paint && (e.tdur ?? 0) >= 8_000)
    .map((e) => e.tdur! / 1000);
}

type Side = { name: string; base: string; server: ServerProcess };
type Row = { tbt: number[]; long: number[]; over: number[]; jsBytes: number };

async function main() {
  const dirs: string[] = [];
  const sides: Side[] = [];
  try {
    for (const [i, [name, buildDir]] of SIDES.entries()) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tbt-pair-"));
      dirs.push(dataDir);
      const port = BASE_PORT + i;
      process.env.BUILD_DIR = buildDir;
      const server = await startServer({ port, dataDir, databaseUrl: await recreate(`tbt_pair_${name}`) });
      sides.push({ name, base: `http://127.0.0.1:${port}`, server });
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
            const out = await lighthouse(s.base + paths.get(s.name)!, {
              port: chrome.port,
              output: "json",
              logLevel: "error",
              onlyCategories: ["performance"],
            });
            const lhr = out!.lhr;
            if (lhr.runtimeError) {
              console.log(`${page} ${s.name} run ${run + 1}: ${lhr.runtimeError.code}`);
              continue;
            }
            const tbt = lhr.audits["total-blocking-time"]!.numericValue!;
            const cpu = tasksAfterPaint((out!.artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace.traceEvents);
            const blocking = cpu.filter((ms) => ms * 4 > 50);
            const requests = (lhr.audits["network-requests"]?.details as { items?: { resourceType?: string; transferSize?: number }[] })
              ?.items;
            const row = rows.get(`${page} ${s.name}`) ?? { tbt: [], long: [], over: [], jsBytes: 0 };
            rows.set(`${page} ${s.name}`, row);
            row.tbt.push(Math.round(tbt));
            row.long.push(blocking.length);
            row.over.push(Math.round(blocking.reduce((sum, ms) => sum + ms * 4 - 50, 0)));
            row.jsBytes = (requests ?? []).filter((r) => r.resourceType === "Script").reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
            console.log(
              `${page} ${s.name} run ${run + 1}: TBT ${Math.round(tbt)} ms; tasks after the first paint (ms of CPU): ${cpu.map((ms) => ms.toFixed(1)).join(" ")}`,
            );
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
    console.log("\nLighthouse's TBT (ms) of each run; tasks over 50 ms at 4x CPU time: how many, and by how much in all (ms)");
    for (const [key, r] of rows) {
      console.log(`  ${key.padEnd(18)} TBT ${r.tbt.join(" ")}  long ${r.long.join(" ")}  over ${r.over.join(" ")}  JS ${r.jsBytes} bytes`);
    }
  } finally {
    for (const s of sides) await stopServer(s.server.child, s.server.pid);
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

await main();
