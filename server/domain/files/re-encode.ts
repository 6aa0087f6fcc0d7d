import os from "node:os";
import sharp from "sharp";
import { IMAGE_MAX_PIXELS } from "#shared/constants.ts";
import { PICTURE_MAX_EDGE, PICTURE_WIDTHS, type PictureWidth } from "#shared/pictures.ts";

/**
 * Re-encodes running at once in this process. Each one holds a libuv pool thread (4 by default, shared with
 * password hashing and file I/O) and one libvips thread, so two keep the rest of the server responsive on a
 * small host; more uploads wait their turn instead of being refused.
 */
export const IMAGE_REENCODES_AT_ONCE = Math.max(1, Math.min(2, os.availableParallelism()));

// Every upload is a new image, so libvips' operation cache (50 MB by default) only holds memory. One libvips
// thread per image: the bound above is the parallelism, and fewer threads means fewer malloc arenas (sharp
// already picks 1 on glibc; saying so keeps it on other C libraries too).
sharp.cache(false);
sharp.concurrency(1);

/** A narrower copy of a stored picture (shared/pictures.ts: PICTURE_WIDTHS). */
export interface NarrowerCopy {
  width: PictureWidth;
  output: Buffer;
}

export type ReEncodeResult = { ok: true; output: Buffer; copies: NarrowerCopy[] } | { ok: false; reason: "tooManyPixels" | "invalid" };

const WEBP_QUALITY = 80;

let running = 0;
const waiting: Array<() => void> = [];

/** Runs an image decode within the process-wide bound (IMAGE_REENCODES_AT_ONCE), waiting for a free slot. */
export async function withImageSlot<T>(task: () => Promise<T>): Promise<T> {
  if (running < IMAGE_REENCODES_AT_ONCE) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await task();
  } finally {
    // Hand the slot straight to the next waiter, so a newcomer cannot overtake it.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/**
 * Reads the image's size from its header (no pixels are decoded) and refuses one over IMAGE_MAX_PIXELS; then,
 * within the process-wide bound, auto-rotates, shrinks to fit PICTURE_MAX_EDGE and writes WebP, which drops
 * EXIF (location) and anything hidden in the original. JPEG and WebP are decoded already shrunk
 * (shrink-on-load), so a 12 MP photo decodes at a quarter of its pixels. With `copies`, the narrower copies are
 * made in the same slot, from the WebP just written (at most 1600 pixels: cheap to decode again).
 */
export async function reEncodeImage(input: Buffer, opts: { copies: boolean }): Promise<ReEncodeResult> {
  let pixels: number;
  try {
    const { width, height, pageHeight } = await sharp(input).metadata();
    if (!width || !height) return { ok: false, reason: "invalid" };
    // An animated image is read one frame high (sharp reads the first frame only).
    pixels = width * (pageHeight ?? height);
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (pixels > IMAGE_MAX_PIXELS) return { ok: false, reason: "tooManyPixels" };
  return withImageSlot(async () => {
    try {
      const output = await sharp(input, { limitInputPixels: IMAGE_MAX_PIXELS })
        .rotate()
        .resize({
          width: PICTURE_MAX_EDGE,
          height: PICTURE_MAX_EDGE,
          fit: "inside",
          withoutEnlargement: true,
          fastShrinkOnLoad: true,
        })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer();
      return { ok: true, output, copies: opts.copies ? await narrowerCopies(output) : [] } as const;
    } catch {
      return { ok: false, reason: "invalid" } as const;
    }
  });
}

/**
 * The copies of a picture stored before copies were made (the maintenance round's), within the same bound as an
 * upload; null when the stored bytes do not decode.
 */
export async function makeNarrowerCopies(picture: Buffer): Promise<NarrowerCopy[] | null> {
  return withImageSlot(async () => {
    try {
      return await narrowerCopies(picture);
    } catch {
      return null;
    }
  });
}

/** A copy for each of PICTURE_WIDTHS the picture is wider than (a narrower picture is its own best copy). */
async function narrowerCopies(picture: Buffer): Promise<NarrowerCopy[]> {
  const { width } = await sharp(picture).metadata();
  const copies: NarrowerCopy[] = [];
  for (const w of PICTURE_WIDTHS) {
    if (!width || width <= w) continue;
    copies.push({ width: w, output: await sharp(picture).resize({ width: w }).webp({ quality: WEBP_QUALITY }).toBuffer() });
  }
  return copies;
}
