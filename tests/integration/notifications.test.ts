import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { mailOutbox } from "../../server/db/schema";
import { countUnread, listNotifications, markAllRead, notify } from "../../server/domain/notifications/notifications";
import { createTestServices, type TestServices } from "../helpers/services";
import { makeUser } from "../helpers/factories";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("notifications", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("stores an in-app notification and, when asked, emails the user", async () => {
    const u = await makeUser(s.db, "donor");
    await notify(s, { userId: u.id, type: "accountRestored", link: "/donor_home" });
    await sleep(5);
    expect(await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, u.email))).toHaveLength(0);
    await notify(s, {
      userId: u.id,
      type: "accountAccepted",
      params: { name: "Ali" },
      email: { subject: "Hello", body: "Body text" },
    });
    const mail = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, u.email));
    expect(mail).toMatchObject([{ subject: "Hello", body: "Body text", status: "kept" }]);
    const list = await listNotifications(s.db, u.id, 1);
    expect(list.total).toBe(2);
    // Newest first.
    expect(list.rows[0]).toMatchObject({ type: "accountAccepted", params: { name: "Ali" }, link: null, readAt: null });
    expect(list.rows[1]).toMatchObject({ type: "accountRestored", params: {}, link: "/donor_home" });
  });

  it("counts unread notifications and marks them all read", async () => {
    const u = await makeUser(s.db, "ngo");
    expect(await countUnread(s.db, u.id)).toBe(0);
    for (let i = 0; i < 3; i++) await notify(s, { userId: u.id, type: "accountRestored" });
    expect(await countUnread(s.db, u.id)).toBe(3);
    expect(await markAllRead(s.db, u.id)).toBe(3);
    expect(await countUnread(s.db, u.id)).toBe(0);
    const list = await listNotifications(s.db, u.id, 1);
    expect(list.rows.every((n) => n.readAt instanceof Date)).toBe(true);
    // Nothing left to mark; a new one is unread again.
    expect(await markAllRead(s.db, u.id)).toBe(0);
    await notify(s, { userId: u.id, type: "accountRestored" });
    expect(await countUnread(s.db, u.id)).toBe(1);
  });

  it("keeps each user's notifications to that user", async () => {
    const a = await makeUser(s.db, "donor");
    const b = await makeUser(s.db, "rider");
    await notify(s, { userId: a.id, type: "accountAccepted", params: { name: "A" } });
    await notify(s, { userId: b.id, type: "accountAccepted", params: { name: "B" } });
    await notify(s, { userId: b.id, type: "accountRestored" });
    const listA = await listNotifications(s.db, a.id, 1);
    expect(listA.rows.map((n) => n.userId)).toEqual([a.id]);
    expect(listA.rows[0]!.params).toEqual({ name: "A" });
    expect(await countUnread(s.db, a.id)).toBe(1);
    // A marking all read touches only their own.
    await markAllRead(s.db, a.id);
    expect(await countUnread(s.db, b.id)).toBe(2);
  });

  it("pages a long list, newest first", async () => {
    const u = await makeUser(s.db, "donor");
    for (let i = 0; i < 13; i++) await notify(s, { userId: u.id, type: "accountRestored", params: { n: String(i) } });
    await sleep(5);
    await notify(s, { userId: u.id, type: "accountRestored", params: { n: "latest" } });
    const one = await listNotifications(s.db, u.id, 1);
    const two = await listNotifications(s.db, u.id, 2);
    expect(one.rows).toHaveLength(10);
    expect(two.rows).toHaveLength(4);
    expect(one.pages).toBe(2);
    expect(one.rows[0]!.params).toEqual({ n: "latest" });
    // Rows written in the same millisecond have no order between them; across pages time never goes up.
    const all = [...one.rows, ...two.rows];
    expect(new Set(all.map((n) => n.id)).size).toBe(14);
    for (let i = 1; i < all.length; i++) expect(all[i]!.createdAt.getTime()).toBeLessThanOrEqual(all[i - 1]!.createdAt.getTime());
  });
});
