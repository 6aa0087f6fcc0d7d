import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { SPENDING_DOCUMENT_MAX_BYTES, SPENDING_PDF_MAX_PAGES } from "#shared/constants.ts";
import { files } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { invalid } from "#server/domain/errors.ts";
import { reEncodeImage, withImageSlot } from "#server/domain/files/re-encode.ts";

/**
 * A spending record's document (decision 049): an invoice or a receipt, as a photo or a PDF, which the public reads
 * once the record is published. Nothing of the upload is kept as sent. A photo is re-encoded like every image
 * (files/re-encode.ts: WebP, no EXIF). A PDF is re-made: each page is drawn to pixels (pdf.js, in @napi-rs/canvas)
 * and a new PDF is written holding only those pictures (pdfkit). Whatever the original carried beside what its pages
 * show (JavaScript, open actions, embedded files, forms, links, metadata, text hidden under a black box the NGO drew
 * to redact it, an invisible text layer) does not exist in the copy.
 */

const ACCEPTED_IMAGES = new Set(["image/jpeg", "image/png", "image/webp"]);

/** A page is drawn this many pixels wide at most (an A4 page at about 190 dpi): readable, and bounded in memory. */
const PAGE_MAX_PIXELS_WIDE = 1600;
const PAGE_MAX_PIXELS_HIGH = 2400;
const PAGE_JPEG_QUALITY = 80;

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

export type RemadePdf = { ok: true; output: Buffer; pages: number } | { ok: false; reason: "invalid" | "tooManyPages" };

/**
 * Re-makes a PDF from pictures of its pages, within the process-wide image slots (a page drawn is as costly as an
 * image re-encoded). pdf.js runs without `eval`, without XFA and without scripting, so the original's JavaScript is
 * never run here either; it is only read as drawing instructions.
 */
export async function remakePdf(input: Buffer): Promise<RemadePdf> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  return withImageSlot(async () => {
    let doc;
    try {
      doc = await getDocument({
        data: new Uint8Array(input),
        isEvalSupported: false,
        enableXfa: false,
        disableFontFace: true,
        useSystemFonts: false,
        standardFontDataUrl,
        verbosity: 0,
      }).promise;
    } catch {
      return { ok: false, reason: "invalid" } as const;
    }
    try {
      if (doc.numPages < 1) return { ok: false, reason: "invalid" } as const;
      if (doc.numPages > SPENDING_PDF_MAX_PAGES) return { ok: false, reason: "tooManyPages" } as const;
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
      return { ok: true, output: await pdfOfPictures(pages), pages: pages.length } as const;
    } catch {
      return { ok: false, reason: "invalid" } as const;
    } finally {
      await doc.destroy();
    }
  });
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

/**
 * Checks an uploaded document by its content (not its name or declared type), re-encodes or re-makes it, stores it
 * under a generated key as file kind `spending` and records who uploaded it. Private until its record is published
 * (files.ts `mayRead`, ledger/policy.ts). The field name ties errors to the form field.
 */
export async function saveSpendingDocument(
  services: Pick<Services, "db" | "storage">,
  upload: { file: File; ownerId: string; field: string },
): Promise<string> {
  const { file, ownerId, field } = upload;
  if (file.size > SPENDING_DOCUMENT_MAX_BYTES) throw invalid("ledger.document_too_large", field);
  const input = Buffer.from(await file.arrayBuffer());
  const sniffed = await fileTypeFromBuffer(input);
  let output: Buffer;
  let contentType: string;
  let extension: string;
  if (sniffed?.mime === "application/pdf") {
    const remade = await remakePdf(input);
    if (!remade.ok) throw invalid(remade.reason === "tooManyPages" ? "ledger.document_too_many_pages" : "ledger.document_invalid", field);
    [output, contentType, extension] = [remade.output, "application/pdf", "pdf"];
  } else if (sniffed && ACCEPTED_IMAGES.has(sniffed.mime)) {
    const encoded = await reEncodeImage(input, { copies: false });
    if (!encoded.ok)
      throw invalid(encoded.reason === "tooManyPixels" ? "validation.image_too_many_pixels" : "ledger.document_invalid", field);
    [output, contentType, extension] = [encoded.output, "image/webp", "webp"];
  } else {
    throw invalid("ledger.document_invalid", field);
  }
  const key = `spending/${randomUUID()}.${extension}`;
  await services.storage.put(key, output);
  await services.db.insert(files).values({ key, kind: "spending", ownerId, contentType, size: output.length, widths: [] });
  return key;
}
