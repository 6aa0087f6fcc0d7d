import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { signIn, withWholeApp, type TestApp } from "#tests/helpers/app.ts";
import { eq } from "drizzle-orm";
import { riderProfiles } from "#server/db/schema.ts";
import { givePaymentAccounts, makeCampaign, makeDonation, makePickup, makeUser } from "#tests/helpers/factories.ts";
import type { TestServices } from "#tests/helpers/services.ts";
import { notify } from "#server/domain/notifications/notifications.ts";

/**
 * How many queries a signed-in list page costs (decision 037): each is a round trip and Node's work to build it and
 * read its answer, on every page view. These fail when a page grows a query back.
 */
let s: TestServices;
let t: TestApp;

withWholeApp((app) => ({ s, t } = app));

/** The queries the database client was sent while `run` ran (PGlite's and pg's clients both take them as `query`). */
async function queriesDuring<T>(run: () => Promise<T>): Promise<{ value: T; queries: number }> {
  const client = (s.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const spy = vi.spyOn(client, "query");
  try {
    const value = await run();
    return { value, queries: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

describe("queries a signed-in page makes", () => {
  it("/donate1: the session with its unread count, and the page of campaigns with their NGOs: two", async () => {
    const tag = `q${randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const owner = await makeUser(s.db, "ngo", { name: `Owner ${tag}` });
    const later = await makeUser(s.db, "ngo", { name: `Zainab Trust ${tag}` });
    const earlier = await makeUser(s.db, "ngo", { name: `Alif Trust ${tag}` });
    await givePaymentAccounts(s.db, owner.id);
    await makeCampaign(s.db, owner.id, { title: `Water ${tag}`, partners: [later.id, earlier.id] });
    await makeCampaign(s.db, owner.id, { title: `Meals ${tag}` });
    const donor = await makeUser(s.db, "donor");
    await notify(s, { userId: donor.id, type: "accountRestored" });
    await notify(s, { userId: donor.id, type: "accountRestored" });
    const cookie = await signIn(s.db, donor.id);

    const { value: html, queries } = await queriesDuring(async () => {
      const res = await t.request(`/donate1?q=${tag}`, { cookie });
      expect(res.status).toBe(200);
      return res.text();
    });
    expect(queries).toBe(2);
    // What the queries were for is on the page: both campaigns, the joint one's owner first and then its partners by
    // name, and the sidebar's count of unread notifications.
    expect(html).toContain(`Water ${tag}`);
    expect(html).toContain(`Meals ${tag}`);
    const at = (name: string) => html.indexOf(`${name} ${tag}`);
    expect(at("Owner")).toBeGreaterThan(-1);
    expect(at("Owner")).toBeLessThan(at("Alif Trust"));
    expect(at("Alif Trust")).toBeLessThan(at("Zainab Trust"));
    expect(html).toContain("2 unread");
  });
  it("/donate1's next page by its cursor: two as well; an old ?page= link leads to the same search's first page", async () => {
    const tag = `q${randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const owner = await makeUser(s.db, "ngo");
    await givePaymentAccounts(s.db, owner.id);
    const base = Date.parse("2025-06-01T00:00:00Z");
    for (let i = 0; i < 7; i++) await makeCampaign(s.db, owner.id, { title: `Paged ${tag} ${i}`, createdAt: new Date(base + i * 60_000) });
    const cookie = await signIn(s.db, (await makeUser(s.db, "donor")).id);

    const first = await (await t.request(`/donate1?q=${tag}`, { cookie })).text();
    expect(first).toContain("7 campaigns");
    const next = /href="\/donate1\?q=[^"&]+&amp;after=([0-9a-f-]{36})#pick-heading"/.exec(first)?.[1];
    expect(next).toBeDefined();
    const { value: html, queries } = await queriesDuring(async () => {
      const res = await t.request(`/donate1?q=${tag}&after=${next}`, { cookie });
      expect(res.status).toBe(200);
      return res.text();
    });
    expect(queries).toBe(2);
    expect(html).toContain(`Paged ${tag} 0`);
    expect(html).not.toContain(`Paged ${tag} 1<`);

    for (const picker of ["/donate1", "/donate5"]) {
      const old = await t.request(`${picker}?q=${tag}&page=20`, { cookie });
      expect(old.status).toBe(302);
      expect(old.headers.get("location")).toBe(`${picker}?q=${tag}`);
    }
  });
  it("/campaigns/:id/analytics: the session, the campaign, one pass over its donations, its donors, its NGOs, its goods and its series: seven", async () => {
    const tag = `q${randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo", { name: `Partner ${tag}` });
    const campaign = await makeCampaign(s.db, owner.id, { title: `Analysed ${tag}`, partners: [partner.id] });
    const donor = await makeUser(s.db, "donor");
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 1234, method: "bank" });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", amount: 4321, recipientNgoId: partner.id });
    await makeDonation(s.db, campaign, donor.id, { status: "approved", kind: "in_kind", items: `Tents ${tag}` });
    const cookie = await signIn(s.db, owner.id);

    const { value: html, queries } = await queriesDuring(async () => {
      const res = await t.request(`/campaigns/${campaign.id}/analytics`, { cookie });
      expect(res.status).toBe(200);
      return res.text();
    });
    expect(queries).toBe(7);
    // What they were for is on the page: the campaign, both NGOs' money, the goods given.
    expect(html).toContain(`Analysed ${tag}`);
    expect(html).toContain(`Partner ${tag}`);
    expect(html).toContain("5,555");
    expect(html).toContain(`tents ${tag.toLowerCase()}`);
  });
  it("/rider_home: the session, the tab counts, the page with each distance from the rider's area, the area: four", async () => {
    const tag = `q${randomUUID().replace(/-/g, "").slice(0, 10)}`;
    const ngo = await makeUser(s.db, "ngo");
    const rider = await makeUser(s.db, "rider");
    // The rider's area in Karachi; the pick-up is in Lahore, about 1,030 km away.
    await s.db
      .update(riderProfiles)
      .set({ areaLabel: "Saddar, Karachi", areaLat: 24.8607, areaLng: 67.0011 })
      .where(eq(riderProfiles.userId, rider.id));
    const campaign = await makeCampaign(s.db, ngo.id);
    await makePickup(s.db, campaign, (await makeUser(s.db, "donor")).id, { items: `Quilts ${tag}`, riderId: rider.id, status: "assigned" });
    const cookie = await signIn(s.db, rider.id);

    const { value: html, queries } = await queriesDuring(async () => {
      const res = await t.request("/rider_home", { cookie });
      expect(res.status).toBe(200);
      return res.text();
    });
    expect(queries).toBe(4);
    expect(html).toContain(`Quilts ${tag}`);
    expect(html).toMatch(/1,0[23]\d km from your area/);
  });
});
