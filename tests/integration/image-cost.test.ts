import fs from "node:fs";
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import sharp from "sharp";
import { and, eq } from "drizzle-orm";
import { IMAGE_MAX_PIXELS } from "#shared/constants.ts";
import { files } from "#server/db/schema.ts";
import { saveImage } from "#server/domain/files/files.ts";
import { IMAGE_REENCODES_AT_ONCE } from "#server/domain/files/re-encode.ts";
import { imageFingerprint } from "#server/domain/donations/fingerprint.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeUser } from "#tests/helpers/factories.ts";

/** A PNG whose header claims many pixels but whose bytes are few: one colour compresses to almost nothing. */
async function flatPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#ffffff" } })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** A photo-like JPEG: smooth noise scaled up, as a camera would save it, with an EXIF orientation. */
async function photoJpeg(width: number, height: number, orientation = 1): Promise<Buffer> {
  const w = Math.ceil(width / 16);
  const h = Math.ceil(height / 16);
  return sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation })
    .toBuffer();
}

const asFile = (buffer: Buffer, name: string, type: string) => new File([new Uint8Array(buffer)], name, { type });

/** Counts sharp encodes (`toBuffer`) running at once, through the same sharp the server uses. */
function watchEncodes() {
  const original = sharp.prototype.toBuffer;
  const seen = { calls: 0, running: 0, peak: 0 };
  vi.spyOn(sharp.prototype, "toBuffer").mockImplementation(function (this: sharp.Sharp, ...args: unknown[]) {
    seen.calls += 1;
    seen.running += 1;
    seen.peak = Math.max(seen.peak, seen.running);
    const result = (original as (...a: unknown[]) => Promise<Buffer>).apply(this, args);
    return result.finally(() => {
      seen.running -= 1;
    }) as never;
  });
  return seen;
}

