import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DONATE_PICKER_PAGE_SIZE, PICKER_COUNT_BOUND } from "#shared/constants.ts";
import { donorContactNumber, pickerCampaignsAfter } from "#server/domain/donations/picker.ts";
import { eq, sql } from "drizzle-orm";
import { campaignPartners, campaigns, ngoProfiles, users } from "#server/db/schema.ts";
import { publicCampaign } from "#server/domain/campaigns/public.ts";
import { donationTarget } from "#server/domain/donations/cash.ts";
import { goodsTarget } from "#server/domain/pickups/pickups.ts";
import { offlineGeocoder } from "#server/domain/places/geocoder.ts";
import { walkBack } from "#tests/helpers/keyset-walk.ts";
import { givePaymentAccounts, makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

let services: TestServices;
beforeAll(async () => {
  services = await createTestServices();
});
afterAll(async () => {
  await services?.close();
});

/** A word no other test's titles contain, so a search scopes the list to this test's campaigns. */
const token = () => `z${randomUUID().replace(/-/g, "").slice(0, 10)}`;

describe("the donor's campaign picker", () => {
  it("lists only active campaigns, newest first, six a page", async () => {
    const { db } = services;
    const ngo = await makeUser(db, "ngo");
    const tag = token();
    const base = Date.parse("2025-01-01T00:00:00Z");
    const active = [];
    for (let i = 0; i < 8; i += 1) {
      active.push(await makeCampaign(db, ngo.id, { title: `Relief ${tag} ${i}`, createdAt: new Date(base + i * 60_000) }));
    }
    await makeCampaign(db, ngo.id, {
      title: `Done ${tag}`,
      status: "completed",
      completedAt: new Date(),
      createdAt: new Date(base + 99 * 60_000),
    });
    await makeCampaign(db, ngo.id, {
      title: `Gone ${tag}`,
      status: "archived",
      archivedAt: new Date(),
      createdAt: new Date(base + 98 * 60_000),
    });

    expect(DONATE_PICKER_PAGE_SIZE).toBe(6);
    const first = await pickerCampaignsAfter(db, { q: tag, kind: "goods" });
    expect(first).toMatchObject({ total: 8, more: false, after: null });
    expect(first.rows.map((r) => r.title)).toEqual([7, 6, 5, 4, 3, 2].map((i) => `Relief ${tag} ${i}`));
    // The next page starts after the last card shown.
    expect(first.next).toBe(first.rows[5]!.id);
    const second = await pickerCampaignsAfter(db, { q: tag, kind: "goods", after: first.next });
    expect(second.rows.map((r) => r.title)).toEqual([`Relief ${tag} 1`, `Relief ${tag} 0`]);
    expect(second).toMatchObject({ total: 8, more: false, after: first.next, next: null });
    // The landing page reads them the same way (kind "browse", browse.server.ts): the same campaigns.
    const browsed = await pickerCampaignsAfter(db, { q: tag, kind: "browse", after: first.next });
    expect(browsed.rows.map((r) => r.id)).toEqual(second.rows.map((r) => r.id));

    const titles = [...first.rows, ...second.rows].map((r) => r.title);
    expect(titles).not.toContain(`Done ${tag}`);
    expect(titles).not.toContain(`Gone ${tag}`);
  });

  it("orders campaigns created at the same moment the same way on every page", async () => {
    const { db } = services;
    const ngo = await makeUser(db, "ngo");
    const tag = token();
    const at = new Date("2025-02-01T00:00:00Z");
    for (let i = 0; i < 9; i += 1) await makeCampaign(db, ngo.id, { title: `Same time ${tag} ${i}`, createdAt: at });
    const one = await pickerCampaignsAfter(db, { q: tag, kind: "goods" });
    const two = await pickerCampaignsAfter(db, { q: tag, kind: "goods", after: one.next });
    expect(two.next).toBeNull();
    const ids = [...one.rows, ...two.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(9);
    expect(ids).toEqual([...ids].sort().reverse());
  });

  it("searches titles case-insensitively and takes LIKE's wildcards literally", async () => {
    const { db } = services;
    const ngo = await makeUser(db, "ngo");
    const tag = token();
    const water = await makeCampaign(db, ngo.id, { title: `Clean WATER for Thar ${tag}` });
    const percent = await makeCampaign(db, ngo.id, { title: `100% meals ${tag}` });
    await makeCampaign(db, ngo.id, { title: `1000 meals ${tag}` });
    const underscore = await makeCampaign(db, ngo.id, { title: `a_b drive ${tag}` });
    await makeCampaign(db, ngo.id, { title: `axb drive ${tag}` });
    const backslash = await makeCampaign(db, ngo.id, { title: `back\\slash ${tag}` });

    const search = async (q: string) => (await pickerCampaignsAfter(db, { q, kind: "goods" })).rows.map((r) => r.id);
    expect(await search(`water for thar ${tag.toUpperCase()}`)).toEqual([water.id]);
    expect(await search(`   clean water for thar ${tag}   `)).toEqual([water.id]);
    expect(await search(`100% meals ${tag}`)).toEqual([percent.id]);
    expect(await search(`a_b drive ${tag}`)).toEqual([underscore.id]);
    expect(await search(`back\\slash ${tag}`)).toEqual([backslash.id]);
    expect(await search(`%${tag}`)).toEqual([]);
    expect(await search(`no such campaign ${tag}`)).toEqual([]);
  });

  it("finds words in the title, the place or an NGO's name, never the description, and narrows by cause and Zakat", async () => {
    const { db } = services;
    const tag = token();
    const owner = await makeUser(db, "ngo", { name: `Roshni ${tag} Trust` });
    const partner = await makeUser(db, "ngo", { name: `Saaya ${tag} Welfare` });
    const byTitle = await makeCampaign(db, owner.id, { title: `Wells ${tag}`, cause: "water" });
    const byPlace = await makeCampaign(db, (await makeUser(db, "ngo")).id, { locationLabel: `Mithi ${tag}, Tharparkar`, cause: "water" });
    const byPartner = await makeCampaign(db, (await makeUser(db, "ngo")).id, {
      partners: [partner.id],
      acceptedFunds: ["zakat", "general"],
      cause: "food",
    });
    await makeCampaign(db, (await makeUser(db, "ngo")).id, { title: `Plain title ${token()}`, description: `Described with ${tag}` });
    // A partner that left or was never accepted does not make the campaign theirs.
    const declined = await makeCampaign(db, (await makeUser(db, "ngo")).id, { partners: [partner.id] });
    await db.execute(sql`update campaign_partners set status = 'declined' where campaign_id = ${declined.id}`);

    const search = async (q: string, more: { cause?: "water" | "food"; zakatOnly?: boolean } = {}) =>
      (await pickerCampaignsAfter(db, { q, kind: "browse", ...more })).rows.map((r) => r.id).sort();
    expect(await search(tag)).toEqual([byTitle.id, byPlace.id, byPartner.id].sort());
    expect(await search(`mithi ${tag.toUpperCase()}`)).toEqual([byPlace.id]);
    expect(await search(`saaya ${tag}`)).toEqual([byPartner.id]);
    expect(await search(`roshni ${tag} trust`)).toEqual([byTitle.id]);
    expect(await search(tag, { cause: "water" })).toEqual([byTitle.id, byPlace.id].sort());
    expect(await search(tag, { zakatOnly: true })).toEqual([byPartner.id]);
    expect(await search(tag, { cause: "water", zakatOnly: true })).toEqual([]);
  });

  it("shows each campaign with its picture, progress and NGOs, the owner first", async () => {
    const { db } = services;
    const owner = await makeUser(db, "ngo", { name: `Owner ${token()}` });
    const partner = await makeUser(db, "ngo", { name: `Partner ${token()}` });
    const tag = token();
    const joint = await makeCampaign(db, owner.id, {
      title: `Joint ${tag}`,
      partners: [partner.id],
      collectedAmount: 2500,
      targetAmount: 10_000,
      acceptedFunds: ["zakat", "general"],
      pictureKey: "campaign/picture.webp",
    });
    const [row] = (await pickerCampaignsAfter(db, { q: tag, kind: "goods" })).rows;
    expect(row).toMatchObject({
      id: joint.id,
      slug: joint.slug,
      collectedAmount: 2500,
      targetAmount: 10_000,
      acceptedFunds: ["zakat", "general"],
      pictureKey: "campaign/picture.webp",
      description: joint.description,
    });
    expect(row!.ngos.map((n) => [n.id, n.role])).toEqual([
      [owner.id, "owner"],
      [partner.id, "partner"],
    ]);
  });

  it("never returns more than a page, however many campaigns there are", async () => {
    const page = await pickerCampaignsAfter(services.db, { kind: "goods" });
    expect(page.rows.length).toBeLessThanOrEqual(DONATE_PICKER_PAGE_SIZE);
    expect(page.rows.every((r) => r.ngos.length >= 1)).toBe(true);
  });
});

describe("what donors are offered (campaigns/standing.ts)", () => {
  it("offers a campaign for cash only when one of its NGOs in good standing can be paid", async () => {
    const { db } = services;
    const tag = token();
    const unpaid = await makeUser(db, "ngo");
    const paid = await makeUser(db, "ngo");
    await givePaymentAccounts(db, paid.id);
    const bankHalf = await makeUser(db, "ngo");
    // A bank account needs its name, title and number: two of three is no account (as accountsOf reads it).
    await givePaymentAccounts(db, bankHalf.id, { bankName: "HBL", bankAccountTitle: "Half", jazzcashNumber: null, easypaisaNumber: null });
    const suspendedPaid = await makeUser(db, "ngo");
    await givePaymentAccounts(db, suspendedPaid.id);

    const noAccount = await makeCampaign(db, unpaid.id, { title: `No account ${tag}` });
    const halfBank = await makeCampaign(db, bankHalf.id, { title: `Half bank ${tag}` });
    const own = await makeCampaign(db, paid.id, { title: `Own account ${tag}` });
    const viaPartner = await makeCampaign(db, unpaid.id, { title: `Partner pays ${tag}`, partners: [paid.id] });
    const viaSuspendedPartner = await makeCampaign(db, unpaid.id, { title: `Suspended partner ${tag}`, partners: [suspendedPaid.id] });
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspendedPaid.id));

    const ids = async (kind: "cash" | "goods") => (await pickerCampaignsAfter(db, { q: tag, kind })).rows.map((r) => r.id).sort();
    expect(await ids("cash")).toEqual([own.id, viaPartner.id].sort());
    expect(await ids("goods")).toEqual([noAccount.id, halfBank.id, own.id, viaPartner.id, viaSuspendedPartner.id].sort());

    const standing = async (slug: string) => {
      const c = await publicCampaign(db, slug);
      return { paused: c.paused, takesCash: c.takesCash };
    };
    expect(await standing(noAccount.slug)).toEqual({ paused: false, takesCash: false });
    expect(await standing(viaPartner.slug)).toEqual({ paused: false, takesCash: true });
    expect(await standing(viaSuspendedPartner.slug)).toEqual({ paused: false, takesCash: false });
  });

  it("pauses every campaign of a suspended NGO: out of both pickers, refused for gifts and goods", async () => {
    const { db } = services;
    const tag = token();
    const ngo = await makeUser(db, "ngo");
    await givePaymentAccounts(db, ngo.id);
    const partner = await makeUser(db, "ngo");
    await givePaymentAccounts(db, partner.id);
    const c = await makeCampaign(db, ngo.id, { title: `Paused ${tag}`, partners: [partner.id] });
    expect((await pickerCampaignsAfter(db, { q: tag, kind: "cash" })).total).toBe(1);

    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, ngo.id));
    expect((await pickerCampaignsAfter(db, { q: tag, kind: "cash" })).total).toBe(0);
    expect((await pickerCampaignsAfter(db, { q: tag, kind: "goods" })).total).toBe(0);
    expect((await publicCampaign(db, c.slug)).paused).toBe(true);
    // The partner in good standing does not keep it open: the campaign is its owner's.
    await expect(donationTarget(db, c.slug)).rejects.toMatchObject({ code: "campaigns.paused" });
    await expect(goodsTarget(db, c.slug)).rejects.toMatchObject({ code: "campaigns.paused" });

    await db.update(users).set({ suspendedAt: null }).where(eq(users.id, ngo.id));
    expect((await pickerCampaignsAfter(db, { q: tag, kind: "cash" })).total).toBe(1);
    expect((await donationTarget(db, c.slug)).ngos).toHaveLength(2);
  });
});

