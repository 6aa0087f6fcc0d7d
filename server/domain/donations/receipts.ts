import { and, eq, isNotNull, sql } from "drizzle-orm";
import { pdfDocument } from "#server/domain/pdf.ts";
import { ToWords } from "to-words/en-IN";
import { formatDateTime } from "#shared/format.ts";
import type { TFunction } from "#shared/i18n/i18n.ts";
import { formatRupees } from "#shared/money.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donations, donorProfiles, ngoProfiles, users } from "#server/db/schema.ts";
import { isUuid } from "#server/db/query.ts";
import { notFound } from "#server/domain/errors.ts";
import type { PaymentMethod } from "#shared/constants.ts";
import { donationScope, type DonationActor } from "./policy.ts";
import { formatReceiptNumber } from "./receipt-number.ts";

export { formatReceiptNumber, receiptPrefix } from "./receipt-number.ts";

// en-IN counts in lakh and crore, as Pakistani receipts do. Its own entry, not the package's every locale (decision 032).
const toWords = new ToWords({ localeCode: "en-IN" });

/** The amount in words as a receipt states it: "Rupees Fifty Thousand Only". */
export function amountInWords(amount: number): string {
  return `Rupees ${toWords.convert(amount)} Only`;
}

/** Who asks for a receipt. */
export type ReceiptActor = DonationActor;

export interface Receipt {
  donationId: string;
  receiptNumber: number;
  /** The receiving NGO's receipt series (its prefix). */
  receiptSeries: number;
  amount: number;
  method: PaymentMethod;
  transactionId: string | null;
  approvedAt: Date;
  campaignTitle: string;
  zakatEligible: boolean;
  ngo: { name: string; registrationNumber: string; address: string };
  donor: { name: string; email: string };
}

/**
 * The receipt of an approved cash donation, for those policy.ts names (`receipt`: the donor who gave it, the
 * NGO it was paid to, the admin). Anyone else, and any donation that is not approved cash with a receipt number, gets "not found", so a
 * receipt's existence never leaks.
 */
export async function receiptFor(db: DbOrTx, actor: ReceiptActor, donationId: string): Promise<Receipt> {
  if (!isUuid(donationId)) throw notFound();
  const [row] = await db
    .select({
      donationId: donations.id,
      receiptNumber: donations.receiptNumber,
      receiptSeries: ngoProfiles.receiptSeries,
      amount: sql<number>`${donations.amount}`.mapWith(Number),
      method: sql<PaymentMethod>`${donations.method}`,
      transactionId: donations.transactionId,
      approvedAt: donations.decidedAt,
      campaignTitle: campaigns.title,
      zakatEligible: campaigns.zakatEligible,
      ngoName: ngoProfiles.name,
      ngoRegistration: ngoProfiles.registrationNumber,
      ngoAddress: ngoProfiles.address,
      donorName: sql<string>`coalesce(${donorProfiles.firstName} || ' ' || ${donorProfiles.lastName}, ${users.email})`,
      donorEmail: users.email,
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, donations.recipientNgoId))
    .innerJoin(users, eq(users.id, donations.donorId))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, donations.donorId))
    .where(
      and(
        eq(donations.id, donationId),
        eq(donations.kind, "cash"),
        eq(donations.status, "approved"),
        isNotNull(donations.receiptNumber),
        isNotNull(donations.amount),
        donationScope(actor, "receipt"),
      ),
    )
    .limit(1);
  if (!row || row.receiptNumber === null) throw notFound();
  return {
    donationId: row.donationId,
    receiptNumber: row.receiptNumber,
    receiptSeries: row.receiptSeries,
    amount: row.amount,
    method: row.method,
    transactionId: row.transactionId,
    // Approved rows always carry their decision time; the fallback only keeps the type honest.
    approvedAt: row.approvedAt ?? new Date(0),
    campaignTitle: row.campaignTitle,
    zakatEligible: row.zakatEligible,
    ngo: { name: row.ngoName, registrationNumber: row.ngoRegistration, address: row.ngoAddress },
    donor: { name: row.donorName, email: row.donorEmail },
  };
}

/** The download's file name: ek-chhat-receipt-N042-000123.pdf. */
export function receiptFileName(receipt: Pick<Receipt, "receiptNumber" | "receiptSeries">): string {
  return `ek-chhat-receipt-${formatReceiptNumber(receipt.receiptSeries, receipt.receiptNumber)}.pdf`;
}

