import fs from "node:fs";

export class DatabaseLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite lets only one process use a data directory and does not lock it itself.
 * The lock file holds the owner's pid; a lock left by a process that has died is taken over.
 */
export function acquireDirectoryLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off("exit", release);
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.on("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10);
      if (Number.isInteger(owner) && isAlive(owner)) {
        throw new DatabaseLockedError(
          `The embedded database in ${lockPath.replace(/pglite\.lock$/, "")} is in use by another Ek Chhat process (pid ${owner}). ` +
            "Stop that process first, or set DATA_DIR to another folder.",
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DatabaseLockedError(`Could not lock ${lockPath}`);
}