describe("the picker's queries against its rule read row by row (decision 044)", () => {
  const hasAccount = (p: typeof ngoProfiles.$inferSelect) =>
    !!p.jazzcashNumber || !!p.easypaisaNumber || (!!p.bankName && !!p.bankAccountTitle && !!p.bankAccountNumber);

  /**
   * What the picker should show, computed here from every row: active campaigns of a verified, unsuspended owner, for
   * cash with an NGO (owner or accepted partner) in good standing that can be paid, found by the text in the title,
   * either place label or an NGO's name (owner or accepted partner), newest first, ties by id.
   */
  async function expected(kind: "cash" | "goods", q?: string) {
    const { db } = services;
    const [all, people, profiles, partners] = await Promise.all([
      db.select().from(campaigns),
      db.select().from(users),
      db.select().from(ngoProfiles),
      db.select().from(campaignPartners).where(eq(campaignPartners.status, "accepted")),
    ]);
    const user = new Map(people.map((u) => [u.id, u]));
    const profile = new Map(profiles.map((p) => [p.userId, p]));
    const good = (id: string) => user.get(id)?.verification === "verified" && !user.get(id)?.suspendedAt;
    const partnersOf = (id: string) => partners.filter((p) => p.campaignId === id).map((p) => p.ngoId);
    const has = (text: string | null | undefined) => !!q && !!text && text.toLowerCase().includes(q.toLowerCase());
    return all
      .filter((c) => c.status === "active" && good(c.ownerId))
      .filter(
        (c) => kind === "goods" || [c.ownerId, ...partnersOf(c.id)].some((n) => good(n) && profile.has(n) && hasAccount(profile.get(n)!)),
      )
      .filter(
        (c) =>
          !q ||
          has(c.title) ||
          has(c.locationLabel) ||
          has(c.locationLabelUr) ||
          [c.ownerId, ...partnersOf(c.id)].some((n) => has(profile.get(n)?.name)),
      )
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
      .map((c) => ({
        id: c.id,
        ngos: [c.ownerId, ...partnersOf(c.id).sort((x, y) => profile.get(x)!.name.localeCompare(profile.get(y)!.name))],
      }));
  }

  /** Every page of the picker by its cursor, each card with its NGOs' ids, and the total each page reported. */
  async function walk(kind: "cash" | "goods", q?: string) {
    const rows: { id: string; ngos: string[] }[] = [];
    const totals = new Set<number>();
    const pages = [];
    let after: string | null = null;
    for (let n = 1; n < 1000; n++) {
      const list: Awaited<ReturnType<typeof pickerCampaignsAfter>> = await pickerCampaignsAfter(services.db, { q, kind, after });
      expect(list.after).toBe(after);
      expect(list.more).toBe(false);
      expect(list.rows.length).toBe(list.next ? DONATE_PICKER_PAGE_SIZE : list.rows.length);
      totals.add(list.total);
      rows.push(...list.rows.map((r) => ({ id: r.id, ngos: r.ngos.map((n) => n.id) })));
      pages.push(list);
      if (!list.next) {
        // Back by "Previous" from the last page: the same cards, links and position (`after`, for Details and Go back).
        await walkBack(pages, (cursor) => pickerCampaignsAfter(services.db, { q, kind, ...cursor }), `${kind} ${q ?? "(all)"}`, [
          "after",
          "total",
          "more",
        ]);
        return { rows, totals: [...totals] };
      }
      after = list.next;
    }
    throw new Error("the cursor did not reach the end");
  }

  /** Every page by cursor, as the landing page reads them (the goods rule: any campaign open to donors). */
  async function walkBrowse(q?: string) {
    const rows: { id: string; ngos: string[] }[] = [];
    for (let after: string | null = null; ;) {
      const list: Awaited<ReturnType<typeof pickerCampaignsAfter>> = await pickerCampaignsAfter(services.db, { q, after, kind: "browse" });
      rows.push(...list.rows.map((r) => ({ id: r.id, ngos: r.ngos.map((n) => n.id) })));
      if (!list.next) return rows;
      after = list.next;
    }
  }

  it("gives the same cards, NGOs and totals on every page, searched or not, for cash and goods", async () => {
    const { db } = services;
    const tag = token();
    const base = Date.parse("2025-03-01T00:00:00Z");
    let minute = 0;
    const at = () => new Date(base + (minute++ % 5) * 60_000); // five instants: ties on created_at
    const payable = await makeUser(db, "ngo", { name: `Payable ${tag.toUpperCase()} Trust` });
    await givePaymentAccounts(db, payable.id);
    const unpayable = await makeUser(db, "ngo", { name: "Unpaid Welfare" });
    const partner = await makeUser(db, "ngo", { name: `Partner ${tag} Foundation` });
    await givePaymentAccounts(db, partner.id);
    const declined = await makeUser(db, "ngo", { name: `Declined ${tag} Society` });
    await givePaymentAccounts(db, declined.id);
    const suspended = await makeUser(db, "ngo", { name: `Suspended ${tag}` });
    await givePaymentAccounts(db, suspended.id);
    for (let i = 0; i < 4; i++) {
      await makeCampaign(db, payable.id, { title: `Water ${tag} ${i}`, createdAt: at() });
      await makeCampaign(db, unpayable.id, { title: `Unpaid ${tag} ${i}`, createdAt: at() });
      await makeCampaign(db, unpayable.id, { title: `Joint ${i}`, partners: [partner.id], createdAt: at() });
      await makeCampaign(db, unpayable.id, { locationLabel: `Mithi ${tag.toUpperCase()}, Tharparkar`, createdAt: at() });
      await makeCampaign(db, unpayable.id, { locationLabelUr: `مٹھی ${tag}`, partners: [payable.id], createdAt: at() });
    }
    await makeCampaign(db, payable.id, { title: `Done ${tag}`, status: "completed", completedAt: new Date(), createdAt: at() });
    await makeCampaign(db, suspended.id, { title: `Paused ${tag}`, createdAt: at() });
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    const left = await makeCampaign(db, unpayable.id, { title: "Left", partners: [declined.id], createdAt: at() });
    await db.update(campaignPartners).set({ status: "declined" }).where(eq(campaignPartners.campaignId, left.id));
    // A suspended partner does not pay; its name still finds the campaign, which is its owner's.
    await makeCampaign(db, unpayable.id, { title: "Partner suspended", partners: [suspended.id], createdAt: at() });

    for (const kind of ["cash", "goods"] as const) {
      for (const q of [undefined, tag, tag.toUpperCase(), `partner ${tag}`, `mithi ${tag}`, `payable ${tag}`, `declined ${tag}`]) {
        const want = await expected(kind, q);
        const got = await walk(kind, q);
        expect(got.rows, `${kind} ${q ?? "(all)"}`).toEqual(want);
        expect(got.totals, `${kind} ${q ?? "(all)"}`).toEqual([want.length]);
        if (kind === "goods" && q) expect(await walkBrowse(q), `browse ${q}`).toEqual(want);
      }
    }
    // Our search finds this test's campaigns only, and enough of them for several pages.
    expect((await expected("goods", tag)).length).toBeGreaterThan(3 * DONATE_PICKER_PAGE_SIZE);
  });
});

