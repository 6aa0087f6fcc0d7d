import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as hb from "harfbuzzjs";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { formatDateTime } from "#shared/format.ts";
import { formatRupees } from "#shared/money.ts";
import { DONATION_AMOUNT_MAX } from "#shared/constants.ts";
import { amountInWords, renderReceiptPdf, type Receipt } from "#server/domain/donations/receipts.ts";
import { NASTALIQ_SCALE, PDF_URDU_FONT, pdfText } from "#server/domain/pdf.ts";

/**
 * Receipts in the reader's language (issue 16, item 3; decision 039): the words poppler's pdftotext reads back, and the
 * page as pdftoppm draws it, with the Urdu donor's name written in Urdu script.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-receipt-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const URDU_NAME = "عائشہ صدیقی";
const receipt: Receipt = {
  donationId: "3f1d8c1e-9a8b-4c1d-8f2e-0a1b2c3d4e5f",
  receiptNumber: 42,
  receiptSeries: 7,
  amount: 50_000,
  method: "jazzcash",
  transactionId: "JC778899",
  approvedAt: new Date("2026-11-23T10:05:00Z"),
  campaignTitle: "سردیوں کے کمبل، کوئٹہ",
  fund: "zakat",
  inNameOf: "مرحومہ خدیجہ بی بی",
  ngo: { name: "الخدمت کراچی", registrationNumber: "SECP-2019-4471", address: "Plot 12, Block 7, Gulshan-e-Iqbal, Karachi" },
  donor: { name: URDU_NAME, email: "ayesha@example.com" },
};

let files = 0;
function writePdf(pdf: Buffer): string {
  const file = path.join(dir, `r${files++}.pdf`);
  fs.writeFileSync(file, pdf);
  return file;
}

/**
 * What pdftotext reads, as one line: without the direction marks it adds around right-to-left lines, and with the
 * spaces beside a colon or an Urdu comma dropped: on which side of the space poppler puts such a neutral mark at the
 * edge of a right-to-left word is its own guess, while the page shows it where it belongs.
 */
function extracted(file: string): string {
  return normalized(execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }));
}
function normalized(text: string): string {
  return text
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ")
    .replace(/ ?([:،]) ?/g, "$1")
    .trim();
}

