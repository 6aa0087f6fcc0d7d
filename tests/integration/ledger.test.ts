import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaignPartners, files, spendingRecords } from "#server/db/schema.ts";
import { fundBalances, ledgerPages, publicLedger } from "#server/domain/ledger/ledger.ts";
import { saveSpendingDocument } from "#server/domain/ledger/document.ts";
import { remakePdf } from "#server/domain/ledger/remake-pdf.ts";
import { campaignSpending, discardSpending, publishSpending, writeSpending } from "#server/domain/ledger/spending.ts";
import { mayReadSpendingDocument } from "#server/domain/ledger/policy.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { spendingSchema } from "#shared/forms/ledger.ts";
import { SPENDING_AMOUNT_MAX } from "#shared/constants.ts";
import { FUND_KINDS } from "#shared/statuses.ts";
import { asDonor, asNgo } from "#tests/helpers/actors.ts";
import { makeCampaign, makeDonation, makePdf, makePickup, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { failure, failureKind } from "#tests/helpers/failure.ts";
import { makeHostilePdf, makeSpending } from "#tests/helpers/ledger.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/** The public ledger and the spending records behind it (decision 049), on a real database. */
let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s?.close());

const receipt = async () => new File([new Uint8Array(await makeProofPng())], "receipt.png", { type: "image/png" });
const values = async (over: Partial<Parameters<typeof writeSpending>[3]> = {}) => ({
  intent: "write" as const,
  fund: "general" as const,
  amount: 2500,
  spentOn: "2026-02-01",
  purpose: "Medicine for the clinic",
  document: await receipt(),
  correctsId: undefined,
  ...over,
});

/** What pdf.js finds in a PDF besides its pictures: scripts, attachments, text, and the raw markers of each. */
async function pdfContents(pdf: Buffer) {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, verbosity: 0 }).promise;
  const page = await doc.getPage(1);
  const text = (await page.getTextContent()).items.map((i) => ("str" in i ? i.str : "")).join(" ");
  const result = {
    pages: doc.numPages,
    scripts: await doc.getJSActions(),
    attachments: await doc.getAttachments(),
    annotations: (await page.getAnnotations()).length,
    text: text.trim(),
  };
  await doc.destroy();
  return result;
}

describe("a spending document", () => {
  it("comes out of a PDF with JavaScript, an attachment and hidden text as pictures of its pages, nothing else", async () => {
    const hostile = makeHostilePdf();
    const before = await pdfContents(hostile);
    // The original really carries all of it (so the test would see it if it survived).
    expect(before.scripts).not.toBeNull();
    expect(Object.keys(before.attachments ?? {})).toEqual(["secret.txt"]);
    expect(before.text).toContain("CNIC 42101-SECRET-7");
    expect(before.annotations).toBe(1);

    const remade = await remakePdf(hostile);
    expect(remade.ok).toBe(true);
    if (!remade.ok) return;
    const after = await pdfContents(remade.output);
    expect(after).toEqual({ pages: 1, scripts: null, attachments: null, annotations: 0, text: "" });
    const raw = remade.output.toString("latin1");
    for (const marker of ["/JavaScript", "/JS", "/OpenAction", "/AA", "/EmbeddedFile", "/Annots", "pwned", "HIDDEN-ATTACHMENT", "SECRET"]) {
      expect(raw, marker).not.toContain(marker);
    }
    // The page is still there to read: one picture the size of the original page.
    expect(raw).toContain("/Subtype /Image");
    expect(raw).toMatch(/\/MediaBox \[0 0 300 200\]/);
  });

  it("is refused when it is neither a photo nor a PDF that opens, and a PDF of too many pages is refused whole", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const save = (bytes: Buffer, name: string) =>
      failure(saveSpendingDocument(s, { file: new File([new Uint8Array(bytes)], name), ownerId: ngo.id, field: "document" }));
    expect(await save(Buffer.from("<script>alert(1)</script>"), "x.pdf")).toMatchObject({
      kind: "invalid",
      message: "ledger:errors.documentInvalid",
    });
    expect(await save(Buffer.from("%PDF-1.7\ngarbage that is no PDF at all\n%%EOF"), "broken.pdf")).toMatchObject({
      kind: "invalid",
      message: "ledger:errors.documentInvalid",
    });
    const pages = Array.from({ length: 11 }, (_, i) => i);
    const long = await tallPdf(pages.length);
    expect(await save(long, "long.pdf")).toMatchObject({ kind: "invalid", message: "ledger:errors.documentTooManyPages" });
    // A photo is re-encoded to WebP; a PDF is stored as the new PDF.
    const photo = await saveSpendingDocument(s, { file: await receipt(), ownerId: ngo.id, field: "document" });
    const pdf = await saveSpendingDocument(s, {
      file: new File([new Uint8Array(makePdf("Bill"))], "bill.pdf"),
      ownerId: ngo.id,
      field: "document",
    });
    expect(photo).toMatch(/^spending\/[0-9a-f-]+\.webp$/);
    expect(pdf).toMatch(/^spending\/[0-9a-f-]+\.pdf$/);
    const rows = await s.db.select().from(files).where(eq(files.ownerId, ngo.id));
    expect(rows.map((r) => [r.kind, r.contentType]).sort()).toEqual([
      ["spending", "application/pdf"],
      ["spending", "image/webp"],
    ]);
  });
});