describe("the pickers' cursor and count (decision 044)", () => {
  it("reads a cursor only as a position: a forged one shows offered campaigns alone, or the first page", async () => {
    const { db } = services;
    const tag = token();
    const ngo = await makeUser(db, "ngo");
    await givePaymentAccounts(db, ngo.id);
    const suspended = await makeUser(db, "ngo");
    await givePaymentAccounts(db, suspended.id);
    const unpaid = await makeUser(db, "ngo");
    const base = Date.parse("2025-04-01T00:00:00Z");
    const at = (minute: number) => new Date(base + minute * 60_000);
    const offered = [];
    for (let i = 0; i < 9; i++) offered.push(await makeCampaign(db, ngo.id, { title: `Open ${tag} ${i}`, createdAt: at(i * 10) }));
    // Not offered, each between offered ones: completed, paused (its owner suspended), and (for cash) unpayable.
    const done = await makeCampaign(db, ngo.id, { title: `Done ${tag}`, status: "completed", completedAt: new Date(), createdAt: at(75) });
    const paused = await makeCampaign(db, suspended.id, { title: `Paused ${tag}`, createdAt: at(55) });
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
    const unpayable = await makeCampaign(db, unpaid.id, { title: `Unpaid ${tag}`, createdAt: at(35) });
    const titles = (list: { rows: { title: string }[] }) => list.rows.map((r) => r.title);
    const open = (...i: number[]) => i.map((n) => `Open ${tag} ${n}`);

    const first = await pickerCampaignsAfter(db, { q: tag, kind: "cash" });
    expect(titles(first)).toEqual(open(8, 7, 6, 5, 4, 3));
    for (const forged of ["not-a-cursor", "'; drop table campaigns; --", "", randomUUID(), offered[0]!.id]) {
      // Not a uuid, no such campaign, or nothing offered after it: the first page, said to be the first.
      const page = await pickerCampaignsAfter(db, { q: tag, kind: "cash", after: forged });
      expect(titles(page), forged).toEqual(titles(first));
      expect(page.after, forged).toBeNull();
      expect(page.total, forged).toBe(9);
    }
    // A campaign the picker does not offer as the cursor: the offered campaigns older than it, never itself.
    expect(titles(await pickerCampaignsAfter(db, { q: tag, kind: "cash", after: done.id }))).toEqual(open(7, 6, 5, 4, 3, 2));
    expect(titles(await pickerCampaignsAfter(db, { q: tag, kind: "cash", after: paused.id }))).toEqual(open(5, 4, 3, 2, 1, 0));
    expect(titles(await pickerCampaignsAfter(db, { q: tag, kind: "cash", after: unpayable.id }))).toEqual(open(3, 2, 1, 0));
    // The goods picker offers the unpayable campaign: after the paused one's place it is there.
    expect(titles(await pickerCampaignsAfter(db, { q: tag, kind: "goods", after: paused.id }))).toEqual([
      ...open(5, 4),
      `Unpaid ${tag}`,
      ...open(3, 2, 1),
    ]);
    // Another search's campaign, or any other campaign, is a position in time, nothing more.
    const elsewhere = await makeCampaign(db, ngo.id, { title: `Elsewhere ${token()}`, createdAt: at(45) });
    expect(titles(await pickerCampaignsAfter(db, { q: tag, kind: "cash", after: elsewhere.id }))).toEqual(open(4, 3, 2, 1, 0));

    // "Previous" (`before`) by the same rules: not a uuid, no such campaign, nothing offered before it, or less than a
    // page before it (the top of the list): the first page, said to be the first, with no Previous.
    for (const forged of ["not-a-cursor", "'; drop table campaigns; --", randomUUID(), offered[8]!.id, done.id, paused.id, unpayable.id]) {
      const page = await pickerCampaignsAfter(db, { q: tag, kind: "cash", before: forged });
      expect(titles(page), forged).toEqual(titles(first));
      expect(page, forged).toMatchObject({ after: null, prev: null, next: first.next, total: 9 });
    }
    // A full page before the cursor: the six offered campaigns just newer than it, in the list's order, never the
    // cursor's own campaign when it is not offered (a completed one older than all); named by the campaign just before
    // them, whose page they are.
    const old = await makeCampaign(db, ngo.id, { title: `Old ${tag}`, status: "completed", completedAt: new Date(), createdAt: at(-5) });
    expect(await pickerCampaignsAfter(db, { q: tag, kind: "cash", before: old.id })).toMatchObject({
      rows: open(5, 4, 3, 2, 1, 0).map((title) => ({ title })),
      after: offered[6]!.id,
      prev: "first",
      next: null,
    });
    expect(await pickerCampaignsAfter(db, { q: tag, kind: "cash", before: offered[1]!.id })).toMatchObject({
      rows: open(7, 6, 5, 4, 3, 2).map((title) => ({ title })),
      after: offered[8]!.id,
      prev: "first",
      next: offered[2]!.id,
    });
    // Another search's campaign as `before`: a position in time, nothing more.
    expect(titles(await pickerCampaignsAfter(db, { q: tag, kind: "goods", before: elsewhere.id }))).toEqual(
      titles(await pickerCampaignsAfter(db, { q: tag, kind: "goods" })),
    );
  });

  it("counts a search's matches up to the bound, then says there are more, and pages the same either side of it", async () => {
    const { db } = services;
    const tag = token();
    const ngo = await makeUser(db, "ngo");
    await givePaymentAccounts(db, ngo.id);
    const base = Date.parse("2025-05-01T00:00:00Z");
    // Three campaigns at each instant: ties on created_at, broken by id.
    const row = (i: number) => ({
      ownerId: ngo.id,
      slug: `bound-${tag}-${i}`,
      title: `Bound ${tag} ${i}`,
      description: "Counted, up to a point.",
      targetAmount: 100_000,
      locationLabel: "Lahore, Lahore District, Punjab",
      lat: 31.558,
      lng: 74.35071,
      createdAt: new Date(base + Math.floor(i / 3) * 1000),
    });
    const made: { id: string; createdAt: Date }[] = [];
    const insert = async (from: number, to: number) =>
      made.push(
        ...(await db
          .insert(campaigns)
          .values(Array.from({ length: to - from }, (_, i) => row(from + i)))
          .returning({ id: campaigns.id, createdAt: campaigns.createdAt })),
      );
    /** The first `pages` pages by cursor: their ids, and what each said of the count. */
    const walk = async (kind: "cash" | "goods", pages: number) => {
      const ids: string[] = [];
      const counts = new Set<string>();
      const read = [];
      let after: string | null = null;
      for (let i = 0; i < pages; i++) {
        const list: Awaited<ReturnType<typeof pickerCampaignsAfter>> = await pickerCampaignsAfter(db, { q: tag, kind, after });
        ids.push(...list.rows.map((r) => r.id));
        counts.add(`${list.total}${list.more ? "+" : ""}`);
        read.push(list);
        after = list.next;
      }
      // Back by "Previous" to the first page, either side of the bound (the matches sorted, or the index walked).
      await walkBack(read, (cursor) => pickerCampaignsAfter(db, { q: tag, kind, ...cursor }), `${kind} ${ids.length}`, [
        "after",
        "total",
        "more",
      ]);
      return { ids, counts: [...counts] };
    };
    const newestFirst = () =>
      [...made].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((c) => c.id);

    expect(PICKER_COUNT_BOUND).toBe(1_000);
    await insert(0, PICKER_COUNT_BOUND - 1);
    expect(await walk("cash", 1)).toMatchObject({ counts: ["999"] });
    // At the bound: exact, the page sorted from the matches.
    await insert(PICKER_COUNT_BOUND - 1, PICKER_COUNT_BOUND);
    const at = await walk("goods", 4);
    expect(at).toEqual({ ids: newestFirst().slice(0, 24), counts: ["1000"] });
    // Past it: "more than 1,000", the pages walked in order, the same campaigns in the same order.
    await insert(PICKER_COUNT_BOUND, PICKER_COUNT_BOUND + 2);
    const over = await walk("cash", 4);
    expect(over).toEqual({ ids: newestFirst().slice(0, 24), counts: ["1000+"] });
    // The two added are among the newest (they may tie in time with the 1,000th, ordered by id): without them, the rest
    // keep their order.
    const added = new Set(made.slice(-2).map((c) => c.id));
    expect(over.ids.filter((id) => !added.has(id))).toEqual(at.ids.slice(0, 22));
    // Once their NGO is suspended, none is offered or counted.
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, ngo.id));
    expect(await pickerCampaignsAfter(db, { q: tag, kind: "cash" })).toMatchObject({ total: 0, more: false, rows: [], next: null });
  });
});