// The characters the standard PDF fonts can show (WinAnsi: Latin-1 plus a few typographic marks).
const WIN_ANSI_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

/**
 * Text as the standard PDF fonts can draw it: accents that decompose lose their mark, anything else outside
 * WinAnsi (Urdu script, emoji) becomes "?", rather than the mojibake pdfkit would draw.
 */
export function pdfText(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(ch)) {
      out += ch;
    } else if (ch === "\n" || ch === "\t") {
      out += " ";
    } else {
      const base = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += base.length > 0 && [...base].every((c) => c.codePointAt(0)! <= 0x7e) ? base : "?";
    }
  }
  return out;
}

/**
 * Renders the receipt as a PDF, on request (receipts are never cached on disk).
 *
 * The PDF is English only: pdfkit's standard fonts (Helvetica) cannot shape Urdu's Nastaliq script, and
 * embedding a shaping-capable Urdu font would make every receipt several hundred kilobytes. A receipt is a
 * document of record, so one language is acceptable; its labels still come from the translation files
 * (`history:receipt.*`) through `serverI18n("en")`.
 */
export async function renderReceiptPdf(receipt: Receipt, t: TFunction): Promise<Buffer> {
  const number = formatReceiptNumber(receipt.receiptSeries, receipt.receiptNumber);
  const { doc, finished } = await pdfDocument({
    size: "A5",
    margin: 40,
    info: {
      Title: pdfText(`${t("history:receipt.title")} ${number} · ${receipt.ngo.name}`),
      Author: pdfText(receipt.ngo.name),
      Creator: "Ek Chhat",
    },
  });

  const brand = "#115e59";
  const muted = "#475569";
  const width = doc.page.width - 80;

  doc
    .fillColor(brand)
    .font("Helvetica-Bold")
    .fontSize(20)
    .text(pdfText(t("history:receipt.brand")), { width });
  doc
    .fillColor(muted)
    .font("Helvetica")
    .fontSize(9)
    .text(pdfText(t("history:receipt.tagline")), { width });
  doc.moveDown(0.8);
  doc
    .fillColor("#000000")
    .font("Helvetica-Bold")
    .fontSize(15)
    .text(pdfText(t("history:receipt.title")), { width });
  doc
    .font("Helvetica")
    .fontSize(10)
    .text(pdfText(t("history:receipt.numberLine", { number, ngo: receipt.ngo.name })), { width });
  doc.moveDown(0.8);

  const section = (heading: string) => {
    doc.moveDown(0.4);
    doc.fillColor(brand).font("Helvetica-Bold").fontSize(11).text(pdfText(heading), { width });
    doc.fillColor("#000000");
  };
  const field = (label: string, value: string) => {
    doc
      .font("Helvetica-Bold")
      .fontSize(10)
      .text(`${pdfText(label)}: `, { continued: true, width });
    doc.font("Helvetica").text(pdfText(value), { width });
  };

  section(t("history:receipt.ngoHeading"));
  field(t("history:receipt.ngoName"), receipt.ngo.name);
  field(t("history:receipt.registration"), receipt.ngo.registrationNumber);
  field(t("history:receipt.address"), receipt.ngo.address);

  section(t("history:receipt.donorHeading"));
  field(t("history:receipt.donorName"), receipt.donor.name);
  field(t("history:receipt.donorEmail"), receipt.donor.email);

  section(t("history:receipt.donationHeading"));
  field(t("history:receipt.amount"), formatRupees(receipt.amount, "en"));
  field(t("history:receipt.amountWords"), amountInWords(receipt.amount));
  field(t("history:receipt.date"), formatDateTime(receipt.approvedAt, "en").text);
  field(t("history:receipt.campaign"), receipt.campaignTitle);
  field(t("history:receipt.method"), t(`donations:methods.${receipt.method}`));
  field(t("history:receipt.transactionId"), receipt.transactionId ?? "—");

  doc.moveDown(0.8);
  doc
    .font("Helvetica-Bold")
    .fontSize(10)
    .text(pdfText(t(receipt.zakatEligible ? "history:receipt.zakatYes" : "history:receipt.zakatNo")), { width });
  doc.moveDown(0.8);
  doc
    .fillColor(muted)
    .font("Helvetica")
    .fontSize(9)
    .text(pdfText(t("history:receipt.issued", { ngo: receipt.ngo.name })), { width });
  doc.end();
  return finished;
}
