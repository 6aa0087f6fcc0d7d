/**
 * Where a signed-in page's server time goes, function by function (decision 037, 2026-11-27, session 19): a build's
 * production server on PostgreSQL with the demo data, the demo donor signed in, autocannon on the page, and
 *
 * - a CPU profile (`node --cpu-prof`) of which only the samples taken while the measured load ran count: each
 *   function's self and inclusive share of the busy samples (not idle), and that share of the server's CPU time a
 *   request (/proc), so "ms a request" adds up to what `bench/cpu-pair.ts` measures;
 * - with `--calls`, how many times each function ran a request, from V8's precise coverage (`NODE_V8_COVERAGE`): two
 *   servers, one sent `--calls` requests more than the other, the difference divided. Counts the machine's load does
 *   not move: React's `pushStartInstance` is one call an element it writes, a component's function one a render.
 *
 * The app's functions have names only in a build made without minifying:
 *
 *   NO_MINIFY=1 BUILD_DIR=build-prof npm run build
 *   npx tsx bench/render-profile.ts --build build-prof --port 4637 --db render15_prof --calls 200
 *
 * Options: --build DIR (a build folder, relative to this checkout or absolute), --port N, --db NAME (a database of the
 * bench's PostgreSQL, re-created unless --keep), --path /donate1, --warmup S (seconds of load before the measured
 * ones, for the JIT: 60 by default, its steady state on these machines), --seconds S, --connections N, --calls N (0: no counts), --top N (rows a table), --match REGEX
 * (the rows of the second table: the functions whose name or file matches; the app's own by default), --out DIR.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchDatabase, benchServerEnv, demoSession } from "#scripts/bench-setup.ts";
import { cpuMs, root, sleep, stopServer } from "#scripts/server-process.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};
const BUILD = path.resolve(root, arg("build", "build"));
const PORT = Number(arg("port", "4637"));
const DB = arg("db", "render_profile");
const PAGE = arg("path", "/donate1");
const WARMUP = Number(arg("warmup", "60"));
const SECONDS = Number(arg("seconds", "20"));
const CONNECTIONS = Number(arg("connections", "10"));
const CALLS = Number(arg("calls", "0"));
const TOP = Number(arg("top", "40"));
const MATCH = new RegExp(arg("match", " build/server/"));
const OUT = path.resolve(arg("out", fs.mkdtempSync(path.join(os.tmpdir(), "render-profile-"))));
const KEEP = process.argv.includes("--keep");
/** What `npm start` passes to Node (package.json). */
const START_FLAGS = ["--max-semi-space-size=16", "--max-old-space-size=512", "--enable-source-maps"];

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

const short = (url: string) =>
  url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\//, "")
    .replace(`${BUILD}/`, "build/");
const frameKey = (f: CallFrame) => `${f.functionName || "(anonymous)"} ${short(f.url)}:${f.lineNumber + 1}`;
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The build's server started as `npm start` starts it (its Node flags, NODE_ENV, the allocator's settings), plus
 * `nodeFlags`, which Node 20 does not take through NODE_OPTIONS (--cpu-prof), and `env`; the demo donor signed in.
 */
async function serve(nodeFlags: string[], env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "render-profile-"));
  const logFile = path.join(dataDir, "server.log");
  const log = fs.openSync(logFile, "a");
  const base = `http://127.0.0.1:${PORT}`;
  const child = spawn(process.execPath, [...START_FLAGS, ...nodeFlags, path.join(BUILD, "node/server.js")], {
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...benchServerEnv({ port: PORT, dataDir, databaseUrl: await benchDatabase(DB, { keep: true }) }),
      ...env,
      BUILD_DIR: BUILD,
    },
  });
  fs.closeSync(log);
  const deadline = Date.now() + 180_000;
  for (;;) {
    const res = await fetch(`${base}/`).catch(() => null);
    await res?.arrayBuffer();
    if (res?.status === 200) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopServer(child, child.pid);
      throw new Error(`The server did not start; its output is in ${logFile}`);
    }
    await sleep(500);
  }
  return { server: { child, pid: child.pid! }, base, cookie: `ekc_session=${await demoSession(base, "donor")}` };
}

const load = (base: string, cookie: string, opts: { duration?: number; amount?: number }) =>
  autocannon({ url: base + PAGE, connections: CONNECTIONS, headers: { cookie }, ...opts }).then((r) => {
    if (r.errors || r.non2xx) throw new Error(`${r.errors} errors, ${r.non2xx} answers not 2xx`);
    return r;
  });

/** The CPU profile's samples within [fromUs, toUs], by function: self and inclusive (once a sample) time in µs. */
function summarise(profile: Profile, fromUs: number, toUs: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i]!;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (t < fromUs || t > toUs) return;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === "(idle)") return void (idle += dt);
    busy += dt;
    self.set(frameKey(leaf.callFrame), (self.get(frameKey(leaf.callFrame)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) seen.add(frameKey(byId.get(n)!.callFrame));
    for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
  });
  return { self, inclusive, busy, idle };
}