describe("the unfiltered cash count either side of the bound (decision 044)", () => {
  // Its own database: an unfiltered count is of every campaign offered, so no other test's may be there.
  let own: TestServices;
  beforeAll(async () => {
    own = await createTestServices();
  });
  afterAll(async () => {
    await own?.close();
  });

  it("counts an unpayable owner's campaigns a payable partner takes cash for until the payable owners' own pass the bound", async () => {
    const { db } = own;
    const payable = await makeUser(db, "ngo");
    await givePaymentAccounts(db, payable.id);
    const unpayable = await makeUser(db, "ngo");
    const partner = await makeUser(db, "ngo");
    await givePaymentAccounts(db, partner.id);
    let made = 0;
    const insert = (ownerId: string, n: number) =>
      db.insert(campaigns).values(
        Array.from({ length: n }, () => ({
          ownerId,
          slug: `counted-${made++}`,
          title: `Counted ${made}`,
          description: "Counted, up to a point.",
          targetAmount: 100_000,
          locationLabel: "Lahore, Lahore District, Punjab",
          lat: 31.558,
          lng: 74.35071,
        })),
      );
    const count = async (kind: "cash" | "goods") => {
      const { total, more } = await pickerCampaignsAfter(db, { kind });
      return more ? `${total}+` : `${total}`;
    };
    await insert(payable.id, PICKER_COUNT_BOUND - 2);
    // The unpayable owner's: two its payable partner takes cash for, one nobody can pay.
    for (let i = 0; i < 2; i++) await makeCampaign(db, unpayable.id, { partners: [partner.id] });
    await makeCampaign(db, unpayable.id);
    expect(await count("cash")).toBe("1000");
    expect(await count("goods")).toBe("1000+");
    // The payable owners' own at the bound: the partnered ones still counted, past it.
    await insert(payable.id, 2);
    expect(await count("cash")).toBe("1000+");
    // The partner suspended: it no longer pays, so the count is the payable owner's alone, exact.
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, partner.id));
    expect(await count("cash")).toBe("1000");
    // Back in good standing, then its partnerships declined: the same.
    await db.update(users).set({ suspendedAt: null }).where(eq(users.id, partner.id));
    expect(await count("cash")).toBe("1000+");
    await db.update(campaignPartners).set({ status: "declined" }).where(eq(campaignPartners.ngoId, partner.id));
    expect(await count("cash")).toBe("1000");
    // The payable owner's own past the bound: "more" without the rest.
    await insert(payable.id, 1);
    expect(await count("cash")).toBe("1000+");
    // Its payment details removed: only the (now unpartnered) others, none of which takes cash.
    await db.update(ngoProfiles).set({ jazzcashNumber: "", easypaisaNumber: "", bankName: "" }).where(eq(ngoProfiles.userId, payable.id));
    expect(await count("cash")).toBe("0");
  });
});

