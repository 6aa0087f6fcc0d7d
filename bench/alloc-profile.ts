/**
 * What a request of `/donate1` allocates, and where (decision 037, 2026-11-27, session 19): a checkout's production
 * server (`build/node/server.js`, `npm start`'s heap flags) on its own PostgreSQL database with the demo data, the demo
 * donor signed in, warmed with autocannon, then V8's sampling heap profiler (bench/alloc-hook.mjs, counting what the
 * collections freed too) over more rounds of autocannon. Prints the bytes allocated a request in all, by package, by
 * function (self) and by function with what it calls (inclusive), and the collections a request (--trace-gc).
 *
 * The figures are the sampler's estimates (an allocation is sampled about every --interval bytes and scaled), which
 * the machine's load does not move; build without minifying (`NO_MINIFY=1 npm run build`) to see the app's names.
 *
 *   npx tsx bench/alloc-profile.ts --dir . --port 4627 --database cpu15c_alloc --warmup 20 --seconds 15
 *
 * Options: --dir DIR (the checkout, default .), --build NAME (its build folder, default build), --port N,
 * --database NAME (re-created unless --keep), --warmup S, --seconds S, --connections N, --interval BYTES (1024),
 * --path /donate1, --top N (rows a table), --out FILE (the raw profile, for DevTools' Memory panel).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchDatabase, benchServerEnv, demoSession } from "#scripts/bench-setup.ts";
import { SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { sleep, stopServer } from "#scripts/server-process.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};
const DIR = path.resolve(arg("dir", "."));
const BUILD = arg("build", "build");
const PORT = Number(arg("port", "4627"));
const DATABASE = arg("database", "alloc_profile");
const WARMUP = Number(arg("warmup", "20"));
const SECONDS = Number(arg("seconds", "15"));
const CONNECTIONS = Number(arg("connections", "10"));
const INTERVAL = arg("interval", "1024");
const PAGE = arg("path", "/donate1");
const TOP = Number(arg("top", "25"));
const KEEP = process.argv.includes("--keep");

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "alloc-profile-"));
const logFile = path.join(dataDir, "server.log");
const profileFile = arg("out", path.join(dataDir, "donate1.heapprofile"));
const base = `http://127.0.0.1:${PORT}`;
const log = fs.openSync(logFile, "a");
const child = spawn(
  process.execPath,
  [
    "--max-semi-space-size=16",
    "--max-old-space-size=512",
    "--trace-gc",
    "--import",
    path.resolve(import.meta.dirname, "alloc-hook.mjs"),
    path.join(DIR, BUILD, "node/server.js"),
  ],
  {
    cwd: DIR,
    detached: true,
    stdio: ["ignore", log, log],
    env: {
      ...benchServerEnv({ port: PORT, dataDir, databaseUrl: await benchDatabase(DATABASE, { keep: KEEP }) }),
      BUILD_DIR: BUILD,
      ALLOC_PROFILE_FILE: profileFile,
      ALLOC_SAMPLING_BYTES: INTERVAL,
    },
  },
);
fs.closeSync(log);

const scavenges = (from: number) => {
  const text = fs.readFileSync(logFile).subarray(from).toString("latin1");
  return {
    minor: (text.match(/ms: (Scavenge|Minor Mark-Sweep)/g) ?? []).length,
    major: (text.match(/ms: (Mark-Compact|Mark-sweep)/g) ?? []).length,
  };
};

/** The package a script belongs to, or which of our bundles it is. */
function owner(url: string): string {
  if (!url) return "(V8, native)";
  if (url.startsWith("node:")) return "node:internal";
  const m = url.match(/node_modules\/((@[^/]+\/)?[^/]+)/);
  if (m) return m[1]!;
  if (url.includes(`/${BUILD}/server/`)) return "app (React Router's server build)";
  if (url.includes(`/${BUILD}/node/`)) return "server (build/node/server.js)";
  return url;
}
const short = (url: string) =>
  url
    .replace(/^file:\/\//, "")
    .replace(/.*node_modules\//, "")
    .replace(DIR + "/", "");
const key = (n: ProfileNode) =>
  `${n.callFrame.functionName || "(anonymous)"} ${short(n.callFrame.url)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ""}`;

try {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const res = await fetch(`${base}/`).catch(() => null);
    if (res?.status === 200) break;
    await sleep(500);
  }
  if (child.exitCode !== null || Date.now() >= deadline) throw new Error(`the server did not start; see ${logFile}`);
  const token = await demoSession(base, "donor");
  const headers = { cookie: `${SESSION_COOKIE}=${token}` };
  const page = await (await fetch(base + PAGE, { headers })).text();
  console.log(`${PAGE}: ${page.length} bytes, ${(page.match(/<[a-zA-Z][^>]*>/g) ?? []).length} elements`);
  await autocannon({ url: base + PAGE, connections: CONNECTIONS, duration: WARMUP, headers });

  const logAt = fs.statSync(logFile).size;
  process.kill(child.pid!, "SIGUSR2");
  await sleep(200);
  const r = await autocannon({ url: base + PAGE, connections: CONNECTIONS, duration: SECONDS, headers });
  if (r.errors || r.non2xx) throw new Error(`${r.errors} errors, ${r.non2xx} not 2xx`);
  process.kill(child.pid!, "SIGUSR2");
  const gc = scavenges(logAt);
  for (let i = 0; i < 100 && !fs.existsSync(profileFile); i += 1) await sleep(200);
  const profile = JSON.parse(fs.readFileSync(profileFile, "utf8")) as { head: ProfileNode };

  const requests = r.requests.total;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const packages = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  // Returns the subtree's bytes; each function is counted once on a path, however often it recurs.
  const walk = (n: ProfileNode, onPath: Set<string>): number => {
    const k = key(n);
    add(self, k, n.selfSize);
    add(packages, owner(n.callFrame.url), n.selfSize);
    const fresh = !onPath.has(k);
    if (fresh) onPath.add(k);
    let total = n.selfSize;
    for (const c of n.children) total += walk(c, onPath);
    if (fresh) {
      onPath.delete(k);
      add(inclusive, k, total);
    }
    return total;
  };
  const all = walk(profile.head, new Set());
  const perRequest = (b: number) => `${(b / requests / 1024).toFixed(1)} KB`;
  const share = (b: number) => `${((100 * b) / all).toFixed(1)} %`;
  const table = (title: string, m: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`  ${perRequest(v).padStart(9)}  ${share(v).padStart(7)}  ${k}`);
    }
  };
  console.log(
    `${requests} requests in ${SECONDS} s (load ${os.loadavg()[0]!.toFixed(1)}), sampled every ${INTERVAL} bytes: ` +
      `${perRequest(all)} allocated a request; ${(gc.minor / requests).toFixed(3)} scavenges and ` +
      `${(gc.major / requests).toFixed(4)} mark-compacts a request`,
  );
  table("By package (self):", packages);
  table("By function (self):", self);
  table("By function with its callees (inclusive):", inclusive);
  console.log(`\nThe profile: ${profileFile}`);
} finally {
  await stopServer(child, child.pid);
}
