import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { IMAGE_MAX_PIXELS, SPENDING_PDF_MAX_PAGES } from "#shared/constants.ts";
import type { RemakeReply, RemakeRequest } from "./remake-pdf.ts";

/**
 * The child process that re-makes one spending PDF (decision 049), started by `remakePdf` (remake-pdf.ts) and never
 * imported by the server: pdf.js and @napi-rs/canvas live and die here, so the server's resident memory never holds
 * them. It takes one request over IPC (the PDF's bytes), answers with the new PDF's bytes or why not, and exits.
 * The parent kills it when it runs past its time; V8's heap is bounded by the flags it was started with.
 *
 * Each page is drawn to pixels (pdf.js into @napi-rs/canvas), written as JPEG (sharp), and a new PDF is written
 * holding only those pictures (pdfkit). Whatever the original carried beside what its pages show (JavaScript, open
 * actions, embedded files, forms, links, metadata, text hidden under a black box the NGO drew to redact it, an
 * invisible text layer) does not exist in the copy. pdf.js runs without `eval`, without XFA and without scripting, so
 * the original's JavaScript is never run; it is only read as drawing instructions.
 */

/** A page is drawn this many pixels wide at most (an A4 page at about 190 dpi): readable, and bounded in memory. */
const PAGE_MAX_PIXELS_WIDE = 1600;
const PAGE_MAX_PIXELS_HIGH = 2400;
const PAGE_JPEG_QUALITY = 80;

sharp.cache(false);
sharp.concurrency(1);

const require = createRequire(import.meta.url);
/** pdf.js's own standard fonts (Helvetica, Times…), read from the package: a PDF naming one draws without embedding it. */
const standardFontDataUrl = `${path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;

/** pdf.js's canvas factory in Node (@napi-rs/canvas underneath): its type is not exported. */
interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): { canvas: { width: number; height: number; toBuffer(type: "image/png"): Buffer }; context: CanvasRenderingContext2D };
}

async function remake(input: Uint8Array): Promise<RemakeReply> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  let doc;
  try {
    doc = await getDocument({
      // A plain Uint8Array: what arrives over IPC is a Buffer, which pdf.js refuses.
      data: new Uint8Array(input.buffer, input.byteOffset, input.byteLength),
      isEvalSupported: false,
      enableXfa: false,
      disableFontFace: true,
      useSystemFonts: false,
      standardFontDataUrl,
      // A picture inside the PDF larger than an uploaded photo may be is not decoded (the page draws without it).
      maxImageSize: IMAGE_MAX_PIXELS,
      verbosity: 0,
    }).promise;
  } catch {
    return { ok: false, reason: "invalid" };
  }
  try {
    if (doc.numPages < 1) return { ok: false, reason: "invalid" };
    if (doc.numPages > SPENDING_PDF_MAX_PAGES) return { ok: false, reason: "tooManyPages" };
    const pages: { jpeg: Buffer; widthPt: number; heightPt: number }[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const unit = page.getViewport({ scale: 1 });
      const scale = Math.min(PAGE_MAX_PIXELS_WIDE / unit.width, PAGE_MAX_PIXELS_HIGH / unit.height);
      const viewport = page.getViewport({ scale });
      const { canvas, context } = (doc.canvasFactory as CanvasFactory).create(Math.ceil(viewport.width), Math.ceil(viewport.height));
      // A page is drawn on white: a transparent page would come out black in JPEG.
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvasContext: context, viewport, canvas: canvas as unknown as HTMLCanvasElement }).promise;
      const png = canvas.toBuffer("image/png");
      const jpeg = await sharp(png).flatten({ background: "#ffffff" }).jpeg({ quality: PAGE_JPEG_QUALITY, mozjpeg: true }).toBuffer();
      pages.push({ jpeg, widthPt: unit.width, heightPt: unit.height });
      page.cleanup();
    }
    return { ok: true, output: await pdfOfPictures(pages), pages: pages.length };
  } catch {
    return { ok: false, reason: "invalid" };
  } finally {
    await doc.destroy();
  }
}

/** A new PDF of one full-page picture per page, at each original page's size; nothing else in it. */
async function pdfOfPictures(pages: { jpeg: Buffer; widthPt: number; heightPt: number }[]): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ autoFirstPage: false, compress: true, info: {} });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  for (const p of pages) {
    doc.addPage({ size: [p.widthPt, p.heightPt], margin: 0 });
    doc.image(p.jpeg, 0, 0, { width: p.widthPt, height: p.heightPt });
  }
  doc.end();
  return done;
}

// One document, then out: the parent disconnecting (it was killed, or gave up) ends this process too.
process.once("message", (message: RemakeRequest) => {
  void remake(message.pdf).then((reply) => process.send!(reply, () => process.exit(0)));
});
process.once("disconnect", () => process.exit(0));
