import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { donations, donorProfiles, ngoProfiles } from "#server/db/schema.ts";
import type { Db } from "#server/db/client.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { formatDate } from "#shared/format.ts";
import { formatRupees } from "#shared/money.ts";
import { formatReceiptNumber } from "#server/domain/donations/receipt-number.ts";
import { fiscalYearBounds, fiscalYearOf, hijriDateOf, hijriYearBounds, pakistanMidnight } from "#server/domain/donations/giving-years.ts";
import { givingStatement, statementYears, type GivingStatement } from "#server/domain/donations/giving-statements.ts";
import { formatHijriDate, renderGivingStatementPdf } from "#server/domain/donations/giving-statement-pdf.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { asSessionUser, makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";

/**
 * The donor's statements (issue 18, item 5; decision 052): the fiscal year and the Hijri year on Pakistan's clock, the
 * statement's gifts and sums against a fresh query of the donor's approved gifts, and the PDF read back with poppler's
 * pdftotext in English and in Urdu.
 */

/** A moment given as Pakistan's clock shows it (UTC+5 all year since 2009). */
const pkt = (local: string) => new Date(`${local}+05:00`);

describe("the fiscal year, July to June on Pakistan's clock", () => {
  it("puts 23:30 on 30 June in the year that ends that day, and midnight of 1 July in the next", () => {
    expect(fiscalYearOf(pkt("2026-06-30T23:30:00"))).toBe(2025);
    expect(fiscalYearOf(pkt("2026-06-30T23:59:59.999"))).toBe(2025);
    expect(fiscalYearOf(pkt("2026-07-01T00:00:00"))).toBe(2026);
    // Half past midnight on 1 July in Pakistan is still 30 June in UTC: the zone decides, not the server's clock.
    expect(fiscalYearOf(new Date("2026-06-30T19:30:00Z"))).toBe(2026);
    expect(fiscalYearOf(pkt("2026-01-01T00:00:00"))).toBe(2025);
    expect(fiscalYearBounds(2025)).toEqual({ from: pkt("2025-07-01T00:00:00"), to: pkt("2026-07-01T00:00:00") });
  });
  it("asks the zone's rules for the offset: 1 July 2008 began at 00:00 PKT under the summer time of that year (UTC+6)", () => {
    expect(pakistanMidnight(2008, 7, 1)).toEqual(new Date("2008-06-30T18:00:00Z"));
    expect(pakistanMidnight(2026, 7, 1)).toEqual(new Date("2026-06-30T19:00:00Z"));
  });
});

describe("the Hijri year of the Umm al-Qura calendar (Node's ICU, islamic-umalqura)", () => {
  // Days of the Umm al-Qura calendar as published (1 Muharram and 1 Ramadan), each with the Gregorian day it falls on.
  const KNOWN: [string, number, number][] = [
    ["2023-07-19", 1445, 1],
    ["2024-03-11", 1445, 9],
    ["2024-07-07", 1446, 1],
    ["2025-03-01", 1446, 9],
    ["2025-06-26", 1447, 1],
    ["2026-02-18", 1447, 9],
    ["2026-06-16", 1448, 1],
  ];
  it("is what this Node's ICU computes", () => {
    expect(new Intl.DateTimeFormat("en-u-ca-islamic-umalqura").resolvedOptions().calendar).toBe("islamic-umalqura");
  });
  it("dates the first of Muharram and of Ramadan as the published calendar does, from 00:00 to 23:59 in Pakistan", () => {
    for (const [day, year, month] of KNOWN) {
      expect(hijriDateOf(pkt(`${day}T00:00:00`)), day).toEqual({ year, month, day: 1 });
      expect(hijriDateOf(pkt(`${day}T23:59:00`)), day).toEqual({ year, month, day: 1 });
      // The evening before is still the month before (the civil day, not sunset, turns the date).
      expect(hijriDateOf(new Date(pkt(`${day}T00:00:00`).getTime() - 60_000)).month, day).toBe(month === 1 ? 12 : month - 1);
    }
  });
  it("bounds a year from 00:00 PKT of its 1 Muharram to the next", () => {
    expect(hijriYearBounds(1446)).toEqual({ from: pkt("2024-07-07T00:00:00"), to: pkt("2025-06-26T00:00:00") });
    expect(hijriYearBounds(1447)).toEqual({ from: pkt("2025-06-26T00:00:00"), to: pkt("2026-06-16T00:00:00") });
  });
  it("names the months in English and Urdu", () => {
    const when = pkt("2025-03-05T12:00:00");
    expect(formatHijriDate(when, serverI18n("en").t)).toBe("5 Ramadan 1446 AH");
    expect(formatHijriDate(when, serverI18n("ur").t)).toBe("5 رمضان 1446 ہجری");
    expect(formatHijriDate(pkt("2024-07-07T09:00:00"), serverI18n("ur").t)).toBe("1 محرم 1446 ہجری");
    expect(formatHijriDate(pkt("2025-06-25T09:00:00"), serverI18n("en").t)).toBe("29 Dhu al-Hijjah 1446 AH");
  });
});