/** The first page at 100 dpi in grey, and where its ink (pixels darker than mid-grey) lies between two heights. */
async function inkOf(file: string) {
  execFileSync("pdftoppm", ["-r", "100", "-f", "1", "-l", "1", "-gray", "-png", file, file]);
  const png = fs.readdirSync(dir).find((f) => path.join(dir, f).startsWith(file) && f.endsWith(".png"))!;
  const { data, info } = await sharp(path.join(dir, png)).raw().toBuffer({ resolveWithObject: true });
  /** The first and last inked column between two heights given in points from the top. */
  const extent = (fromPt: number, toPt: number) => {
    let left = info.width;
    let right = -1;
    for (let y = Math.round(px(fromPt)); y < Math.min(info.height, Math.round(px(toPt))); y++) {
      for (let x = 0; x < info.width; x++) {
        if (data[(y * info.width + x) * info.channels]! >= 128) continue;
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
    /** How many rows apart the highest and lowest ink of a column are. */
    const heightAt = (x: number) => {
      const rows: number[] = [];
      for (let y = Math.round(px(fromPt)); y < Math.min(info.height, Math.round(px(toPt))); y++) {
        if (data[(y * info.width + x) * info.channels]! < 128) rows.push(y);
      }
      return rows.length > 0 ? rows.at(-1)! - rows[0]! + 1 : 0;
    };
    return { left, right, heightAt };
  };
  return { width: info.width, extent };
}
const px = (pt: number) => (pt * 100) / 72;

/** A word's width in points in the PDF's Urdu font, shaped by HarfBuzz or as its letters' separate (isolated) forms. */
function urduWidth(text: string, size: number, shaped: boolean): number {
  const face = new hb.Face(new hb.Blob(fs.readFileSync(new URL(`../../server/domain/${PDF_URDU_FONT}`, import.meta.url))));
  const font = new hb.Font(face);
  const units = shaped
    ? (() => {
        const buffer = new hb.Buffer();
        buffer.addText(text);
        buffer.guessSegmentProperties();
        hb.shape(font, buffer);
        return buffer.getGlyphPositions().reduce((sum, p) => sum + p.xAdvance, 0);
      })()
    : [...text].reduce((sum, ch) => {
        const buffer = new hb.Buffer();
        buffer.addText(ch);
        buffer.guessSegmentProperties();
        hb.shape(font, buffer);
        return sum + buffer.getGlyphPositions().reduce((s, p) => s + p.xAdvance, 0);
      }, 0);
  return (units * size * NASTALIQ_SCALE) / face.upem;
}

async function render(lang: Lang) {
  const t = serverI18n(lang).t;
  return { t, file: writePdf(await renderReceiptPdf(receipt, t, lang)) };
}

describe("a receipt in the donor's language", () => {
  it("is Urdu for an Urdu reader: every line reads back as written, the name in Urdu script", async () => {
    const { t, file } = await render("ur");
    const text = extracted(file);
    for (const line of [
      t("history:receipt.brand"),
      t("history:receipt.tagline"),
      t("history:receipt.title"),
      t("history:receipt.numberLine", { number: "N007-000042", ngo: receipt.ngo.name }),
      `${t("history:receipt.donorName")}: ${URDU_NAME}`,
      `${t("history:receipt.ngoName")}: ${receipt.ngo.name}`,
      `${t("history:receipt.campaign")}: ${receipt.campaignTitle}`,
      `${t("history:receipt.method")}: ${t("donations:methods.jazzcash")}`,
      // Latin values in an Urdu line: pdftotext puts the colon after the value; the label and value themselves read back.
      t("history:receipt.amount"),
      formatRupees(50_000, "ur"),
      // The amount in words in Urdu, in one line with its label, read back exactly.
      `${t("history:receipt.amountWords")}: صرف پچاس ہزار روپے`,
      t("history:receipt.date"),
      // The date's Urdu month ("23 نومبر، 2026، 3:05 PM": its digits and time are Latin, read back in poppler's order).
      ...formatDateTime(receipt.approvedAt, "ur").text.match(/\p{Script=Arabic}+/gu)!,
      "ayesha@example.com",
      "JC778899",
      t("funds:receipt.zakatAccepted"),
      t("history:receipt.issued", { ngo: receipt.ngo.name }),
    ]) {
      expect(text, line).toContain(normalized(line));
    }
    expect(text).not.toMatch(/[?\ufffd]/);
    expect(text).not.toContain("Donation receipt");
    expect(text).not.toContain("Rupees");
  });

  it("writes any amount in Urdu words, in lakhs and crores, one rupee in the singular", async () => {
    const t = serverI18n("ur").t;
    expect(amountInWords(99_99_999, t, "ur")).toBe("صرف ننانوے لاکھ ننانوے ہزار نو سو ننانوے روپے");
    expect(amountInWords(DONATION_AMOUNT_MAX, t, "ur")).toBe("صرف ایک کروڑ روپے");
    for (const [amount, words] of [
      [12_34_567, "صرف بارہ لاکھ چونتیس ہزار پانچ سو سڑسٹھ روپے"],
      [1, "صرف ایک روپیہ"],
    ] as const) {
      expect(amountInWords(amount, t, "ur")).toBe(words);
      const text = extracted(writePdf(await renderReceiptPdf({ ...receipt, amount }, t, "ur")));
      expect(text, words).toContain(normalized(`${t("history:receipt.amountWords")}: ${words}`));
      expect(text).not.toMatch(/[?\ufffd]/);
    }
  });

  it("draws the Urdu right to left, joined by HarfBuzz in Nastaliq: the title's ink ends at the right margin, as wide as its shaped word", async () => {
    const { t, file } = await render("ur");
    const { width, extent } = await inkOf(file);
    // The first line is the brand, "ایک چھت" at 20 pt: from the top margin (40 pt), 1.9 times its size high (its lower
    // part reached by the next line's tallest letters), drawn
    // from the right margin (40 pt) leftwards.
    const brand = extent(40, 40 + 20 * 1.9 * 0.8);
    expect(Math.abs(width - px(40) - brand.right)).toBeLessThan(px(4));
    expect(brand.left).toBeGreaterThan(width / 2);
    const shaped = px(urduWidth(t("history:receipt.brand"), 20, true));
    const isolated = px(urduWidth(t("history:receipt.brand"), 20, false));
    // Unjoined letters (no shaping) would be far wider: the check below can tell them apart.
    expect(isolated / shaped).toBeGreaterThan(1.3);
    expect(Math.abs(brand.right - brand.left - shaped) / shaped).toBeLessThan(0.15);
    // In reading order, the line begins on the right with the alif of "ایک", a tall upright stroke: the rightmost
    // columns hold ink over more than 0.4 of the type size (drawn left to right, the low tail of "چھت" would end it).
    expect(brand.heightAt(brand.right - 1)).toBeGreaterThan(px(20) * 0.4);
  });

  it("is English for an English reader, with the Urdu name printed in Urdu script, not as '?'", async () => {
    const { t, file } = await render("en");
    const text = extracted(file);
    for (const line of [
      "Donation receipt",
      `Receipt no. N007-000042 of ${receipt.ngo.name}`,
      `Donor: ${URDU_NAME}`,
      // An Urdu title with a comma in an English line: pdftotext orders the two Urdu pieces left to right.
      "سردیوں کے کمبل",
      "کوئٹہ",
      "Amount: Rs. 50,000",
      "Amount in words: Rupees Fifty Thousand Only",
      t("funds:receipt.zakatAccepted"),
    ]) {
      expect(text, line).toContain(normalized(line));
    }
    expect(text).not.toMatch(/[?\ufffd]/);
    // English runs left to right: the brand starts at the left margin.
    const { extent } = await inkOf(file);
    expect(Math.abs(extent(40, 60).left - px(40))).toBeLessThan(px(4));
  });

  it("keeps Latin text Helvetica can draw, and marks what it cannot, beside Urdu in the same line", async () => {
    expect(pdfText("Müller – “ok” 😀 Zoë")).toBe("Müller – “ok” ? Zoë");
    const t = serverI18n("en").t;
    const file = writePdf(await renderReceiptPdf({ ...receipt, donor: { ...receipt.donor, name: "Zoë 😀 عائشہ" } }, t, "en"));
    expect(extracted(file)).toContain("Donor:Zoë ? عائشہ");
  });
});