/** Each function's calls in a V8 coverage dump of the server (`NODE_V8_COVERAGE`), by the same key as the profile's. */
function coverageCalls(dir: string, pid: number): Map<string, number> {
  const file = fs.readdirSync(dir).find((f) => f.startsWith(`coverage-${pid}-`));
  if (!file) throw new Error(`no coverage of process ${pid} in ${dir}`);
  const { result } = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as {
    result: { url: string; functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[] }[];
  };
  const calls = new Map<string, number>();
  for (const script of result) {
    if (!script.url.startsWith("file://")) continue;
    const source = fs.readFileSync(new URL(script.url), "utf8");
    const lineStarts = [0];
    for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) lineStarts.push(i + 1);
    const lineOf = (offset: number) => {
      let lo = 0;
      let hi = lineStarts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (lineStarts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    for (const fn of script.functions) {
      const range = fn.ranges[0]!;
      if (!range.count) continue;
      const key = frameKey({ functionName: fn.functionName, url: script.url, lineNumber: lineOf(range.startOffset), columnNumber: 0 });
      calls.set(key, (calls.get(key) ?? 0) + range.count);
    }
  }
  return calls;
}

/** A server under coverage sent `amount` requests after the sign-in: each function's calls in all. */
async function countCalls(amount: number, tag: string): Promise<Map<string, number>> {
  const dir = path.join(OUT, `coverage-${tag}`);
  fs.mkdirSync(dir, { recursive: true });
  const { server, base, cookie } = await serve([], { NODE_V8_COVERAGE: dir });
  try {
    if (amount) await load(base, cookie, { amount });
  } finally {
    await stopServer(server.child, server.pid);
  }
  return coverageCalls(dir, server.pid);
}

const pct = (us: number, busy: number) => `${((100 * us) / busy).toFixed(1)} %`;

async function main() {
  await benchDatabase(DB, { keep: KEEP });
  const profDir = path.join(OUT, "cpu");
  const { server, base, cookie } = await serve([`--cpu-prof`, `--cpu-prof-dir=${profDir}`], {});
  const html = await (await fetch(base + PAGE, { headers: { cookie } })).text();
  let from = 0;
  let to = 0;
  let requests = 0;
  let cpu = 0;
  try {
    await load(base, cookie, { duration: WARMUP });
    const cpuBefore = cpuMs(server.pid);
    from = monotonicUs();
    const r = await load(base, cookie, { duration: SECONDS });
    to = monotonicUs();
    cpu = cpuMs(server.pid) - cpuBefore;
    requests = r.requests.total;
  } finally {
    await stopServer(server.child, server.pid);
  }
  const profileFile = fs.readdirSync(profDir).find((f) => f.includes(`.${server.pid}.`));
  if (!profileFile) throw new Error(`no profile of process ${server.pid} in ${profDir}`);
  const profile = JSON.parse(fs.readFileSync(path.join(profDir, profileFile), "utf8")) as Profile;
  const { self, inclusive, busy, idle } = summarise(profile, from, to);
  const msPerRequest = cpu / requests;
  const perRequest = (us: number) => ((msPerRequest * us) / busy).toFixed(3);

  let calls: Map<string, number> | undefined;
  if (CALLS > 0) {
    const few = await countCalls(0, "base");
    const many = await countCalls(CALLS, "more");
    calls = new Map([...many].map(([k, n]) => [k, (n - (few.get(k) ?? 0)) / CALLS]));
  }
  const callsOf = (key: string) => (calls ? (calls.get(key) ?? 0).toFixed(1) : "");

  console.log(`${PAGE}: ${html.length} bytes, ${(html.match(/<[a-zA-Z][^>]*>/g) ?? []).length} elements in its HTML`);
  console.log(
    `${requests} requests in ${SECONDS} s after ${WARMUP} s of warm-up, ${msPerRequest.toFixed(2)} ms of CPU a request (/proc), ` +
      `busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s of samples; load ${os.loadavg()[0]!.toFixed(1)}, ${new Date().toISOString()}`,
  );
  const table = (title: string, keys: string[]) => {
    console.log(`\n${title}\n| function | self | inclusive | ms a request (incl.) | calls a request |\n|---|---:|---:|---:|---:|`);
    for (const k of keys) {
      console.log(
        `| ${k} | ${pct(self.get(k) ?? 0, busy)} | ${pct(inclusive.get(k) ?? 0, busy)} | ${perRequest(inclusive.get(k) ?? 0)} | ${callsOf(k)} |`,
      );
    }
  };
  const byInclusive = [...inclusive.keys()].sort((a, b) => inclusive.get(b)! - inclusive.get(a)!);
  table("Every function, by self time", [...self.keys()].sort((a, b) => self.get(b)! - self.get(a)!).slice(0, TOP));
  table(`Functions matching ${MATCH}, by inclusive time`, byInclusive.filter((k) => MATCH.test(k)).slice(0, TOP));
  if (calls) {
    console.log(`\nCalls a request, functions matching ${MATCH} and React's element writer\n| function | calls a request |\n|---|---:|`);
    for (const [k, n] of [...calls]
      .filter(([k, n]) => n >= 0.5 && (MATCH.test(k) || /pushStartInstance /.test(k)))
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)) {
      console.log(`| ${k} | ${n.toFixed(1)} |`);
    }
  }
  console.log(`\nProfile and coverage in ${OUT}`);
}

await main();