describe("image cost", () => {
  let s: TestServices;
  let bomb: Buffer;
  beforeAll(async () => {
    s = await createTestServices();
    // The shape of the report: 6300 x 6300 (39.7 MP, under the old 40 MP cap), a few KB on the wire.
    bomb = await flatPng(6300, 6300);
  });
  afterAll(async () => s.close());
  afterEach(() => vi.restoreAllMocks());

  const filesOf = async (ownerId: string) =>
    s.db
      .select()
      .from(files)
      .where(and(eq(files.ownerId, ownerId), eq(files.kind, "proof")));
  const storedProofs = () => {
    const dir = `${s.config.dataDir}/files/proof`;
    return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
  };

  it("refuses an image with more pixels than a phone photo from its header, before decoding it", async () => {
    expect(bomb.length).toBeLessThan(200 * 1024);
    const donor = await makeUser(s.db, "donor");
    const before = storedProofs();
    const encodes = watchEncodes();
    const started = performance.now();
    const refused = await saveImage(s, {
      file: asFile(bomb, "IMG_0001.png", "image/png"),
      kind: "proof",
      ownerId: donor.id,
      field: "screenshot",
    }).then(
      () => null,
      (err: unknown) => err,
    );
    const took = performance.now() - started;
    expect(refused).toMatchObject({ kind: "invalid", message: "validation:imageTooManyPixels", field: "screenshot" });
    // Nothing was decoded or encoded: the header alone decided.
    expect(encodes.calls).toBe(0);
    expect(took).toBeLessThan(1000);
    expect(await filesOf(donor.id)).toHaveLength(0);
    expect(storedProofs()).toBe(before);
  });

  it("refuses one pixel over the cap and accepts the cap itself", async () => {
    const donor = await makeUser(s.db, "donor");
    const side = 5000; // 5000 x 5000 is the cap exactly
    expect(side * side).toBe(IMAGE_MAX_PIXELS);
    const over = await flatPng(side, side + 1);
    await expect(
      saveImage(s, { file: asFile(over, "over.png", "image/png"), kind: "proof", ownerId: donor.id, field: "screenshot" }),
    ).rejects.toMatchObject({ message: "validation:imageTooManyPixels", field: "screenshot" });
    const at = await flatPng(side, side);
    const key = await saveImage(s, { file: asFile(at, "at.png", "image/png"), kind: "proof", ownerId: donor.id, field: "screenshot" });
    const meta = await sharp((await s.storage.get(key))!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 1600, 1600]);
  });

  it("never runs more re-encodes at once than the bound; the others wait and all are saved", async () => {
    const donor = await makeUser(s.db, "donor");
    const photo = await photoJpeg(1200, 900);
    const encodes = watchEncodes();
    const n = IMAGE_REENCODES_AT_ONCE * 4;
    const keys = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        saveImage(s, { file: asFile(photo, `IMG_${i}.jpg`, "image/jpeg"), kind: "proof", ownerId: donor.id, field: "screenshot" }),
      ),
    );
    expect(new Set(keys).size).toBe(n);
    expect(encodes.calls).toBe(n);
    expect(encodes.peak).toBeLessThanOrEqual(IMAGE_REENCODES_AT_ONCE);
    expect(encodes.peak).toBeGreaterThanOrEqual(1);
    expect(await filesOf(donor.id)).toHaveLength(n);
  });

  it("a proof's fingerprint, a second full decode, shares the same bound", async () => {
    const donor = await makeUser(s.db, "donor");
    const photo = await photoJpeg(1200, 900);
    const encodes = watchEncodes();
    const n = IMAGE_REENCODES_AT_ONCE * 3;
    const results = await Promise.all([
      ...Array.from({ length: n }, () => imageFingerprint(photo)),
      ...Array.from({ length: n }, (_, i) =>
        saveImage(s, { file: asFile(photo, `IMG_${i}.jpg`, "image/jpeg"), kind: "proof", ownerId: donor.id, field: "screenshot" }),
      ),
    ]);
    expect(new Set(results.slice(0, n)).size).toBe(1);
    expect(results[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(encodes.calls).toBe(2 * n);
    expect(encodes.peak).toBeLessThanOrEqual(IMAGE_REENCODES_AT_ONCE);
  });

  it("a slot is given back when an image fails to decode", async () => {
    const donor = await makeUser(s.db, "donor");
    // A valid PNG header with its pixel data cut off: the header passes, the decode fails.
    const good = await sharp(randomBytes(300 * 200 * 3), { raw: { width: 300, height: 200, channels: 3 } })
      .png()
      .toBuffer();
    const broken = good.subarray(0, Math.floor(good.length / 2));
    const attempts = Array.from({ length: IMAGE_REENCODES_AT_ONCE * 3 }, () =>
      saveImage(s, { file: asFile(broken, "cut.png", "image/png"), kind: "proof", ownerId: donor.id, field: "screenshot" }).catch(
        (err: { message: string }) => err.message,
      ),
    );
    expect(new Set(await Promise.all(attempts))).toEqual(new Set(["validation:imageInvalid"]));
    // Had a failure kept its slot, this would wait forever.
    const key = await saveImage(s, { file: asFile(good, "ok.png", "image/png"), kind: "proof", ownerId: donor.id, field: "screenshot" });
    expect(key).toMatch(/^proof\/.+\.webp$/);
  });

  it("still accepts a normal phone photo (12 MP, turned by EXIF), a 24 MP one and a phone screenshot", async () => {
    const donor = await makeUser(s.db, "donor");
    const cases: Array<[Buffer, string, string, [number, number]]> = [
      // 4032 x 3024 held sideways (orientation 6): stored upright, 1200 x 1600.
      [await photoJpeg(4032, 3024, 6), "IMG_1234.jpg", "image/jpeg", [1200, 1600]],
      // The largest default of current phones: 5712 x 4284 (24.5 MP).
      [await photoJpeg(5712, 4284), "IMG_5678.jpg", "image/jpeg", [1600, 1200]],
      [
        await sharp(randomBytes(117 * 253 * 3), { raw: { width: 117, height: 253, channels: 3 } })
          .resize(1170, 2532, { kernel: "nearest" })
          .png()
          .toBuffer(),
        "Screenshot.png",
        "image/png",
        [739, 1600],
      ],
    ];
    for (const [buffer, name, type, [width, height]] of cases) {
      expect(buffer.length).toBeLessThan(5 * 1024 * 1024);
      const key = await saveImage(s, { file: asFile(buffer, name, type), kind: "proof", ownerId: donor.id, field: "screenshot" });
      const meta = await sharp((await s.storage.get(key))!).metadata();
      expect([name, meta.format, meta.width, meta.height]).toEqual([name, "webp", width, height]);
    }
  });
});
