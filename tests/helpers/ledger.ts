import type { Db } from "#server/db/client.ts";
import { spendingRecords } from "#server/db/schema.ts";
import { saveSpendingDocument } from "#server/domain/ledger/document.ts";
import type { Storage } from "#server/storage/storage.ts";
import { makeProofPng, pdfOfObjects } from "./factories.ts";

/**
 * A PDF that carries what a public document must not: JavaScript run on opening (the catalog's OpenAction and its
 * name tree) and on showing the page (/AA), an embedded file, a link whose action is a script, and text drawn under a
 * black box (a "redaction" that only hides it). Its visible text is `visible`.
 */
export function makeHostilePdf(visible = "Invoice 4521 Rs 12000"): Buffer {
  const content = `BT /F1 18 Tf 20 150 Td (${visible}) Tj ET BT /F1 12 Tf 20 60 Td (CNIC 42101-SECRET-7) Tj ET 0 0 0 rg 10 50 280 30 re f`;
  const file = "HIDDEN-ATTACHMENT-PAYLOAD";
  return pdfOfObjects("1.7", [
    "<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R /Names << /JavaScript << /Names [(init) 4 0 R] >> /EmbeddedFiles << /Names [(secret.txt) 6 0 R] >> >> >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 5 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> /AA << /O 4 0 R >> /Annots [8 0 R] >>",
    "<< /S /JavaScript /JS (app.alert\\('pwned'\\); this.exportDataObject\\({cName: 'secret.txt'}\\);) >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Filespec /F (secret.txt) /EF << /F 7 0 R >> >>",
    `<< /Type /EmbeddedFile /Length ${file.length} >>\nstream\n${file}\nendstream`,
    "<< /Type /Annot /Subtype /Link /Rect [0 0 300 200] /A 4 0 R >>",
  ]);
}

/**
 * Inserts a spending record directly (the form and its rules have their own tests), with a real stored document
 * (a receipt photo, re-encoded as an upload would be): a draft of Rs. 5,000 from the general fund spent on
 * 2026-01-15 by the campaign's owner, unless told otherwise. Publishing here sets what publishing sets.
 */
export async function makeSpending(
  services: { db: Db; storage: Storage },
  campaign: { id: string; ownerId: string },
  opts: Partial<typeof spendingRecords.$inferInsert> = {},
) {
  const ngoId = opts.ngoId ?? campaign.ownerId;
  const file = new File([new Uint8Array(await makeProofPng())], "receipt.png", { type: "image/png" });
  const documentKey = await saveSpendingDocument(services, { file, ownerId: ngoId, field: "document" });
  const published = opts.status === "published" || opts.status === "taken_down";
  const takenDown = opts.status === "taken_down";
  const [row] = await services.db
    .insert(spendingRecords)
    .values({
      campaignId: campaign.id,
      ngoId,
      fund: "general",
      amount: 5000,
      spentOn: "2026-01-15",
      purpose: "Ration bags",
      documentKey,
      createdBy: ngoId,
      ...(published ? { publishedAt: new Date(), publishedBy: ngoId, redactionConfirmedAt: new Date() } : {}),
      ...(takenDown ? { takenDownAt: new Date(), takedownReason: "Shows a CNIC" } : {}),
      ...opts,
    })
    .returning();
  return row!;
}
