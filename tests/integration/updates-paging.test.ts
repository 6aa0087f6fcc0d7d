import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { campaignUpdates, supportWords } from "#server/db/schema.ts";
import { publicUpdatesPages, publicUpdatesSection } from "#server/domain/updates/public.ts";
import { PUBLIC_UPDATES_SHOWN, PUBLIC_WORDS_SHOWN } from "#shared/constants.ts";
import { LANG_COOKIE } from "#shared/i18n/i18n.ts";
import { withWholeApp, type TestApp } from "#tests/helpers/app.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { failure } from "#tests/helpers/failure.ts";
import { walkBack } from "#tests/helpers/keyset-walk.ts";
import type { TestServices } from "#tests/helpers/services.ts";

/**
 * The public updates and words of support past what the campaign's page shows (decision 050): read by keyset from
 * /campaign/:slug/updates, each list on its own cursor, every row once, in order, whatever the ties in time.
 */
let s: TestServices;
let t: TestApp;
withWholeApp((app) => ({ s, t } = app));

const UPDATES = PUBLIC_UPDATES_SHOWN * 2 + 3;
const WORDS = PUBLIC_WORDS_SHOWN + 3;

/** A campaign with more published updates and approved words than a page holds: times a microsecond apart, and ties. */
async function busyCampaign() {
  const ngo = await makeUser(s.db, "ngo");
  const campaign = await makeCampaign(s.db, ngo.id);
  // Every third update shares its time with the one before: only the id orders them. The others differ by microseconds,
  // finer than a JavaScript date, so a cursor that went through one would skip or repeat rows.
  await s.db.insert(campaignUpdates).values(
    Array.from({ length: UPDATES }, (_, i) => ({
      campaignId: campaign.id,
      authorId: ngo.id,
      body: `Update number ${i}`,
      status: "published" as const,
      publishedAt: sql`timestamptz '2026-11-01 10:00:00.000000+00' + ${`${i - (i % 3 === 2 ? 1 : 0)} microseconds`}::interval`,
    })),
  );
  await s.db.insert(campaignUpdates).values({ campaignId: campaign.id, authorId: ngo.id, body: "A draft nobody sees" });
  const donors = await Promise.all(Array.from({ length: WORDS + 1 }, () => makeUser(s.db, "donor")));
  await s.db.insert(supportWords).values(
    donors.map((d, i) => ({
      campaignId: campaign.id,
      donorId: d.id,
      body: i === WORDS ? "Waiting words nobody sees" : `Words number ${i}`,
      status: i === WORDS ? ("pending" as const) : ("approved" as const),
      createdAt: sql`timestamptz '2026-11-02 10:00:00+00' + ${`${Math.floor(i / 2)} microseconds`}::interval`,
    })),
  );
  return campaign;
}

/** Every page of one list, following its cursor; the bodies in the order read. */
async function walk(slug: string, list: "updates" | "words") {
  const bodies: string[] = [];
  const pages = [];
  let cursor: string | null = null;
  for (let n = 0; n < 10; n++) {
    const page = await publicUpdatesPages(s.db, slug, { [list]: cursor });
    const rows = page[list].rows as { body: string }[];
    expect(rows.length).toBeLessThanOrEqual(list === "updates" ? PUBLIC_UPDATES_SHOWN : PUBLIC_WORDS_SHOWN);
    bodies.push(...rows.map((r) => r.body));
    pages.push({ ...page[list], prev: page[list].prev ?? null });
    cursor = page[list].next;
    if (!cursor) break;
  }
  // Back by "Previous" (`updatesBefore`, `wordsBefore`) from the last page: the same pages with the same links.
  expect(pages.length).toBeGreaterThan(1);
  await walkBack(
    pages,
    async (at) => {
      const page = await publicUpdatesPages(s.db, slug, at.before ? { [`${list}Before`]: at.before } : {});
      return { ...page[list], prev: page[list].prev ?? null };
    },
    list,
  );
  return bodies;
}