/** A PDF of `n` blank pages. */
async function tallPdf(n: number): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  for (let i = 0; i < n; i++) doc.addPage({ size: [100, 100] });
  doc.end();
  return done;
}

describe("spending records", () => {
  it("go from draft to published once, are never changed after, and are corrected by a new record", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, ngo.id);
    const { id } = await writeSpending(s, asNgo(ngo.id), campaign.id, await values({ amount: 3000 }));
    const [draft] = await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, id));
    expect(draft).toMatchObject({ status: "draft", ngoId: ngo.id, createdBy: ngo.id, amount: 3000, publishedAt: null });

    // Not on the public ledger while a draft.
    expect((await publicLedger(s.db, campaign.slug)).spending).toEqual([]);

    await publishSpending(s.db, asNgo(ngo.id), id);
    const [published] = await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, id));
    expect(published).toMatchObject({ status: "published", publishedBy: ngo.id });
    expect(published!.publishedAt).toBeInstanceOf(Date);
    expect(published!.redactionConfirmedAt).toBeInstanceOf(Date);

    // A second press, and a discard, change nothing.
    expect(await failure(publishSpending(s.db, asNgo(ngo.id), id))).toMatchObject({
      kind: "conflict",
      message: "ledger:errors.alreadyPublished",
    });
    expect(await failure(discardSpending(s, asNgo(ngo.id), id))).toMatchObject({ kind: "conflict" });
    expect((await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, id)))[0]).toEqual(published);

    // A correction: a new draft naming it; once published, the totals count the correction only.
    const fixed = await writeSpending(s, asNgo(ngo.id), campaign.id, await values({ amount: 2800, correctsId: id }));
    expect(await fundBalances(s.db, campaign.id)).toEqual([{ fund: "general", raised: 0, spent: 3000, balance: -3000 }]);
    await publishSpending(s.db, asNgo(ngo.id), fixed.id);
    expect(await fundBalances(s.db, campaign.id)).toEqual([{ fund: "general", raised: 0, spent: 2800, balance: -2800 }]);
    const ledger = await publicLedger(s.db, campaign.slug);
    expect(ledger.spending.map((r) => [r.amount, r.corrected, r.corrects?.amount ?? null]).sort()).toEqual([
      [2800, false, 3000],
      [3000, true, null],
    ]);
    // A record is corrected once: a second correction of it is refused (its correction is corrected instead).
    expect(await failure(writeSpending(s, asNgo(ngo.id), campaign.id, await values({ correctsId: id })))).toMatchObject({
      kind: "invalid",
      field: "correctsId",
    });
    // A draft cannot be "corrected": it is discarded or published.
    const other = await writeSpending(s, asNgo(ngo.id), campaign.id, await values());
    expect(await failureKind(writeSpending(s, asNgo(ngo.id), campaign.id, await values({ correctsId: other.id })))).toBe("invalid");
  });

  it("publish a correction once when two drafts correct one record", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, ngo.id);
    const original = await makeSpending(s, campaign, { status: "published" });
    const a = await writeSpending(s, asNgo(ngo.id), campaign.id, await values({ correctsId: original.id }));
    const b = await writeSpending(s, asNgo(ngo.id), campaign.id, await values({ correctsId: original.id }));
    const results = await Promise.all([a, b].map((d) => failure(publishSpending(s.db, asNgo(ngo.id), d.id))));
    expect(results.filter((r) => r === "no error")).toHaveLength(1);
    expect(results.filter((r) => r !== "no error")).toEqual([{ kind: "conflict", message: "ledger:errors.alreadyCorrected" }]);
  });

  it("discard a draft with its document", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, ngo.id);
    const { id } = await writeSpending(s, asNgo(ngo.id), campaign.id, await values());
    const [row] = await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, id));
    expect(await s.storage.get(row!.documentKey)).not.toBeNull();
    await discardSpending(s, asNgo(ngo.id), id);
    expect(await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, id))).toEqual([]);
    expect(await s.db.select().from(files).where(eq(files.key, row!.documentKey))).toEqual([]);
    expect(await s.storage.get(row!.documentKey)).toBeNull();
  });

  it("refuse a day ahead of today, a day that does not exist, a deleted campaign, and amounts out of bounds", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const campaign = await makeCampaign(s.db, ngo.id);
    const tomorrow = addDays(pakistanToday(), 1);
    expect(await failure(writeSpending(s, asNgo(ngo.id), campaign.id, await values({ spentOn: tomorrow })))).toMatchObject({
      kind: "invalid",
      field: "spentOn",
      message: "ledger:errors.dateAhead",
    });
    expect(await failure(writeSpending(s, asNgo(ngo.id), campaign.id, await values({ spentOn: "2026-02-30" })))).toMatchObject({
      field: "spentOn",
      message: "ledger:errors.dateInvalid",
    });
    const archived = await makeCampaign(s.db, ngo.id, { status: "archived", archivedAt: new Date() });
    expect(await failure(writeSpending(s, asNgo(ngo.id), archived.id, await values()))).toMatchObject({
      message: "ledger:errors.campaignArchived",
    });
    // Nothing was stored for the refused ones: the document is saved after the checks.
    expect(await s.db.select().from(files).where(eq(files.ownerId, ngo.id))).toEqual([]);

    const parse = (amount: string) =>
      spendingSchema.safeParse({
        ...{ intent: "write", fund: "zakat", spentOn: "2026-01-01", purpose: "x" },
        amount,
        document: new File(["x"], "a.png"),
      });
    expect(parse("Rs. 1,500").data?.amount).toBe(1500);
    expect(parse("۵۰۰").data?.amount).toBe(500);
    expect(parse("0").error?.issues[0]?.message).toBe("ledger:errors.amountPositive");
    expect(parse(String(SPENDING_AMOUNT_MAX + 1)).error?.issues[0]?.message).toBe("ledger:errors.amountTooLarge");
    expect(parse("12.5").error?.issues[0]?.message).toBe("ledger:errors.amountDigits");
  });
});

