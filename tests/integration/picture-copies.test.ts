import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { files } from "#server/db/schema.ts";
import { deleteFile, findFileForUser, makeMissingCopies, saveImage } from "#server/domain/files/files.ts";
import { SWEEP_GRACE_MS, sweepFiles } from "#server/domain/files/sweep.ts";
import { PICTURE_WIDTHS, pictureSrcSet, pictureVariantKey } from "#shared/pictures.ts";
import { makeCampaign, makeUser, asSessionUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

const OLD = SWEEP_GRACE_MS + 60 * 60 * 1000;

/** A photo-like JPEG (smooth noise, so it does not compress to nothing) of the given size. */
async function picture(width: number, height: number): Promise<File> {
  const w = Math.ceil(width / 8);
  const h = Math.ceil(height / 8);
  const noise = Buffer.from(Array.from({ length: w * h * 3 }, (_, i) => (i * 37) % 251));
  const jpeg = await sharp(noise, { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height)
    .jpeg({ quality: 80 })
    .toBuffer();
  return new File([new Uint8Array(jpeg)], "picture.jpg", { type: "image/jpeg" });
}

describe("narrower copies of pictures", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  const onDisk = (key: string) => fs.existsSync(path.join(s.config.dataDir, "files", key));
  const widthOf = async (bytes: Buffer | null | undefined) => (bytes ? (await sharp(bytes).metadata()).width : null);
  const rowOf = async (key: string) => (await s.db.select().from(files).where(eq(files.key, key)))[0];
  const copies = (key: string) => PICTURE_WIDTHS.map((w) => pictureVariantKey(key, w));

  /** Makes a picture's bytes, copies and row look as an upload `OLD` ago would have left them. */
  async function makeOld(key: string) {
    const when = new Date(Date.now() - OLD);
    for (const k of [key, ...copies(key)]) if (onDisk(k)) fs.utimesSync(path.join(s.config.dataDir, "files", k), when, when);
    await s.db.update(files).set({ createdAt: when }).where(eq(files.key, key));
  }

  it("an upload of a wide campaign picture stores a copy at each width beside the 1600-pixel original", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const key = await saveImage(s, { file: await picture(2400, 1260), kind: "campaign", ownerId: ngo.id, field: "picture" });
    expect((await rowOf(key))!.widths).toEqual([480, 960]);
    expect(await widthOf(await s.storage.get(key))).toBe(1600);
    expect(await widthOf(await s.storage.get(pictureVariantKey(key, 480)))).toBe(480);
    expect(await widthOf(await s.storage.get(pictureVariantKey(key, 960)))).toBe(960);
    // Each address answers its own bytes, for a year: they never change.
    for (const w of PICTURE_WIDTHS) {
      const copy = await findFileForUser(s, pictureVariantKey(key, w), null);
      expect(await widthOf(copy?.body)).toBe(w);
      expect(copy).toMatchObject({ public: true, settled: true, contentType: "image/webp" });
    }
    expect(pictureSrcSet(key)).toBe(
      `/files/${key.replace(".webp", ".w480.webp")} 480w, /files/${key.replace(".webp", ".w960.webp")} 960w, /files/${key} 1600w`,
    );
  });

  it("a picture narrower than a width has no copy at it, and the original answers there; other kinds have none", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const key = await saveImage(s, { file: await picture(800, 450), kind: "poster", ownerId: ngo.id, field: "poster" });
    expect((await rowOf(key))!.widths).toEqual([480]);
    expect(onDisk(pictureVariantKey(key, 960))).toBe(false);
    const at960 = await findFileForUser(s, pictureVariantKey(key, 960), null);
    expect(await widthOf(at960?.body)).toBe(800);
    expect(at960?.settled).toBe(true);

    const logo = await saveImage(s, { file: await picture(1200, 1200), kind: "logo", ownerId: ngo.id, field: "logo" });
    expect((await rowOf(logo))!.widths).toEqual([]);
    expect(copies(logo).some(onDisk)).toBe(false);
  });

  it("a copy is read with its picture's rules: whoever may not read the picture may not read the copy", async () => {
    const owner = await makeUser(s.db, "donor");
    const stranger = await makeUser(s.db, "donor");
    const admin = await makeUser(s.db, "admin");
    const key = await saveImage(s, { file: await picture(1000, 1000), kind: "avatar", ownerId: owner.id, field: "picture" });
    // Private pictures get no copies today; give this one a copy, so bytes exist at the copy's address.
    const copy = pictureVariantKey(key, 480);
    await s.storage.put(
      copy,
      await sharp((await s.storage.get(key))!)
        .resize({ width: 480 })
        .webp()
        .toBuffer(),
    );
    await s.db
      .update(files)
      .set({ widths: [480] })
      .where(eq(files.key, key));

    for (const address of [key, copy, pictureVariantKey(key, 960)]) {
      expect(await findFileForUser(s, address, null)).toBeNull();
      expect(await findFileForUser(s, address, asSessionUser(stranger, "donor"))).toBeNull();
      expect(await findFileForUser(s, address, asSessionUser(owner, "donor"))).toMatchObject({ public: false });
      expect(await findFileForUser(s, address, asSessionUser(admin, "admin"))).toMatchObject({ public: false });
    }
    expect(await widthOf((await findFileForUser(s, copy, asSessionUser(owner, "donor")))?.body)).toBe(480);
    // A width that is not one of the copies' is no address at all.
    expect(await findFileForUser(s, key.replace(".webp", ".w500.webp"), asSessionUser(owner, "donor"))).toBeNull();
  });

  it("the sweep keeps a live picture's copies and removes copies whose picture is gone", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const live = await saveImage(s, { file: await picture(2000, 1000), kind: "campaign", ownerId: ngo.id, field: "picture" });
    await makeCampaign(s.db, ngo.id, { pictureKey: live });
    // A crash after the bytes and copies were stored, before the row: bytes without a row.
    const crashed = await saveImage(s, { file: await picture(2000, 1000), kind: "campaign", ownerId: ngo.id, field: "picture" });
    await s.db.delete(files).where(eq(files.key, crashed));
    // A crash after the campaign let its picture go, before deleteFile: a row nothing references.
    const dropped = await saveImage(s, { file: await picture(2000, 1000), kind: "campaign", ownerId: ngo.id, field: "picture" });
    // A copy left by a crash between deleteFile's removals (or made for a picture deleted meanwhile).
    const leftover = await saveImage(s, { file: await picture(2000, 1000), kind: "campaign", ownerId: ngo.id, field: "picture" });
    await s.storage.delete(leftover);
    await s.db.delete(files).where(eq(files.key, leftover));
    for (const key of [live, crashed, dropped, leftover]) await makeOld(key);

    const report = await sweepFiles(s);

    expect([live, ...copies(live)].every(onDisk)).toBe(true);
    expect(await rowOf(live)).toBeDefined();
    for (const gone of [crashed, dropped, leftover]) expect([gone, ...copies(gone)].some(onDisk), gone).toBe(false);
    expect(report.rows).toContain(dropped);
    expect(report.bytes).toEqual(expect.arrayContaining([crashed, ...copies(crashed), ...copies(leftover)]));
    for (const key of [live, ...copies(live)]) expect(report.bytes).not.toContain(key);
  });

  it("deleting a picture deletes its copies", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const key = await saveImage(s, { file: await picture(2000, 1000), kind: "campaign", ownerId: ngo.id, field: "picture" });
    expect(copies(key).every(onDisk)).toBe(true);
    await deleteFile(s, key);
    expect([key, ...copies(key)].some(onDisk)).toBe(false);
    expect(await rowOf(key)).toBeUndefined();
  });

  it("pictures stored before copies existed get them in the maintenance round; until then the original answers briefly", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const key = await saveImage(s, { file: await picture(2000, 1000), kind: "campaign", ownerId: ngo.id, field: "picture" });
    // As an upload before this change left it: no copies, no widths.
    for (const copy of copies(key)) await s.storage.delete(copy);
    await s.db.update(files).set({ widths: null }).where(eq(files.key, key));

    const before = await findFileForUser(s, pictureVariantKey(key, 480), null);
    expect(await widthOf(before?.body)).toBe(1600);
    expect(before?.settled).toBe(false);

    const stopped = new AbortController();
    stopped.abort();
    expect(await makeMissingCopies(s, { signal: stopped.signal })).toBe(0);
    expect((await rowOf(key))!.widths).toBeNull();

    expect(await makeMissingCopies(s)).toBeGreaterThanOrEqual(1);
    expect((await rowOf(key))!.widths).toEqual([480, 960]);
    const after = await findFileForUser(s, pictureVariantKey(key, 480), null);
    expect(await widthOf(after?.body)).toBe(480);
    expect(after?.settled).toBe(true);
    expect(await makeMissingCopies(s)).toBe(0);
  });
});
