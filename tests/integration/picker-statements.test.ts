import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import pg from "pg";
import {
  PICKER_SHAPES,
  pickerCampaignsAfter,
  pickerStatementText,
  preparedPickerShapes,
  type BrowseKind,
  type PickerFilter,
} from "#server/domain/donations/picker.ts";
import { statementName } from "#server/db/client.ts";
import { ngoChecks } from "#server/db/schema.ts";
import { createSession, findSessionUser } from "#server/domain/accounts/sessions.ts";
import { givePaymentAccounts, makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * The picker's statement is prepared once per shape and run with each request's values (decision 037, session 20).
 * These hold every shape's prepared statement to the statement built afresh for the request's values: the same SQL
 * text, the same parameters, the same page (cards, NGOs, checks, count, links), and the prepared statements to at most
 * PICKER_SHAPES for a database handle, however many values they are run with.
 */
let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => {
  await s?.close();
});

const token = () => `z${randomUUID().replace(/-/g, "").slice(0, 10)}`;
const DAY = 24 * 3600 * 1000;

type Opts = PickerFilter & { after?: string | null; before?: string | null };

describe("the picker's prepared statements", () => {
  it("give every shape the SQL, parameters and page the statement built afresh gives, and no more shapes than PICKER_SHAPES", async () => {
    const { db } = s;
    const tag = token();
    const payable = await makeUser(db, "ngo", { name: `Roshni ${tag} Trust` });
    await givePaymentAccounts(db, payable.id);
    const unpayable = await makeUser(db, "ngo", { name: `Saaya ${tag}` });
    const partner = await makeUser(db, "ngo", { name: `Alif ${tag}` });
    await givePaymentAccounts(db, partner.id);
    // A standing check of the payable owner's, valid on the day the pages are read, lapsed 40 days later.
    await db
      .insert(ngoChecks)
      .values({ ngoId: payable.id, kind: "tax_exemption", reference: `FBR/${tag}`, checkedOn: "2025-01-01", expiresOn: "2025-06-30" });
    const base = Date.parse("2025-03-01T00:00:00Z");
    const made = [];
    for (let i = 0; i < 16; i += 1) {
      made.push(
        await makeCampaign(db, i % 3 === 2 ? unpayable.id : payable.id, {
          // Two pairs created at the same moment: ties go by id.
          title: i % 4 === 1 ? `Meals in Gulberg ${i}` : `Wells ${tag} ${i}`,
          cause: i % 2 === 0 ? "water" : "food",
          acceptedFunds: i % 3 === 0 ? ["zakat", "general"] : ["general"],
          locationLabel: i % 4 === 1 ? "Gulberg, Lahore, Punjab" : `Mithi ${tag}, Tharparkar`,
          createdAt: new Date(base + (i === 5 || i === 9 ? 4 : i) * 60_000),
          partners: i % 5 === 0 ? [partner.id] : [],
        }),
      );
    }
    await makeCampaign(db, payable.id, { title: `Done ${tag}`, status: "completed", completedAt: new Date(), createdAt: new Date(base) });
    const newest = [...made].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : 1));
    const cursors: Record<string, Pick<Opts, "after" | "before">> = {
      top: {},
      after: { after: newest[3]!.id },
      before: { before: newest[13]!.id },
    };
    const searches: Record<string, Pick<Opts, "q" | "place">> = {
      none: {},
      words: { q: tag },
      place1: { q: tag, place: { name: "Lahore" } },
      place2: { q: tag, place: { name: "Lahore", nameUr: "لاہور" } },
    };
    const now = new Date("2025-06-30T12:00:00Z");

    expect(preparedPickerShapes(db)).toBe(0);
    let pages = 0;
    let cards = 0;
    let checked = 0;
    for (const kind of ["cash", "goods", "browse"] as BrowseKind[])
      for (const search of Object.values(searches))
        for (const cause of [undefined, "water" as const])
          for (const zakatOnly of [false, true])
            for (const cursor of Object.values(cursors)) {
              const opts: Opts = { kind, ...search, cause, zakatOnly, ...cursor };
              const fresh = pickerStatementText(db, opts, now, "fresh");
              expect(pickerStatementText(db, opts, now, "prepared")).toEqual(fresh);
              // The goods picker's statement is the landing page's (the same text, above): its pages are read once.
              if (kind === "browse") continue;
              const page = await pickerCampaignsAfter(db, opts, now, "prepared");
              expect(page).toEqual(await pickerCampaignsAfter(db, opts, now, "fresh"));
              pages += 1;
              cards += page.rows.length;
              checked += page.rows.filter((r) => r.ownerChecks.length > 0).length;
            }
    // The pages compared are not empty ones: most shapes find cards, some with the owner's check.
    expect(pages).toBe(2 * 4 * 2 * 2 * 3);
    expect(cards).toBeGreaterThan(pages);
    expect(checked).toBeGreaterThan(0);
    // Every shape was met (the goods picker and the landing page share theirs), and no more were prepared.
    expect(preparedPickerShapes(db)).toBe(PICKER_SHAPES);

    // Other values of the same shapes (words, places, a cause, cursors, days) prepare nothing more.
    for (const q of [`wells ${tag}`, "gulberg", "50%_", "لاہور"])
      for (const cause of [undefined, "food" as const])
        for (const after of [null, newest[1]!.id, randomUUID(), "not a uuid"]) {
          const opts: Opts = { kind: "cash", q, cause, after, place: q === "gulberg" ? { name: "Gulberg", nameUr: "گلبرگ" } : null };
          const later = new Date(now.getTime() + 40 * DAY);
          expect(await pickerCampaignsAfter(db, opts, later)).toEqual(await pickerCampaignsAfter(db, opts, later, "fresh"));
        }
    expect(preparedPickerShapes(db)).toBe(PICKER_SHAPES);
  });

  it("runs each request's values, not the first request's: the day, the search, the cursor", async () => {
    const { db } = s;
    const tag = token();
    const ngo = await makeUser(db, "ngo");
    await givePaymentAccounts(db, ngo.id);
    await db
      .insert(ngoChecks)
      .values({ ngoId: ngo.id, kind: "pcp", reference: `PCP/${tag}`, checkedOn: "2025-01-01", expiresOn: "2025-06-30" });
    const base = Date.parse("2025-04-01T00:00:00Z");
    const titles = Array.from({ length: 8 }, (_, i) => `Shelter ${tag} ${i}`);
    for (const [i, title] of titles.entries()) await makeCampaign(db, ngo.id, { title, createdAt: new Date(base + i * 60_000) });
    const other = token();
    await makeCampaign(db, ngo.id, { title: `Shelter ${other}`, createdAt: new Date(base) });

    const onDay = async (day: string, q: string, after?: string | null) =>
      pickerCampaignsAfter(db, { kind: "cash", q, after }, new Date(`${day}T12:00:00Z`));
    const first = await onDay("2025-06-30", tag);
    expect(first.rows.map((r) => r.title)).toEqual(titles.slice(2).reverse());
    expect(first.rows.every((r) => r.ownerChecks.join() === "pcp")).toBe(true);
    // The next day, the same shape: the check has lapsed.
    const next = await onDay("2025-07-01", tag);
    expect(next.rows.map((r) => r.id)).toEqual(first.rows.map((r) => r.id));
    expect(next.rows.every((r) => r.ownerChecks.length === 0)).toBe(true);
    // Another search of the same shape finds its own campaign; another cursor its own page.
    expect((await onDay("2025-07-01", other)).rows.map((r) => r.title)).toEqual([`Shelter ${other}`]);
    const second = await onDay("2025-07-01", tag, first.next);
    expect(second.rows.map((r) => r.title)).toEqual([titles[1], titles[0]]);
    expect(second.prev).toBe("first");
    // A statement's text does not hold a request's values: they are its parameters.
    const text = pickerStatementText(db, { kind: "cash", q: tag, after: first.next }, new Date(), "prepared");
    expect(text.sql).not.toContain(tag);
    expect(text.sql).not.toContain(first.next!);
    expect(text.params).toContain(`%${tag}%`);
    expect(text.params).toContain(first.next);
    // And the rows are the database's: a campaign closed since leaves the prepared statement's page.
    await db.execute(sql`update campaigns set status = 'completed', completed_at = now() where title = ${titles[7]}`);
    expect((await onDay("2025-07-01", tag)).rows.map((r) => r.title)).toEqual(titles.slice(1, 7).reverse());
  });
});