describe("paging the public updates and words", () => {
  it("reads every published update and approved word once, newest first, a bounded page at a time", async () => {
    const campaign = await busyCampaign();
    const section = await publicUpdatesSection(s.db, campaign.slug);
    expect(section.updates.rows).toHaveLength(PUBLIC_UPDATES_SHOWN);
    expect(section.updates.next).toBe(section.updates.rows.at(-1)!.id);
    expect(section.words.rows).toHaveLength(PUBLIC_WORDS_SHOWN);
    expect(section.words.next).not.toBeNull();

    const updates = await walk(campaign.slug, "updates");
    expect(updates).toHaveLength(UPDATES);
    expect(new Set(updates).size).toBe(UPDATES);
    const rows = await s.db.execute(
      sql`select body from campaign_updates where campaign_id = ${campaign.id} and status = 'published' order by published_at desc, id desc`,
    );
    expect(updates).toEqual((rows as unknown as { rows: { body: string }[] }).rows.map((r) => r.body));
    expect(updates).not.toContain("A draft nobody sees");

    const words = await walk(campaign.slug, "words");
    expect(words).toHaveLength(WORDS);
    expect(new Set(words).size).toBe(WORDS);
    expect(words).not.toContain("Waiting words nobody sees");
  });

  it("reads a cursor that is not a row of the campaign as the first page, and an unknown campaign as not found", async () => {
    const campaign = await busyCampaign();
    const first = await publicUpdatesPages(s.db, campaign.slug, {});
    for (const cursor of ["not-a-cursor", "'; drop table campaign_updates; --", "x".repeat(5000)]) {
      expect((await publicUpdatesPages(s.db, campaign.slug, { updates: cursor })).updates.rows).toEqual(first.updates.rows);
    }
    // Another campaign's update as the cursor: nothing of this campaign is after it.
    const other = await busyCampaign();
    const foreign = (await publicUpdatesPages(s.db, other.slug, {})).updates.next!;
    expect((await publicUpdatesPages(s.db, campaign.slug, { updates: foreign })).updates).toEqual({ rows: [], next: null, prev: null });
    // The same for "Previous": another campaign's row reads nothing, with neither link; garbage reads the first page.
    expect((await publicUpdatesPages(s.db, campaign.slug, { updatesBefore: foreign })).updates).toEqual({
      rows: [],
      next: null,
      prev: null,
    });
    const foreignWords = (await publicUpdatesPages(s.db, other.slug, {})).words.next!;
    expect((await publicUpdatesPages(s.db, campaign.slug, { wordsBefore: foreignWords })).words).toEqual({
      rows: [],
      next: null,
      prev: null,
    });
    expect((await publicUpdatesPages(s.db, campaign.slug, { updatesBefore: "'; drop table campaign_updates; --" })).updates).toEqual(
      first.updates,
    );
    expect(await failure(publicUpdatesPages(s.db, "no-such-campaign", {}))).toMatchObject({ kind: "not_found" });
  });

  it("is linked from the campaign's page and pages with plain links, in English and Urdu", async () => {
    const campaign = await busyCampaign();
    const page = await (await t.request(`/campaign/${campaign.slug}`)).text();
    const older = page.match(/href="([^"]*\/updates\?updates=[^"#]*#updates)"/)?.[1];
    expect(older, "the link to older updates").toBeDefined();
    expect(page).toMatch(/href="[^"]*\/updates\?words=[^"#]*#words"[^>]*>More words of support</);
    const second = await t.request(older!.replaceAll("&amp;", "&"));
    expect(second.status).toBe(200);
    const html = await second.text();
    expect(html).toContain(`Update number ${UPDATES - PUBLIC_UPDATES_SHOWN - 1}`);
    expect(html).not.toContain(`Update number ${UPDATES - 1}<`);
    expect(html).toContain("Newest updates");
    // The second page has a "Previous" (to the first page); the words' list, on its first page, has none.
    const nav = (label: string) =>
      html.slice(html.indexOf(`aria-label="${label}"`), html.indexOf("</nav>", html.indexOf(`aria-label="${label}"`)));
    expect(nav("Pages of updates")).toMatch(/<a [^>]*rel="prev"[^>]*>Previous</);
    expect(nav("Pages of words of support")).not.toContain("Previous");
    const ur = await (await t.request(`/campaign/${campaign.slug}/updates`, { headers: { cookie: `${LANG_COOKIE}=ur` } })).text();
    expect(ur).toContain("پرانی تازہ خبریں");
    expect((await t.request(`/campaign/${campaign.slug}/updates.data`)).status).toBe(200);
    expect((await t.request(`/campaign/no-such-campaign/updates`)).status).toBe(404);
  });
});
