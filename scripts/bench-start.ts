/**
 * Start time and memory of the production server, started as `npm start` starts it (the command in package.json,
 * run by a shell, without npm's own start-up): milliseconds from the process's start to the first 200 answer to
 * `/`, the server's resident memory then, and after 200 signed-out page requests (`/`, a campaign page, the sign-in
 * page), with the peak (VmHWM). "All Node" adds any launcher process kept beside the server (tsx's). Each run
 * starts the server again on the same data: demo data is loaded once, before the runs. Medians of the runs.
 * Decision 032 has the figures.
 *
 *   npm run build && npx tsx scripts/bench-start.ts [--runs 7] [--port 3420] [--command "NODE_ENV=production ..."]...
 *   DATABASE_URL=postgres://... npx tsx scripts/bench-start.ts        # on PostgreSQL (an empty or demo database)
 *
 * Without --command it runs package.json's `start` script; with several, they take turns. The embedded database lives in a temporary folder,
 * removed at the end. Traffic goes to 127.0.0.1 only.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { readMemory, serverPid, sleep, stopServer, treeRssMb } from "#scripts/server-process.ts";

/** Every value given to `--name`, in order. */
function options(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === `--${name}` && process.argv[i + 1] !== undefined ? [process.argv[i + 1]!] : []));
}
const option = (name: string) => options(name)[0];

const RUNS = Number(option("runs") ?? 7);
const PORT = Number(option("port") ?? 3420);
const REQUESTS = 200;
const BASE = `http://127.0.0.1:${PORT}`;
const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
/** Several commands take turns run by run, so a busy machine slows them alike. */
const COMMANDS = options("command").length ? options("command") : [scripts.start!];
const DATABASE_URL = process.env.DATABASE_URL || undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-bench-start-"));

interface Run {
  ms: number;
  rssStart: number;
  rssAfter: number;
  hwm: number;
  allNodeAfter: number;
}

async function start(command: string, seed: boolean) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: "127.0.0.1",
    PORT: String(PORT),
    APP_URL: BASE,
    DATA_DIR: dataDir,
    SEED_DEMO: seed ? "true" : "false",
    LOG_LEVEL: "warn",
  };
  if (DATABASE_URL) env.DATABASE_URL = DATABASE_URL;
  else delete env.DATABASE_URL;
  const log = fs.openSync(path.join(dataDir, "server.log"), "a");
  const started = performance.now();
  const child = spawn("sh", ["-c", command], { env, detached: true, stdio: ["ignore", log, log] });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const res = await fetch(`${BASE}/`, { redirect: "manual" });
      const html = await res.text();
      if (res.status === 200) return { child, ms: performance.now() - started, html };
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  await stopServer(child, serverPid(child.pid!) ?? undefined);
  console.error(`The server did not start:\n${fs.readFileSync(path.join(dataDir, "server.log"), "utf8").slice(-3000)}`);
  process.exit(2);
}

async function get(pathname: string) {
  const res = await fetch(`${BASE}${pathname}`, { headers: { "accept-encoding": "br, gzip" } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${pathname}: ${res.status}`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

try {
  console.log(`${DATABASE_URL ? "PostgreSQL" : "embedded database (PGlite)"}, ${RUNS} runs of each command`);
  // Migrations and demo data first, so every measured start finds a database in use.
  const first = await start(COMMANDS[0]!, true);
  const campaign = /href="(\/campaign\/[^"]+)"/.exec(first.html)?.[1];
  if (!campaign) throw new Error("no campaign link on /: is the demo data there?");
  await stopServer(first.child, serverPid(first.child.pid!) ?? undefined);
  const pages = ["/", campaign, "/donor_signin"];
  const runs = COMMANDS.map(() => [] as Run[]);
  for (let i = 0; i < RUNS * COMMANDS.length; i++) {
    const c = i % COMMANDS.length;
    const { child, ms } = await start(COMMANDS[c]!, false);
    const pid = serverPid(child.pid!)!;
    const rssStart = readMemory(pid)!.rssMb;
    for (let r = 0; r < REQUESTS; r++) await get(pages[r % pages.length]!);
    const after = readMemory(pid)!;
    const run = { ms, rssStart, rssAfter: after.rssMb, hwm: after.hwmMb, allNodeAfter: treeRssMb(child.pid!) };
    runs[c]!.push(run);
    console.log(
      `${COMMANDS.length > 1 ? `[${c + 1}] ` : ""}run ${Math.floor(i / COMMANDS.length) + 1}: first answer ${Math.round(ms)} ms, RSS ${rssStart} MB, after ${REQUESTS} requests ${run.rssAfter} MB (peak ${run.hwm} MB, all Node ${run.allNodeAfter} MB)`,
    );
    await stopServer(child, pid);
  }
  COMMANDS.forEach((command, c) => {
    const m = (key: keyof Run) => Math.round(median(runs[c]!.map((r) => r[key])));
    console.log(
      `\n${command}\n  median: first answer ${m("ms")} ms, RSS ${m("rssStart")} MB, after ${REQUESTS} requests ${m("rssAfter")} MB (peak ${m("hwm")} MB, all Node ${m("allNodeAfter")} MB)`,
    );
  });
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
