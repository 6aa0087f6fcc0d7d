import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import jsQR from "jsqr";
import { PDFParse } from "pdf-parse";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { collectionPosterFor, posterFor, renderPosterPdf } from "#server/domain/campaigns/poster.ts";
import { setRaastQr } from "#server/domain/admin/platform.ts";
import { parseEmvTlv } from "#server/domain/payments/raast-qr.ts";
import { asAdmin, asNgo } from "#tests/helpers/actors.ts";
import { givePaymentAccounts, makeCampaign, makeUser, TEST_ACCOUNTS } from "#tests/helpers/factories.ts";
import { failure } from "#tests/helpers/failure.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/** The QR codes printed on a PDF's first page, read back from a 150 dpi rendering by an independent decoder. */
async function qrCodesOn(pdf: Buffer): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-poster-"));
  try {
    fs.writeFileSync(path.join(dir, "p.pdf"), pdf);
    execFileSync("pdftoppm", ["-r", "150", "-f", "1", "-l", "1", "-png", path.join(dir, "p.pdf"), path.join(dir, "page")]);
    const png = fs.readdirSync(dir).find((f) => f.endsWith(".png"))!;
    const image = sharp(path.join(dir, png));
    const { width, height } = await image.metadata();
    const found: string[] = [];
    // Each half of the page holds at most one code side by side: decode the halves apart.
    for (const left of [0, Math.floor(width! / 2)]) {
      const { data, info } = await sharp(path.join(dir, png))
        .extract({ left, top: 0, width: Math.floor(width! / 2), height: height! })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const code = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
      if (code) found.push(code.data);
    }
    return found;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the donation poster", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("prints the campaign, the NGO's accounts, a Raast QR of its IBAN and a QR of the public page that scan back", async () => {
    const ngo = await makeUser(s.db, "ngo", { name: "Sahara Foundation" });
    await givePaymentAccounts(s.db, ngo.id);
    const campaign = await makeCampaign(s.db, ngo.id, { title: "Winter blankets for Quetta" });
    const poster = await posterFor(s.db, s.config, asNgo(ngo.id), campaign.id);
    const pdf = await renderPosterPdf(poster, serverI18n("en").t, "en");
    const text = (await new PDFParse({ data: new Uint8Array(pdf) }).getText()).text.replace(/\s+/g, " ");
    for (const expected of [
      "Winter blankets for Quetta",
      "Sahara Foundation",
      TEST_ACCOUNTS.jazzcashNumber,
      TEST_ACCOUNTS.bankAccountNumber,
      poster.publicUrl,
    ]) {
      expect(text).toContain(expected);
    }
    const codes = await qrCodesOn(pdf);
    expect(codes).toHaveLength(2);
    expect(codes[1]).toBe(poster.publicUrl);
    expect(parseEmvTlv(codes[0]!).get("04")).toBe(TEST_ACCOUNTS.bankAccountNumber);
  });

  it("is Urdu for an NGO using Urdu: its words read back, an Urdu title as written, and both codes still scan", async () => {
    const ngo = await makeUser(s.db, "ngo", { name: "سہارا فاؤنڈیشن" });
    await givePaymentAccounts(s.db, ngo.id);
    const campaign = await makeCampaign(s.db, ngo.id, { title: "کوئٹہ کے لیے سردیوں کے کمبل" });
    const poster = await posterFor(s.db, s.config, asNgo(ngo.id), campaign.id);
    const ur = serverI18n("ur").t;
    const pdf = await renderPosterPdf(poster, ur, "ur");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-poster-ur-"));
    try {
      fs.writeFileSync(path.join(dir, "p.pdf"), pdf);
      // poppler's reading, without the direction marks it adds around right-to-left lines.
      const text = execFileSync("pdftotext", ["-enc", "UTF-8", path.join(dir, "p.pdf"), "-"], { encoding: "utf8" })
        .replace(/[\u200e\u200f\u202a-\u202e]/g, "")
        .replace(/\s+/g, " ");
      for (const expected of [
        "کوئٹہ کے لیے سردیوں کے کمبل",
        "سہارا فاؤنڈیشن",
        ur("campaigns:poster.howToGive"),
        ur("campaigns:poster.scanPage"),
        TEST_ACCOUNTS.jazzcashNumber,
        poster.publicUrl,
      ]) {
        expect(text, expected).toContain(expected);
      }
      expect(text).not.toMatch(/[?\ufffd]/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Right to left, the Raast code stands on the right: read from the left, the page's code comes first.
    const codes = await qrCodesOn(pdf);
    expect(codes[0]).toBe(poster.publicUrl);
    expect(parseEmvTlv(codes[1]!).get("04")).toBe(TEST_ACCOUNTS.bankAccountNumber);
  });

  it("leaves the Raast QR out when the administrator turned it off, and is the owner's or a partner's only", async () => {
    const owner = await makeUser(s.db, "ngo");
    const partner = await makeUser(s.db, "ngo");
    const stranger = await makeUser(s.db, "ngo");
    await givePaymentAccounts(s.db, owner.id);
    await givePaymentAccounts(s.db, partner.id, { easypaisaNumber: "03451234567" });
    const campaign = await makeCampaign(s.db, owner.id, { partners: [partner.id] });
    const admin = await makeUser(s.db, "admin");
    await setRaastQr(s.db, asAdmin(admin.id), false);
    try {
      expect((await posterFor(s.db, s.config, asNgo(owner.id), campaign.id)).raast).toBeNull();
    } finally {
      await setRaastQr(s.db, asAdmin(admin.id), true);
    }
    // A partner prints its own accounts.
    const theirs = await posterFor(s.db, s.config, asNgo(partner.id), campaign.id);
    expect(theirs.accounts.map((a) => a.method)).toEqual(["easypaisa"]);
    expect(await failure(posterFor(s.db, s.config, asNgo(stranger.id), campaign.id))).toMatchObject({ kind: "not_found" });
    const ended = await makeCampaign(s.db, owner.id, { status: "completed" });
    expect(await failure(posterFor(s.db, s.config, asNgo(owner.id), ended.id))).toMatchObject({ kind: "not_found" });
  });

  it("prints the NGO's collection point poster with its accounts, and is only an NGO's", async () => {
    const ngo = await makeUser(s.db, "ngo", { name: "Umeed Relief" });
    await givePaymentAccounts(s.db, ngo.id);
    const poster = await collectionPosterFor(s.db, s.config, asNgo(ngo.id));
    expect(poster).toMatchObject({ kind: "collection", title: "Umeed Relief" });
    const text = (await new PDFParse({ data: new Uint8Array(await renderPosterPdf(poster, serverI18n("en").t, "en")) }).getText()).text;
    expect(text).toContain("Collection point");
    expect(text).toContain(TEST_ACCOUNTS.jazzcashNumber);
    const donor = await makeUser(s.db, "donor");
    expect(await failure(collectionPosterFor(s.db, s.config, { id: donor.id, role: "donor" }))).toMatchObject({ kind: "not_found" });
  });
});
