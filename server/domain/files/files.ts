import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { IMAGE_MAX_BYTES } from "../../../app/lib/constants";
import type { DbOrTx } from "../../db/client";
import { donations, files } from "../../db/schema";
import type { Services } from "../../services";
import type { SessionUser } from "../accounts/sessions";
import { invalid } from "../errors";

export { pictureUrl } from "../../../app/lib/pictures";

export type FileKind = (typeof files.$inferSelect)["kind"];
export type ImageKind = Extract<FileKind, "logo" | "avatar" | "campaign" | "poster" | "proof">;

/** Public kinds are served to anyone; private ones only to the people `mayRead` allows. */
const PUBLIC_KINDS: ReadonlySet<FileKind> = new Set(["logo", "campaign", "poster"]);
const ACCEPTED_IMAGES = new Set(["image/jpeg", "image/png", "image/webp"]);
const MAX_IMAGE_EDGE = 1600;

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
  if (file.size > IMAGE_MAX_BYTES) throw invalid("validation:imageTooLarge", field);
  const input = Buffer.from(await file.arrayBuffer());
  const sniffed = await fileTypeFromBuffer(input);
  if (!sniffed || !ACCEPTED_IMAGES.has(sniffed.mime)) throw invalid("validation:imageInvalid", field);
  let output: Buffer;
  try {
    output = await sharp(input, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize({ width: MAX_IMAGE_EDGE, height: MAX_IMAGE_EDGE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw invalid("validation:imageInvalid", field);
  }
  const key = `${kind}/${randomUUID()}.webp`;
  await services.storage.put(key, output);
  await services.db.insert(files).values({ key, kind, ownerId, contentType: "image/webp", size: output.length });
  return key;
}

/** Removes a stored file that is no longer referenced (a replaced picture). */
export async function deleteFile(services: Pick<Services, "db" | "storage">, key: string | null): Promise<void> {
  if (!key) return;
  await services.db.delete(files).where(eq(files.key, key));
  await services.storage.delete(key);
}

/**
 * Who may read a file: anyone for public kinds; for private ones the owner, the administrator and, for a
 * payment screenshot, the NGO the donation was paid to. Later areas add their own entitlements here.
 */
export async function mayRead(
  db: DbOrTx,
  file: { key: string; kind: FileKind; ownerId: string | null },
  user: SessionUser | null,
): Promise<boolean> {
  if (PUBLIC_KINDS.has(file.kind)) return true;
  if (!user) return false;
  if (user.role === "admin" || (file.ownerId !== null && file.ownerId === user.id)) return true;
  if (file.kind === "proof" && user.role === "ngo") {
    const [paid] = await db
      .select({ id: donations.id })
      .from(donations)
      .where(and(eq(donations.proofKey, file.key), eq(donations.recipientNgoId, user.id)))
      .limit(1);
    return paid !== undefined;
  }
  return false;
}

export async function readFileForUser(
  services: Pick<Services, "db" | "storage">,
  key: string,
  user: SessionUser | null,
): Promise<{ body: Buffer; contentType: string; public: boolean } | null> {
  const [row] = await (services.db as DbOrTx).select().from(files).where(eq(files.key, key)).limit(1);
  if (!row || !(await mayRead(services.db, row, user))) return null;
  const body = await services.storage.get(key);
  if (!body) return null;
  return { body, contentType: row.contentType, public: PUBLIC_KINDS.has(row.kind) };
}