let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s?.close());

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-statement-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What pdftotext reads, as one line, without direction marks and the spaces it guesses beside colons (as receipt-languages.test.ts). */
function readBack(pdf: Buffer): string {
  const file = path.join(dir, `s${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  return normalized(execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }));
}
function normalized(text: string): string {
  return text
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ")
    .replace(/ ?([:،]) ?/g, "$1")
    .trim();
}

let receiptCounter = 0;
/** An approved, receipted cash gift at a moment, as decideCashDonation leaves one (its number unique per NGO). */
function approved(campaign: { id: string; ownerId: string }, donorId: string, at: Date, opts: Partial<typeof donations.$inferInsert> = {}) {
  return makeDonation(s.db, campaign, donorId, { status: "approved", decidedAt: at, receiptNumber: ++receiptCounter, ...opts });
}

/** The donor's approved cash gifts in [from, to) summed by a fresh query, by NGO and fund. */
async function freshSums(db: Db, donorId: string, from: Date, to: Date, fund?: "zakat") {
  const rows = await db
    .select({ ngo: donations.recipientNgoId, fund: donations.fund, total: sql<string>`sum(${donations.amount})`, n: sql<string>`count(*)` })
    .from(donations)
    .where(
      and(
        eq(donations.donorId, donorId),
        eq(donations.kind, "cash"),
        eq(donations.status, "approved"),
        isNotNull(donations.receiptNumber),
        gte(donations.decidedAt, from),
        lt(donations.decidedAt, to),
        fund ? eq(donations.fund, fund) : undefined,
      ),
    )
    .groupBy(donations.recipientNgoId, donations.fund);
  return new Map(rows.map((r) => [`${r.ngo}:${r.fund}`, { total: Number(r.total), count: Number(r.n) }]));
}

function sumsOf(statement: GivingStatement) {
  return new Map(statement.ngos.flatMap((n) => n.funds.map((f) => [`${n.ngoId}:${f.fund}`, { total: f.total, count: f.count }] as const)));
}

describe("a donor's yearly statement", () => {
  let scene: Awaited<ReturnType<typeof makeScene>>;
  async function makeScene() {
    const donor = await makeUser(s.db, "donor");
    await s.db.update(donorProfiles).set({ firstName: "عائشہ", lastName: "صدیقی" }).where(eq(donorProfiles.userId, donor.id));
    const other = await makeUser(s.db, "donor");
    const edhi = await makeUser(s.db, "ngo", { name: "Alif Welfare Trust" });
    const khidmat = await makeUser(s.db, "ngo", { name: "الخدمت کراچی" });
    await s.db.update(ngoProfiles).set({ registrationNumber: "SECP-2019-4471" }).where(eq(ngoProfiles.userId, khidmat.id));
    const water = await makeCampaign(s.db, edhi.id, { title: "Clean water for Thar" });
    const blankets = await makeCampaign(s.db, khidmat.id, { title: "سردیوں کے کمبل، کوئٹہ" });
    const [series] = await s.db.select({ n: ngoProfiles.receiptSeries }).from(ngoProfiles).where(eq(ngoProfiles.userId, edhi.id));
    // The fiscal year 2025–26, with gifts at both of its edges, to both NGOs and in three funds.
    const first = await approved(water, donor.id, pkt("2025-07-01T00:00:00"), { amount: 1_500, fund: "zakat" });
    const last = await approved(water, donor.id, pkt("2026-06-30T23:30:00"), {
      amount: 2_750,
      fund: "zakat",
      inNameOf: "Late Abdul Sattar",
    });
    await approved(water, donor.id, pkt("2025-12-14T10:00:00"), { amount: 400, fund: "general" });
    await approved(blankets, donor.id, pkt("2025-09-02T16:20:00"), { amount: 12_34_567, fund: "sadaqah", inNameOf: "والدہ مرحومہ" });
    await approved(blankets, donor.id, pkt("2026-03-01T09:00:00"), { amount: 5_000, fund: "zakat" });
    // Outside it: a minute after it ends, and the evening before it starts.
    await approved(water, donor.id, pkt("2026-07-01T00:00:00"), { amount: 777, fund: "zakat" });
    await approved(water, donor.id, pkt("2025-06-30T23:59:00"), { amount: 333, fund: "general" });
    // Not counted: pending, rejected, goods, another donor's.
    await makeDonation(s.db, water, donor.id, { amount: 9_000, createdAt: pkt("2025-10-01T10:00:00") });
    await makeDonation(s.db, water, donor.id, { amount: 8_000, status: "rejected", decidedAt: pkt("2025-10-02T10:00:00") });
    await makeDonation(s.db, water, donor.id, { kind: "in_kind", status: "approved", decidedAt: pkt("2025-10-03T10:00:00") });
    await approved(water, other.id, pkt("2025-10-04T10:00:00"), { amount: 6_000, fund: "zakat" });
    return { donor, other, edhi, khidmat, water, blankets, first, last, series: series!.n };
  }
  beforeAll(async () => {
    scene = await makeScene();
  });

  it("sums exactly the donor's approved gifts of the year, by NGO and fund, as a fresh query does", async () => {
    const { donor } = scene;
    const st = (await givingStatement(s.db, asSessionUser(donor, "donor"), "fiscal", 2025))!;
    const { from, to } = fiscalYearBounds(2025);
    const fresh = await freshSums(s.db, donor.id, from, to);
    expect(sumsOf(st)).toEqual(fresh);
    expect(st.total).toBe([...fresh.values()].reduce((a, v) => a + v.total, 0));
    expect(st.total).toBe(1_500 + 2_750 + 400 + 12_34_567 + 5_000);
    expect(st.count).toBe(5);
    expect(st.listed).toBe(5);
    expect(st.funds).toEqual([
      { fund: "zakat", total: 9_250, count: 3 },
      { fund: "sadaqah", total: 12_34_567, count: 1 },
      { fund: "general", total: 400, count: 1 },
    ]);
    // By NGO (by name), each by fund in the vocabulary's order, each fund's gifts by date.
    expect(st.ngos.map((n) => [n.name, n.funds.map((f) => f.fund), n.total])).toEqual([
      ["Alif Welfare Trust", ["zakat", "general"], 4_650],
      ["الخدمت کراچی", ["zakat", "sadaqah"], 12_39_567],
    ]);
    const zakat = st.ngos[0]!.funds[0]!;
    expect(zakat.gifts.map((g) => [g.amount, g.receipt, g.inNameOf])).toEqual([
      [1_500, formatReceiptNumber(scene.series, scene.first.receiptNumber!), null],
      [2_750, formatReceiptNumber(scene.series, scene.last.receiptNumber!), "Late Abdul Sattar"],
    ]);
    expect(st.donor.name).toBe("عائشہ صدیقی");
  });

  it("lists the years the donor has gifts in, with the same sums; another donor has none of theirs", async () => {
    const { donor, other } = scene;
    const fiscal = await statementYears(s.db, asSessionUser(donor, "donor"), "fiscal");
    expect(fiscal).toEqual({
      years: [
        { year: 2026, count: 1, total: 777 },
        { year: 2025, count: 5, total: 12_44_217 },
        { year: 2024, count: 1, total: 333 },
      ],
      older: false,
    });
    // Zakat by Hijri year: 1 July 2025 and 30 June 2026 23:30 are 1447 (from 26 June 2025), 1 March 2026 too; 1 July
    // 2026 is 1448 (from 16 June 2026), and so is 30 June 2026.
    const zakat = await statementYears(s.db, asSessionUser(donor, "donor"), "zakat");
    expect(zakat.years).toEqual([
      { year: 1448, count: 2, total: 2_750 + 777 },
      { year: 1447, count: 2, total: 1_500 + 5_000 },
    ]);
    const z = (await givingStatement(s.db, asSessionUser(donor, "donor"), "zakat", 1447))!;
    const { from, to } = hijriYearBounds(1447);
    expect(sumsOf(z)).toEqual(await freshSums(s.db, donor.id, from, to, "zakat"));
    expect(z.funds.map((f) => f.fund)).toEqual(["zakat"]);

    // The other donor: their own one gift, never this donor's; a year without gifts is no statement.
    const theirs = (await givingStatement(s.db, asSessionUser(other, "donor"), "fiscal", 2025))!;
    expect(theirs.total).toBe(6_000);
    expect(await givingStatement(s.db, asSessionUser(other, "donor"), "fiscal", 2024)).toBeNull();
    // Out of range and not whole: no statement, no query error.
    expect(await givingStatement(s.db, asSessionUser(donor, "donor"), "fiscal", 1999)).toBeNull();
    expect(await givingStatement(s.db, asSessionUser(donor, "donor"), "zakat", 99999)).toBeNull();
    expect(await givingStatement(s.db, asSessionUser(donor, "donor"), "fiscal", Number.NaN)).toBeNull();
  });

  it("lists at most the bound one by one and still counts every gift in the subtotals and the total", async () => {
    const donor = await makeUser(s.db, "donor");
    const ngo = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, ngo.id);
    const gifts = Array.from({ length: 12 }, (_, i) => ({
      campaignId: campaign.id,
      donorId: donor.id,
      recipientNgoId: ngo.id,
      kind: "cash" as const,
      status: "approved" as const,
      amount: 100 + i,
      method: "jazzcash" as const,
      fund: i % 2 === 0 ? ("zakat" as const) : ("general" as const),
      decidedAt: pkt(`2025-08-${String(i + 1).padStart(2, "0")}T12:00:00`),
      receiptNumber: i + 1,
    }));
    await s.db.insert(donations).values(gifts);
    const st = (await givingStatement(s.db, asSessionUser(donor, "donor"), "fiscal", 2025, { listed: 5 }))!;
    expect(st.listed).toBe(5);
    expect(st.count).toBe(12);
    expect(st.total).toBe(gifts.reduce((a, g) => a + g.amount, 0));
    expect(st.ngos[0]!.funds.map((f) => [f.fund, f.count, f.gifts.length])).toEqual([
      ["zakat", 6, 5],
      ["general", 6, 0],
    ]);
    const text = readBack(await renderGivingStatementPdf(st, new Map(), serverI18n("en").t, "en"));
    expect(text).toContain(normalized("This statement lists 5 of your 12 donations one by one; the other 7 are counted"));
  });

  async function pdfOf(lang: Lang, kind: "fiscal" | "zakat", year: number) {
    const st = (await givingStatement(s.db, asSessionUser(scene.donor, "donor"), kind, year))!;
    const { t } = serverI18n(lang);
    // The builder is given each NGO's tax-exemption reference (the verified part's taxExemptionReferences at merge).
    const references = new Map([[scene.khidmat.id, "FBR/EXEMPT/2(36)/2024-118"]]);
    return { st, t, text: readBack(await renderGivingStatementPdf(st, references, t, lang, pkt("2026-11-27T10:00:00"))) };
  }

  it("reads back in English: the period, the donor, each NGO with its reference, each gift with its receipt, the sums", async () => {
    const { st, text } = await pdfOf("en", "fiscal", 2025);
    const receipt = (n: number) => formatReceiptNumber(scene.series, n);
    for (const line of [
      "Yearly giving statement 2025–26",
      "Fiscal year 2025–26: 1 Jul 2025 to 30 Jun 2026 (Pakistan time)",
      "Name: عائشہ صدیقی",
      "Alif Welfare Trust",
      "Registration no.: SECP-2019-4471",
      "Tax exemption: FBR/EXEMPT/2(36)/2024-118",
      `${formatDate(pkt("2025-07-01T00:00:00"), "en").text} · Receipt ${receipt(scene.first.receiptNumber!)} · Rs. 1,500`,
      `${formatDate(pkt("2026-06-30T23:30:00"), "en").text} · Receipt ${receipt(scene.last.receiptNumber!)} · Rs. 2,750`,
      "Clean water for Thar · In the name of Late Abdul Sattar",
      "Subtotal, Zakat: Rs. 4,250 (2)",
      "Subtotal, Alif Welfare Trust: Rs. 4,650",
      "Subtotal, Sadaqah: Rs. 1,234,567 (1)",
      "والدہ مرحومہ",
      `Total of all donations: ${formatRupees(st.total, "en")}`,
      "Zakat: Rs. 9,250 (3)",
    ]) {
      expect(text, line).toContain(normalized(line));
    }
    // Only one NGO has a reference: one line of it.
    expect(text.split("Tax exemption").length - 1).toBe(1);
    expect(text).not.toContain("Rs. 777");
    expect(text).not.toContain("Rs. 9,000");
    expect(text).not.toMatch(/[?\ufffd]/);
  });

  it("reads back in Urdu: the words Urdu, the names and titles as written", async () => {
    const { t, text } = await pdfOf("ur", "fiscal", 2025);
    for (const line of [
      t("history:receipt.brand"),
      `${t("givingStatements:pdf.fiscalTitle")}`,
      `${t("givingStatements:pdf.donorName")}: عائشہ صدیقی`,
      "الخدمت کراچی",
      t("givingStatements:pdf.taxExemption"),
      "FBR/EXEMPT/2(36)/2024-118",
      "سردیوں کے کمبل",
      "والدہ مرحومہ",
      t("givingStatements:funds.zakat"),
      t("givingStatements:funds.sadaqah"),
      t("givingStatements:pdf.whatIsListed"),
      "Rs. 1,500",
      "Rs. 1,234,567",
    ]) {
      expect(text, line).toContain(normalized(line));
    }
    expect(text).not.toContain("Yearly giving statement");
    expect(text).not.toMatch(/[?\ufffd]/);
  });

  it("summarises Zakat by Hijri year in both languages, each gift with its Hijri date", async () => {
    const en = await pdfOf("en", "zakat", 1447);
    for (const line of [
      "Zakat summary 1447 AH",
      "Hijri year 1447 (Umm al-Qura): 1 Muharram 1447 AH (26 Jun 2025) to 29 Dhu al-Hijjah 1447 AH (15 Jun 2026)",
      `${formatHijriDate(pkt("2025-07-01T00:00:00"), en.t)} (${formatDate(pkt("2025-07-01T00:00:00"), "en").text})`,
      "Total of all donations: Rs. 6,500",
    ]) {
      expect(en.text, line).toContain(normalized(line));
    }
    expect(en.text).not.toContain("Sadaqah");
    const ur = await pdfOf("ur", "zakat", 1447);
    for (const line of [t("ur", "givingStatements:pdf.zakatTitle"), "محرم", "ذوالحجہ", "رمضان", "Rs. 6,500"]) {
      expect(ur.text, line).toContain(normalized(line));
    }
    expect(ur.text).not.toMatch(/[?\ufffd]/);
  });
});

function t(lang: Lang, key: string) {
  return serverI18n(lang).t(key);
}