/**
 * On PostgreSQL the statements every request runs are named, so each connection parses and plans them once (decision
 * 037, session 21); a deployment behind a PgBouncer that cannot keep named statements says so and gets them unnamed,
 * as does a transaction's handle. The embedded database never names them.
 */
describe("the names the statements of every request are prepared under", () => {
  /** The names node-postgres (or PGlite) was asked to run statements under while `run` ran. */
  async function namesDuring(db: TestServices["db"], run: () => Promise<unknown>): Promise<string[]> {
    const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const query = client.query;
    const names: string[] = [];
    client.query = function (this: unknown, ...args: unknown[]) {
      const config = args[0];
      names.push(typeof config === "object" && config !== null && "name" in config ? String(config.name ?? "") : "");
      return query.apply(this, args);
    };
    try {
      await run();
    } finally {
      client.query = query;
    }
    return names;
  }

  const onPostgres = process.env.TEST_DB === "postgres";

  it("are the session's lookup and the picker's shape on PostgreSQL, and run with each request's values", async () => {
    const { db } = s;
    const donor = await makeUser(db, "donor");
    const { token: cookie } = await createSession(db, donor.id);
    const names = await namesDuring(db, async () => {
      for (let i = 0; i < 8; i += 1) expect((await findSessionUser(db, cookie))?.id).toBe(donor.id);
      expect(await findSessionUser(db, `${cookie}x`)).toBeNull();
      for (let i = 0; i < 8; i += 1)
        await pickerCampaignsAfter(db, { kind: "cash", q: i % 2 ? "wells" : undefined, zakatOnly: i % 4 === 0 });
    });
    expect(names).toHaveLength(9 + 8);
    if (onPostgres) {
      // Each name ends in a digest of its SQL text (nameWithDigest).
      expect(names[0]).toMatch(/^session_user\/[\w-]{12}$/);
      expect(names.slice(0, 9)).toEqual(Array(9).fill(names[0]));
      expect(new Set(names.slice(9).map((n) => n.replace(/\/[\w-]{12}$/, "")))).toEqual(
        new Set(["picker/cash/all//zakat/top", "picker/cash/q0///top", "picker/cash/all///top"]),
      );
      expect(new Set(names.slice(9)).size).toBe(3);
    } else {
      expect(new Set(names)).toEqual(new Set([""]));
    }
    // In a transaction, unnamed: its handle is not the database's. Its statements go through the transaction's own
    // connection, not the pool, so they are watched there.
    if (onPostgres) {
      const query = pg.Client.prototype.query;
      const inTransaction: string[] = [];
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const config = args[0];
        inTransaction.push(typeof config === "object" && config !== null && "name" in config ? String(config.name ?? "") : "");
        return (query as (...a: unknown[]) => unknown).apply(this, args);
      } as typeof query;
      try {
        expect((await db.transaction((tx) => findSessionUser(tx, cookie)))?.id).toBe(donor.id);
      } finally {
        pg.Client.prototype.query = query;
      }
      // BEGIN, the lookup, COMMIT.
      expect(inTransaction).toEqual(["", "", ""]);
    }
  });

  it.runIf(onPostgres)("are named by another copy of the database module (the built routes hold their own)", async () => {
    // The server opens the database with its copy of server/db/client.ts; the routes, in the React Router build, name
    // their statements with theirs. A module of its own under another address, as the build's is.
    const address = "#server/db/client.ts?the-routes-copy";
    const copy = (await import(/* @vite-ignore */ address)) as typeof import("#server/db/client.ts");
    expect(copy.statementName).not.toBe(statementName);
    const statement = { toSQL: () => ({ sql: "select 1" }) };
    expect(copy.statementName(s.db, "session_user", statement)).toBe(statementName(s.db, "session_user", statement));
    expect(copy.statementName(s.db, "session_user", statement)).toMatch(/^session_user\/[\w-]{12}$/);
  });

  it.runIf(onPostgres)("are left unnamed where the deployment says its PgBouncer cannot keep them", async () => {
    const unnamed = await createTestServices({ DATABASE_PREPARED_STATEMENTS: "unnamed" });
    try {
      const donor = await makeUser(unnamed.db, "donor");
      const { token: cookie } = await createSession(unnamed.db, donor.id);
      const names = await namesDuring(unnamed.db, async () => {
        expect((await findSessionUser(unnamed.db, cookie))?.id).toBe(donor.id);
        await pickerCampaignsAfter(unnamed.db, { kind: "cash" });
      });
      expect(names).toEqual(["", ""]);
    } finally {
      await unnamed.close();
    }
  });
});