describe("a search that names a place (issue 16)", () => {
  /** Every campaign a search finds, all pages, as the landing page and the pickers search: the text and the place it names. */
  async function found(q: string): Promise<string[]> {
    const place = await offlineGeocoder.named(q);
    const ids: string[] = [];
    for (let after: string | null = null; ;) {
      const list: Awaited<ReturnType<typeof pickerCampaignsAfter>> = await pickerCampaignsAfter(services.db, {
        q,
        after,
        kind: "browse",
        place,
      });
      ids.push(...list.rows.map((r) => r.id));
      if (!list.next) return ids;
      after = list.next;
    }
  }

  it("finds the campaigns in a city typed in Urdu, as a short name or in Arabic letters, whatever labels they were saved with", async () => {
    const { db } = services;
    const ngo = await makeUser(db, "ngo");
    const place = (label: string, labelUr: string | null = null) =>
      makeCampaign(db, ngo.id, { locationLabel: label, locationLabelUr: labelUr });
    // Saved with the gazetteer's two labels; with the English label only (saved before Urdu labels were kept); a
    // neighbourhood of the city; a geocoder service's label; a place typed with its town.
    const lahore = await place("Lahore, Lahore District, Punjab", "لاہور، Lahore District, Punjab");
    const lahoreEnglishOnly = await place("Lahore, Lahore District, Punjab");
    const gulberg = await place("Gulberg, Lahore, Lahore District, Punjab");
    const service = await place("Lahore, Punjab, Pakistan");
    const typed = await place("Street 4, Mohalla Sadiq, Lahore, Lahore District, Punjab");
    const raiwind = await place("Raiwind, Lahore District, Punjab");
    const karachi = await place("Clifton, Karachi, Sindh");
    const pindi = await place("Rawalpindi, Rawalpindi District, Punjab");
    const bhattian = await place("Pindi Bhattian, Hafizabad District, Punjab");

    const inLahore = [lahore, lahoreEnglishOnly, gulberg, service, typed].map((c) => c.id);
    for (const q of ["لاہور", "لاهور"]) {
      const ids = await found(q);
      expect(ids, q).toEqual(expect.arrayContaining(inLahore));
      // Lahore District is not the city: its other towns are not "in Lahore"; nor is another city.
      expect(ids, q).not.toContain(raiwind.id);
      expect(ids, q).not.toContain(karachi.id);
    }
    for (const q of ["کراچی", "Khi"]) {
      const ids = await found(q);
      expect(ids, q).toContain(karachi.id);
      expect(ids, q).not.toContain(lahore.id);
    }
    // "Pindi" is Rawalpindi (the place search's short name), and the text still finds Pindi Bhattian by its words.
    expect(await found("Pindi")).toEqual(expect.arrayContaining([pindi.id, bhattian.id]));
    const rawalpindi = await found("راولپنڈی");
    expect(rawalpindi).toContain(pindi.id);
    expect(rawalpindi).not.toContain(bhattian.id);
    // A province finds its towns.
    const punjab = await found("Punjab");
    expect(punjab).toEqual(expect.arrayContaining([...inLahore, raiwind.id, pindi.id]));
    expect(punjab).not.toContain(karachi.id);
  });

  it("is only the text's own search when the text names no place", async () => {
    const { db } = services;
    const tag = token();
    const ngo = await makeUser(db, "ngo");
    const c = await makeCampaign(db, ngo.id, { title: `Wells ${tag}` });
    expect(await offlineGeocoder.named(tag)).toBeNull();
    expect(await offlineGeocoder.named("lah")).toBeNull();
    expect(await found(tag)).toEqual([c.id]);
    // A name with a regular expression's characters is taken literally.
    expect((await pickerCampaignsAfter(db, { q: token(), kind: "browse", place: { name: "(.*)" } })).total).toBe(0);
  });
});

describe("the proof form's phone", () => {
  it("is prefilled from the donor's contact number", async () => {
    const donor = await makeUser(services.db, "donor");
    expect(await donorContactNumber(services.db, donor.id)).toBe("03001234567");
    expect(await donorContactNumber(services.db, randomUUID())).toBe("");
  });
});
