/**
 * PDFs the product makes (receipts, posters): one way to start a document and collect its bytes. pdfkit is loaded on
 * demand, so only the paths that make a PDF pay for it and its font metrics.
 */
export async function pdfDocument(options: PDFKit.PDFDocumentOptions): Promise<{ doc: PDFKit.PDFDocument; finished: Promise<Buffer> }> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument(options);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  return { doc, finished };
}
