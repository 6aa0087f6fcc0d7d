import sharp from "sharp";

/**
 * A 64-bit difference hash (dHash) of an image, as 16 hex digits: the image shrunk to 9×8 grey pixels,
 * one bit per pair of neighbours. The same screenshot gives the same hash after re-encoding, resizing or a
 * change of format, so a proof reused for a second donation is noticed. Null when the image cannot be read
 * or is plain.
 */
export async function imageFingerprint(input: Buffer): Promise<string | null> {
  try {
    const pixels = await sharp(input, { limitInputPixels: 40_000_000 })
      .rotate()
      .flatten({ background: "#ffffff" })
      .grayscale()
      .resize(9, 8, { fit: "fill", kernel: "lanczos3" })
      .raw()
      .toBuffer();
    let hash = 0n;
    for (let y = 0; y < 8; y += 1) {
      for (let x = 0; x < 8; x += 1) {
        hash = (hash << 1n) | (pixels[y * 9 + x]! > pixels[y * 9 + x + 1]! ? 1n : 0n);
      }
    }
    // A plain image (all one colour) hashes to zero, like every other plain image: that says nothing.
    return hash === 0n ? null : hash.toString(16).padStart(16, "0");
  } catch {
    return null;
  }
}
