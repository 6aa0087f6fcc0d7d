import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import { IMAGE_MAX_BYTES, RESUME_MAX_BYTES } from "#shared/constants.ts";
import type { FileKind } from "#shared/statuses.ts";
import { PICTURE_WIDTHS, pictureVariantKey, pictureVariantOf } from "#shared/pictures.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { files } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import { mayReadProof } from "#server/domain/donations/policy.ts";
import { mayReadResume } from "#server/domain/volunteering/policy.ts";
import { mayReadSpendingDocument } from "#server/domain/ledger/policy.ts";
import { mayReadUpdatePhoto, updatePhotoIsPublic } from "#server/domain/updates/policy.ts";
import { invalid, type ErrorCode } from "#server/domain/errors.ts";
import { makeNarrowerCopies, reEncodeImage } from "./re-encode.ts";

export type ImageKind = Extract<FileKind, "logo" | "avatar" | "campaign" | "poster" | "proof" | "check" | "update">;

/** Public kinds are served to anyone; private ones only to the people `mayRead` allows. */
const PUBLIC_KINDS: ReadonlySet<FileKind> = new Set(["logo", "campaign", "poster"]);
/** Kinds shown wide (cards, a page's main picture): stored with narrower copies for phones (decision 034). */
const PICTURE_KINDS = ["campaign", "poster", "update"] as const satisfies readonly ImageKind[];
const ACCEPTED_IMAGES = new Set(["image/jpeg", "image/png", "image/webp"]);

/**
 * Checks an uploaded image by its content (not its name or declared type), re-encodes it to WebP
 * (dropping EXIF location data and anything hidden in the original), stores it under a generated key
 * and records who owns it. The field name ties errors to the form field. A campaign picture or a poster gets its
 * narrower copies in the same step, stored before the row (a crash in between leaves bytes the sweep removes).
 */
export async function saveImage(
  services: Pick<Services, "db" | "storage">,
  upload: { file: File; kind: ImageKind; ownerId: string; field: string },
): Promise<string> {
  const { file, kind, ownerId, field } = upload;
  if (file.size > IMAGE_MAX_BYTES) throw invalid("validation.image_too_large", field);
  const input = Buffer.from(await file.arrayBuffer());
  const sniffed = await fileTypeFromBuffer(input);
  if (!sniffed || !ACCEPTED_IMAGES.has(sniffed.mime)) throw invalid("validation.image_invalid", field);
  const encoded = await reEncodeImage(input, { copies: (PICTURE_KINDS as readonly FileKind[]).includes(kind) });
  if (!encoded.ok) {
    throw invalid(encoded.reason === "tooManyPixels" ? "validation.image_too_many_pixels" : "validation.image_invalid", field);
  }
  const output = encoded.output;
  const key = `${kind}/${randomUUID()}.webp`;
  await services.storage.put(key, output);
  for (const copy of encoded.copies) await services.storage.put(pictureVariantKey(key, copy.width), copy.output);
  const widths = encoded.copies.map((copy) => copy.width);
  await services.db.insert(files).values({ key, kind, ownerId, contentType: "image/webp", size: output.length, widths });
  return key;
}

type PdfKind = Extract<FileKind, "resume" | "check">;

/** What each kind of PDF upload says when it is refused. */
const PDF_REFUSALS: Record<PdfKind, { tooLarge: ErrorCode; notPdf: ErrorCode }> = {
  resume: { tooLarge: "volunteer.resume_too_large", notPdf: "volunteer.resume_not_pdf" },
  check: { tooLarge: "checks.document_too_large", notPdf: "checks.document_invalid" },
};

/** A PDF by its signature, sniffed and at its start, whatever its name says. */
function isPdf(input: Buffer, sniffed: { mime: string } | undefined): boolean {
  return sniffed?.mime === "application/pdf" && input.subarray(0, 1024).includes("%PDF-");
}

/**
 * The document the administrator keeps with a check of an NGO (decision 051): a PDF stored as a resume is (a private
 * download, never shown inside the app) or an image re-encoded as every picture is; anything else is refused. It is
 * private to the administrator (`mayRead`).
 */
export async function saveCheckDocument(
  services: Pick<Services, "db" | "storage">,
  upload: { file: File; ownerId: string; field: string },
): Promise<string> {
  const head = Buffer.from(await upload.file.slice(0, 4100).arrayBuffer());
  const sniffed = await fileTypeFromBuffer(head);
  if (sniffed?.mime === "application/pdf") return savePdf(services, { ...upload, kind: "check" });
  if (sniffed && ACCEPTED_IMAGES.has(sniffed.mime)) {
    if (upload.file.size > IMAGE_MAX_BYTES) throw invalid("checks.document_too_large", upload.field);
    return saveImage(services, { ...upload, kind: "check" });
  }
  throw invalid("checks.document_invalid", upload.field);
}

/**
 * Checks an uploaded resume by its content: a PDF (by its signature, not its name), within the size limit. It
 * is stored as sent under a generated key, as a private file, and always served as a download (never shown
 * inside the app), so a script in it never runs in the app's origin.
 */
export async function savePdf(
  services: Pick<Services, "db" | "storage">,
  upload: { file: File; kind: PdfKind; ownerId: string; field: string },
): Promise<string> {
  const { file, kind, ownerId, field } = upload;
  if (file.size > RESUME_MAX_BYTES) throw invalid(PDF_REFUSALS[kind].tooLarge, field);
  const input = Buffer.from(await file.arrayBuffer());
  if (!isPdf(input, await fileTypeFromBuffer(input))) throw invalid(PDF_REFUSALS[kind].notPdf, field);
  const key = `${kind}/${randomUUID()}.pdf`;
  await services.storage.put(key, input);
  await services.db.insert(files).values({ key, kind, ownerId, contentType: "application/pdf", size: input.length, widths: [] });
  return key;
}