describe("who sees and changes spending records", () => {
  it("drafts are the campaign's NGOs' to read; only the NGO that spent publishes, discards or corrects; others find nothing", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const stranger = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const ownDraft = await writeSpending(s, asNgo(owner.id), campaign.id, await values());
    const partnerDraft = await writeSpending(s, asNgo(partner.id), campaign.id, await values({ fund: "zakat" }));

    const seen = async (ngoId: string) =>
      (await campaignSpending(s.db, asNgo(ngoId), campaign.id, 1)).records.rows.map((r) => [
        r.ngoId === owner.id ? "owner" : "partner",
        r.actions,
      ]);
    expect((await seen(owner.id)).sort()).toEqual([
      ["owner", ["discard", "publish"]],
      ["partner", []],
    ]);
    expect((await seen(partner.id)).sort()).toEqual([
      ["owner", []],
      ["partner", ["discard", "publish"]],
    ]);
    expect(await failureKind(campaignSpending(s.db, asNgo(stranger.id), campaign.id, 1))).toBe("not_found");
    expect(await failureKind(campaignSpending(s.db, asDonor(donor.id), campaign.id, 1))).toBe("not_found");

    // Another NGO's record of the same campaign: forbidden; a stranger's or a donor's try: not found. Nothing changes.
    expect(await failure(publishSpending(s.db, asNgo(partner.id), ownDraft.id))).toMatchObject({
      kind: "forbidden",
      message: "ledger:errors.spenderOnly",
    });
    expect(await failureKind(publishSpending(s.db, asNgo(stranger.id), ownDraft.id))).toBe("not_found");
    expect(await failureKind(discardSpending(s, asNgo(stranger.id), ownDraft.id))).toBe("not_found");
    expect(await failureKind(publishSpending(s.db, asDonor(donor.id), ownDraft.id))).toBe("not_found");
    expect(await failureKind(writeSpending(s, asNgo(stranger.id), campaign.id, await values()))).toBe("not_found");
    expect(await failureKind(publishSpending(s.db, asNgo(owner.id), "not-a-uuid"))).toBe("not_found");

    // The document of a draft: the campaign's NGOs only.
    const [draftRow] = await s.db.select().from(spendingRecords).where(eq(spendingRecords.id, partnerDraft.id));
    const may = (actor: Parameters<typeof mayReadSpendingDocument>[2]) => mayReadSpendingDocument(s.db, draftRow!.documentKey, actor);
    expect([
      await may(asNgo(owner.id)),
      await may(asNgo(partner.id)),
      await may(asNgo(stranger.id)),
      await may(asDonor(donor.id)),
      await may(null),
    ]).toEqual([true, true, false, false, false]);
    await publishSpending(s.db, asNgo(partner.id), partnerDraft.id);
    expect([await may(asNgo(stranger.id)), await may(asDonor(donor.id)), await may(null)]).toEqual([true, true, true]);

    // A partner that leaves keeps no access to the campaign's drafts; what it published stays public.
    await s.db.update(campaignPartners).set({ status: "left" }).where(eq(campaignPartners.ngoId, partner.id));
    expect(await failureKind(campaignSpending(s.db, asNgo(partner.id), campaign.id, 1))).toBe("not_found");
    const ledger = await publicLedger(s.db, campaign.slug);
    expect(ledger.spending.map((r) => [r.fund, r.ngoName])).toEqual([["zakat", expect.stringContaining("Test ngo")]]);
  });
});

