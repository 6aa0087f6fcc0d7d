import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Db } from "#server/db/client.ts";
import { campaigns, ngoProfiles } from "#server/db/schema.ts";
import { forgetSharedReads, SHARED_READ_SECONDS, sharedRead } from "#server/db/shared-reads.ts";
import { signIn, withWholeApp, type TestApp } from "#tests/helpers/app.ts";
import { givePaymentAccounts, makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import type { TestServices } from "#tests/helpers/services.ts";
import { LANG_COOKIE } from "#shared/i18n/i18n.ts";

/** A stand-in database: the shared reads only use it to tell one database's reads from another's. */
const someDb = () => ({}) as Db;

/** A read that counts its runs and gives what `value` says at the time, or waits for `gate` first. */
function counted<T>(value: () => T, gate?: Promise<void>) {
  const read = { runs: 0, load: async () => (read.runs++, await gate, value()) };
  return read;
}

describe("a shared read", () => {
  it("is read once for every request of its few seconds, then again", async () => {
    const db = someDb();
    let n = 1;
    const read = counted(() => ({ n }));
    expect(await sharedRead(db, "partners", read.load, 1_000)).toEqual({ n: 1 });
    n = 2;
    expect(await sharedRead(db, "partners", read.load, 1_000 + SHARED_READ_SECONDS * 1000 - 1)).toEqual({ n: 1 });
    expect(read.runs).toBe(1);
    expect(await sharedRead(db, "partners", read.load, 1_000 + SHARED_READ_SECONDS * 1000)).toEqual({ n: 2 });
    expect(read.runs).toBe(2);
    // A clock that went back (another process's idea of now) never stretches what is kept.
    expect(await sharedRead(db, "partners", read.load, 500)).toEqual({ n: 2 });
    expect(read.runs).toBe(3);
  });

  it("is one read for requests that come while it runs, and kept per name and per database", async () => {
    const db = someDb();
    let open!: () => void;
    const read = counted(() => ["card"], new Promise<void>((resolve) => (open = resolve)));
    const waiting = Array.from({ length: 5 }, () => sharedRead(db, "browse:en", read.load, 10));
    open();
    const got = await Promise.all(waiting);
    expect(read.runs).toBe(1);
    for (const g of got) expect(g).toBe(got[0]);
    await sharedRead(db, "browse:ur", read.load, 10);
    await sharedRead(someDb(), "browse:en", read.load, 10);
    expect(read.runs).toBe(3);
  });

  it("is not kept when it fails", async () => {
    const db = someDb();
    let fail = true;
    const read = counted(() => {
      if (fail) throw new Error("the database went away");
      return "ok";
    });
    await expect(sharedRead(db, "partners", read.load, 10)).rejects.toThrow("went away");
    fail = false;
    expect(await sharedRead(db, "partners", read.load, 11)).toBe("ok");
    expect(read.runs).toBe(2);
  });

  it("is forgotten at once after a change, a read still running then included", async () => {
    const db = someDb();
    let n = 1;
    let open!: () => void;
    const slow = counted(() => ({ n }), new Promise<void>((resolve) => (open = resolve)));
    const before = sharedRead(db, "picker:cash:en", slow.load, 10);
    forgetSharedReads(db);
    n = 2;
    const fresh = counted(() => ({ n }));
    expect(await sharedRead(db, "picker:cash:en", fresh.load, 11)).toEqual({ n: 2 });
    open();
    expect(await before).toEqual({ n: 2 });
    // What the slow read found once it finished was not kept in place of the fresh one.
    expect(await sharedRead(db, "picker:cash:en", counted(() => ({ n: 3 })).load, 12)).toEqual({ n: 2 });
    expect(fresh.runs).toBe(1);
    forgetSharedReads(someDb()); // another database's: nothing of this one's forgotten
    expect(await sharedRead(db, "picker:cash:en", counted(() => ({ n: 4 })).load, 13)).toEqual({ n: 2 });
  });

  it("is frozen all the way down: no request can change what the next is shown", async () => {
    const db = someDb();
    const value = await sharedRead(db, "partners", async () => ({ rows: [{ title: "Wells" }] }), 10);
    expect(() => value.rows.push({ title: "Forged" })).toThrow(TypeError);
    expect(() => {
      value.rows[0]!.title = "Forged";
    }).toThrow(TypeError);
    expect((await sharedRead(db, "partners", async () => ({ rows: [] }), 11)).rows).toEqual([{ title: "Wells" }]);
  });

  it("keeps bytes it cannot freeze as they are, rather than fail the read", async () => {
    const value = await sharedRead(someDb(), "partners", async () => ({ logo: Buffer.from("png"), rows: [{ n: 1 }] }), 10);
    expect(value.logo.toString()).toBe("png");
    expect(Object.isFrozen(value.rows[0])).toBe(true);
  });
});

/**
 * The pages that share them (decision 054): a donor's first page of campaigns and the landing page's, read once for a
 * few seconds; a search or a later page read for each request; a change made through the server shown at once.
 */
describe("the pages that share reads", () => {
  let s: TestServices;
  let t: TestApp;
  withWholeApp((app) => ({ s, t } = app), 60_000);

  const html = async (path: string, cookie?: string) => {
    const res = await t.request(path, { cookie });
    expect(res.status).toBe(200);
    return res.text();
  };
  /** A state-changing request of any kind, as a browser sends one: here the language switch. */
  const anyChange = async () => {
    const res = await t.request("/language", { method: "POST", body: new URLSearchParams({ lang: "en", redirectTo: "/" }) });
    expect(res.status).toBe(303);
  };

  it("show the donor's first page and the landing page as read a moment ago, until a change through the server", async () => {
    const ngo = await makeUser(s.db, "ngo", { name: "Roshni Shared Trust" });
    await givePaymentAccounts(s.db, ngo.id);
    const campaign = await makeCampaign(s.db, ngo.id, { title: "Wells for Tharparkar" });
    const donor = await signIn(s.db, (await makeUser(s.db, "donor")).id);
    await anyChange();
    expect(await html("/donate1", donor)).toContain("Wells for Tharparkar");
    expect(await html("/")).toContain("Wells for Tharparkar");
    expect(await html("/")).toContain("Roshni Shared Trust");

    // Changed behind the server's back (as another server would): the shared pages still show what they read...
    await s.db.update(campaigns).set({ title: "Clean water for Thar" }).where(eq(campaigns.id, campaign.id));
    await s.db.update(ngoProfiles).set({ name: "Roshni Renamed Trust" }).where(eq(ngoProfiles.userId, ngo.id));
    expect(await html("/donate1", donor)).toContain("Wells for Tharparkar");
    const landing = await html("/");
    expect(landing).toContain("Wells for Tharparkar");
    expect(landing).toContain("Roshni Shared Trust");
    // ...while a search, a filter and a chosen campaign are read for the request.
    expect(await html("/donate1?q=Clean+water", donor)).toContain("Clean water for Thar");
    expect(await html("/?q=Clean+water")).toContain("Clean water for Thar");
    expect(await html("/?cause=" + campaign.cause)).toContain("Clean water for Thar");
    expect(await html(`/donate1?campaign=${campaign.slug}`, donor)).toContain("Clean water for Thar");

    // Any change made through this server, and its next page shows what the database holds.
    await anyChange();
    expect(await html("/donate1", donor)).toContain("Clean water for Thar");
    const after = await html("/");
    expect(after).toContain("Clean water for Thar");
    expect(after).toContain("Roshni Renamed Trust");
    expect(after).not.toContain("Wells for Tharparkar");
  });

  it("are kept for each language apart", async () => {
    const ngo = await makeUser(s.db, "ngo");
    await givePaymentAccounts(s.db, ngo.id);
    await makeCampaign(s.db, ngo.id, { title: "Winter coats for Quetta" });
    await anyChange();
    const en = await html("/");
    const ur = await (await t.request("/", { headers: { cookie: `${LANG_COOKIE}=ur` } })).text();
    expect(en).toContain('lang="en"');
    expect(ur).toContain('lang="ur"');
    // The cards' words (their progress lines) in each reader's own language, whichever was read first.
    expect(en).toContain("raised of");
    expect(en).not.toContain("میں سے");
    expect(ur).toContain("میں سے");
    expect(ur).not.toContain("raised of");
    expect(ur).toContain("Winter coats for Quetta");
  });
});
