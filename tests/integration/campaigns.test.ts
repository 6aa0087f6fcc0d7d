import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseWithZod } from "#shared/forms/parse.ts";
import { campaignSchema, type CampaignInput } from "#shared/forms/campaigns.ts";
import { campaignPartners, campaigns, files } from "#server/db/schema.ts";
import { likePattern } from "#server/db/query.ts";
import { campaignForNgo } from "#server/domain/campaigns/access.ts";
import {
  closeCampaign,
  completeIfTargetReached,
  createCampaign,
  deleteCampaign,
  listCampaigns,
  parseCampaign,
  slugify,
  updateCampaign,
} from "#server/domain/campaigns/campaigns.ts";
import { DomainError } from "#server/domain/errors.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { asNgo } from "#tests/helpers/actors.ts";

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

function input(overrides: Partial<Record<keyof CampaignInput, unknown>> = {}): CampaignInput {
  return {
    title: `Winter blankets ${Math.random().toString(36).slice(2, 8)}`,
    description: "Blankets for families in the northern areas before the snow.",
    targetAmount: "50000",
    location: "Lahore",
    funds: ["zakat"],
    zakatAttest: "yes",
    cause: "shelter",
    ...overrides,
  } as CampaignInput;
}

/** The first error a form submission reports for a field, as the browser and the server both see it. */
function formError(fields: Record<string, string>, field: string): string | undefined {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const submission = parseWithZod(form, { schema: campaignSchema });
  return submission.status === "success" ? undefined : submission.error?.[field]?.[0];
}

