/**
 * Browser-only: makes a large phone photo small enough to upload quickly on slow mobile data. Loaded with a
 * dynamic import when a file is chosen, so pages that never pick a file never download it. The server still
 * checks, re-encodes and limits whatever arrives: this only saves the donor's data and time.
 */

export interface ShrinkOptions {
  /** Files at or under this size keep their bytes unless an edge is longer than `maxEdge`. */
  maxBytes: number;
  /** The longest edge, in pixels, of the shrunk picture. */
  maxEdge: number;
  /** JPEG quality of the shrunk picture (0..1). */
  quality?: number;
}

const DEFAULT_QUALITY = 0.85;

/**
 * A smaller JPEG version of `file` when it is larger than `maxBytes` or has an edge longer than `maxEdge`;
 * null when the file is already small enough, is not a picture the browser can read (the server will say
 * why), or shrinking would not make it smaller.
 */
export async function shrinkImage(file: File, opts: ShrinkOptions): Promise<File | null> {
  if (!file.type.startsWith("image/") || typeof createImageBitmap !== "function") return null;
  let bitmap: ImageBitmap;
  try {
    // Phone photos are often stored sideways with an orientation tag: draw them the way they are seen.
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return null;
  }
  try {
    const longest = Math.max(bitmap.width, bitmap.height);
    if (file.size <= opts.maxBytes && longest <= opts.maxEdge) return null;
    const scale = Math.min(1, opts.maxEdge / longest);
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    if (!context) return null;
    // JPEG has no transparency: a white ground keeps a transparent screenshot readable.
    context.fillStyle = "#fff";
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", opts.quality ?? DEFAULT_QUALITY));
    if (!blob || blob.size >= file.size) return null;
    const name = `${file.name.replace(/\.[^.]*$/, "") || "proof"}.jpg`;
    return new File([blob], name, { type: "image/jpeg", lastModified: Date.now() });
  } finally {
    bitmap.close();
  }
}

/** Puts `file` in a file input in place of what the user chose, as if they had chosen it. */
export function replaceInputFile(input: HTMLInputElement, file: File): void {
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
}
