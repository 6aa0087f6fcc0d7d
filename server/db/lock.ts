import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

export class DatabaseLockedError extends Error {}

/**
 * Node has no flock(2), but a flock lock belongs to the open file description, not the process: a short-lived
 * child that locks a descriptor it inherited from us leaves the lock held by our copy of that descriptor.
 * The kernel drops it when our last copy closes, which includes any death (kill -9, OOM), and a pid reused
 * in a new PID namespace or not yet reaped cannot hold it. util-linux (and busybox) `flock` on Linux, perl
 * (whose flock is flock(2)) where that is missing, as on macOS.
 */
const LOCKERS: { command: string; args: string[] }[] = [
  { command: "flock", args: ["-x", "-n", "3"] },
  {
    command: "perl",
    args: ["-e", 'use Fcntl qw(:flock); open(my $fh, "+<&=", 3) or exit 2; flock($fh, LOCK_EX | LOCK_NB) or exit 1; exit 0'],
  },
];
const HELD = 1;
/** A process killed a moment ago may still be closing its files; give it this long before refusing. */
const EXIT_GRACE_MS = 500;
const RETRY_MS = 50;

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Tries each locker once: true when locked, false when another holder has it, null when no locker could run. */
function tryLock(fd: number): boolean | null {
  for (const { command, args } of LOCKERS) {
    const result = spawnSync(command, args, { stdio: ["ignore", "ignore", "ignore", fd], timeout: 10_000 });
    if (result.status === 0) return true;
    if (result.status === HELD) return false;
    // Not installed (ENOENT) or it does not understand us: try the next one.
  }
  return null;
}

function describeOwner(lockPath: string): string {
  try {
    const [pid, host] = fs.readFileSync(lockPath, "utf8").trim().split(/\s+/);
    if (pid && /^\d+$/.test(pid)) return host ? ` (pid ${pid} on ${host})` : ` (pid ${pid})`;
  } catch {
    /* unreadable: say nothing about the owner */
  }
  return "";
}

/**
 * PGlite lets only one process use a data directory and does not lock it itself. Takes an exclusive flock on
 * `lockPath` that the operating system releases when this process ends, however it ends. The file is never
 * deleted (deleting a lock file lets two processes lock two different files); its text (pid and host of the
 * holder) is only for the message.
 */
export function acquireDirectoryLock(lockPath: string): () => void {
  const fd = fs.openSync(lockPath, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    fs.closeSync(fd);
  };
  try {
    const deadline = Date.now() + EXIT_GRACE_MS;
    let locked = tryLock(fd);
    while (locked === false && Date.now() < deadline) {
      sleep(RETRY_MS);
      locked = tryLock(fd);
    }
    if (locked === false) {
      throw new DatabaseLockedError(
        `The embedded database in ${lockPath.replace(/pglite\.lock$/, "")} is in use by another Ek Chhat process${describeOwner(lockPath)}. ` +
          "Stop that process first, or set DATA_DIR to another folder.",
      );
    }
    if (locked === null) {
      process.emitWarning(
        `Could not lock ${lockPath}: neither the flock command nor perl is available. ` +
          "Make sure only one Ek Chhat process uses this data directory, or install util-linux (flock).",
      );
    }
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, `${process.pid} ${os.hostname()}\n`, 0);
  } catch (err) {
    release();
    throw err;
  }
  return release;
}