/** Every stored object a file may have: its own bytes and, for a picture, each narrower copy it may have. */
export function storedKeys(key: string): string[] {
  return key.endsWith(".webp") ? [key, ...PICTURE_WIDTHS.map((w) => pictureVariantKey(key, w))] : [key];
}

/**
 * Removes a stored file that is no longer referenced (a replaced picture), with its copies. The bytes go first:
 * if the database is down, or the process dies in between, what stays is a row that nothing references, which the
 * sweep (sweep.ts) removes; private bytes never outlive their row waiting for the database to come back.
 */
export async function deleteFile(services: Pick<Services, "db" | "storage">, key: string | null): Promise<void> {
  if (!key) return;
  for (const stored of storedKeys(key)) await services.storage.delete(stored);
  await services.db.delete(files).where(eq(files.key, key));
}

/** Pictures waiting for their copies, read at once; a round goes on until none is left. */
const MISSING_COPIES_BATCH = 50;

/**
 * Makes the narrower copies of pictures stored before copies existed (demo data, earlier uploads), one at a time
 * in an image slot, so requests never resize and an upload always finds a slot free. Until then the original
 * answers for its copies. Stops between pictures when `signal` is aborted (the server is stopping); returns how
 * many pictures it went through. Two servers doing it at once make the same copies; the row keeps the first list.
 */
export async function makeMissingCopies(services: Pick<Services, "db" | "storage">, opts: { signal?: AbortSignal } = {}): Promise<number> {
  const { db, storage } = services;
  let done = 0;
  while (!opts.signal?.aborted) {
    const pending = await db
      .select({ key: files.key })
      .from(files)
      .where(and(isNull(files.widths), inArray(files.kind, PICTURE_KINDS)))
      .orderBy(asc(files.key))
      .limit(MISSING_COPIES_BATCH);
    if (pending.length === 0) break;
    for (const { key } of pending) {
      if (opts.signal?.aborted) break;
      const picture = await storage.get(key);
      // Bytes that are gone or do not decode have nothing to copy: the original answers for its copies.
      const copies = (picture && (await makeNarrowerCopies(picture))) ?? [];
      for (const copy of copies) await storage.put(pictureVariantKey(key, copy.width), copy.output);
      const widths = copies.map((copy) => copy.width);
      await db
        .update(files)
        .set({ widths })
        .where(and(eq(files.key, key), isNull(files.widths)));
      done += 1;
    }
  }
  return done;
}

/**
 * Who may read a file: anyone for public kinds; a payment screenshot as the donations policy says
 * (server/domain/donations/policy.ts: its donor, the NGO it was paid to, the administrator); a resume as the
 * volunteering policy says (volunteering/policy.ts: its applicant, the NGO whose position it was sent to, the
 * administrator); a check's document the administrator only; a spending record's document as the ledger policy says
 * (ledger/policy.ts: anyone once the record is published, the campaign's NGOs while it is a draft); other private kinds
 * (avatars) their owner and the administrator. An update's photo as the updates say (updates.ts: anyone once
 * published, else the campaign's NGOs).
 */
export async function mayRead(
  db: DbOrTx,
  file: { key: string; kind: FileKind; ownerId: string | null },
  user: SessionUser | null,
): Promise<boolean> {
  if (PUBLIC_KINDS.has(file.kind)) return true;
  if (file.kind === "proof") return mayReadProof(db, file.key, user);
  if (file.kind === "resume") return mayReadResume(db, file.key, user);
  // The document kept with a check of an NGO: the administrator's alone, not even the NGO's (decision 051).
  if (file.kind === "check") return user?.role === "admin";
  if (file.kind === "spending") return mayReadSpendingDocument(db, file.key, user);
  if (file.kind === "update") return mayReadUpdatePhoto(db, file.key, user);
  return user !== null && (user.role === "admin" || (file.ownerId !== null && file.ownerId === user.id));
}

/**
 * A stored file, or a narrower copy of a picture, for whoever may read it. A copy is part of its picture: it is
 * read with the picture's row and the same `mayRead`. A copy the picture does not have is answered with the
 * original, which is then `settled` (these bytes stay this address's answer) when the picture is narrower than the
 * copy, and not while its copies wait to be made (makeMissingCopies).
 */
export async function findFileForUser(
  services: Pick<Services, "db" | "storage">,
  key: string,
  user: SessionUser | null,
): Promise<{ body: Buffer; contentType: string; public: boolean; kind: FileKind; settled: boolean } | null> {
  const copy = pictureVariantOf(key);
  const [row] = await (services.db as DbOrTx)
    .select()
    .from(files)
    .where(eq(files.key, copy?.original ?? key))
    .limit(1);
  if (!row || !(await mayRead(services.db, row, user))) return null;
  const served = copy && !row.widths?.includes(copy.width) ? row.key : key;
  const body = await services.storage.get(served);
  if (!body) return null;
  // An update's photo is public while its update is published, and cached like the other public pictures.
  const isPublic = PUBLIC_KINDS.has(row.kind) || (row.kind === "update" && (await updatePhotoIsPublic(services.db, row.key)));
  return { body, contentType: row.contentType, public: isPublic, kind: row.kind, settled: !copy || row.widths !== null };
}
