import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { openDatabase, type Database } from "#server/db/client.ts";
import { createSession, findSessionUser } from "#server/domain/accounts/sessions.ts";
import { pickerCampaignsAfter } from "#server/domain/donations/picker.ts";
import type { JobTry } from "#server/jobs/queue.ts";
import { givePaymentAccounts, makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { startPgBouncer, type TestPgBouncer } from "#tests/helpers/pgbouncer.ts";
import { openTestQueue, until } from "#tests/helpers/queue.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * The app behind Debian's PgBouncer 1.18 in transaction mode, as docs/deployment.md describes a deployment of several
 * servers: the statements every request runs, left named (the default), and the job queue. PgBouncer 1.18 keeps no
 * named statements (decision 037, session 23). PostgreSQL only.
 */
const onPostgres = process.env.TEST_DB === "postgres";

describe.runIf(onPostgres)("behind PgBouncer 1.18 in transaction mode", () => {
  let s: TestServices;
  let pgbouncer: TestPgBouncer;
  let database: Database;
  const notKept: Error[] = [];
  beforeAll(async () => {
    s = await createTestServices();
    pgbouncer = await startPgBouncer(s.databaseUrl!);
    // As a server behind it opens the database: requests through PgBouncer, migrations straight to PostgreSQL.
    database = await openDatabase({
      url: pgbouncer.url,
      migrationUrl: s.databaseUrl,
      onNamedStatementsNotKept: (err) => notKept.push(err),
    });
  });
  afterAll(async () => {
    await database?.close();
    pgbouncer?.stop();
    await s?.close();
  });

  it("answers every session lookup and page of cards, and the server is told once that names are not kept", async () => {
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
  }, 60_000);

  it("runs the job queue: its schema made, a job queued in the transaction of its change and worked once", async () => {
    const queue = await openTestQueue({ executeSql: database.executeSql, log: s.log });
    try {
      const worked: JobTry<"update-mail">[] = [];
      await queue.work("update-mail", async (job) => {
        worked.push(job);
      });
      const ids = Array.from({ length: 5 }, () => randomUUID());
      for (const id of ids) await database.db.transaction((tx) => queue.send(tx, "update-mail", { updateId: id }, { id }));
      // Sent again: one job of that id.
      await queue.send(database.db, "update-mail", { updateId: ids[0]! }, { id: ids[0]! });
      const states = await until(
        () => queue.states("update-mail", ids),
        (m) => ids.every((id) => m.get(id) === "completed"),
      );
      expect([...states.values()]).toEqual(Array(5).fill("completed"));
      expect(worked.map((j) => j.data.updateId).sort()).toEqual([...ids].sort());
    } finally {
      await queue.stop(2_000);
    }
  }, 60_000);
});