describe("the public ledger", () => {
  it("adds up raised, spent and balance per fund from approved gifts and published spending, and names NGOs of a joint campaign", async () => {
    const owner = await makeUser(s.db, "ngo", { name: "Roshni Trust" });
    const partner = await makeUser(s.db, "ngo", { name: "Saaya Foundation" });
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const gift = (
      fund: (typeof FUND_KINDS)[number],
      amount: number,
      status: "approved" | "pending" | "rejected" = "approved",
      ngo = owner.id,
    ) =>
      makeDonation(s.db, campaign, donor.id, {
        fund,
        amount,
        status,
        recipientNgoId: ngo,
        decidedAt: status === "pending" ? null : new Date(),
      });
    await gift("zakat", 10_000);
    await gift("zakat", 5_000, "approved", partner.id);
    await gift("zakat", 99_000, "pending");
    await gift("sadaqah", 2_000);
    await gift("sadaqah", 50_000, "rejected");
    await gift("general", 1_000);
    await makeSpending(s, campaign, { fund: "zakat", amount: 12_000, status: "published" });
    await makeSpending(s, campaign, { fund: "zakat", amount: 70_000 }); // a draft: not counted
    await makeSpending(s, campaign, { fund: "sadaqah", amount: 3_500, status: "published", ngoId: partner.id });
    await makeSpending(s, campaign, { fund: "fitrana", amount: 400, status: "published" });
    // Taken down by the administrator: listed as removed, without its amount, and not counted.
    await makeSpending(s, campaign, { fund: "zakat", amount: 9_999, status: "taken_down" });

    const ledger = await publicLedger(s.db, campaign.slug);
    expect(ledger.funds).toEqual([
      { fund: "zakat", raised: 15_000, spent: 12_000, balance: 3_000 },
      // Spent beyond what was given to the fund here: allowed, shown below zero (decision 049).
      { fund: "sadaqah", raised: 2_000, spent: 3_500, balance: -1_500 },
      { fund: "fitrana", raised: 0, spent: 400, balance: -400 },
      { fund: "general", raised: 1_000, spent: 0, balance: 1_000 },
    ]);
    // Each total is the sum of the entries the whole ledger lists.
    const all = await ledgerPages(s.db, campaign.slug, { gifts: 1, goods: 1, spending: 1 });
    for (const f of ledger.funds) {
      expect(
        all.gifts.rows.filter((g) => g.fund === f.fund).reduce((sum, g) => sum + g.amount, 0),
        f.fund,
      ).toBe(f.raised);
      expect(
        all.spending.rows.filter((r) => r.fund === f.fund && !r.corrected).reduce((sum, r) => sum + (r.amount ?? 0), 0),
        f.fund,
      ).toBe(f.spent);
    }
    const removed = all.spending.rows.filter((r) => r.takenDownAt !== null);
    expect(removed.map((r) => [r.amount, r.purpose, r.documentKey])).toEqual([[null, null, null]]);
    expect(all.spending.total).toBe(4);
    expect(all.joint).toBe(true);
    expect(new Set(all.gifts.rows.map((g) => g.ngoName))).toEqual(new Set(["Roshni Trust", "Saaya Foundation"]));
    expect(new Set(all.spending.rows.map((r) => r.ngoName))).toEqual(new Set(["Roshni Trust", "Saaya Foundation"]));
  });

  it("lists goods received, newest first, and bounds each list: the most recent on the page, the rest page by page", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    await makePickup(s.db, campaign, donor.id, { items: "20 blankets", status: "received", receivedNote: "18 blankets" });
    await makePickup(s.db, campaign, donor.id, { items: "Rice", status: "collected" });
    for (let i = 0; i < 7; i++)
      await makeDonation(s.db, campaign, donor.id, { amount: 100 + i, status: "approved", decidedAt: new Date(Date.UTC(2026, 0, 1 + i)) });
    const ledger = await publicLedger(s.db, campaign.slug);
    expect(ledger.goods.map((g) => g.items)).toEqual(["18 blankets"]);
    expect(ledger.gifts.map((g) => g.amount)).toEqual([106, 105, 104, 103, 102]);
    expect(ledger.more).toEqual({ gifts: true, goods: false, spending: false });
    const page = await ledgerPages(s.db, campaign.slug, { gifts: 1, goods: 1, spending: 1 });
    expect(page.gifts).toMatchObject({ page: 1, pages: 1, total: 7 });
    expect((await ledgerPages(s.db, campaign.slug, { gifts: 1_000_000, goods: 1, spending: 1 })).gifts.page).toBe(200);
    expect(await failureKind(publicLedger(s.db, "no-such-campaign"))).toBe("not_found");
    const archived = await makeCampaign(s.db, ngo.id, { status: "archived", archivedAt: new Date() });
    expect(await failureKind(publicLedger(s.db, archived.slug))).toBe("not_found");
  });

  it("names a donor only when they chose to be named: an anonymous donor's name is not in the data at all", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const named = await makeUser(s.db, "donor", { name: "Farah Named" });
    const hidden = await makeUser(s.db, "donor", { name: "Zubair Hidden" });
    const campaign = await makeCampaign(s.db, ngo.id);
    await makeDonation(s.db, campaign, named.id, { amount: 700, status: "approved", showName: true, fund: "sadaqah" });
    await makeDonation(s.db, campaign, hidden.id, { amount: 900, status: "approved", showName: false, fund: "zakat" });
    const ledger = await publicLedger(s.db, campaign.slug);
    expect(ledger.gifts.map((g) => [g.amount, g.fund, g.donorName]).sort()).toEqual([
      [700, "sadaqah", "Farah Named Donor"],
      [900, "zakat", null],
    ]);
    const everything = JSON.stringify([ledger, await ledgerPages(s.db, campaign.slug, { gifts: 1, goods: 1, spending: 1 })]);
    expect(everything).not.toContain("Zubair");
    expect(everything).not.toContain(hidden.email);
  });
});
