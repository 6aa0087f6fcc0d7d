import { randomUUID } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import { SPENDING_DOCUMENT_MAX_BYTES } from "#shared/constants.ts";
import { files } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { invalid } from "#server/domain/errors.ts";
import { reEncodeImage } from "#server/domain/files/re-encode.ts";
import { remakePdf } from "./remake-pdf.ts";

/**
 * A spending record's document (decision 049): an invoice or a receipt, as a photo or a PDF, which the public reads
 * once the record is published. Nothing of the upload is kept as sent. A photo is re-encoded like every image
 * (files/re-encode.ts: WebP, no EXIF). A PDF is re-made from pictures of its pages, in a short-lived child process
 * (remake-pdf.ts): whatever the original carried beside what its pages show does not exist in the copy.
 */

const ACCEPTED_IMAGES = new Set(["image/jpeg", "image/png", "image/webp"]);

const PDF_REFUSED = {
  invalid: "ledger.document_invalid",
  tooManyPages: "ledger.document_too_many_pages",
  tooSlow: "ledger.document_too_slow",
} as const;

/**
 * Checks an uploaded document by its content (not its name or declared type), re-encodes or re-makes it, stores it
 * under a generated key as file kind `spending` and records who uploaded it. Private until its record is published
 * (files.ts `mayRead`, ledger/policy.ts). The field name ties errors to the form field. `pdfTimeoutMs` is for tests
 * only (remakePdf's limit, lowered to be reached).
 */
export async function saveSpendingDocument(
  services: Pick<Services, "db" | "storage">,
  upload: { file: File; ownerId: string; field: string },
  opts: { pdfTimeoutMs?: number } = {},
): Promise<string> {
  const { file, ownerId, field } = upload;
  if (file.size > SPENDING_DOCUMENT_MAX_BYTES) throw invalid("ledger.document_too_large", field);
  const input = Buffer.from(await file.arrayBuffer());
  const sniffed = await fileTypeFromBuffer(input);
  let output: Buffer;
  let contentType: string;
  let extension: string;
  if (sniffed?.mime === "application/pdf") {
    const remade = await remakePdf(input, { timeoutMs: opts.pdfTimeoutMs });
    if (!remade.ok) throw invalid(PDF_REFUSED[remade.reason], field);
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
