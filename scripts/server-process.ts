import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The server as a process, for the scripts that start it as users do (soak.ts, bench-start.ts): which process in
 * the tree `npm start` made is the server, its memory from /proc, and stopping the tree.
 */

export interface Memory {
  rssMb: number;
  hwmMb: number;
  threads: number;
}

export const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ServerProcess {
  child: ChildProcess;
  /** The server's own process (for /proc readings), beneath npm's and the shell's. */
  pid: number;
  logFile: string;
}

/**
 * Starts `npm start` with demo data on 127.0.0.1:`port` and waits until `/` answers 200. The database is the
 * embedded one in `dataDir`, or PostgreSQL when `databaseUrl` is given (demo data goes into an empty one). Throws,
 * with the end of the server's output, when it does not start within two minutes.
 */
export async function startServer(opts: { port: number; dataDir: string; databaseUrl?: string }): Promise<ServerProcess> {
  const base = `http://127.0.0.1:${opts.port}`;
  const logFile = path.join(opts.dataDir, "server.log");
  const log = fs.openSync(logFile, "a");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: "127.0.0.1",
    PORT: String(opts.port),
    APP_URL: base,
    DATA_DIR: opts.dataDir,
    SEED_DEMO: "true",
    LOG_LEVEL: "warn",
    // Simulated users sign in from 127.0.0.1 again and again; the limits are for attackers.
    AUTH_LIMIT_PER_IP: "1000000",
    AUTH_LIMIT_PER_ACCOUNT: "1000000",
  };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  // Exactly what users run, with whatever the start script sets.
  const child = spawn("npm", ["start", "--silent"], { cwd: root, env, detached: true, stdio: ["ignore", log, log] });
  fs.closeSync(log);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${base}/`, { redirect: "manual" });
      await res.arrayBuffer();
      const pid = serverPid(child.pid!);
      if (res.status === 200 && pid) return { child, pid, logFile };
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  await stopServer(child, serverPid(child.pid!) ?? undefined);
  throw new Error(`The server did not start; its output is in ${logFile}:\n${fs.readFileSync(logFile, "utf8").slice(-3000)}`);
}

export function readMemory(pid: number): Memory | null {
  const status = readStatus(pid);
  if (!status) return null;
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb("VmRSS") / 1024), hwmMb: Math.round(kb("VmHWM") / 1024), threads: kb("Threads") };
}

/** CPU time a process has used so far, all its threads, user and system, in milliseconds (/proc/PID/stat). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the line, in clock ticks (USER_HZ, 100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function readStatus(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return "";
  }
}

/** Every process below `rootPid`, the root included, as [pid, depth]. */
function processTree(rootPid: number): [number, number][] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree: [number, number][] = [];
  const walk = (pid: number, depth: number) => {
    tree.push([pid, depth]);
    for (const child of children.get(pid) ?? []) walk(child, depth + 1);
  };
  walk(rootPid, 0);
  return tree;
}

const isNode = (pid: number) => {
  try {
    return /\/node$/.test(fs.readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return false;
  }
};

/**
 * The process that serves: the deepest Node process in the tree (`npm start` runs it under npm and a shell; a
 * command under tsx runs under tsx's own launcher, a second Node process).
 */
export function serverPid(rootPid: number): number | null {
  let found: [number, number] | null = null;
  for (const [pid, depth] of processTree(rootPid)) if (isNode(pid) && (!found || depth > found[1])) found = [pid, depth];
  return found?.[0] ?? null;
}

/** Resident memory of every Node process in the tree together (the server and any launcher kept alive beside it). */
export function treeRssMb(rootPid: number): number {
  return processTree(rootPid)
    .filter(([pid]) => isNode(pid))
    .reduce((sum, [pid]) => sum + (readMemory(pid)?.rssMb ?? 0), 0);
}

/**
 * Stops a child started with `detached: true` (its own process group) and waits until the server process itself is
 * gone (npm may exit before it).
 */
export async function stopServer(child: ChildProcess, pid?: number): Promise<void> {
  await stopGroup(child);
  const alive = () => pid !== undefined && fs.existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readStatus(pid));
  for (let i = 0; i < 150 && alive(); i += 1) await sleep(100);
  if (alive()) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
    for (let i = 0; i < 50 && alive(); i += 1) await sleep(100);
  }
}

function stopGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      resolve();
    }
  });
}
