import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "#server/db/client.ts";
import { createSession, findSessionUser } from "#server/domain/accounts/sessions.ts";
import { pickerCampaignsAfter } from "#server/domain/donations/picker.ts";
import { givePaymentAccounts, makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * The statements every request runs are named on PostgreSQL (decision 037, session 21). These hold that a named
 * statement PostgreSQL cannot run as the connection prepared it never fails a request (decision 037, session 23): one
 * planned before a migration changed a column's type, one a pooler's server connection does not hold, and the whole
 * app's statements behind Debian's PgBouncer (1.18) in transaction mode, which keeps no names. PostgreSQL only: the
 * embedded database names nothing.
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

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe.runIf(onPostgres)("behind PgBouncer 1.18 in transaction mode, which keeps no named statements", () => {
  let pgbouncer: ChildProcess | undefined;
  let output = "";
  afterAll(() => {
    pgbouncer?.kill("SIGTERM");
  });

  it("answers every lookup and page of cards, and the server is told once that names are not kept", async () => {
    const direct = new URL(s.databaseUrl!);
    const port = await freePort();
    // PgBouncer will not run as root; the test machine's PostgreSQL user runs it then, so its files are readable.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-pgbouncer-"));
    fs.chmodSync(dir, 0o755);
    const config = path.join(dir, "pgbouncer.ini");
    const server = `host=${direct.hostname} port=${direct.port || 5432} user=${decodeURIComponent(direct.username)} password=${decodeURIComponent(direct.password)}`;
    fs.writeFileSync(
      config,
      [
        "[databases]",
        `* = ${server}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${port}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${path.join(dir, "users.txt")}`,
        "pool_mode = transaction",
        // Fewer server connections than the app's pool: every transaction may land on another one.
        "default_pool_size = 4",
        "max_client_conn = 100",
      ].join("\n"),
    );
    fs.writeFileSync(path.join(dir, "users.txt"), `"${decodeURIComponent(direct.username)}" ""\n`);
    for (const f of ["pgbouncer.ini", "users.txt"]) fs.chmodSync(path.join(dir, f), 0o644);
    const binary = fs.existsSync("/usr/sbin/pgbouncer") ? "/usr/sbin/pgbouncer" : "pgbouncer";
    const asRoot = process.getuid?.() === 0;
    pgbouncer = spawn(asRoot ? "runuser" : binary, asRoot ? ["-u", "postgres", "--", binary, config] : [config], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    pgbouncer.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    pgbouncer.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    for (let i = 0; i < 100 && !output.includes("process up"); i++) await new Promise((r) => setTimeout(r, 50));
    expect(output, "PgBouncer started").toContain("process up");

    const through = new URL(direct);
    through.host = `127.0.0.1:${port}`;
    const { database, notKept } = await openAgain(through.toString(), direct.toString());
    try {
      const ngo = await makeUser(s.db, "ngo", { name: "Roshan Welfare" });
      await givePaymentAccounts(s.db, ngo.id);
      await makeCampaign(s.db, ngo.id, { title: "Clean water for Thar" });
      const donors = await Promise.all(Array.from({ length: 4 }, (_, i) => makeUser(s.db, "donor", { name: `Donor${i}` })));
      const tokens = await Promise.all(donors.map(async (d) => (await createSession(s.db, d.id)).token));
      // Ten requests at a time, forty each: the lookup and the page of cards, as /donate1 runs them.
      const failures: unknown[] = [];
      let answered = 0;
      await Promise.all(
        Array.from({ length: 10 }, async (_, n) => {
          for (let i = 0; i < 40; i++) {
            try {
              const user = await findSessionUser(database.db, tokens[(n + i) % tokens.length]!);
              expect(user?.displayName).toBe(`Donor${(n + i) % tokens.length}`);
              const page = await pickerCampaignsAfter(database.db, { kind: "cash", q: i % 2 ? "thar" : undefined });
              expect(page.rows.map((r) => r.title)).toContain("Clean water for Thar");
              answered += 1;
            } catch (err) {
              failures.push(err);
            }
          }
        }),
      );
      expect(failures).toEqual([]);
      expect(answered).toBe(400);
      expect(notKept).toHaveLength(1);
      expect(["26000", "42P05"]).toContain((notKept[0] as Error & { code?: string }).code);
    } finally {
      await database.close();
    }
  }, 60_000);
});
