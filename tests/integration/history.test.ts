import { eq, inArray, sql } from "drizzle-orm";
import { PDFParse } from "pdf-parse";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { pakistanTimestamp } from "#shared/format.ts";
import type { Actor } from "#server/domain/policy.ts";
import { campaigns, donations, donorProfiles, mailOutbox, ngoProfiles, pickups } from "#server/db/schema.ts";
import { decideCashDonation } from "#server/domain/donations/cash.ts";
import { campaignTitleDrift, repairCampaignTitles } from "#server/domain/donations/campaign-titles.ts";
import {
  csvCell,
  csvLine,
  CSV_COLUMNS,
  EXPORT_BATCH_SIZE,
  donorHistory,
  donorHistoryCursorAt,
  ngoHistory,
  ngoHistoryCampaigns,
  ngoHistoryCsv,
  ngoHistoryCsvBatches,
  ngoHistoryCursorAt,
  ngoHistoryQuery,
  ngoHistoryTotals,
  historyChoices,
  parseNgoHistoryFilter,
  type NgoHistoryFilter,
} from "#server/domain/donations/history.ts";
import {
  amountInWords,
  formatReceiptNumber,
  receiptFileName,
  receiptFor,
  renderReceiptPdf,
  type ReceiptActor,
} from "#server/domain/donations/receipts.ts";
import { cancelPickup, confirmReceived, pickupsOfDonor } from "#server/domain/pickups/pickups.ts";
import { makeCampaign, makeDonation, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { failureKind } from "#tests/helpers/failure.ts";
import { walkBack } from "#tests/helpers/keyset-walk.ts";

const en = serverI18n("en").t;
const ur = serverI18n("ur").t;

/** A moment `minutes` after a fixed start, so "newest first" never depends on insert timing. */
const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 8, 0) + minutes * 60_000);

/** Titles are unique among active campaigns: each scene gets its own suffix. */
const uniq = (title: string) => `${title} ${Math.random().toString(36).slice(2, 7)}`;

const filter = (f: Partial<NgoHistoryFilter> = {}): NgoHistoryFilter => ({
  kind: "cash",
  campaignId: null,
  status: null,
  sort: "newest",
  ...f,
});

/** Each order of the NGO's history as a plain query states it (`d` the donations, `c` their campaigns). */
const PLAIN_ORDERS: Record<NgoHistoryFilter["sort"], ReturnType<typeof sql>> = {
  newest: sql`d.created_at desc, d.id desc`,
  oldest: sql`d.created_at asc, d.id asc`,
  amountDesc: sql`d.amount desc, d.created_at desc, d.id desc`,
  amountAsc: sql`d.amount asc, d.created_at asc, d.id asc`,
  campaign: sql`lower(c.title) asc, c.id asc, d.created_at asc, d.id asc`,
};

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

