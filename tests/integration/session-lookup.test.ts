import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { sessions, users } from "#server/db/schema.ts";
import { createSession, findSessionUser } from "#server/domain/accounts/sessions.ts";
import { notify } from "#server/domain/notifications/notifications.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeUser } from "#tests/helpers/factories.ts";

/**
 * The session's lookup is built once per database handle and run again with each token (decision 037, 2026-11-27):
 * each run answers for its own token, and what the lookup refuses (unknown, expired, suspended) it still refuses.
 */
let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s.close());

describe("findSessionUser", () => {
  it("answers each token with its own account, one after another and at once, and in a transaction", async () => {
    const donor = await makeUser(s.db, "donor", { name: "Ayesha Khan" });
    const ngo = await makeUser(s.db, "ngo", { name: "Roshni Trust" });
    await notify(s, { userId: ngo.id, type: "accountRestored" });
    const donorToken = (await createSession(s.db, donor.id)).token;
    const ngoToken = (await createSession(s.db, ngo.id)).token;

    expect(await findSessionUser(s.db, donorToken)).toMatchObject({
      id: donor.id,
      role: "donor",
      displayName: "Ayesha Khan",
      unreadNotifications: 0,
    });
    expect(await findSessionUser(s.db, ngoToken)).toMatchObject({
      id: ngo.id,
      role: "ngo",
      displayName: "Roshni Trust",
      unreadNotifications: 1,
    });
    const [a, b] = await Promise.all([findSessionUser(s.db, ngoToken), findSessionUser(s.db, donorToken)]);
    expect([a?.id, b?.id]).toEqual([ngo.id, donor.id]);
    const inTx = await s.db.transaction(async (tx) => [await findSessionUser(tx, donorToken), await findSessionUser(tx, ngoToken)]);
    expect(inTx.map((u) => u?.id)).toEqual([donor.id, ngo.id]);
  });

  it("refuses an unknown token, an expired session and a suspended account, between lookups that succeed", async () => {
    const donor = await makeUser(s.db, "donor");
    const expired = await makeUser(s.db, "donor");
    const suspended = await makeUser(s.db, "rider");
    const good = (await createSession(s.db, donor.id)).token;
    const old = (await createSession(s.db, expired.id)).token;
    const gone = (await createSession(s.db, suspended.id)).token;
    await s.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, expired.id));
    await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));

    expect((await findSessionUser(s.db, good))?.id).toBe(donor.id);
    expect(await findSessionUser(s.db, "no-such-token")).toBeNull();
    expect(await findSessionUser(s.db, old)).toBeNull();
    expect(await findSessionUser(s.db, gone)).toBeNull();
    expect((await findSessionUser(s.db, good))?.id).toBe(donor.id);
  });
});
