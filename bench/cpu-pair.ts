/**
 * Server CPU a request of `/donate1` for two or more builds side by side (decision 037, 2026-11-27, session 18): each
 * build's production server (`build/node/server.js` of its checkout, started with the flags `npm start` passes today,
 * the same for every side so they compare like with like) on its own PostgreSQL database with the demo data that
 * checkout seeds, the demo donor signed in, then rounds of autocannon on `/donate1` taken in turn (A B A B …) so all
 * sides meet the same load from the rest of the machine. The figure is the server process's CPU time (user and system,
 * all threads, /proc) over the requests answered, which the load moves less than requests a second.
 *
 * Each checkout must be built (`npm run build`); a checkout of an older commit made with `git worktree add` can share
 * this one's node_modules through a symlink when its package-lock.json adds nothing this one lacks.
 *
 *   npx tsx bench/cpu-pair.ts --sides old=/work/wt/x-old,new=. --port 4626 --rounds 6 --seconds 8
 *   npx tsx bench/cpu-pair.ts --gc --sides s4=.="--max-semi-space-size=4 --max-old-space-size=512",s16=.   # flags
 *
 * Options: --sides NAME=DIR,… (checkouts), --port N (the first side's; the next takes N+1, …), --rounds N,
 * --seconds N, --connections N, --path /donate1, --db-prefix NAME (databases `<prefix>_<NAME>` are re-created),
 * --keep (reuse the databases as they are), --warmup-requests N (each side's before the rounds; default 20,000), --encoding br|gzip (ask for a compressed page, as a browser on the site
 * does; by default none, as the bench's throughput run), --gc (each server under --trace-gc: scavenges and mark-compacts a request,
 * counts the machine's load barely moves). Prints each round and the median of each side and of each pair's ratio.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchDatabase, benchServerEnv } from "#scripts/bench-setup.ts";
import { cpuMs, readMemory, sleep, stopServer } from "#scripts/server-process.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};
const ROUNDS = Number(arg("rounds", "6"));
const SECONDS = Number(arg("seconds", "8"));
const CONNECTIONS = Number(arg("connections", "10"));
const BASE_PORT = Number(arg("port", "4626"));
const PAGE = arg("path", "/donate1");
const DB_PREFIX = arg("db-prefix", "cpu_pair");
const KEEP = process.argv.includes("--keep");
const ENCODING = arg("encoding", "");
const WARMUP_REQUESTS = Number(arg("warmup-requests", "20000"));
// With --gc each server runs under --trace-gc and every round also counts its collections from the server's output.
const GC = process.argv.includes("--gc");
// NAME=DIR, or NAME=DIR=FLAGS to start that side with other Node flags than npm start's (space-separated; "none").
const START_FLAGS = "--max-semi-space-size=16 --max-old-space-size=512";
const SIDES = arg("sides", "before=build-before,after=.")
  .split(",")
  .map((s) => {
    const [name, dir, ...flags] = s.split("=");
    return [name!, dir!, flags.length ? flags.join("=") : undefined] as const;
  });
// Written here rather than imported: an older checkout may name them differently, and these are the demo's.
const SESSION_COOKIE = "ekc_session";
const DONOR = { email: "donor@demo.ekchhat.pk", password: "EkChhat-demo-2026" };

type Gc = { scavenges: number; majors: number; pauseMs: number };
type Side = {
  name: string;
  dir: string;
  flags: string;
  base: string;
  child: ChildProcess;
  pid: number;
  token: string;
  logFile: string;
  ms: number[];
  rps: number[];
  gc: Gc[];
};

/** The collections --trace-gc has written to the server's output since `from` (a byte offset), and the new offset. */
function gcSince(logFile: string, from: number): Gc & { to: number } {
  const text = fs.readFileSync(logFile).subarray(from).toString("latin1");
  const gc = { scavenges: 0, majors: 0, pauseMs: 0, to: from + Buffer.byteLength(text, "latin1") };
  for (const m of text.matchAll(/ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Sweep)[^,]*, ([\d.]+) \/ [\d.]+ ms/g)) {
    if (m[1] === "Scavenge" || m[1] === "Minor Mark-Sweep") gc.scavenges += 1;
    else gc.majors += 1;
    gc.pauseMs += Number(m[2]);
  }
  return gc;
}

