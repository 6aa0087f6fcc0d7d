import { isolate, pdfDocument } from "#server/domain/pdf.ts";
import { formatDate } from "#shared/format.ts";
import type { Lang, TFunction } from "#shared/i18n/i18n.ts";
import { formatCount, formatRupees } from "#shared/money.ts";
import type { GivingStatement, StatementKind } from "./giving-statements.ts";
import { hijriDateOf } from "./giving-years.ts";

/**
 * The donor's statements as PDFs in the reader's language (decision 052), written through the one PDF text writer
 * (decision 039): Urdu right to left in HarfBuzz-shaped Nastaliq, English left to right; NGO names, campaign titles
 * and "in the name of" print as written in either.
 */

/** A year as the page and the PDF name it: the fiscal year 2025 is "2025–26", the Hijri year 1446 is "1446 AH". */
export function statementYearLabel(kind: StatementKind, year: number, t: TFunction): string {
  return kind === "fiscal"
    ? t("givingStatements:fiscalYear", { start: String(year), end: String((year + 1) % 100).padStart(2, "0") })
    : t("givingStatements:hijriYear", { year: String(year) });
}

/** The download's file name: ek-chhat-statement-2025-26.pdf, ek-chhat-zakat-1446AH.pdf (the same in both languages). */
export function statementFileName(kind: StatementKind, year: number, lang: Lang): string {
  const name = kind === "fiscal" ? `ek-chhat-statement-${year}-${String((year + 1) % 100).padStart(2, "0")}` : `ek-chhat-zakat-${year}AH`;
  return `${name}-${lang}.pdf`;
}

/** A Hijri date in words, with the month's name in the reader's language: "5 Ramadan 1446 AH", «5 رمضان 1446 ہجری». */
export function formatHijriDate(date: Date, t: TFunction): string {
  const h = hijriDateOf(date);
  return t("givingStatements:hijriDate", {
    day: String(h.day),
    month: t(`givingStatements:hijriMonths.${h.month}`),
    year: String(h.year),
  });
}

/**
 * Gifts written between two turns of the event loop. Laying a statement out is synchronous work (shaping, line
 * breaking, pdfkit's pages): 500 gifts held the server's event loop for 3.1 s in English and 3.8 s in Urdu in one
 * stretch (decision 052, `scripts/measure-statement.ts`); in turns of this many, other requests are answered between.
 */
