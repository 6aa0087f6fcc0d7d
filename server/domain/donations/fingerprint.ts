import { createHash } from "node:crypto";
import sharp from "sharp";
import { IMAGE_MAX_PIXELS } from "#shared/constants.ts";
import { withImageSlot } from "#server/domain/files/re-encode.ts";

/** Fingerprints are taken of the image shrunk to fit this square: the same pixels give the same result, at a bounded cost. */
const FINGERPRINT_EDGE = 512;

/**
 * A fingerprint of an image's pixels (a SHA-256 of its colours, shrunk to fit 512 px, as 32 hex digits). The same
 * screenshot gives the same fingerprint under another file name or saved again without loss (PNG, WebP), so a
 * proof sent again for a second donation is noticed. A lossy copy (a forwarded JPEG) differs: it still shows the
 * same transaction ID, which is flagged on its own. A perceptual hash (dHash) was tried and dropped: payment
 * screenshots of one wallet app differ only in a few digits, so different payments hashed alike, while
 * re-encoding flipped bits of the same one. Null when the image cannot be read or is plain.
 */
export async function imageFingerprint(input: Buffer): Promise<string | null> {
  try {
    // A full decode like a re-encode, so it takes one of the same slots (saveImage has already refused an image
    // over the pixel cap).
    const { data, info } = await withImageSlot(() =>
      sharp(input, { limitInputPixels: IMAGE_MAX_PIXELS })
        .rotate()
        .flatten({ background: "#ffffff" })
        // JPEG and WebP can shrink while decoding, which would give the same pixels a different result than a PNG does.
        .resize(FINGERPRINT_EDGE, FINGERPRINT_EDGE, { fit: "inside", withoutEnlargement: true, fastShrinkOnLoad: false })
        .toColourspace("srgb")
        .raw()
        .toBuffer({ resolveWithObject: true }),
    );
    // A plain image (all one colour) says nothing: every blank image would be a "duplicate" of every other.
    if (data.every((byte, i) => byte === data[i % info.channels])) return null;
    return createHash("sha256").update(`${info.width}x${info.height}x${info.channels};`).update(data).digest("hex").slice(0, 32);
  } catch {
    return null;
  }
}
