import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { formatRupees } from "#shared/money.ts";
import { isolateForeign } from "#shared/text.ts";
import { mailOutbox, notifications, users } from "#server/db/schema.ts";
import { createSession, findSessionUser, SESSION_COOKIE, type SessionUser } from "#server/domain/accounts/sessions.ts";
import { accept } from "#server/domain/admin/vetting.ts";
import { decideCashDonation } from "#server/domain/donations/cash.ts";
import { countUnread, listNotifications, mailUser, markAllRead, notify } from "#server/domain/notifications/notifications.ts";
import { createApp } from "#server/http/app.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { asSessionUser, makeCampaign, makeCashDonation, makeUser } from "#tests/helpers/factories.ts";
import { makeOlder } from "#tests/helpers/time.ts";

describe("notifications", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("stores an in-app notification and, when asked, emails the user", async () => {
    const u = await makeUser(s.db, "donor");
    await notify(s, { userId: u.id, type: "accountRestored", link: "/donor_home" });
    expect(await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, u.email))).toHaveLength(0);
    await notify(s, {
      userId: u.id,
      type: "accountAccepted",
      params: { name: "Ali" },
      email: { subject: "mail:restored.subject", body: "mail:restored.body", params: { name: "Ali", signInUrl: "http://x/donor_signin" } },
    });
    const mail = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, u.email));
    expect(mail).toMatchObject([{ subject: "Your Ek Chhat account was restored", status: "kept" }]);
    expect(mail[0]!.body).toMatch(/^Hello Ali,\n/);
    expect(mail[0]!.body).toContain("http://x/donor_signin");
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
    // The session's lookup counts the badge in its own query, by the same rule: each their own, read ones left out.
    const sessionOf = async (id: string) => (await findSessionUser(s.db, (await createSession(s.db, id)).token))!;
    expect((await sessionOf(a.id)).unreadNotifications).toBe(0);
    expect((await sessionOf(b.id)).unreadNotifications).toBe(2);
  });

  it("pages a long list, newest first", async () => {
    const u = await makeUser(s.db, "donor");
    for (let i = 0; i < 13; i++) await notify(s, { userId: u.id, type: "accountRestored", params: { n: String(i) } });
    // The thirteen are a minute old when the latest arrives, so "newest first" has one answer.
    await makeOlder(s.db, notifications, notifications.createdAt, eq(notifications.userId, u.id), 60);
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

describe("emails in the recipient's language", () => {
  let s: TestServices;
  let admin: SessionUser;
  beforeAll(async () => {
    s = await createTestServices();
    const a = await makeUser(s.db, "admin");
    admin = { ...asSessionUser(a, "admin"), displayName: a.email };
  });
  afterAll(async () => s.close());

  const mailTo = (email: string) =>
    s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(asc(mailOutbox.createdAt));
  const languageOf = async (id: string) =>
    (await s.db.select({ language: users.language }).from(users).where(eq(users.id, id)))[0]!.language;

  it("writes a decision to an Urdu donor in Urdu and to an English donor in English, whoever decides", async () => {
    const ngo = await makeUser(s.db, "ngo", { name: "Roshni Trust" });
    const campaign = await makeCampaign(s.db, ngo.id);
    const urdu = await makeUser(s.db, "donor", { language: "ur", name: "Ayesha" });
    const english = await makeUser(s.db, "donor", { name: "Bilal" });
    expect(await languageOf(english.id)).toBe("en");
    for (const donor of [urdu, english]) {
      const d = await makeCashDonation(s, campaign, donor.id, { amount: 2_500 });
      await decideCashDonation(s, { id: ngo.id, role: "ngo" }, { donationId: d.id, approve: true });
    }
    const amount = formatRupees(2_500);
    const [ur] = await mailTo(urdu.email);
    // English and Latin values in an Urdu sentence are isolated, so they keep their order (decision 040).
    expect(ur!.subject).toBe(`آپ کا ${isolateForeign(amount, "rtl")} کا عطیہ منظور ہو گیا`);
    expect(ur!.body).toMatch(/^السلام علیکم \u2068Ayesha\u2069،\n/);
    expect(ur!.body).toContain(`“${isolateForeign(campaign.title, "rtl")}”`);
    expect(ur!.body).toContain(`${s.config.APP_URL}/dvh`);
    const [en] = await mailTo(english.email);
    expect(en!.subject).toBe(`Your donation of ${amount} was approved`);
    expect(en!.body).toMatch(/^Hello Bilal,\n\nRoshni Trust has confirmed your donation/);
  });

  it("puts a translated value (the account's role) in the recipient's language too", async () => {
    const rider = await makeUser(s.db, "rider", { verification: "pending", language: "ur" });
    await accept(s, admin, rider.id);
    const [mail] = await mailTo(rider.email);
    expect(mail!.subject).toBe("ایک چھت پر آپ کا سائن اپ قبول ہو گیا");
    expect(mail!.body).toContain("آپ کے رائیڈر اکاؤنٹ کی تصدیق ہو گئی ہے");
    const ngo = await makeUser(s.db, "ngo", { verification: "pending" });
    await accept(s, admin, ngo.id);
    expect((await mailTo(ngo.email))[0]!.body).toContain("your NGO account on Ek Chhat has been verified");
  });

  it("sends nothing for an account that does not exist", async () => {
    const before = (await s.db.select().from(mailOutbox)).length;
    await mailUser(s, "00000000-0000-4000-8000-000000000000", { subject: "mail:restored.subject", body: "mail:restored.body" });
    expect(await s.db.select().from(mailOutbox)).toHaveLength(before);
  });

  describe("the language switch", () => {
    function app() {
      return createApp({
        services: s,
        build: () => Promise.reject(new Error("React Router is not part of this test")) as Promise<ServerBuild>,
        mode: "production",
      });
    }
    const switchTo = (lang: string, cookie?: string) =>
      app().request("/language", {
        method: "POST",
        headers: {
          origin: s.config.APP_URL,
          "content-type": "application/x-www-form-urlencoded",
          ...(cookie ? { cookie } : {}),
        },
        body: new URLSearchParams({ lang, redirectTo: "/donor_home" }).toString(),
      });

    it("remembers a signed-in account's choice, and later emails follow it", async () => {
      const donor = await makeUser(s.db, "donor");
      const cookie = `${SESSION_COOKIE}=${(await createSession(s.db, donor.id)).token}`;
      const res = await switchTo("ur", cookie);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/donor_home");
      expect(res.headers.get("set-cookie")).toMatch(/^ekc_lang=ur;/);
      expect(await languageOf(donor.id)).toBe("ur");
      await notify(s, {
        userId: donor.id,
        type: "accountRestored",
        email: { subject: "mail:restored.subject", body: "mail:restored.body", params: { name: "Zara", signInUrl: "http://x" } },
      });
      expect((await mailTo(donor.email))[0]!.subject).toBe("ایک چھت پر آپ کا اکاؤنٹ بحال کر دیا گیا");

      await switchTo("en", cookie);
      expect(await languageOf(donor.id)).toBe("en");
    });

    it("changes no account for a visitor who is not signed in, or with a made-up session", async () => {
      const donor = await makeUser(s.db, "donor");
      expect((await switchTo("ur")).status).toBe(303);
      expect((await switchTo("ur", `${SESSION_COOKIE}=made-up`)).status).toBe(303);
      expect(await languageOf(donor.id)).toBe("en");
    });
  });
});
