import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The lock does not depend on the database the other tests run on: run these once, in the pglite project.
const onPostgres = process.env.TEST_DB === "postgres";
const script = path.resolve("tests/helpers/lock-child.ts");
const nodeArgs = ["--import", "tsx", script];

/** Temporary folders and child processes of one test, cleaned up when it finishes (tests run concurrently). */
function workspace(onTestFinished: (fn: () => void) => void) {
  const children: ChildProcess[] = [];
  const pids: number[] = [];
  const dirs: string[] = [];
  onTestFinished(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* already gone */
      }
    }
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  function tempDir() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-lock-"));
    dirs.push(dir);
    return dir;
  }

  /** Starts a command and resolves with the first line it prints (or fails with what it said before exiting). */
  function start(command: string, args: string[]): Promise<{ child: ChildProcess; line: string }> {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = "";
      let err = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const newline = out.indexOf("\n");
        if (newline >= 0) resolve({ child, line: out.slice(0, newline) });
      });
      child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.on("error", reject);
      child.on("exit", (code, signal) => reject(new Error(`${command} exited (${code ?? signal}) before a line: ${out}${err}`)));
    });
  }

  const startNode = (...args: string[]) => start(process.execPath, [...nodeArgs, ...args]);
  /** Kills a process that is not our child (a grandchild) when the test ends, if it is still there. */
  const reap = (pid: number) => pids.push(pid);
  return { tempDir, start, startNode, reap };
}

function exited(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

describe.concurrent("embedded database lock across processes", { skip: onPostgres }, () => {
  it("refuses a second process while the first holds the lock", async ({ onTestFinished }) => {
    const { tempDir, startNode } = workspace(onTestFinished);
    const lock = path.join(tempDir(), "pglite.lock");
    const first = await startNode("lock", lock);
    expect(first.line).toBe("locked");
    const second = await startNode("lock", lock);
    expect(second.line).toMatch(/^refused .*in use by another Ek Chhat process \(pid \d+/);
    await exited(second.child);
    expect(second.child.exitCode).toBe(3);
  });

  it("lets a new process take the lock at once after kill -9 of the holder, even before the holder is reaped", async ({
    onTestFinished,
  }) => {
    const { tempDir, start, startNode, reap } = workspace(onTestFinished);
    const lock = path.join(tempDir(), "pglite.lock");
    // The holder's parent execs `sleep`, which never reaps it: once killed, it stays a zombie whose pid is
    // still in use, like a crashed process its supervisor has not waited for yet.
    const parent = await start("sh", ["-c", `"$0" "$@" & echo $!; exec sleep 30`, process.execPath, ...nodeArgs, "lock", lock]);
    const holderPid = Number(parent.line);
    reap(holderPid);
    await expect
      .poll(() => fs.existsSync(lock) && /^\d+\b/.exec(fs.readFileSync(lock, "utf8"))?.[0] === String(holderPid), { timeout: 10_000 })
      .toBe(true);
    process.kill(holderPid, "SIGKILL");
    const startedAt = Date.now();
    const next = await startNode("lock", lock);
    expect(next.line).toBe("locked");
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(fs.readFileSync(`/proc/${holderPid}/stat`, "utf8")).toMatch(/\) Z /);
  });

  const canUnshare =
    process.platform === "linux" &&
    process.getuid?.() === 0 &&
    spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"]).status === 0;

  it.skipIf(!canUnshare)(
    "restarts the embedded database after kill -9 in a fresh PID namespace, with its data (needs root and unshare)",
    { timeout: 60_000 },
    async ({ onTestFinished }) => {
      const { tempDir, start } = workspace(onTestFinished);
      const dataDir = tempDir();
      const run = (value: string) =>
        // --kill-child: the database dies with unshare, which is what the test ends by killing.
        start("unshare", ["--pid", "--fork", "--kill-child", "--mount-proc", process.execPath, ...nodeArgs, "db", dataDir, value]);

      const first = await run("before-crash");
      expect(first.line).toBe("ready before-crash");
      expect(fs.readFileSync(path.join(dataDir, "pglite.lock"), "utf8")).toMatch(/^1\b/);
      // Kill the database process itself (pid 1 of its namespace), as a container runtime would.
      const inner = fs
        .readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry))
        .find((pid) => {
          try {
            return /^PPid:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] === String(first.child.pid);
          } catch {
            return false;
          }
        });
      expect(inner).toBeDefined();
      process.kill(Number(inner), "SIGKILL");
      await exited(first.child);

      const second = await run("after-restart");
      expect(second.line).toBe("ready after-restart,before-crash");
    },
  );
});