/** A small RFC 4180 reader for the tests: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  if (cell !== "" || row.length > 0) throw new Error(`unterminated CSV row: ${JSON.stringify(row)} ${JSON.stringify(cell)}`);
  return rows;
}

describe("donation histories and receipts", () => {
  let s: TestServices;
  const touched = new Set<string>();
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  // Reconciliation after every scenario: a campaign's collected amount is the sum of its approved cash.
  afterEach(async () => {
    for (const id of touched) {
      const [c] = await s.db.select({ collected: campaigns.collectedAmount }).from(campaigns).where(eq(campaigns.id, id));
      const [sum] = await s.db
        .select({ n: sql<number>`coalesce(sum(${donations.amount}), 0)`.mapWith(Number) })
        .from(donations)
        .where(sql`${donations.campaignId} = ${id} and ${donations.status} = 'approved' and ${donations.kind} = 'cash'`);
      expect(c!.collected, `campaign ${id} reconciles`).toBe(sum!.n);
    }
    touched.clear();
  });

  async function campaign(ownerId: string, opts: Parameters<typeof makeCampaign>[2] = {}) {
    const c = await makeCampaign(s.db, ownerId, { targetAmount: 100_000_000, ...opts });
    touched.add(c.id);
    return c;
  }
  const approve = (ngoId: string, donationId: string) => decideCashDonation(s, { id: ngoId, role: "ngo" }, { donationId, approve: true });
  const reject = (ngoId: string, donationId: string, reason: string) =>
    decideCashDonation(s, { id: ngoId, role: "ngo" }, { donationId, approve: false, reason });
  /** The receipt number a donor sees for an NGO's `n`th receipt: the NGO's prefix and the count. */
  async function receiptOf(ngoId: string, n: number) {
    const [row] = await s.db.select({ series: ngoProfiles.receiptSeries }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngoId));
    return formatReceiptNumber(row!.series, n);
  }

  describe("the donor's history", () => {
    it("shows only the donor's own donations, newest first, with states, reasons and receipts", async () => {
      const ngo = await makeUser(s.db, "ngo", { name: "Roshni Trust" });
      const donor = await makeUser(s.db, "donor");
      const other = await makeUser(s.db, "donor");
      const c = await campaign(ngo.id, { title: uniq("Clean water Tharparkar") });
      const approved = await makeDonation(s.db, c, donor.id, { amount: 5000, createdAt: at(1) });
      const rejected = await makeDonation(s.db, c, donor.id, { amount: 700, createdAt: at(2) });
      const pending = await makeDonation(s.db, c, donor.id, { amount: 300, method: "bank", createdAt: at(3) });
      const inKind = await makeDonation(s.db, c, donor.id, { kind: "in_kind", items: "Blankets, 10", createdAt: at(4) });
      const theirs = await makeDonation(s.db, c, other.id, { amount: 9999, createdAt: at(5) });
      const outcome = await approve(ngo.id, approved.id);
      await reject(ngo.id, rejected.id, "No such transfer reached our JazzCash account.");
      await approve(ngo.id, theirs.id);

      const list = await donorHistory(s.db, donor);
      expect(list.total).toBe(4);
      expect(list.rows.map((r) => r.id)).toEqual([inKind.id, pending.id, rejected.id, approved.id]);
      const byId = new Map(list.rows.map((r) => [r.id, r]));
      expect(byId.get(approved.id)).toMatchObject({
        status: "approved",
        amount: 5000,
        method: "jazzcash",
        kind: "cash",
        campaignTitle: c.title,
        campaignSlug: c.slug,
        campaignArchived: false,
        ngoName: "Roshni Trust",
        receiptNumber: await receiptOf(ngo.id, outcome.receiptNumber!),
        rejectionReason: null,
      });
      expect(byId.get(rejected.id)).toMatchObject({
        status: "rejected",
        rejectionReason: "No such transfer reached our JazzCash account.",
        receiptNumber: null,
      });
      expect(byId.get(pending.id)).toMatchObject({ status: "pending", method: "bank", receiptNumber: null });
      expect(byId.get(inKind.id)).toMatchObject({
        kind: "in_kind",
        items: "Blankets, 10",
        amount: null,
        method: null,
        receiptNumber: null,
      });

      const theirList = await donorHistory(s.db, other);
      expect(theirList.rows.map((r) => r.id)).toEqual([theirs.id]);
    });

    it("pages a long history and marks donations to archived campaigns", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const c = await campaign(ngo.id);
      for (let i = 0; i < 12; i++) await makeDonation(s.db, c, donor.id, { amount: 100 + i, createdAt: at(i) });
      await s.db.update(campaigns).set({ status: "archived", archivedAt: new Date() }).where(eq(campaigns.id, c.id));
      const first = await donorHistory(s.db, donor);
      expect(first).toMatchObject({ total: 12, next: first.rows[9]!.id });
      const second = await donorHistory(s.db, donor, { after: first.next });
      expect(first.rows).toHaveLength(10);
      expect(second).toMatchObject({ next: null, total: 12 });
      expect(second.rows.map((r) => r.amount)).toEqual([101, 100]);
      // An old numbered link: page 2 starts after the last row of page 1; a page past the end leads to the first.
      expect(await donorHistoryCursorAt(s.db, donor, 2)).toBe(first.next);
      expect(await donorHistoryCursorAt(s.db, donor, 3)).toBeNull();
      expect(await donorHistoryCursorAt(s.db, donor, 1)).toBeNull();
      expect(first.rows.every((r) => r.campaignArchived)).toBe(true);
    });

    it("pages in the order of time then id, ties across pages included, each row with its own campaign and NGO", async () => {
      const [ngoA, ngoB] = [await makeUser(s.db, "ngo", { name: "Alif Trust" }), await makeUser(s.db, "ngo", { name: "Bay Trust" })];
      const donor = await makeUser(s.db, "donor");
      const other = await makeUser(s.db, "donor");
      const cs = [await campaign(ngoA.id), await campaign(ngoB.id), await campaign(ngoA.id)];
      // 25 gifts, three at each moment (ties on created_at fall across the pages' edges), another donor's in between.
      for (let i = 0; i < 25; i++) {
        const c = cs[i % 3]!;
        await makeDonation(s.db, c, donor.id, { amount: 1000 + i, createdAt: at(Math.floor(i / 3)) });
        await makeDonation(s.db, c, other.id, { amount: 5000 + i, createdAt: at(Math.floor(i / 3)) });
      }
      const expected = await s.db
        .select({ id: donations.id, campaignId: donations.campaignId, amount: donations.amount })
        .from(donations)
        .where(eq(donations.donorId, donor.id))
        .orderBy(sql`${donations.createdAt} desc, ${donations.id} desc`);
      const seen = [];
      const pages = [];
      let after: string | null = null;
      for (let page = 1; page <= 3; page++) {
        const list = await donorHistory(s.db, donor, { after });
        seen.push(...list.rows);
        pages.push(list);
        expect(await donorHistoryCursorAt(s.db, donor, page), `page ${page}`).toBe(after);
        after = list.next;
      }
      expect(after).toBeNull();
      expect(seen.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      // Back by "Previous" from the last page: the same pages, the same links.
      await walkBack(pages, (cursor) => donorHistory(s.db, donor, cursor), "donor");
      const title = new Map(cs.map((c) => [c.id, c.title]));
      expect(seen.map((r) => [r.campaignTitle, r.ngoName, r.amount])).toEqual(
        expected.map((r) => [title.get(r.campaignId), r.campaignId === cs[1]!.id ? "Bay Trust" : "Alif Trust", Number(r.amount)]),
      );
      // A cursor that is not the donor's (another donor's gift, an unknown id) gives an empty page; one that is not an id, the first.
      const theirs = (await donorHistory(s.db, other)).rows[0]!.id;
      expect(await donorHistory(s.db, donor, { after: theirs })).toMatchObject({ rows: [], next: null, total: 25 });
      expect(await donorHistory(s.db, donor, { after: "00000000-0000-4000-8000-000000000000" })).toMatchObject({ rows: [], next: null });
      expect((await donorHistory(s.db, donor, { after: "1' or '1'='1" })).rows.map((r) => r.id)).toEqual(
        expected.slice(0, 10).map((r) => r.id),
      );
      // The same for "Previous": another donor's gift (the last of theirs, with 24 of theirs before it) or an unknown id
      // reads nothing, with neither link; garbage reads the first page.
      const theirLast = (
        await s.db
          .select({ id: donations.id })
          .from(donations)
          .where(eq(donations.donorId, other.id))
          .orderBy(sql`${donations.createdAt}, ${donations.id}`)
      )[0]!.id;
      for (const forged of [theirLast, "00000000-0000-4000-8000-000000000000"]) {
        expect(await donorHistory(s.db, donor, { before: forged }), forged).toMatchObject({ rows: [], next: null, prev: null, total: 25 });
      }
      expect(await donorHistory(s.db, donor, { before: "1' or '1'='1" })).toMatchObject({ prev: null, next: expected[9]!.id });
    });

    it("is empty for a donor who has not given", async () => {
      const donor = await makeUser(s.db, "donor");
      expect(await donorHistory(s.db, donor)).toMatchObject({ rows: [], total: 0, next: null });
    });
  });

  describe("the NGO's history", () => {
    async function scene() {
      const owner = await makeUser(s.db, "ngo", { name: "Owner Welfare" });
      const partner = await makeUser(s.db, "ngo", { name: "Partner Trust" });
      const alice = await makeUser(s.db, "donor", { name: "Alice" });
      const bilal = await makeUser(s.db, "donor", { name: "Bilal" });
      const joint = await campaign(owner.id, { title: uniq("Zebra flood relief"), partners: [partner.id] });
      const solo = await campaign(owner.id, { title: uniq("apple orchards school") });
      const toPartner = { id: joint.id, ownerId: partner.id };
      const d = {
        a: await makeDonation(s.db, joint, alice.id, { amount: 3000, createdAt: at(1) }),
        b: await makeDonation(s.db, solo, bilal.id, { amount: 12000, createdAt: at(2) }),
        c: await makeDonation(s.db, joint, bilal.id, { amount: 500, createdAt: at(3) }),
        d: await makeDonation(s.db, solo, alice.id, { amount: 8000, createdAt: at(4) }),
        e: await makeDonation(s.db, solo, alice.id, { kind: "in_kind", items: "Rice", createdAt: at(5) }),
        partnerOnly: await makeDonation(s.db, toPartner, alice.id, { amount: 77_000, createdAt: at(6) }),
      };
      await approve(owner.id, d.a.id);
      await approve(owner.id, d.b.id);
      await reject(owner.id, d.c.id, "Amount did not match");
      await approve(partner.id, d.partnerOnly.id);
      return { owner, partner, joint, solo, d };
    }

    it("lists only donations paid to this NGO: a partner's donations on a joint campaign stay in the partner's history", async () => {
      const { owner, partner, joint, solo, d } = await scene();
      const list = await ngoHistory(s.db, owner, filter());
      expect(list.rows.map((r) => r.id)).toEqual([d.d.id, d.c.id, d.b.id, d.a.id]);
      expect(list.rows.find((r) => r.id === d.c.id)).toMatchObject({ status: "rejected", rejectionReason: "Amount did not match" });
      expect(list.rows.find((r) => r.id === d.a.id)).toMatchObject({
        donorName: "Alice Donor",
        receiptNumber: await receiptOf(owner.id, 1),
      });
      expect(list.rows.find((r) => r.id === d.b.id)?.receiptNumber).toBe(await receiptOf(owner.id, 2));
      // Goods are on their own list.
      expect((await ngoHistory(s.db, owner, filter({ kind: "goods" }))).rows.map((r) => r.id)).toEqual([d.e.id]);

      const theirs = await ngoHistory(s.db, partner, filter());
      expect(theirs.rows.map((r) => r.id)).toEqual([d.partnerOnly.id]);
      // Both NGOs issued their first receipt; the numbers a donor sees still differ.
      expect(theirs.rows[0]!.receiptNumber).toBe(await receiptOf(partner.id, 1));
      expect(theirs.rows[0]!.receiptNumber).not.toBe(list.rows.find((r) => r.id === d.a.id)?.receiptNumber);

      expect(await ngoHistoryCampaigns(s.db, owner)).toEqual([
        { id: solo.id, title: solo.title },
        { id: joint.id, title: joint.title },
      ]);
      expect(await ngoHistoryCampaigns(s.db, partner)).toEqual([{ id: joint.id, title: joint.title }]);
    });

    it("filters by campaign and state, with totals of the filter", async () => {
      const { owner, joint, solo, d } = await scene();
      const ids = async (f: Partial<NgoHistoryFilter>) => (await ngoHistory(s.db, owner, filter(f))).rows.map((r) => r.id);
      expect(await ids({ campaignId: joint.id })).toEqual([d.c.id, d.a.id]);
      expect(await ids({ campaignId: solo.id })).toEqual([d.d.id, d.b.id]);
      expect(await ids({ status: "approved" })).toEqual([d.b.id, d.a.id]);
      expect(await ids({ status: "pending" })).toEqual([d.d.id]);
      expect(await ids({ campaignId: joint.id, status: "rejected" })).toEqual([d.c.id]);

      // Cash totals count cash only; the tabs count each kind.
      expect(await ngoHistoryTotals(s.db, owner, filter())).toEqual({
        kinds: { cash: 4, goods: 1 },
        approvedAmount: 15_000,
        pendingAmount: 8_000,
        openCount: 0,
        counts: { pending: 1, approved: 2, rejected: 1 },
        count: 4,
        byFund: [{ fund: "general", n: 4, approvedAmount: 15_000, pendingAmount: 8_000 }],
      });
      expect(await ngoHistoryTotals(s.db, owner, filter({ campaignId: joint.id }))).toEqual({
        kinds: { cash: 2, goods: 0 },
        approvedAmount: 3_000,
        pendingAmount: 0,
        openCount: 0,
        counts: { pending: 0, approved: 1, rejected: 1 },
        count: 2,
        byFund: [{ fund: "general", n: 2, approvedAmount: 3_000, pendingAmount: 0 }],
      });
      expect(await ngoHistoryTotals(s.db, owner, filter({ status: "pending" }))).toMatchObject({
        approvedAmount: 0,
        pendingAmount: 8_000,
        count: 1,
      });
    });

    it("sorts cash newest, oldest, by amount both ways and by campaign A–Z", async () => {
      const { owner, d } = await scene();
      const ids = async (sort: NgoHistoryFilter["sort"]) => (await ngoHistory(s.db, owner, filter({ sort }))).rows.map((r) => r.id);
      expect(await ids("newest")).toEqual([d.d.id, d.c.id, d.b.id, d.a.id]);
      expect(await ids("oldest")).toEqual([d.a.id, d.b.id, d.c.id, d.d.id]);
      expect(await ids("amountDesc")).toEqual([d.b.id, d.d.id, d.a.id, d.c.id]);
      expect(await ids("amountAsc")).toEqual([d.c.id, d.a.id, d.d.id, d.b.id]);
      // "apple orchards school" before "Zebra flood relief" (case-insensitive), each campaign's gifts oldest first.
      expect(await ids("campaign")).toEqual([d.b.id, d.d.id, d.a.id, d.c.id]);
    });

    it("reads the filter from the query string, ignoring anything unknown", () => {
      const id = "3f1d8c1e-9a8b-4c1d-8f2e-0a1b2c3d4e5f";
      expect(parseNgoHistoryFilter(new URLSearchParams(`campaign=${id}&status=approved&sort=amountAsc`))).toEqual({
        kind: "cash",
        campaignId: id,
        status: "approved",
        sort: "amountAsc",
      });
      expect(parseNgoHistoryFilter(new URLSearchParams("campaign=1%27%20or%201=1&status=paid&sort=drop&kind=x"))).toEqual(filter());
      // Each kind has its own states and sorts: a pick-up state of cash, or an amount sort of goods, is ignored.
      expect(parseNgoHistoryFilter(new URLSearchParams("status=collected"))).toEqual(filter());
      expect(parseNgoHistoryFilter(new URLSearchParams("kind=goods&status=collected&sort=amountAsc"))).toEqual(
        filter({ kind: "goods", status: "collected" }),
      );
      expect(parseNgoHistoryFilter(new URLSearchParams("kind=goods&status=approved"))).toEqual(filter({ kind: "goods" }));
      expect(ngoHistoryQuery(filter({ campaignId: id, status: "rejected", sort: "oldest" }))).toBe(
        `?campaign=${id}&status=rejected&sort=oldest`,
      );
      expect(ngoHistoryQuery(filter({ kind: "goods", status: "new" }))).toBe("?kind=goods&status=new");
      expect(ngoHistoryQuery(filter())).toBe("");
    });
  });

  describe("the CSV export", () => {
    it("quotes every cell, doubles quotes and guards against formulas", () => {
      expect(csvCell("plain")).toBe('"plain"');
      expect(csvCell('a "b", c\nd')).toBe('"a ""b"", c\nd"');
      expect(csvCell(1500)).toBe('"1500"');
      expect(csvCell(null)).toBe('""');
      for (const bad of ['=HYPERLINK("http://x")', "+92300", "-1+1", "@SUM(A1)", "\tcmd", "\rcmd"]) {
        expect(csvCell(bad).startsWith(`"'`), bad).toBe(true);
      }
      expect(csvCell("a=b")).toBe('"a=b"');
    });

    it("exports the filtered rows with a BOM, translated headings and escaped, guarded cells", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const c = await campaign(ngo.id, { title: uniq('Roof, walls and "doors"') });
      const other = await campaign(ngo.id);
      await s.db
        .update(donorProfiles)
        .set({ firstName: '=cmd|"/c calc"!A1', lastName: "Khan,\nJr" })
        .where(eq(donorProfiles.userId, donor.id));
      const approved = await makeDonation(s.db, c, donor.id, { amount: 2500, transactionId: "TX12345", createdAt: at(1) });
      const rejected = await makeDonation(s.db, c, donor.id, { amount: 40, createdAt: at(2) });
      await makeDonation(s.db, other, donor.id, { amount: 99, createdAt: at(3) });
      await approve(ngo.id, approved.id);
      await reject(ngo.id, rejected.id, '-bad "proof", line one\nline two');

      const text = await readAll(ngoHistoryCsv(s.db, ngo, filter({ campaignId: c.id, sort: "oldest" }), en));
      expect(text.charCodeAt(0)).toBe(0xfeff);
      const rows = parseCsv(text.slice(1));
      expect(rows[0]).toEqual([
        "Date (Pakistan time, UTC+05:00)",
        "Kind",
        "Receipt number",
        "Campaign",
        "Donor name",
        "Donor email",
        "Method",
        "Amount (Rs.)",
        "Items",
        "Transaction ID",
        "State",
        "Reason",
        "Fund",
        "Name shown in public",
        "In the name of",
      ]);
      expect(rows).toHaveLength(3);
      expect(rows[1]).toEqual([
        // 2025-01-01 08:01 UTC is 13:01 on Pakistan's clock.
        "2025-01-01 13:01:00",
        "Cash",
        await receiptOf(ngo.id, 1),
        c.title,
        `'=cmd|"/c calc"!A1 Khan,\nJr`,
        donor.email,
        "JazzCash",
        "2500",
        "",
        "TX12345",
        "Approved",
        "",
        "General",
        "no",
        "",
      ]);
      expect(rows[2]![10]).toBe("Rejected");
      expect(rows[2]![11]).toBe(`'-bad "proof", line one\nline two`);

      const urdu = parseCsv((await readAll(ngoHistoryCsv(s.db, ngo, filter({ status: "approved" }), ur))).slice(1));
      expect(urdu[0]![0]).toBe(ur("history:csv.date"));
      expect(urdu[0]![0]).not.toBe("Date");
      expect(urdu.slice(1).map((r) => r[7])).toEqual(["2500"]);
    });

    it("exports every row across several batches, never more than one batch at a time", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const c = await campaign(ngo.id);
      const total = 1_200;
      // One statement: 1,200 single inserts (each with its tally's upsert) outlasted the test's time on a busy machine.
      await s.db.insert(donations).values(
        Array.from({ length: total }, (_, i) => ({
          campaignId: c.id,
          donorId: donor.id,
          recipientNgoId: ngo.id,
          kind: "cash" as const,
          amount: i + 1,
          method: "jazzcash" as const,
          createdAt: at(i),
        })),
      );

      const sizes: number[] = [];
      for await (const batch of ngoHistoryCsvBatches(s.db, ngo, filter(), en, 500)) sizes.push(batch.rows);
      expect(sizes).toEqual([500, 500, total - 2 * 500]);
      const whole: number[] = [];
      for await (const batch of ngoHistoryCsvBatches(s.db, ngo, filter(), en)) whole.push(batch.rows);
      expect(whole).toEqual([Math.min(total, EXPORT_BATCH_SIZE)]);

      const rows = parseCsv((await readAll(ngoHistoryCsv(s.db, ngo, filter({ sort: "amountAsc" }), en))).slice(1));
      expect(rows).toHaveLength(total + 1);
      expect(rows.slice(1).map((r) => Number(r[7]))).toEqual(Array.from({ length: total }, (_, i) => i + 1));

      const small = parseCsv((await readAll(ngoHistoryCsv(s.db, ngo, filter({ sort: "oldest" }), en, 7))).slice(1));
      expect(new Set(small.slice(1).map((r) => r[0])).size).toBe(total);
    });

    it("reads batch after batch by the last row's keys: rows with equal times (to the microsecond) and amounts across a batch's edge are neither lost nor repeated, in every order", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const first = await campaign(ngo.id, { title: uniq("Alpha wells") });
      const second = await campaign(ngo.id, { title: uniq("beta schools") });
      const total = 40;
      for (let i = 0; i < total; i++) {
        // The transaction ID names the row in the CSV.
        const d = await makeDonation(s.db, i % 2 ? first : second, donor.id, { amount: 100 * (1 + (i % 4)), transactionId: `TX${i}` });
        // Three rows share each time, which has microseconds (a JavaScript Date would drop them).
        await s.db
          .update(donations)
          .set({ createdAt: sql`timestamptz '2025-01-01 08:00:00.000123+00' + ${Math.floor(i / 3)} * interval '1 second'` })
          .where(eq(donations.id, d.id));
      }
      for (const sort of ["newest", "oldest", "amountDesc", "amountAsc", "campaign"] as const) {
        // The order as a plain query (the campaign's title from campaigns) is the reference; the list's pages, read by
        // keyset, and the export's batches both follow it.
        const expected = (
          (await s.db.execute(sql`select d.transaction_id as tx from ${donations} d join ${campaigns} c on c.id = d.campaign_id
            where d.recipient_ngo_id = ${ngo.id} and d.kind = 'cash' order by ${PLAIN_ORDERS[sort]}`)) as unknown as {
            rows: { tx: string }[];
          }
        ).rows.map((r) => r.tx);
        const paged: (string | null)[] = [];
        for (let after: string | null = null; ;) {
          const { rows, next } = await ngoHistory(s.db, ngo, filter({ sort }), { after });
          paged.push(...rows.map((r) => r.transactionId));
          if (!next) break;
          after = next;
        }
        expect(paged, sort).toEqual(expected);
        const sizes: number[] = [];
        let text = "";
        for await (const batch of ngoHistoryCsvBatches(s.db, ngo, filter({ sort }), en, 7)) {
          sizes.push(batch.rows);
          text += batch.text;
        }
        expect(paged, sort).toHaveLength(total);
        expect(sizes, sort).toEqual([7, 7, 7, 7, 7, 5]);
        expect(
          parseCsv(text).map((r) => r[9]),
          sort,
        ).toEqual(paged);
      }
    });

    /**
     * The export as it was written before PostgreSQL wrote its lines (decision 044): the list's rows, each formatted
     * by JavaScript. The reference the export's bytes are held to.
     */
    async function exportAsRows(ngo: Actor, f: NgoHistoryFilter, t: typeof en): Promise<string> {
      const label = (key: string, fallback?: string) => (fallback === undefined ? t(key) : t(key, { defaultValue: fallback }));
      const heading = (c: (typeof CSV_COLUMNS)[number]) =>
        label(c === "fund" || c === "showName" || c === "inNameOf" ? `funds:csv.${c}` : `history:csv.${c}`);
      let text = `\uFEFF${csvLine(CSV_COLUMNS.map(heading))}`;
      for (let after: string | null = null; ;) {
        const { rows, next } = await ngoHistory(s.db, ngo, f, { after });
        for (const row of rows) {
          const state =
            row.kind === "cash" || row.pickupStatus === null
              ? label(`donations:status.${row.status}`, row.status)
              : label(`pickups:status.${row.pickupStatus}`, row.pickupStatus);
          text += csvLine([
            pakistanTimestamp(row.createdAt),
            label(`history:ngo.kinds.${row.kind === "cash" ? "cash" : "goods"}`),
            row.receiptNumber,
            row.campaignTitle,
            row.donorName,
            row.donorEmail,
            row.method ? label(`donations:methods.${row.method}`, row.method) : "",
            row.amount,
            row.items,
            row.transactionId,
            state,
            row.rejectionReason,
            label(`funds:kinds.${row.fund}`, row.fund),
            label(row.showName ? "funds:csv.yes" : "funds:csv.no"),
            row.inNameOf,
          ]);
        }
        if (!next) break;
        after = next;
      }
      return text;
    }

    it("writes the same bytes as formatting the list's rows one by one, for awkward values, every sort, both kinds and both languages", async () => {
      const ngo = await makeUser(s.db, "ngo");
      // A series past three digits and a count past six: padded like padStart, never cut.
      await s.db
        .update(ngoProfiles)
        .set({ receiptSeries: sql`(select coalesce(max(${ngoProfiles.receiptSeries}), 0) + 1000 from ${ngoProfiles})` })
        .where(eq(ngoProfiles.userId, ngo.id));
      const plain = await makeUser(s.db, "donor");
      const awkward = await makeUser(s.db, "donor");
      await s.db.update(donorProfiles).set({ firstName: '@Ali, "the" ', lastName: "خان\nJr" }).where(eq(donorProfiles.userId, awkward.id));
      // A donor without a profile is named by the email.
      const bare = await makeUser(s.db, "donor");
      await s.db.delete(donorProfiles).where(eq(donorProfiles.userId, bare.id));
      // Made directly: the rows below are written as they are, not approved through the review (no collected amount to keep).
      const formula = await makeCampaign(s.db, ngo.id, { title: uniq('=1+1 "roof", walls') });
      const urdu = await makeCampaign(s.db, ngo.id, { title: uniq("صاف پانی، تھرپارکر") });
      const rows: Partial<typeof donations.$inferInsert>[] = [
        { amount: 2500, status: "approved", receiptNumber: 7, transactionId: "-TX1", fund: "zakat", showName: true },
        { amount: 1, status: "approved", receiptNumber: 1_234_567, method: "bank", inNameOf: "+92 والدہ", fund: "sadaqah" },
        { amount: 40, status: "rejected", rejectionReason: '\tline one\r\nline "two", three', method: "easypaisa" },
        { amount: 999_999_999, status: "pending", transactionId: "@SUM(A1)", inNameOf: 'Abba, "Ji"\n', fund: "fitrana" },
        { amount: 300, status: "approved", receiptNumber: null, showName: true },
      ];
      const times = [
        // Before 2010, on Pakistan's summer time of 2008 (UTC+06:00) and after it.
        sql`timestamptz '2008-06-01 18:30:00.5+00'`,
        sql`timestamptz '2009-12-31 18:59:59.999999+00'`,
        sql`timestamptz '2025-01-01 08:00:00.999999+00'`,
        sql`timestamptz '2025-01-01 08:00:00.999999+00'`,
        sql`timestamptz '2026-11-27 18:59:59+00'`,
      ];
      let i = 0;
      for (const c of [formula, urdu]) {
        for (const donor of [plain, awkward, bare]) {
          for (const [j, values] of rows.entries()) {
            // Receipt numbers are unique per NGO.
            const receiptNumber = values.receiptNumber ? values.receiptNumber + i : null;
            const d = await makeDonation(s.db, c, donor.id, { ...values, receiptNumber });
            await s.db
              .update(donations)
              .set({ createdAt: times[(i + j) % times.length]! })
              .where(eq(donations.id, d.id));
          }
          i++;
        }
      }
      for (const [j, items] of ["5 blankets, 2 quilts", '-1 "old" coat\nand shoes', "چاول، 20 کلو"].entries()) {
        const goods = await makePickup(s.db, j % 2 ? urdu : formula, awkward.id, { items, status: j === 1 ? "collected" : "new" });
        await s.db.update(donations).set({ createdAt: times[j]! }).where(eq(donations.id, goods.donation.id));
      }
      await makeDonation(s.db, urdu, plain.id, { kind: "in_kind", items: "=without a pick-up" });

      for (const t of [en, ur]) {
        for (const kind of ["cash", "goods"] as const) {
          for (const sort of historyChoices(kind).sorts) {
            const f = filter({ kind, sort });
            const expected = await exportAsRows(ngo, f, t);
            expect(expected.split("\r\n").length, `${kind} ${sort}`).toBeGreaterThan(kind === "cash" ? 30 : 4);
            expect(await readAll(ngoHistoryCsv(s.db, ngo, f, t, 4)), `${kind} ${sort}`).toBe(expected);
          }
        }
      }
      expect(await readAll(ngoHistoryCsv(s.db, ngo, filter({ status: "approved", campaignId: urdu.id }), ur))).toBe(
        await exportAsRows(ngo, filter({ status: "approved", campaignId: urdu.id }), ur),
      );
    });
  });

  describe("in-kind rows", () => {
    /** An NGO with a cash gift and three goods donations: one waiting, one received, one cancelled with a reason. */
    async function goodsScene() {
      const ngo = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const c = await campaign(ngo.id, { title: uniq("Winter clothes Quetta") });
      const cash = await makeDonation(s.db, c, donor.id, { amount: 1500, createdAt: at(1) });
      const waiting = await makePickup(s.db, c, donor.id, { items: "5 blankets, 2 quilts" });
      const received = await makePickup(s.db, c, donor.id, { items: "Rice, 20 kg", status: "delivered" });
      const cancelled = await makePickup(s.db, c, donor.id, { items: "Old shoes" });
      for (const [d, minutes] of [
        [waiting, 2],
        [received, 3],
        [cancelled, 4],
      ] as const) {
        await s.db
          .update(donations)
          .set({ createdAt: at(minutes) })
          .where(eq(donations.id, d.donation.id));
      }
      await confirmReceived(s, ngo, { donationId: received.donation.id, note: "All 20 kg" });
      await cancelPickup(s, ngo, { donationId: cancelled.donation.id, reason: "We cannot store shoes" });
      return { ngo, donor, c, cash, waiting, received, cancelled };
    }

    it("the donor's history carries each goods donation's items and pick-up state; cash rows have none", async () => {
      const { donor, cash, waiting, received, cancelled } = await goodsScene();
      const list = await donorHistory(s.db, donor);
      const byId = new Map(list.rows.map((r) => [r.id, r]));
      expect(byId.get(cash.id)).toMatchObject({ kind: "cash", pickupStatus: null, items: null });
      expect(byId.get(waiting.donation.id)).toMatchObject({
        kind: "in_kind",
        status: "pending",
        pickupStatus: "new",
        items: "5 blankets, 2 quilts",
        amount: null,
      });
      expect(byId.get(received.donation.id)).toMatchObject({ status: "approved", pickupStatus: "received", receiptNumber: null });
      expect(byId.get(cancelled.donation.id)).toMatchObject({
        status: "rejected",
        pickupStatus: "cancelled",
        rejectionReason: "We cannot store shoes",
      });

      // The pick-up details (code, window, steps) reach only the donor who gave.
      const mine = await pickupsOfDonor(s.db, donor, [waiting.donation.id, cancelled.donation.id]);
      expect(mine.get(waiting.donation.id)).toMatchObject({ status: "new", code: "1234" });
      expect(mine.get(waiting.donation.id)!.events.map((e) => e.type)).toEqual(["requested"]);
      expect(mine.get(cancelled.donation.id)!.events.map((e) => e.type)).toEqual(["requested", "cancelled"]);
      const stranger = await makeUser(s.db, "donor");
      expect((await pickupsOfDonor(s.db, stranger, [waiting.donation.id])).size).toBe(0);
    });

    it("the NGO's goods list shows goods only, filtered and counted by their pick-up state; the cash list has none", async () => {
      const { ngo, c, cash, waiting, received, cancelled } = await goodsScene();
      const goods = filter({ kind: "goods", campaignId: c.id });
      const all = await ngoHistory(s.db, ngo, goods);
      expect(all.rows.map((r) => [r.id, r.pickupStatus])).toEqual([
        [cancelled.donation.id, "cancelled"],
        [received.donation.id, "received"],
        [waiting.donation.id, "new"],
      ]);
      expect((await ngoHistory(s.db, ngo, filter({ campaignId: c.id }))).rows.map((r) => r.id)).toEqual([cash.id]);
      const ids = async (status: NgoHistoryFilter["status"]) => (await ngoHistory(s.db, ngo, { ...goods, status })).rows.map((r) => r.id);
      expect(await ids("new")).toEqual([waiting.donation.id]);
      expect(await ids("received")).toEqual([received.donation.id]);
      expect(await ids("cancelled")).toEqual([cancelled.donation.id]);
      expect(await ids("collected")).toEqual([]);
      // Goods have their own counts (by pick-up state), and never add to the cash counts or money.
      expect(await ngoHistoryTotals(s.db, ngo, goods)).toEqual({
        kinds: { cash: 1, goods: 3 },
        approvedAmount: 0,
        pendingAmount: 0,
        openCount: 1,
        counts: { new: 1, assigned: 0, accepted: 0, collected: 0, delivered: 0, received: 1, cancelled: 1 },
        count: 3,
        byFund: [{ fund: "general", n: 3, approvedAmount: 0, pendingAmount: 0 }],
      });
      expect(await ngoHistoryTotals(s.db, ngo, filter({ campaignId: c.id }))).toMatchObject({
        pendingAmount: 1500,
        count: 1,
        counts: { pending: 1, approved: 0, rejected: 0 },
      });
      expect((await ngoHistory(s.db, ngo, { ...goods, status: "new" })).total).toBe(1);

      // A pick-up row that moves on shows its new state at once, and is counted under it.
      await s.db.update(pickups).set({ status: "assigned" }).where(eq(pickups.donationId, waiting.donation.id));
      expect(await ids("new")).toEqual([]);
      expect(await ids("assigned")).toEqual([waiting.donation.id]);
      expect((await ngoHistoryTotals(s.db, ngo, goods)).counts).toMatchObject({ new: 0, assigned: 1 });
    });

    it("walks every page of every order, kind and filter by keyset as one plain query reads the rows; old page numbers lead to the same pages", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const stranger = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const cs = [
        await campaign(ngo.id, { title: uniq("Gamma quilts") }),
        await campaign(ngo.id, { title: uniq("delta rice") }),
        await campaign(ngo.id, { title: uniq("Epsilon wells") }),
      ];
      const theirs = await campaign(stranger.id, { title: uniq("Alpha elsewhere") });
      // 34 cash gifts over four amounts and three states, three sharing each time (to the microsecond), and 25 goods
      // of which two in three wait for a rider: every page's edge cuts through ties of time, amount and campaign.
      const states = ["pending", "approved", "rejected"] as const;
      for (let i = 0; i < 34; i++) {
        const d = await makeDonation(s.db, cs[i % 3]!, donor.id, { amount: 100 * (1 + (i % 4)) });
        await s.db
          .update(donations)
          .set({
            status: states[i % 3]!,
            createdAt: sql`timestamptz '2025-01-01 08:00:00.000123+00' + ${Math.floor(i / 3)} * interval '1 second'`,
          })
          .where(eq(donations.id, d.id));
      }
      for (let i = 0; i < 25; i++) {
        const { donation } = await makePickup(s.db, cs[i % 2]!, donor.id, { status: i % 3 === 2 ? "assigned" : "new" });
        await s.db
          .update(donations)
          .set({ createdAt: at(Math.floor(i / 3)) })
          .where(eq(donations.id, donation.id));
      }
      // The states were written by hand: the campaigns' collected amounts follow (the reconciliation after each test).
      await s.db
        .update(campaigns)
        .set({
          collectedAmount: sql`(select coalesce(sum(d.amount), 0) from ${donations} d where d.campaign_id = ${campaigns.id} and d.status = 'approved' and d.kind = 'cash')`,
        })
        .where(
          inArray(
            campaigns.id,
            cs.map((c) => c.id),
          ),
        );
      const elsewhere = await makeDonation(s.db, theirs, donor.id, { amount: 100 });
      // A rename after the gifts: the campaign order follows the new title ("delta" → "Zeta", now last).
      await s.db
        .update(campaigns)
        .set({ title: uniq("Zeta rice") })
        .where(eq(campaigns.id, cs[1]!.id));
      expect(await campaignTitleDrift(s.db)).toEqual([]);

      const plain = async (f: NgoHistoryFilter) =>
        (
          (await s.db.execute(sql`select d.id from ${donations} d join ${campaigns} c on c.id = d.campaign_id
            left join ${pickups} p on p.donation_id = d.id
            where d.recipient_ngo_id = ${ngo.id} and d.kind = ${f.kind === "cash" ? "cash" : "in_kind"}
              ${f.status === null ? sql`` : f.kind === "cash" ? sql`and d.status = ${f.status}` : sql`and p.status = ${f.status}`}
              ${f.campaignId === null ? sql`` : sql`and d.campaign_id = ${f.campaignId}`}
            order by ${PLAIN_ORDERS[f.sort]}`)) as unknown as { rows: { id: string }[] }
        ).rows.map((r) => r.id);
      const filters: NgoHistoryFilter[] = [];
      for (const sort of historyChoices("cash").sorts)
        for (const status of [null, "approved", "pending"] as const)
          for (const campaignId of [null, cs[1]!.id]) filters.push(filter({ sort, status, campaignId }));
      for (const sort of historyChoices("goods").sorts)
        for (const status of [null, "new"] as const) filters.push(filter({ kind: "goods", sort, status }));
      let walked = 0;
      let walkedBack = 0;
      for (const f of filters) {
        const name = JSON.stringify(f);
        const expected = await plain(f);
        const seen: string[] = [];
        const pages = [];
        let after: string | null = null;
        for (let page = 1; ; page++) {
          expect(await ngoHistoryCursorAt(s.db, ngo, f, page), `${name} page ${page}`).toBe(after);
          const list = await ngoHistory(s.db, ngo, f, { after });
          expect(list.rows.length, name).toBeLessThanOrEqual(10);
          expect(list.total, name).toBe(expected.length);
          seen.push(...list.rows.map((r) => r.id));
          pages.push(list);
          if (!list.next) break;
          expect(list.next).toBe(list.rows[list.rows.length - 1]!.id);
          after = list.next;
        }
        expect(seen, name).toEqual(expected);
        walked += seen.length;
        // Back by "Previous" from the last page: the same pages, with the same links, in every order and filter.
        await walkBack(pages, (cursor) => ngoHistory(s.db, ngo, f, cursor), name);
        walkedBack += pages.length > 1 ? 1 : 0;
      }
      expect(walked).toBeGreaterThan(300);
      expect(walkedBack).toBeGreaterThan(20);

      // Cursors that are not the NGO's rows of the kind shown give an empty page, never another NGO's rows; one that is
      // not an id, the first page.
      const cash = filter({ sort: "campaign" });
      const goodsId = (await plain(filter({ kind: "goods" })))[0]!;
      for (const forged of [elsewhere.id, goodsId, "00000000-0000-4000-8000-000000000000"]) {
        expect(await ngoHistory(s.db, ngo, cash, { after: forged }), forged).toMatchObject({ rows: [], next: null, total: 34 });
        expect((await ngoHistory(s.db, stranger, cash, { after: (await plain(cash))[0]! })).rows).toEqual([]);
        // "Previous" the same: nothing, and neither link, for a cursor that is not this NGO's row of the kind shown.
        expect(await ngoHistory(s.db, ngo, cash, { before: forged }), forged).toMatchObject({
          rows: [],
          next: null,
          prev: null,
          total: 34,
        });
        expect(await ngoHistory(s.db, stranger, cash, { before: (await plain(cash)).at(-1)! })).toMatchObject({
          rows: [],
          next: null,
          prev: null,
        });
      }
      for (const garbage of ["", "x", "1' or '1'='1", `${goodsId}x`]) {
        expect(
          (await ngoHistory(s.db, ngo, cash, { after: garbage })).rows.map((r) => r.id),
          garbage,
        ).toEqual((await plain(cash)).slice(0, 10));
      }
    });

    it("keeps the campaign's title on its donations: set on insert, copied on a rename, repaired for a recently changed campaign", async () => {
      const ngo = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const c = await campaign(ngo.id, { title: uniq("Kept title") });
      const other = await campaign(ngo.id, { title: uniq("Other title") });
      const gift = await makeDonation(s.db, c, donor.id, { amount: 500 });
      const kept = async () => (await s.db.select({ t: donations.campaignTitle }).from(donations).where(eq(donations.id, gift.id)))[0]!.t;
      expect(await kept()).toBe(c.title);
      const renamed = uniq("Renamed");
      await s.db.update(campaigns).set({ title: renamed }).where(eq(campaigns.id, c.id));
      expect(await kept()).toBe(renamed);
      // Written by hand, or moved to another campaign: the database sets it from the campaign again.
      await s.db.update(donations).set({ campaignTitle: "forged" }).where(eq(donations.id, gift.id));
      expect(await kept()).toBe(renamed);
      await s.db.update(donations).set({ campaignId: other.id }).where(eq(donations.id, gift.id));
      expect(await kept()).toBe(other.title);
      // What a rename racing the gift's insert would leave (the old title), with the triggers bypassed as the race does:
      // the maintenance's repair copies the title of a campaign changed lately.
      await s.db.transaction(async (tx) => {
        await tx.execute(sql`alter table donations disable trigger donations_campaign_title_update`);
        await tx.update(donations).set({ campaignTitle: "stale" }).where(eq(donations.id, gift.id));
        await tx.execute(sql`alter table donations enable trigger donations_campaign_title_update`);
      });
      expect(await campaignTitleDrift(s.db)).toEqual([{ id: gift.id, kept: "stale", title: other.title }]);
      await s.db
        .update(campaigns)
        .set({ updatedAt: sql`now()` })
        .where(eq(campaigns.id, other.id));
      expect(await repairCampaignTitles(s.db)).toBe(1);
      expect(await campaignTitleDrift(s.db)).toEqual([]);
      expect(await repairCampaignTitles(s.db)).toBe(0);
    });

    it("the goods CSV says each row is goods, with the items and the pick-up state as its state", async () => {
      const { ngo, c } = await goodsScene();
      const goods = filter({ kind: "goods", campaignId: c.id, sort: "oldest" });
      const rows = parseCsv((await readAll(ngoHistoryCsv(s.db, ngo, goods, en))).slice(1));
      const col = (name: string) => rows[0]!.indexOf(name);
      expect(rows.slice(1).map((r) => [r[col("Kind")], r[col("Amount (Rs.)")], r[col("Items")], r[col("State")]])).toEqual([
        ["Goods", "", "5 blankets, 2 quilts", en("pickups:status.new")],
        ["Goods", "", "Rice, 20 kg", en("pickups:status.received")],
        ["Goods", "", "Old shoes", en("pickups:status.cancelled")],
      ]);
      expect(rows[1]![col("Date (Pakistan time, UTC+05:00)")]).toBe("2025-01-01 13:02:00");
      expect(rows[3]![col("Reason")]).toBe("We cannot store shoes");
      const cashRows = parseCsv((await readAll(ngoHistoryCsv(s.db, ngo, filter({ campaignId: c.id }), en))).slice(1));
      expect(cashRows.slice(1).map((r) => [r[col("Kind")], r[col("State")]])).toEqual([["Cash", "Pending review"]]);
      const urdu = parseCsv((await readAll(ngoHistoryCsv(s.db, ngo, goods, ur))).slice(1));
      expect(urdu[1]![col("Kind")]).toBe(ur("history:ngo.kinds.goods"));
      expect(urdu[1]![col("State")]).toBe(ur("pickups:status.new"));
    });
  });

  describe("receipts", () => {
    async function approvedReceiptScene(zakat: boolean) {
      const ngo = await makeUser(s.db, "ngo", { name: "Al-Khidmat Karachi" });
      await s.db
        .update(ngoProfiles)
        .set({ registrationNumber: "SECP-2019-4471", address: "Plot 12, Block 7, Gulshan-e-Iqbal, Karachi" })
        .where(eq(ngoProfiles.userId, ngo.id));
      const donor = await makeUser(s.db, "donor", { name: "Ayesha" });
      const c = await campaign(ngo.id, {
        title: uniq("Winter blankets Quetta"),
        acceptedFunds: zakat ? ["zakat", "general"] : ["general"],
      });
      // Earlier approvals of this NGO: the receipt number counts on from them.
      for (let i = 0; i < 2; i++) await approve(ngo.id, (await makeDonation(s.db, c, donor.id)).id);
      const donation = await makeDonation(s.db, c, donor.id, {
        amount: 50_000,
        method: "easypaisa",
        transactionId: "EP998877",
        ...(zakat ? { fund: "zakat" as const, inNameOf: "Late Mrs Khadija Bibi" } : {}),
      });
      const outcome = await approve(ngo.id, donation.id);
      return { ngo, donor, c, donation, outcome };
    }

    it("formats numbers and amounts in words", () => {
      expect(formatReceiptNumber(42, 123)).toBe("N042-000123");
      expect(formatReceiptNumber(1, 1_234_567)).toBe("N001-1234567");
      expect(formatReceiptNumber(12_345, 7)).toBe("N12345-000007");
      expect(amountInWords(50_000, en, "en")).toBe("Rupees Fifty Thousand Only");
      expect(amountInWords(1_250_000, en, "en")).toBe("Rupees Twelve Lakh Fifty Thousand Only");
      expect(amountInWords(30_000_000, en, "en")).toBe("Rupees Three Crore Only");
      expect(amountInWords(1, en, "en")).toBe("Rupees One Only");
      expect(amountInWords(50_000, ur, "ur")).toBe("صرف پچاس ہزار روپے");
      expect(amountInWords(1_250_000, ur, "ur")).toBe("صرف بارہ لاکھ پچاس ہزار روپے");
      expect(amountInWords(1, ur, "ur")).toBe("صرف ایک روپیہ");
      expect(receiptFileName({ receiptNumber: 7, receiptSeries: 42 })).toBe("ek-chhat-receipt-N042-000007.pdf");
    });

    it("reaches the donor, the NGO paid and the admin; nobody else, and nothing but approved cash", async () => {
      const { ngo, donor, c, donation, outcome } = await approvedReceiptScene(true);
      expect(outcome.receiptNumber).toBe(3);
      const admin = await makeUser(s.db, "admin");
      const otherDonor = await makeUser(s.db, "donor");
      const otherNgo = await makeUser(s.db, "ngo");
      const rider = await makeUser(s.db, "rider");
      const as = (u: { id: string }, role: ReceiptActor["role"]) => ({ id: u.id, role });

      for (const actor of [as(donor, "donor"), as(ngo, "ngo"), as(admin, "admin")]) {
        expect(await receiptFor(s.db, actor, donation.id), actor.role).toMatchObject({ receiptNumber: 3, amount: 50_000 });
      }
      expect(await failureKind(receiptFor(s.db, as(otherDonor, "donor"), donation.id))).toBe("not_found");
      expect(await failureKind(receiptFor(s.db, as(otherNgo, "ngo"), donation.id))).toBe("not_found");
      expect(await failureKind(receiptFor(s.db, as(rider, "rider"), donation.id))).toBe("not_found");
      // The donor's id with the NGO role (or the other way round) does not pass either.
      expect(await failureKind(receiptFor(s.db, as(donor, "ngo"), donation.id))).toBe("not_found");
      expect(await failureKind(receiptFor(s.db, as(ngo, "donor"), donation.id))).toBe("not_found");
      expect(await failureKind(receiptFor(s.db, as(admin, "admin"), "not-a-uuid"))).toBe("not_found");
      expect(await failureKind(receiptFor(s.db, as(admin, "admin"), "3f1d8c1e-9a8b-4c1d-8f2e-0a1b2c3d4e5f"))).toBe("not_found");

      const pending = await makeDonation(s.db, c, donor.id);
      const rejected = await makeDonation(s.db, c, donor.id);
      await reject(ngo.id, rejected.id, "Not received");
      const inKind = await makeDonation(s.db, c, donor.id, { kind: "in_kind", status: "approved" });
      for (const d of [pending, rejected, inKind]) {
        for (const actor of [as(donor, "donor"), as(ngo, "ngo"), as(admin, "admin")]) {
          expect(await failureKind(receiptFor(s.db, actor, d.id)), `${d.status} ${d.kind} for ${actor.role}`).toBe("not_found");
        }
      }
    });

    it("receipt numbers are unique across NGOs: each counts its own, and its prefix tells them apart everywhere", async () => {
      const first = await makeUser(s.db, "ngo", { name: "First Trust" });
      const second = await makeUser(s.db, "ngo", { name: "Second Trust" });
      const donor = await makeUser(s.db, "donor");
      const a = await makeDonation(s.db, await campaign(first.id), donor.id, { amount: 1000, createdAt: at(1) });
      const b = await makeDonation(s.db, await campaign(second.id), donor.id, { amount: 2000, createdAt: at(2) });
      const [outA, outB] = [await approve(first.id, a.id), await approve(second.id, b.id)];
      // Each NGO's own count starts at 1: the count alone would read the same.
      expect([outA.receiptNumber, outB.receiptNumber]).toEqual([1, 1]);

      const series = await s.db
        .select({ id: ngoProfiles.userId, series: ngoProfiles.receiptSeries })
        .from(ngoProfiles)
        .where(inArray(ngoProfiles.userId, [first.id, second.id]));
      expect(new Set(series.map((r) => r.series)).size).toBe(2);
      const numberA = await receiptOf(first.id, 1);
      const numberB = await receiptOf(second.id, 1);
      expect(numberA).toMatch(/^N\d{3,}-000001$/);
      expect(numberA).not.toBe(numberB);

      // The donor's history, the receipt's file name and its PDF all carry the prefixed number.
      const history = await donorHistory(s.db, donor);
      expect(history.rows.map((r) => r.receiptNumber)).toEqual([numberB, numberA]);
      const receiptA = await receiptFor(s.db, { id: donor.id, role: "donor" }, a.id);
      const receiptB = await receiptFor(s.db, { id: donor.id, role: "donor" }, b.id);
      expect(receiptFileName(receiptA)).toBe(`ek-chhat-receipt-${numberA}.pdf`);
      expect(receiptFileName(receiptB)).not.toBe(receiptFileName(receiptA));
      const pdfText = (await new PDFParse({ data: new Uint8Array(await renderReceiptPdf(receiptB, en, "en")) }).getText()).text;
      expect(pdfText).toContain(`Receipt no. ${numberB} of Second Trust`);
      // So does the approval email.
      const mails = await s.db.select({ body: mailOutbox.body }).from(mailOutbox).where(eq(mailOutbox.toAddress, donor.email));
      expect(mails.map((m) => m.body).join("\n")).toContain(`Your receipt no. ${numberA} is ready`);
      expect(mails.map((m) => m.body).join("\n")).toContain(`Your receipt no. ${numberB} is ready`);

      // The database keeps the series unique, and an NGO made later gets a series of its own.
      await expect(
        s.db.update(ngoProfiles).set({ receiptSeries: series[0]!.series }).where(eq(ngoProfiles.userId, series[1]!.id)),
      ).rejects.toThrow();
      const later = await makeUser(s.db, "ngo");
      const [laterSeries] = await s.db
        .select({ series: ngoProfiles.receiptSeries })
        .from(ngoProfiles)
        .where(eq(ngoProfiles.userId, later.id));
      expect(series.map((r) => r.series)).not.toContain(laterSeries!.series);
    });

    it("a joint campaign's owner cannot read the receipt of a donation paid to its partner", async () => {
      const owner = await makeUser(s.db, "ngo");
      const partner = await makeUser(s.db, "ngo");
      const donor = await makeUser(s.db, "donor");
      const c = await campaign(owner.id, { partners: [partner.id] });
      const d = await makeDonation(s.db, { id: c.id, ownerId: partner.id }, donor.id);
      await approve(partner.id, d.id);
      expect(await receiptFor(s.db, { id: partner.id, role: "ngo" }, d.id)).toMatchObject({ receiptNumber: 1 });
      expect(await failureKind(receiptFor(s.db, { id: owner.id, role: "ngo" }, d.id))).toBe("not_found");
    });

    it("the PDF states the NGO, registration, number, amount in figures and words, campaign and Zakat", async () => {
      const { ngo, donor, donation, c } = await approvedReceiptScene(true);
      const receipt = await receiptFor(s.db, { id: donor.id, role: "donor" }, donation.id);
      const pdf = await renderReceiptPdf(receipt, en, "en");
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      const text = (await new PDFParse({ data: new Uint8Array(pdf) }).getText()).text.replace(/\s+/g, " ");
      for (const expected of [
        "Ek Chhat",
        "Donation receipt",
        `Receipt no. ${await receiptOf(ngo.id, 3)} of Al-Khidmat Karachi`,
        "SECP-2019-4471",
        "Plot 12, Block 7, Gulshan-e-Iqbal, Karachi",
        "Ayesha Donor",
        donor.email,
        "Rs. 50,000",
        "Rupees Fifty Thousand Only",
        c.title,
        "Easypaisa",
        "EP998877",
        `${en("funds:receipt.fund")}: ${en("funds:kinds.zakat")}`,
        `${en("funds:receipt.inNameOf")}: Late Mrs Khadija Bibi`,
        en("funds:receipt.zakatAccepted"),
        "issued through Ek Chhat on the confirmation of Al-Khidmat Karachi",
      ]) {
        expect(text, expected).toContain(expected);
      }

      const plain = await approvedReceiptScene(false);
      const other = await receiptFor(s.db, { id: plain.ngo.id, role: "ngo" }, plain.donation.id);
      const otherText = (await new PDFParse({ data: new Uint8Array(await renderReceiptPdf(other, en, "en")) }).getText()).text.replace(
        /\s+/g,
        " ",
      );
      expect(otherText).toContain(`${en("funds:receipt.fund")}: ${en("funds:kinds.general")}`);
      expect(otherText).toContain(en("funds:receipt.notZakat"));
      expect(otherText).not.toContain(en("funds:receipt.zakatAccepted"));
      expect(otherText).not.toContain(en("funds:receipt.inNameOf"));
    });
  });
});
