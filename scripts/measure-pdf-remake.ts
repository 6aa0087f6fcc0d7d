/**
 * What re-making a spending PDF costs (decision 049): bytes in and out, time (a child process each: starting it and
 * loading pdf.js included) and this process's resident memory after, for the ledger test's hostile PDF and an A4
 * invoice of 31 text lines. `npx tsx scripts/measure-pdf-remake.ts`
 */
import { remakePdf } from "#server/domain/ledger/remake-pdf.ts";
import { makeHostilePdf } from "#tests/helpers/ledger.ts";
const { default: PDFDocument } = await import("pdfkit");
const doc = new PDFDocument({ size: "A4", margin: 56 });
const chunks: Buffer[] = [];
doc.on("data", (c: Buffer) => chunks.push(c));
const done = new Promise<Buffer>((r) => doc.on("end", () => r(Buffer.concat(chunks))));
doc.font("Helvetica-Bold").fontSize(18).text("Sukkur Canvas House");
for (let i = 0; i < 30; i++) doc.font("Helvetica").fontSize(11).text(`Family tent (4 x 4 m) line ${i}  Rs. 7,000`);
doc.end();
const a4 = await done;
console.log(`before: rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
for (const [name, pdf] of [
  ["hostile 300x200pt", makeHostilePdf()],
  ["A4 invoice, 31 lines of text", a4],
] as const) {
  const t = performance.now();
  const out = await remakePdf(pdf);
  const ms = performance.now() - t;
  console.log(
    `${name}: in ${pdf.length} B, out ${out.ok ? out.output.length : out.reason} B, ${ms.toFixed(0)} ms, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
  );
}
