import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import { IMAGE_MAX_BYTES, RESUME_MAX_BYTES } from "#shared/constants.ts";
import type { FileKind } from "#shared/statuses.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { files } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import { mayReadProof } from "#server/domain/donations/policy.ts";
import { mayReadResume } from "#server/domain/volunteering/policy.ts";
import { invalid } from "#server/domain/errors.ts";
import { reEncodeImage } from "./re-encode.ts";

export type ImageKind = Extract<FileKind, "logo" | "avatar" | "campaign" | "poster" | "proof">;

/** Public kinds are served to anyone; private ones only to the people `mayRead` allows. */
const PUBLIC_KINDS: ReadonlySet<FileKind> = new Set(["logo", "campaign", "poster"]);
const ACCEPTED_IMAGES = new Set(["image/jpeg", "image/png", "image/webp"]);

/**
 * Checks an uploaded image by its content (not its name or declared type), re-encodes it to WebP
 * (dropping EXIF location data and anything hidden in the original), stores it under a generated key
 * and records who owns it. The field name ties errors to the form field.
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
  const encoded = await reEncodeImage(input);
  if (!encoded.ok) {
    throw invalid(encoded.reason === "tooManyPixels" ? "validation.image_too_many_pixels" : "validation.image_invalid", field);
  }
  const output = encoded.output;
  const key = `${kind}/${randomUUID()}.webp`;
  await services.storage.put(key, output);
  await services.db.insert(files).values({ key, kind, ownerId, contentType: "image/webp", size: output.length });
  return key;
}

/**
 * Checks an uploaded resume by its content: a PDF (by its signature, not its name), within the size limit. It
 * is stored as sent under a generated key, as a private file, and always served as a download (never shown
 * inside the app), so a script in it never runs in the app's origin.
 */
export async function savePdf(
  services: Pick<Services, "db" | "storage">,
  upload: { file: File; kind: Extract<FileKind, "resume">; ownerId: string; field: string },
): Promise<string> {
  const { file, kind, ownerId, field } = upload;
  if (file.size > RESUME_MAX_BYTES) throw invalid("volunteer.resume_too_large", field);
  const input = Buffer.from(await file.arrayBuffer());
  const sniffed = await fileTypeFromBuffer(input);
  if (!sniffed || sniffed.mime !== "application/pdf" || !input.subarray(0, 1024).includes("%PDF-")) {
    throw invalid("volunteer.resume_not_pdf", field);
  }
  const key = `${kind}/${randomUUID()}.pdf`;
  await services.storage.put(key, input);
  await services.db.insert(files).values({ key, kind, ownerId, contentType: "application/pdf", size: input.length });
  return key;
}

/**
 * Removes a stored file that is no longer referenced (a replaced picture). The bytes go first: if the database
 * is down, or the process dies in between, what stays is a row that nothing references, which the sweep
 * (sweep.ts) removes; private bytes never outlive their row waiting for the database to come back.
 */
export async function deleteFile(services: Pick<Services, "db" | "storage">, key: string | null): Promise<void> {
  if (!key) return;
  await services.storage.delete(key);
  await services.db.delete(files).where(eq(files.key, key));
}

/**
 * Who may read a file: anyone for public kinds; a payment screenshot as the donations policy says
 * (server/domain/donations/policy.ts: its donor, the NGO it was paid to, the administrator); a resume as the
 * volunteering policy says (volunteering/policy.ts: its applicant, the NGO whose position it was sent to, the
 * administrator); other private kinds (avatars) their owner and the administrator.
 */
export async function mayRead(
  db: DbOrTx,
  file: { key: string; kind: FileKind; ownerId: string | null },
  user: SessionUser | null,
): Promise<boolean> {
  if (PUBLIC_KINDS.has(file.kind)) return true;
  if (file.kind === "proof") return mayReadProof(db, file.key, user);
  if (file.kind === "resume") return mayReadResume(db, file.key, user);
  return user !== null && (user.role === "admin" || (file.ownerId !== null && file.ownerId === user.id));
}

export async function findFileForUser(
  services: Pick<Services, "db" | "storage">,
  key: string,
  user: SessionUser | null,
): Promise<{ body: Buffer; contentType: string; public: boolean; kind: FileKind } | null> {
  const [row] = await (services.db as DbOrTx).select().from(files).where(eq(files.key, key)).limit(1);
  if (!row || !(await mayRead(services.db, row, user))) return null;
  const body = await services.storage.get(key);
  if (!body) return null;
  return { body, contentType: row.contentType, public: PUBLIC_KINDS.has(row.kind), kind: row.kind };
}
