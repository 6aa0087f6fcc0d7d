import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { donorProfiles } from "#server/db/schema.ts";
import { createS3Storage } from "#server/storage/s3.ts";
import { createTestApp, loadServerBuild, signIn, type LoadedBuild } from "#tests/helpers/app.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from "#tests/helpers/s3-server.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * A private file through the whole app on each driver: a donor uploads a profile picture through the settings
 * form, the donor and the administrator download it from /files, anyone else is told it is not there, and the
 * answer's headers are the same whichever driver holds the bytes (decision 041).
 */
let s3: TestS3Server;
let loaded: LoadedBuild;
const opened: TestServices[] = [];

beforeAll(async () => {
  [s3, loaded] = await Promise.all([startS3Server(), loadServerBuild()]);
}, 120_000);
afterAll(async () => {
  await loaded?.close();
  for (const s of opened) await s.close();
  await s3?.stop();
});

describe.each([
  ["local disk", () => ({})],
  ["an S3 bucket", () => s3.env],
])("a private upload kept on %s", (driver, env) => {
  it("is stored through the app, served to its owner and the administrator only, with the same headers", async () => {
    const s = await createTestServices(env());
    opened.push(s);
    const t = createTestApp(s, loaded.build);
    const donor = await makeUser(s.db, "donor");
    const [owner, admin, otherDonor] = [
      await signIn(s.db, donor.id),
      await signIn(s.db, (await makeUser(s.db, "admin")).id),
      await signIn(s.db, (await makeUser(s.db, "donor")).id),
    ];

    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#0a7" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("intent", "picture");
    form.set("picture", new File([new Uint8Array(png)], "me.png", { type: "image/png" }));
    const saved = await t.request("/settingsDonor", { method: "POST", body: form, cookie: owner });
    expect(saved.status, await saved.clone().text()).toBe(302);
    const [profile] = await s.db.select().from(donorProfiles).where(eq(donorProfiles.userId, donor.id));
    const key = profile!.pictureKey!;
    expect(key).toMatch(/^avatar\/[0-9a-f-]{36}\.webp$/);

    // The bytes are where the configuration says, and only there.
    const onDisk = path.join(s.config.dataDir, "files", key);
    if (driver === "an S3 bucket") {
      const bucket = await createS3Storage({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: "us-east-1",
        credentials: S3_TEST_CREDENTIALS,
        forcePathStyle: true,
      });
      expect(await bucket.get(key)).not.toBeNull();
      expect(fs.existsSync(onDisk)).toBe(false);
    } else {
      expect(fs.existsSync(onDisk)).toBe(true);
    }

    for (const cookie of [owner, admin]) {
      const res = await t.request(`/files/${key}`, { cookie });
      expect(res.status).toBe(200);
      const own = ["content-type", "content-disposition", "cache-control", "x-content-type-options", "etag", "last-modified"];
      expect(Object.fromEntries(own.map((name) => [name, res.headers.get(name)]))).toEqual({
        "content-type": "image/webp",
        "content-disposition": "inline",
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
        // Nothing of the bucket's own metadata comes through: the app answers with the bytes, as from disk.
        etag: null,
        "last-modified": null,
      });
      const body = Buffer.from(await res.arrayBuffer());
      expect((await sharp(body).metadata()).format).toBe("webp");
      expect(body.equals((await s.storage.get(key))!)).toBe(true);
    }
    for (const cookie of [otherDonor, null]) {
      const res = await t.request(`/files/${key}`, { cookie });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe("Not found");
    }
    // A fresh database, an image re-encoded and a page's modules compiled on first use: seconds on a busy machine.
  }, 90_000);
});
