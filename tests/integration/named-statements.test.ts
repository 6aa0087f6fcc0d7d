import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { openDatabase, type Database } from "#server/db/client.ts";
import { guardNamedStatements } from "#server/db/named-statements.ts";
import { createSession, findSessionUser } from "#server/domain/accounts/sessions.ts";
import { pickerCampaignsAfter } from "#server/domain/donations/picker.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * The statements every request runs are named on PostgreSQL (decision 037, session 21). These hold that a named
 * statement PostgreSQL cannot run as the connection prepared it never fails a request (decision 037, session 23): one
 * planned before a migration changed a column's type, and one a pooler's server connection does not hold (behind a
 * real PgBouncer: pgbouncer.test.ts). PostgreSQL only: the embedded database names nothing.
 */
const onPostgres = process.env.TEST_DB === "postgres";

let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => {
  await s?.close();
});

/** The database of `s` opened once more, as a server opens it, with what it is told. */
async function openAgain(url = s.databaseUrl!, migrationUrl?: string): Promise<{ database: Database; notKept: Error[] }> {
  const notKept: Error[] = [];
  const database = await openDatabase({ url, migrationUrl, onNamedStatementsNotKept: (err) => notKept.push(err) });
  return { database, notKept };
}

async function preparedOnIdleConnection(database: Database): Promise<string[]> {
  const { rows } = await database.executeSql("select name from pg_prepared_statements order by name");
  return (rows as { name: string }[]).map((r) => r.name);
}

describe.runIf(onPostgres)("named statements PostgreSQL cannot run as prepared", () => {
  it("run again unnamed after a migration changed the type of a column they return, and no request fails", async () => {
    // A database of its own: the column's type changes.
    const own = await createTestServices();
    const { database, notKept } = await openAgain(own.databaseUrl);
    try {
      const donor = await makeUser(own.db, "donor", { name: "Sana" });
      const { token } = await createSession(own.db, donor.id);
      // Prepared on several of the pool's connections at once, as under load.
      const before = await Promise.all(Array.from({ length: 8 }, () => findSessionUser(database.db, token)));
      expect(before.map((u) => u?.displayName)).toEqual(Array(8).fill("Sana"));
      expect(database.poolUsage!().total).toBeGreaterThan(1);
      // text → varchar: the lookup's result type changes, and every statement planned before is refused once.
      await own.executeSql("alter table donor_profiles alter column first_name type varchar(200)");
      const after = await Promise.all(Array.from({ length: 8 }, () => findSessionUser(database.db, token)));
      expect(after.map((u) => u?.displayName)).toEqual(Array(8).fill("Sana"));
      // Planned anew, named: a changed plan is not a pooler that cannot keep names.
      expect(notKept).toEqual([]);
      await findSessionUser(database.db, token);
      expect((await preparedOnIdleConnection(database)).filter((n) => n.startsWith("session_user/"))).toHaveLength(1);
    } finally {
      await database.close();
      await own.close();
    }
  });

  it("run unnamed when the connection does not hold them, and every statement after that too", async () => {
    const { database, notKept } = await openAgain();
    try {
      const donor = await makeUser(s.db, "donor", { name: "Bilal" });
      const { token } = await createSession(s.db, donor.id);
      // One at a time: the pool has one connection, which prepares the lookup.
      expect((await findSessionUser(database.db, token))?.displayName).toBe("Bilal");
      expect(database.poolUsage!().total).toBe(1);
      expect(await preparedOnIdleConnection(database)).toEqual([expect.stringMatching(/^session_user\//)]);
      // As a pooler's other server connection would be: the statement is not there.
      await database.executeSql("deallocate all");
      expect((await findSessionUser(database.db, token))?.displayName).toBe("Bilal");
      expect(notKept.map((err) => (err as Error & { code?: string }).code)).toEqual(["26000"]);
      // From then on nothing is named: the lookup and the picker leave no statement on the connection.
      expect((await findSessionUser(database.db, token))?.displayName).toBe("Bilal");
      await pickerCampaignsAfter(database.db, { kind: "cash" });
      expect(await preparedOnIdleConnection(database)).toEqual([]);
      expect(notKept).toHaveLength(1);
    } finally {
      await database.close();
    }
  });

  it("still fail when they fail for a reason of their own", async () => {
    const { database, notKept } = await openAgain();
    try {
      const failing = { name: "not/a-statement", text: "select 1/0" };
      await expect(database.executeSql("select 1/0")).rejects.toThrow(/division by zero/);
      const pool = (database.db as unknown as { $client: { query: (config: object) => Promise<unknown> } }).$client;
      await expect(pool.query(failing)).rejects.toThrow(/division by zero/);
      expect(notKept).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe("the guard on a pool's queries", () => {
  /** A pool whose query records what it was given and fails the first named one as a pooler would (26000). */
  function fakePool() {
    const given: unknown[] = [];
    let failed = false;
    const pool = {
      query: (config: unknown) => {
        given.push(config);
        if (!failed && (config as { name?: string }).name && !(config as { submit?: unknown }).submit) {
          failed = true;
          return Promise.reject(Object.assign(new Error("prepared statement does not exist"), { code: "26000" }));
        }
        return Promise.resolve({ rows: [] });
      },
    };
    return { pool: pool as unknown as pg.Pool, given };
  }

  it("passes a submittable (a cursor) through as the same object, its methods intact, even once names are off", async () => {
    const { pool, given } = fakePool();
    const told: Error[] = [];
    guardNamedStatements(pool, (err) => told.push(err));
    const cursor = { name: "cursor/x", text: "select 1", submit: () => {}, handleRowDescription: () => {} };
    await pool.query(cursor as never);
    expect(given[0]).toBe(cursor);
    // A named statement the "pooler" does not hold: run again unnamed, told once, names off from then on.
    await pool.query({ name: "lookup/x", text: "select 2" } as never);
    expect(told).toHaveLength(1);
    expect((given[2] as { name?: string }).name).toBeUndefined();
    await pool.query(cursor as never);
    expect(given[3]).toBe(cursor);
    await pool.query({ name: "lookup/x", text: "select 2" } as never);
    expect((given[4] as { name?: string }).name).toBeUndefined();
  });
});
