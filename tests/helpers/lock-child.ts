/**
 * A child process for tests/integration/db-lock.test.ts.
 *   lock <lockPath>          takes the directory lock, prints "locked", and waits to be killed
 *   db <dataDir> <value>     opens the embedded database there, stores <value>, prints "ready <every value stored>"
 * When the lock is held elsewhere it prints "refused <message>" and exits with 3.
 */
import { acquireDirectoryLock, DatabaseLockedError } from "#server/db/lock.ts";

const [mode, target, value] = process.argv.slice(2);

async function main() {
  if (mode === "lock") {
    acquireDirectoryLock(target!);
    console.log("locked");
  } else if (mode === "db") {
    // Loaded only here, so that the lock mode starts quickly.
    const { sql } = await import("drizzle-orm");
    const { openDatabase } = await import("#server/db/client.ts");
    const { db } = await openDatabase({ dataDir: target! });
    await db.execute(sql`CREATE TABLE IF NOT EXISTS crash_probe (value text NOT NULL)`);
    await db.execute(sql`INSERT INTO crash_probe (value) VALUES (${value!})`);
    const rows = (await db.execute(sql`SELECT value FROM crash_probe ORDER BY value`)) as unknown as
      { rows: { value: string }[] } | { value: string }[];
    const list = Array.isArray(rows) ? rows : rows.rows;
    console.log(`ready ${list.map((r) => r.value).join(",")}`);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  setInterval(() => {}, 60_000);
}

main().catch((err: unknown) => {
  if (err instanceof DatabaseLockedError) {
    console.log(`refused ${err.message}`);
    process.exit(3);
  }
  console.error(err);
  process.exit(1);
});