const STATEMENT_GIFTS_PER_TURN = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The statement as a PDF (A4), rendered on request and never stored, like the receipts. */
export async function renderGivingStatementPdf(
  statement: GivingStatement,
  /**
   * Each NGO's tax-exemption reference, by NGO id, for the NGOs that have one (`taxExemptionReferences` of issue 18's
   * "verified" part gives it; the route passes it in). An NGO without one prints no line.
   */
  taxExemptionReferences: ReadonlyMap<string, string>,
  t: TFunction,
  lang: Lang,
  issuedAt: Date = new Date(),
): Promise<Buffer> {
  const label = statementYearLabel(statement.kind, statement.year, t);
  const title = t(statement.kind === "fiscal" ? "givingStatements:pdf.fiscalTitle" : "givingStatements:pdf.zakatTitle");
  const pdf = await pdfDocument(
    { size: "A4", margin: 48, info: { Title: `${title} ${label}`, Author: "Ek Chhat", Creator: "Ek Chhat" } },
    lang,
  );
  const { doc } = pdf;
  const brand = "#115e59";
  const muted = "#475569";
  const money = (amount: number) => isolate(formatRupees(amount, lang));
  const lastDay = new Date(statement.to.getTime() - 1);

  pdf.text(t("history:receipt.brand"), { size: 18, bold: true, color: brand });
  pdf.text(t("history:receipt.tagline"), { size: 9, color: muted });
  doc.moveDown(0.6);
  pdf.text(`${title} ${isolate(label)}`, { size: 15, bold: true });
  if (statement.kind === "fiscal") {
    pdf.text(
      t("givingStatements:pdf.fiscalPeriod", {
        year: isolate(label),
        from: formatDate(statement.from, lang).text,
        to: formatDate(lastDay, lang).text,
      }),
      { size: 10 },
    );
  } else {
    pdf.text(
      t("givingStatements:pdf.zakatPeriod", {
        year: String(statement.year),
        from: `${formatHijriDate(statement.from, t)} (${formatDate(statement.from, lang).text})`,
        to: `${formatHijriDate(lastDay, t)} (${formatDate(lastDay, lang).text})`,
      }),
      { size: 10 },
    );
  }

  const section = (heading: string) => {
    doc.moveDown(0.5);
    pdf.text(heading, { size: 12, bold: true, color: brand });
  };
  const field = (name: string, value: string) =>
    pdf.text(
      [
        { text: `${name}: `, bold: true },
        { text: value, isolate: true },
      ],
      { size: 10 },
    );

  section(t("givingStatements:pdf.donorHeading"));
  field(t("givingStatements:pdf.donorName"), statement.donor.name);
  field(t("givingStatements:pdf.donorEmail"), statement.donor.email);

  section(t("givingStatements:pdf.summaryHeading"));
  field(t("givingStatements:pdf.total"), formatRupees(statement.total, lang));
  field(t("givingStatements:pdf.count"), formatCount(statement.count, lang));
  if (statement.kind === "fiscal") {
    for (const f of statement.funds)
      field(t(`givingStatements:funds.${f.fund}`), `${formatRupees(f.total, lang)} (${formatCount(f.count, lang)})`);
  }
  if (statement.listed < statement.count) {
    doc.moveDown(0.3);
    pdf.text(
      t("givingStatements:pdf.notListed", {
        listed: formatCount(statement.listed, lang),
        count: formatCount(statement.count, lang),
        rest: formatCount(statement.count - statement.listed, lang),
      }),
      { size: 9, bold: true },
    );
  }

  let written = 0;
  for (const ngo of statement.ngos) {
    doc.moveDown(0.6);
    pdf.text(ngo.name, { size: 13, bold: true, color: brand });
    field(t("givingStatements:pdf.ngoRegistration"), ngo.registrationNumber);
    const reference = taxExemptionReferences.get(ngo.ngoId);
    if (reference) field(t("givingStatements:pdf.taxExemption"), reference);
    for (const fund of ngo.funds) {
      doc.moveDown(0.3);
      const fundName = t(`givingStatements:funds.${fund.fund}`);
      pdf.text(fundName, { size: 11, bold: true });
      for (const gift of fund.gifts) {
        if (++written % STATEMENT_GIFTS_PER_TURN === 0) await nextTurn();
        const date =
          statement.kind === "zakat"
            ? `${formatHijriDate(gift.approvedAt, t)} (${formatDate(gift.approvedAt, lang).text})`
            : formatDate(gift.approvedAt, lang).text;
        // One paragraph a gift (a line on A4 unless the title is long): the date, the receipt, the amount, the campaign
        // and in whose name, each value isolated in its own direction.
        pdf.text(
          [
            { text: t("givingStatements:pdf.giftLine", { date, receipt: isolate(gift.receipt), amount: money(gift.amount) }) },
            { text: " · " },
            { text: gift.campaignTitle, isolate: true },
            ...(gift.inNameOf ? [{ text: " · " }, { text: t("givingStatements:pdf.inNameOf", { name: isolate(gift.inNameOf) }) }] : []),
          ],
          { size: 9.5 },
        );
      }
      pdf.text(
        t("givingStatements:pdf.fundSubtotal", { fund: fundName, amount: money(fund.total), count: formatCount(fund.count, lang) }),
        { size: 10, bold: true },
      );
    }
    doc.moveDown(0.2);
    pdf.text(t("givingStatements:pdf.ngoSubtotal", { ngo: isolate(ngo.name), amount: money(ngo.total) }), { size: 10.5, bold: true });
  }

  doc.moveDown(0.8);
  pdf.text(t("givingStatements:pdf.grandTotal", { amount: money(statement.total) }), { size: 12, bold: true, color: brand });
  doc.moveDown(0.6);
  pdf.text(t("givingStatements:pdf.whatIsListed"), { size: 8.5, color: muted });
  pdf.text(t("givingStatements:pdf.issued", { date: formatDate(issuedAt, lang).text }), { size: 8.5, color: muted });
  doc.end();
  return pdf.finished;
}
