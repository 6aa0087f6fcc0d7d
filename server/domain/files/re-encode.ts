import os from "node:os";
import sharp from "sharp";
import { IMAGE_MAX_PIXELS } from "#shared/constants.ts";

/** Longest edge of a stored picture: more than any screen shows it at. */
const MAX_IMAGE_EDGE = 1600;

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

export type ReEncodeResult = { ok: true; output: Buffer } | { ok: false; reason: "tooManyPixels" | "invalid" };

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
 * within the process-wide bound, auto-rotates, shrinks to fit MAX_IMAGE_EDGE and writes WebP, which drops
 * EXIF (location) and anything hidden in the original. JPEG and WebP are decoded already shrunk
 * (shrink-on-load), so a 12 MP photo decodes at a quarter of its pixels.
 */
export async function reEncodeImage(input: Buffer): Promise<ReEncodeResult> {
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
          width: MAX_IMAGE_EDGE,
          height: MAX_IMAGE_EDGE,
          fit: "inside",
          withoutEnlargement: true,
          fastShrinkOnLoad: true,
        })
        .webp({ quality: 80 })
        .toBuffer();
      return { ok: true, output } as const;
    } catch {
      return { ok: false, reason: "invalid" } as const;
    }
  });
}