async function rejection(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe("campaign form rules", () => {
  const valid = { title: "Flood relief", description: "Food and shelter.", targetAmount: "1000", location: "Lahore", cause: "relief" };

  it("requires title, description, amount, location and a cause from the list", () => {
    expect(formError({ ...valid, cause: "" }, "cause")).toBe("campaigns:errors.causeRequired");
    expect(formError({ ...valid, cause: "weapons" }, "cause")).toBe("campaigns:errors.causeRequired");
    expect(parseCampaign(input({ cause: "water" })).cause).toBe("water");
    expect(formError({ ...valid, title: "  " }, "title")).toBe("campaigns:errors.titleRequired");
    expect(formError({ ...valid, description: "" }, "description")).toBe("campaigns:errors.descriptionRequired");
    expect(formError({ ...valid, targetAmount: "" }, "targetAmount")).toBe("campaigns:errors.amountRequired");
    expect(formError({ ...valid, location: "" }, "location")).toBe("campaigns:errors.locationRequired");
    expect(formError(valid, "title")).toBeUndefined();
  });

  it("limits the title to 8 words and the description to 50", () => {
    expect(formError({ ...valid, title: words(8) }, "title")).toBeUndefined();
    expect(formError({ ...valid, title: words(9) }, "title")).toBe("campaigns:errors.titleWords");
    expect(formError({ ...valid, description: words(50) }, "description")).toBeUndefined();
    expect(formError({ ...valid, description: words(51) }, "description")).toBe("campaigns:errors.descriptionWords");
  });

  it("takes whole rupees as digits only, ignoring digit grouping", () => {
    expect(formError({ ...valid, targetAmount: "12a" }, "targetAmount")).toBe("campaigns:errors.amountDigits");
    expect(formError({ ...valid, targetAmount: "-5" }, "targetAmount")).toBe("campaigns:errors.amountDigits");
    expect(formError({ ...valid, targetAmount: "10.5" }, "targetAmount")).toBe("campaigns:errors.amountDigits");
    expect(formError({ ...valid, targetAmount: "0" }, "targetAmount")).toBe("campaigns:errors.amountPositive");
    expect(formError({ ...valid, targetAmount: "99999999999" }, "targetAmount")).toBe("campaigns:errors.amountTooLarge");
    expect(parseCampaign(input({ targetAmount: "50,000" })).targetAmount).toBe(50_000);
  });

  it("collapses the spaces of a title", () => {
    expect(parseCampaign(input({ title: "  Flood   relief \n Sindh " })).title).toBe("Flood relief Sindh");
  });

  it("makes readable slugs in any script", () => {
    expect(slugify("Flood Relief: Sindh 2026!")).toBe("flood-relief-sindh-2026");
    expect(slugify("Café déjà vu")).toBe("cafe-deja-vu");
    expect(slugify("سیلاب زدگان کی مدد")).toBe("سیلاب-زدگان-کی-مدد");
    expect(slugify("!!!")).toBe("campaign");
  });
});

describe("campaigns", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  const create = (ngoId: string, overrides: Partial<Record<keyof CampaignInput, unknown>> = {}) =>
    createCampaign(s, asNgo(ngoId), parseCampaign(input(overrides)));

  it("keeps the cause the NGO chose, and a change of it", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const c = await create(ngo.id, { cause: "water" });
    expect(c.cause).toBe("water");
    const edited = await updateCampaign(
      s,
      asNgo(ngo.id),
      c.id,
      parseCampaign(input({ title: c.title, location: c.locationLabel, cause: "health" })),
    );
    expect(edited.cause).toBe("health");
  });

  it("creates an active campaign at the resolved place, with a readable unique slug", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const a = await create(ngo.id, { title: "Clean water for Thar", targetAmount: "250000", otherItems: "Jerry cans" });
    expect(a).toMatchObject({
      status: "active",
      targetAmount: 250_000,
      collectedAmount: 0,
      acceptedFunds: ["zakat", "general"],
      otherItems: "Jerry cans",
    });
    expect(a.slug).toBe("clean-water-for-thar");
    expect(a.locationLabel).toMatch(/^Lahore, /);
    expect(a.lat).toBeCloseTo(31.55, 1);
    await closeCampaign(s.db, ngo, a.id);
    // The title is free again once the first is completed; the slug stays unique.
    const b = await create(ngo.id, { title: "Clean water for Thar" });
    expect(b.slug).toBe("clean-water-for-thar-2");
  });

  it("refuses a place that does not resolve, and keeps a point the user adjusted inside Pakistan", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const err = await rejection(create(ngo.id, { location: "Atlantis under the sea" }));
    expect(err).toMatchObject({ message: "campaigns:errors.locationInvalid", field: "location" });
    const adjusted = await create(ngo.id, { locationLat: "31.6", locationLng: "74.4" });
    expect([adjusted.lat, adjusted.lng]).toEqual([31.6, 74.4]);
    const outside = await create(ngo.id, { locationLat: "48.85", locationLng: "2.35" });
    expect(outside.lat).toBeCloseTo(31.55, 1);
  });

  it("keeps titles unique among active campaigns, case-insensitively, and offers to collaborate", async () => {
    const first = await makeUser(s.db, "ngo");
    const second = await makeUser(s.db, "ngo");
    const original = await create(first.id, { title: "Ramzan ration drive" });
    const other = await rejection(create(second.id, { title: "RAMZAN  Ration DRIVE" }));
    expect(other).toMatchObject({
      kind: "conflict",
      message: "campaigns:errors.titleTaken",
      field: "title",
      params: { collaborateWith: original.id },
    });
    const own = await rejection(create(first.id, { title: "ramzan ration drive" }));
    expect(own.params).toBeUndefined();
    const [{ n }] = (await s.db
      .select({ n: sql<number>`count(*)::int` })
      .from(campaigns)
      .where(sql`lower(title) = 'ramzan ration drive'`)) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("lets exactly one of two concurrent campaigns with the same title through", async () => {
    const a = await makeUser(s.db, "ngo");
    const b = await makeUser(s.db, "ngo");
    const title = `Race title ${Math.random().toString(36).slice(2, 8)}`;
    const results = await Promise.allSettled([create(a.id, { title }), create(b.id, { title: title.toUpperCase() })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failed.reason).toMatchObject({ kind: "conflict", message: "campaigns:errors.titleTaken" });
  });

  it("stores a picture re-encoded, and removes it again when the campaign is refused", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: "#0a0" } })
      .png()
      .toBuffer();
    const picture = () => new File([new Uint8Array(png)], "photo.png", { type: "image/png" });
    const made = await create(ngo.id, { picture: picture() });
    expect(made.pictureKey).toMatch(/^campaign\/.+\.webp$/);
    const before = await s.db.select().from(files).where(eq(files.ownerId, ngo.id));
    await rejection(create(ngo.id, { title: made.title, picture: picture() }));
    const after = await s.db.select().from(files).where(eq(files.ownerId, ngo.id));
    expect(after).toHaveLength(before.length);
  });

  it("lets only the owner edit; partners are refused and other NGOs find nothing", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const stranger = await makeUser(s.db, "ngo");
    const c = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const edited = await updateCampaign(s, owner, c.id, parseCampaign(input({ title: "Renamed campaign", location: c.locationLabel })));
    expect(edited).toMatchObject({ title: "Renamed campaign", slug: c.slug, lat: c.lat });
    expect(await rejection(updateCampaign(s, partner, c.id, parseCampaign(input())))).toMatchObject({ kind: "forbidden" });
    expect(await rejection(updateCampaign(s, stranger, c.id, parseCampaign(input())))).toMatchObject({ kind: "not_found" });
    expect(await rejection(campaignForNgo(s.db, c.id, stranger))).toMatchObject({ kind: "not_found" });
    expect(await rejection(campaignForNgo(s.db, "not-a-uuid", owner))).toMatchObject({ kind: "not_found" });
    expect((await campaignForNgo(s.db, c.id, partner)).role).toBe("partner");
  });

  it("refuses an edit to a title another active campaign has", async () => {
    const owner = await makeUser(s.db, "ngo");
    const taken = await makeCampaign(s.db, owner.id, { title: "Taken title one" });
    const c = await makeCampaign(s.db, owner.id);
    const err = await rejection(updateCampaign(s, owner, c.id, parseCampaign(input({ title: "taken TITLE one" }))));
    expect(err).toMatchObject({ message: "campaigns:errors.titleTaken", field: "title" });
    expect(taken.title).toBe("Taken title one");
  });

  it("completes a campaign when the target is lowered to what is already collected", async () => {
    const owner = await makeUser(s.db, "ngo");
    const c = await makeCampaign(s.db, owner.id, { targetAmount: 100_000, collectedAmount: 40_000 });
    const edited = await updateCampaign(s, owner, c.id, parseCampaign(input({ targetAmount: "40000", location: c.locationLabel })));
    expect(edited.status).toBe("completed");
    expect(edited.completedAt).not.toBeNull();
  });

  it("completes when the approved total reaches the target, and not before", async () => {
    const owner = await makeUser(s.db, "ngo");
    const c = await makeCampaign(s.db, owner.id, { targetAmount: 5000, collectedAmount: 4999 });
    expect(await completeIfTargetReached(s.db, c.id)).toBe(false);
    await s.db.update(campaigns).set({ collectedAmount: 5000 }).where(eq(campaigns.id, c.id));
    expect(await completeIfTargetReached(s.db, c.id)).toBe(true);
    expect(await completeIfTargetReached(s.db, c.id)).toBe(false);
  });

  it("closes early only once, and only by the owner", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const c = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    expect(await rejection(closeCampaign(s.db, partner, c.id))).toMatchObject({ kind: "forbidden" });
    await closeCampaign(s.db, owner, c.id);
    expect(await rejection(closeCampaign(s.db, owner, c.id))).toMatchObject({ message: "campaigns:errors.notActive" });
    const successful = await listCampaigns(s.db, owner, { tab: "successful", page: 1 });
    expect(successful.rows.map((r) => r.id)).toContain(c.id);
  });

  it("deletes a campaign without donations and archives one with donations", async () => {
    const owner = await makeUser(s.db, "ngo");
    const stranger = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const empty = await makeCampaign(s.db, owner.id);
    const given = await makeCampaign(s.db, owner.id);
    await makeDonation(s.db, given, donor.id, { status: "rejected" });
    expect(await rejection(deleteCampaign(s, stranger, empty.id))).toMatchObject({ kind: "not_found" });
    expect(await deleteCampaign(s, owner, empty.id)).toBe("deleted");
    expect(await s.db.select().from(campaigns).where(eq(campaigns.id, empty.id))).toHaveLength(0);
    expect(await deleteCampaign(s, owner, given.id)).toBe("archived");
    const [kept] = await s.db.select().from(campaigns).where(eq(campaigns.id, given.id));
    expect(kept?.status).toBe("archived");
    const lists = [
      ...(await listCampaigns(s.db, owner, { tab: "ongoing", page: 1 })).rows,
      ...(await listCampaigns(s.db, owner, { tab: "successful", page: 1 })).rows,
    ];
    expect(lists.map((r) => r.id)).not.toContain(given.id);
    // An archived campaign's title is free for a new campaign.
    await expect(create(owner.id, { title: given.title })).resolves.toMatchObject({ status: "active" });
  });

  it("lists owned and joint campaigns with every partner, searched case-insensitively and paged", async () => {
    const owner = await makeUser(s.db, "ngo", { name: "Alpha Trust" });
    const partner = await makeUser(s.db, "ngo", { name: "Beta Foundation" });
    for (let i = 0; i < 23; i += 1)
      await makeCampaign(s.db, owner.id, { title: `Relief batch ${i} ${Math.random().toString(36).slice(2, 6)}` });
    const joint = await makeCampaign(s.db, owner.id, { title: "Joint 100% effort_x", partners: [partner.id] });
    await makeCampaign(s.db, partner.id, { title: "Beta alone" });

    const seen = new Set<string>();
    const first = await listCampaigns(s.db, owner, { tab: "ongoing", page: 1 });
    expect(first.total).toBe(24);
    for (let page = 1; page <= first.pages; page += 1) {
      for (const row of (await listCampaigns(s.db, owner, { tab: "ongoing", page })).rows) seen.add(row.id);
    }
    expect(seen.size).toBe(24);

    const found = await listCampaigns(s.db, owner, { tab: "ongoing", q: "RELIEF BATCH 1", page: 1 });
    expect(found.rows.every((r) => r.title.toLowerCase().startsWith("relief batch 1"))).toBe(true);
    expect(found.total).toBe(11);
    const literal = await listCampaigns(s.db, owner, { tab: "ongoing", q: "100%", page: 1 });
    expect(literal.rows.map((r) => r.id)).toEqual([joint.id]);
    expect((await listCampaigns(s.db, owner, { tab: "ongoing", q: "_x", page: 1 })).total).toBe(1);

    const partnerView = await listCampaigns(s.db, partner, { tab: "ongoing", page: 1 });
    expect(partnerView.total).toBe(2);
    const jointRow = partnerView.rows.find((r) => r.id === joint.id)!;
    expect(jointRow.role).toBe("partner");
    expect(jointRow.ngos.map((n) => [n.name, n.role])).toEqual([
      ["Alpha Trust", "owner"],
      ["Beta Foundation", "partner"],
    ]);
  });

  it("reads the same pages of a search whether few or many of the NGO's own campaigns match (by the title's index or in order)", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const tag = Math.random().toString(36).slice(2, 8);
    const base = Date.parse("2025-04-01T00:00:00Z");
    // More of its own than the list reads by the index for one word, a few for the other; three share each instant.
    await s.db.insert(campaigns).values(
      Array.from({ length: 205 }, (_, i) => ({
        slug: `drive-${tag}-${i}`,
        ownerId: owner.id,
        title: i % 50 === 7 ? `Rare drive ${tag} ${i}` : `Drive ${tag} ${i}`,
        description: "Meals.",
        targetAmount: 1000,
        locationLabel: "Lahore",
        lat: 31.5,
        lng: 74.3,
        createdAt: new Date(base + Math.floor(i / 3) * 60_000),
      })),
    );
    await makeCampaign(s.db, partner.id, {
      title: `Partnered rare drive ${tag}`,
      partners: [owner.id],
      createdAt: new Date(base + 5 * 60_000),
    });
    await makeCampaign(s.db, partner.id, { title: `Not ours rare drive ${tag}` });
    const done = await makeCampaign(s.db, owner.id, { title: `Rare drive ${tag} done`, createdAt: new Date(base) });
    await closeCampaign(s.db, owner, done.id);

    const reference = async (q: string) => {
      const rows = await s.db.execute(sql`select c.id from ${campaigns} c where c.status = 'active' and c.title ilike ${`%${q}%`}
        and (c.owner_id = ${owner.id} or exists (select 1 from campaign_partners cp where cp.campaign_id = c.id
          and cp.ngo_id = ${owner.id} and cp.status = 'accepted'))
        order by c.created_at desc, c.id desc`);
      return (rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    };
    for (const q of [`drive ${tag}`, `RARE DRIVE ${tag}`]) {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const list = await listCampaigns(s.db, owner, { tab: "ongoing", q, page });
        expect(list.total, q).toBe((await reference(q)).length);
        ids.push(...list.rows.map((r) => r.id));
        if (page >= list.pages) break;
      }
      expect(ids, q).toEqual(await reference(q));
    }
    // One word matches more than the index path takes, the other fewer: both paths ran.
    expect((await reference(`drive ${tag}`)).length).toBeGreaterThan(201);
    expect((await reference(`rare drive ${tag}`)).length).toBe(5);
  });

  it("finds every title holding the words through the NGO's own trigrams: inside a word, across words, in Urdu, renamed, partnered; none of another NGO's or a declined partner's", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const other = await makeUser(s.db, "ngo");
    // Digits only, so that the tag, which every title of the owner carries, never holds a searched word ("ab" was).
    const tag = String(Math.floor(Math.random() * 1e9)).padStart(9, "0");
    const base = Date.parse("2025-05-01T00:00:00Z");
    const at = (minutes: number) => new Date(base + minutes * 60_000);
    const own = (title: string, minutes: number) => makeCampaign(s.db, owner.id, { title: `${title} ${tag}`, createdAt: at(minutes) });
    await own("Clean Waterworks for Thar", 1);
    await own("Underwater pumps", 2);
    await own("Rainwater tanks", 3);
    await own("صاف پانی کے کنویں", 4);
    await own("Ab ka 100% effort_x", 5);
    const renamed = await own("Blankets", 6);
    await s.db
      .update(campaigns)
      .set({ title: `Water filters ${tag}` })
      .where(eq(campaigns.id, renamed.id));
    const closed = await own("Water for the winter", 7);
    await closeCampaign(s.db, owner, closed.id);
    await makeCampaign(s.db, partner.id, { title: `Partnered WATER drive ${tag}`, partners: [owner.id], createdAt: at(8) });
    const declined = await makeCampaign(s.db, partner.id, { title: `Declined water drive ${tag}`, partners: [owner.id], createdAt: at(9) });
    await s.db.update(campaignPartners).set({ status: "declined" }).where(eq(campaignPartners.campaignId, declined.id));
    const movedAway = await makeCampaign(s.db, partner.id, { title: `Joint rations ${tag}`, partners: [owner.id], createdAt: at(10) });
    await s.db
      .update(campaigns)
      .set({ title: `Joint water ${tag}` })
      .where(eq(campaigns.id, movedAway.id));
    await makeCampaign(s.db, other.id, { title: `Other water wells ${tag}`, createdAt: at(11) });

    const reference = async (tab: "ongoing" | "successful", q: string) => {
      const status = tab === "ongoing" ? "active" : "completed";
      const rows = await s.db.execute(sql`select c.id from ${campaigns} c where c.status = ${status} and c.title ilike ${likePattern(q)}
        and (c.owner_id = ${owner.id} or exists (select 1 from campaign_partners cp where cp.campaign_id = c.id
          and cp.ngo_id = ${owner.id} and cp.status = 'accepted'))
        order by ${sql.raw(tab === "ongoing" ? "c.created_at" : "c.completed_at")} desc, c.id desc`);
      return (rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    };
    const expected: [string, number][] = [
      ["water", 6], // Waterworks, Underwater, Rainwater, the renamed one, the partnered one, the joint one renamed
      ["ATER", 6],
      ["rwat", 1], // inside a word only: Underwater
      ["inwa", 1], // Rainwater
      ["works for", 1], // across two words
      ["پانی", 1],
      ["کے کنو", 1],
      ["100%", 1], // a wildcard of LIKE, taken as itself
      ["_x", 1],
      ["ab", 1], // no trigram to look up: read without the index
      [`${tag}`, 8],
      [`filters ${tag}`, 1],
      ["blankets", 0], // its old title
      ["rations", 0],
      ["declined", 0],
      ["other water", 0],
    ];
    for (const [q, n] of expected) {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const list = await listCampaigns(s.db, owner, { tab: "ongoing", q, page });
        expect(list.total, q).toBe(n);
        ids.push(...list.rows.map((r) => r.id));
        if (page >= list.pages) break;
      }
      expect(ids, q).toEqual(await reference("ongoing", q));
    }
    const done = await listCampaigns(s.db, owner, { tab: "successful", q: "WINTER", page: 1 });
    expect(done.rows.map((r) => r.id)).toEqual([closed.id]);
    expect(done.total).toBe(1);
    // The partner finds the joint campaign by its new title too, and the owner's list is read as the partner's.
    const partnerView = await listCampaigns(s.db, partner, { tab: "ongoing", q: "joint WATER", page: 1 });
    expect(partnerView.rows.map((r) => [r.id, r.role])).toEqual([[movedAway.id, "owner"]]);
    expect((await listCampaigns(s.db, other, { tab: "ongoing", q: "water", page: 1 })).total).toBe(1);
  });
});
