import { and, eq, isNotNull, sql } from "drizzle-orm";
import { numberInWords } from "#server/domain/number-words.ts";
import { isolate, pdfDocument } from "#server/domain/pdf.ts";
import { formatDateTime } from "#shared/format.ts";
import type { Lang, TFunction } from "#shared/i18n/i18n.ts";
import { formatRupees } from "#shared/money.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donations, donorProfiles, ngoProfiles, users } from "#server/db/schema.ts";
import { isUuid } from "#server/db/query.ts";
import { notFound } from "#server/domain/errors.ts";
import type { PaymentMethod } from "#shared/constants.ts";
import type { FundKind } from "#shared/statuses.ts";
import { donationScope, type DonationActor } from "./policy.ts";
import { formatReceiptNumber } from "./receipt-number.ts";

export { formatReceiptNumber, receiptPrefix } from "./receipt-number.ts";

/**
 * The amount in words as a receipt states it, in the reader's language: "Rupees Fifty Thousand Only", "صرف پچاس ہزار
 * روپے" (one rupee is روپیہ). The words count in thousand, lakh and crore in both (decision 039).
 */
export function amountInWords(amount: number, t: TFunction, lang: Lang): string {
  const words = numberInWords(amount, lang);
  return amount === 1 ? t("history:receipt.amountInWordsOne", { words }) : t("history:receipt.amountInWords", { words });
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
  /** The fund the donor gave to, and in whose name, as the receipt states them (decision 048). */
  fund: FundKind;
  inNameOf: string | null;
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
      fund: donations.fund,
      inNameOf: donations.inNameOf,
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
    fund: row.fund,
    inNameOf: row.inNameOf,
    ngo: { name: row.ngoName, registrationNumber: row.ngoRegistration, address: row.ngoAddress },
    donor: { name: row.donorName, email: row.donorEmail },
  };
}

/** The download's file name: ek-chhat-receipt-N042-000123.pdf. */
export function receiptFileName(receipt: Pick<Receipt, "receiptNumber" | "receiptSeries">): string {
  return `ek-chhat-receipt-${formatReceiptNumber(receipt.receiptSeries, receipt.receiptNumber)}.pdf`;
}

/**
 * Renders the receipt as a PDF in the reader's language, on request (receipts are never cached on disk): Urdu right
 * to left in Nastaliq, English left to right; names, titles and addresses print as written in either (decision 039).
 * The amount in words is in the reader's language too.
 */
export async function renderReceiptPdf(receipt: Receipt, t: TFunction, lang: Lang): Promise<Buffer> {
  const number = formatReceiptNumber(receipt.receiptSeries, receipt.receiptNumber);
  const pdf = await pdfDocument(
    {
      size: "A5",
      margin: 40,
      info: {
        Title: `${t("history:receipt.title")} ${number} · ${receipt.ngo.name}`,
        Author: receipt.ngo.name,
        Creator: "Ek Chhat",
      },
    },
    lang,
  );
  const { doc } = pdf;
  const brand = "#115e59";
  const muted = "#475569";

  pdf.text(t("history:receipt.brand"), { size: 20, bold: true, color: brand });
  pdf.text(t("history:receipt.tagline"), { size: 9, color: muted });
  doc.moveDown(0.8);
  pdf.text(t("history:receipt.title"), { size: 15, bold: true });
  pdf.text(t("history:receipt.numberLine", { number: isolate(number), ngo: isolate(receipt.ngo.name) }), { size: 10 });
  doc.moveDown(0.8);

  const section = (heading: string) => {
    doc.moveDown(0.4);
    pdf.text(heading, { size: 11, bold: true, color: brand });
  };
  const field = (label: string, value: string) =>
    pdf.text(
      [
        { text: `${label}: `, bold: true },
        { text: value, isolate: true },
      ],
      { size: 10 },
    );

  section(t("history:receipt.ngoHeading"));
  field(t("history:receipt.ngoName"), receipt.ngo.name);
  field(t("history:receipt.registration"), receipt.ngo.registrationNumber);
  field(t("history:receipt.address"), receipt.ngo.address);

  section(t("history:receipt.donorHeading"));
  field(t("history:receipt.donorName"), receipt.donor.name);
  field(t("history:receipt.donorEmail"), receipt.donor.email);

  section(t("history:receipt.donationHeading"));
  field(t("history:receipt.amount"), formatRupees(receipt.amount, lang));
  field(t("history:receipt.amountWords"), amountInWords(receipt.amount, t, lang));
  field(t("history:receipt.date"), formatDateTime(receipt.approvedAt, lang).text);
  field(t("history:receipt.campaign"), receipt.campaignTitle);
  field(t("history:receipt.method"), t(`donations:methods.${receipt.method}`));
  field(t("history:receipt.transactionId"), receipt.transactionId ?? "—");
  field(t("funds:receipt.fund"), t(`funds:kinds.${receipt.fund}`));
  if (receipt.inNameOf) field(t("funds:receipt.inNameOf"), receipt.inNameOf);

  doc.moveDown(0.8);
  pdf.text(t(receipt.fund === "zakat" ? "funds:receipt.zakatAccepted" : "funds:receipt.notZakat"), { size: 10, bold: true });
  doc.moveDown(0.8);
  pdf.text(t("history:receipt.issued", { ngo: isolate(receipt.ngo.name) }), { size: 9, color: muted });
  doc.end();
  return pdf.finished;
}