async function start(name: string, dir: string, port: number, flags = START_FLAGS): Promise<Side> {
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cpu-pair-${name}-`));
  const logFile = path.join(dataDir, "server.log");
  const log = fs.openSync(logFile, "a");
  const child = spawn(
    process.execPath,
    [
      ...(flags === "none" ? [] : flags.split(" ")),
      ...(GC ? ["--trace-gc"] : []),
      "--enable-source-maps",
      path.resolve(dir, "build/node/server.js"),
    ],
    {
      cwd: path.resolve(dir),
      detached: true,
      stdio: ["ignore", log, log],
      env: benchServerEnv({ port, dataDir, databaseUrl: await benchDatabase(`${DB_PREFIX}_${name}`, { keep: KEEP }) }),
    },
  );
  fs.closeSync(log);
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const res = await fetch(`${base}/`, { redirect: "manual" }).catch(() => null);
    if (res?.status === 200) break;
    await sleep(500);
  }
  if (child.exitCode !== null || Date.now() >= deadline) {
    await stopServer(child, child.pid);
    throw new Error(`${name} did not start; its output is in ${logFile}`);
  }
  const res = await fetch(`${base}/donor_signin`, {
    method: "POST",
    headers: { origin: base },
    body: new URLSearchParams({ email: DONOR.email, password: DONOR.password, redirectTo: "" }),
    redirect: "manual",
  });
  const pair = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((p) => p.startsWith(`${SESSION_COOKIE}=`));
  if (!pair) throw new Error(`${name}: signing in gave no session (${res.status})`);
  const token = pair.slice(SESSION_COOKIE.length + 1);
  return { name, dir, flags, base, child, pid: child.pid!, token, logFile, ms: [], rps: [], gc: [] };
}

async function round(side: Side, length: { seconds: number } | { requests: number }) {
  const logAt = fs.statSync(side.logFile).size;
  const before = cpuMs(side.pid);
  const r = await autocannon({
    url: side.base + PAGE,
    connections: CONNECTIONS,
    ...("seconds" in length ? { duration: length.seconds } : { amount: length.requests }),
    headers: {
      cookie: `${SESSION_COOKIE}=${side.token}`,
      // A signed-in page goes compressed only to a request from the site itself (BREACH, server/http/compress.ts).
      ...(ENCODING ? { "accept-encoding": ENCODING, "sec-fetch-site": "same-origin" } : {}),
    },
  });
  const cpu = cpuMs(side.pid) - before;
  if (r.errors || r.timeouts || r.non2xx) throw new Error(`${side.name}: ${r.errors} errors, ${r.non2xx} not 2xx`);
  const gc = gcSince(side.logFile, logAt);
  const per = (n: number) => n / r.requests.total;
  return {
    ms: cpu / r.requests.total,
    rps: r.requests.average,
    gc: { scavenges: per(gc.scavenges), majors: per(gc.majors), pauseMs: per(gc.pauseMs) },
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const load = () => os.loadavg()[0]!.toFixed(1);

const sides: Side[] = [];
try {
  for (const [i, [name, dir, flags]] of SIDES.entries()) sides.push(await start(name, dir, BASE_PORT + i, flags));
  for (const side of sides) {
    const page = await (await fetch(side.base + PAGE, { headers: { cookie: `${SESSION_COOKIE}=${side.token}` } })).text();
    const elements = (page.match(/<[a-zA-Z][^>]*>/g) ?? []).length;
    const cards = new Set([...page.matchAll(/href="\/donate2\?[^"]*campaign=([^"&]+)/g)].map((m) => m[1])).size;
    console.log(`${side.name} (${side.dir}, ${side.flags}): ${PAGE} ${page.length} bytes, ${elements} elements, ${cards} campaigns`);
    // Warmed to the JIT's steady state first (a server's first several thousand requests cost up to twice the CPU).
    await round(side, { requests: WARMUP_REQUESTS });
  }
  console.log(`load ${load()} at ${new Date().toISOString()}`);
  for (let i = 0; i < ROUNDS; i += 1) {
    const line: string[] = [];
    for (const side of i % 2 ? [...sides].reverse() : sides) {
      const r = await round(side, { seconds: SECONDS });
      side.ms.push(r.ms);
      side.rps.push(r.rps);
      side.gc.push(r.gc);
    }
    for (const side of sides) line.push(`${side.name} ${side.ms.at(-1)!.toFixed(2)} ms (${side.rps.at(-1)!.toFixed(0)} req/s)`);
    console.log(`round ${i + 1} (load ${load()}): ${line.join(", ")}`);
  }
  for (const side of sides) {
    if (GC) {
      const g = (k: keyof Gc) => median(side.gc.map((x) => x[k]));
      console.log(
        `${side.name}: a request, median of the rounds: ${g("scavenges").toFixed(3)} scavenges, ${g("majors").toFixed(4)} mark-compacts, ${g("pauseMs").toFixed(2)} ms in GC pauses (wall time: on a busy machine it includes time the process waited for a core)`,
      );
    }
    const memory = readMemory(side.pid);
    if (memory) console.log(`${side.name}: resident ${memory.rssMb} MB after the rounds (peak ${memory.hwmMb} MB)`);
    console.log(`${side.name}: median ${median(side.ms).toFixed(2)} ms, min ${Math.min(...side.ms).toFixed(2)} ms a request`);
  }
  const [first, ...rest] = sides;
  for (const side of rest) {
    const ratios = side.ms.map((ms, i) => ms / first!.ms[i]!);
    console.log(
      `${side.name} ÷ ${first!.name}: median ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
    );
  }
} finally {
  for (const side of sides) await stopServer(side.child, side.pid);
}
