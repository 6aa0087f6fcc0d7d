import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#server/db/client.ts";
import { pickups, users } from "#server/db/schema.ts";
import { listAudit, recordAudit } from "#server/domain/audit/audit.ts";
import { assignRider, pickupForNgo, respondToAssignment } from "#server/domain/pickups/pickups.ts";
import { makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

const onPostgres = process.env.TEST_DB === "postgres";
const NO_WAITING = "PGlite has one connection, so no transaction there can wait on another's lock";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Runs `waiter` in a transaction that begins first but, once `holder` has locked what both need, has to wait for
 * it: the holder begins later and commits first. `lock` takes the lock both of them need.
 */
async function raceOnALock(
  s: TestServices,
  lock: (tx: Db) => Promise<unknown>,
  holder: (tx: Db) => Promise<void>,
  waiter: (tx: Db) => Promise<void>,
) {
  const begun = deferred();
  const go = deferred();
  const waiting = s.db.transaction(async (tx) => {
    begun.resolve();
    await go.promise;
    await waiter(tx as unknown as Db);
  });
  await begun.promise;
  await s.db.transaction(async (tx) => {
    await lock(tx as unknown as Db);
    go.resolve();
    await expect
      .poll(
        async () => {
          const [row] = await s.db
            .execute<{ n: number }>(
              sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            )
            .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
          return row!.n;
        },
        { timeout: 10_000, interval: 20 },
      )
      .toBe(1);
    await holder(tx as unknown as Db);
  });
  await waiting;
}

describe("the order of pick-up steps and audit entries", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  async function assignedPickup() {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const first = await makeUser(s.db, "rider", { name: "First" });
    const second = await makeUser(s.db, "rider", { name: "Second" });
    const campaign = await makeCampaign(s.db, ngo.id);
    const { donation } = await makePickup(s.db, campaign, donor.id);
    await assignRider(s, ngo, { donationId: donation.id, riderId: first.id, reassign: false });
    return { ngo, first, second, donationId: donation.id };
  }

  it.skipIf(!onPostgres)(
    `lists a reassignment that waited on the pick-up's lock after the accept that held it, by commit (${NO_WAITING})`,
    async () => {
      const { ngo, first, second, donationId } = await assignedPickup();
      await raceOnALock(
        s,
        (tx) => tx.select({ id: pickups.donationId }).from(pickups).where(eq(pickups.donationId, donationId)).for("update"),
        (tx) => respondToAssignment({ ...s, db: tx }, first, { donationId, accept: true }),
        (tx) => assignRider({ ...s, db: tx }, ngo, { donationId, riderId: second.id, reassign: true }),
      );
      const { status, events } = await pickupForNgo(s.db, ngo, donationId);
      expect(status).toBe("assigned");
      expect(events.map((e) => `${e.type}${e.riderName ? ` ${e.riderName}` : ""}`)).toEqual([
        "requested",
        "assigned First Rider",
        "accepted First Rider",
        "assigned Second Rider",
      ]);
      const times = events.map((e) => e.at.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
    },
  );

  it.skipIf(!onPostgres)(
    `lists an audit entry whose transaction waited on a lock after the one it waited for (${NO_WAITING})`,
    async () => {
      const target = await makeUser(s.db, "ngo");
      const lockTarget = (tx: Db) => tx.select({ id: users.id }).from(users).where(eq(users.id, target.id)).for("update");
      await raceOnALock(
        s,
        lockTarget,
        (tx) => recordAudit(tx, { actorId: null, action: "test.committedFirst", targetUserId: target.id }),
        async (tx) => {
          await lockTarget(tx);
          await recordAudit(tx, { actorId: null, action: "test.waited", targetUserId: target.id });
        },
      );
      const { rows } = await listAudit(s.db, 1);
      expect(rows.slice(0, 2).map((r) => r.action)).toEqual(["test.waited", "test.committedFirst"]);
      expect(rows[0]!.createdAt.getTime()).toBeGreaterThan(rows[1]!.createdAt.getTime());
    },
  );

  it("dates each step and entry when it was written, not when its transaction began", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const first = await makeUser(s.db, "rider");
    const { donation } = await makePickup(s.db, await makeCampaign(s.db, ngo.id), donor.id);
    const donationId = donation.id;
    await s.db.transaction(async (tx) => {
      // Everything in this one transaction, the mail outbox too (the mailer writes on the db it is given).
      const inTx = { ...s, db: tx as unknown as Db };
      await recordAudit(tx, { actorId: null, action: "test.before" });
      await assignRider(inTx, ngo, { donationId, riderId: first.id, reassign: false });
      await tx.execute(sql`SELECT pg_sleep(0.01)`);
      await respondToAssignment(inTx, first, { donationId, accept: true });
      await tx.execute(sql`SELECT pg_sleep(0.01)`);
      await recordAudit(tx, { actorId: null, action: "test.after" });
    });
    const { events } = await pickupForNgo(s.db, ngo, donationId);
    expect(events.map((e) => e.type)).toEqual(["requested", "assigned", "accepted"]);
    expect(events[2]!.at.getTime()).toBeGreaterThan(events[1]!.at.getTime());
    const { rows } = await listAudit(s.db, 1);
    const [after, before] = rows;
    expect([after!.action, before!.action]).toEqual(["test.after", "test.before"]);
    expect(after!.createdAt.getTime()).toBeGreaterThan(before!.createdAt.getTime());
  });
});
