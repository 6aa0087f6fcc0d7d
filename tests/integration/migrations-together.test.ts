import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#server/db/client.ts";

// Servers that start together on one PostgreSQL database migrate it in turns (server/db/client.ts); the embedded
// database has one process by construction (its folder lock).
const onPostgres = process.env.TEST_DB === "postgres";

/** A new, empty PostgreSQL database for one test, dropped when it finishes; its address. */
async function emptyDatabase(onTestFinished: (fn: () => Promise<void>) => void): Promise<URL> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `ekc_test_${randomUUID().replace(/-/g, "")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  onTestFinished(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url;
}

describe.runIf(onPostgres)("several servers starting on one empty PostgreSQL database", () => {
  it("all migrate it, one after another, and all start", async ({ onTestFinished }) => {
    const url = await emptyDatabase(onTestFinished);

    // Without the lock, two of these ran the first migration at once and one stopped on "already exists".
    const opened = await Promise.allSettled([1, 2, 3, 4].map(() => openDatabase({ url: url.toString() })));
    for (const result of opened) if (result.status === "fulfilled") onTestFinished(() => result.value.close());
    expect(opened.map((r) => (r.status === "rejected" ? String(r.reason) : "opened"))).toEqual(["opened", "opened", "opened", "opened"]);

    // Each migration applied once.
    const [first] = opened;
    const { rows } = await (first as PromiseFulfilledResult<Awaited<ReturnType<typeof openDatabase>>>).value.executeSql(
      "select hash, count(*)::int as n from drizzle.__drizzle_migrations group by hash having count(*) > 1",
    );
    expect(rows).toEqual([]);
  });

  it("migrates where the migration address says, and serves on the other", async ({ onTestFinished }) => {
    const url = await emptyDatabase(onTestFinished);
    const wrong = new URL(url);
    wrong.pathname = "/ekc_no_such_database";
    // A migration address that cannot be reached stops the start, whatever DATABASE_URL is.
    await expect(openDatabase({ url: url.toString(), migrationUrl: wrong.toString() })).rejects.toThrow(/does not exist/);
    const database = await openDatabase({ url: url.toString(), migrationUrl: url.toString() });
    onTestFinished(() => database.close());
    const { rows } = await database.executeSql("select count(*)::int as n from users");
    expect(rows).toEqual([{ n: 0 }]);
    // The database's own setting (migration 0019), which reaches connections through PgBouncer too: no JIT.
    expect((await database.executeSql("show jit")).rows).toEqual([{ jit: "off" }]);
  });
});
