import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "#server/config.ts";
import { copyObjects } from "#server/storage/copy.ts";
import { openStorage } from "#server/storage/open.ts";
import { createS3Storage } from "#server/storage/s3.ts";
import { createLocalStorage, type Storage } from "#server/storage/storage.ts";
import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from "#tests/helpers/s3-server.ts";

// Storage does not touch the database: run these once, in the pglite project.
const onPostgres = process.env.TEST_DB === "postgres";

interface Store {
  storage: Storage;
  /** Writes bytes under a name that is not one of the app's keys, as someone else sharing the store might. */
  putForeign(name: string, body: Buffer): Promise<void>;
}

interface Driver {
  /** A new, empty store; `pageSize` is how many keys one list request returns, where the driver pages. */
  fresh(pageSize?: number): Promise<Store>;
  /** Stores that cannot be reached or written, each with what is wrong. */
  broken(): Promise<[string, Storage][]>;
}

let s3: TestS3Server;
const tempDirs: string[] = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-store-"));
  tempDirs.push(dir);
  return dir;
}

const local: Driver = {
  async fresh() {
    const root = tempDir();
    return {
      storage: createLocalStorage(root),
      async putForeign(name, body) {
        fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
        fs.writeFileSync(path.join(root, name), body);
      },
    };
  },
  async broken() {
    const file = path.join(tempDir(), "not-a-folder");
    fs.writeFileSync(file, "");
    return [["a root under a plain file", createLocalStorage(path.join(file, "files"))]];
  },
};

const s3Options = (bucket: string, pageSize?: number) => ({
  bucket,
  endpoint: s3.endpoint,
  region: "us-east-1",
  credentials: S3_TEST_CREDENTIALS,
  forcePathStyle: true,
  pageSize,
});

const s3Driver: Driver = {
  async fresh(pageSize) {
    const bucket = await s3.createBucket();
    const client = new S3Client({ endpoint: s3.endpoint, region: "us-east-1", forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
    return {
      storage: await createS3Storage(s3Options(bucket, pageSize)),
      async putForeign(name, body) {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: name, Body: body }));
      },
    };
  },
  async broken() {
    return [
      ["a bucket that does not exist", await createS3Storage(s3Options("no-such-bucket"))],
      ["an endpoint where nothing listens", await createS3Storage({ ...s3Options(s3.bucket), endpoint: "http://127.0.0.1:9" })],
      [
        "an access key the service does not know",
        await createS3Storage({ ...s3Options(s3.bucket), credentials: { accessKeyId: "NOBODY", secretAccessKey: "x" } }),
      ],
    ];
  },
};

const key = (kind = "avatar", suffix = ".webp") => `${kind}/${randomUUID()}${suffix}`;

async function listed(storage: Storage) {
  const objects = [];
  for await (const object of storage.list()) objects.push(object);
  return objects.sort((a, b) => a.key.localeCompare(b.key));
}

describe.skipIf(onPostgres).each([
  ["local disk", local],
  ["S3 (s3rver on loopback)", s3Driver],
])("the %s storage driver", (_name, driver) => {
  beforeAll(async () => {
    s3 ??= await startS3Server();
  });

  it("gives back exactly the bytes put, replaces them on a second put, and answers null for a key never written", async () => {
    const { storage } = await driver.fresh();
    const k = key();
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await storage.put(k, bytes);
    expect((await storage.get(k))?.equals(bytes)).toBe(true);
    await storage.put(k, Buffer.from("second"));
    expect((await storage.get(k))?.toString()).toBe("second");
    expect(await storage.get(key())).toBeNull();
    expect(await storage.get(key("proof", ".w480.webp"))).toBeNull();
  });

  it("deletes an object, and deleting one that is not there is not an error", async () => {
    const { storage } = await driver.fresh();
    const [gone, kept] = [key("resume", ".pdf"), key()];
    await storage.put(gone, Buffer.from("%PDF-"));
    await storage.put(kept, Buffer.from("kept"));
    await storage.delete(gone);
    await storage.delete(gone);
    await storage.delete(key());
    expect(await storage.get(gone)).toBeNull();
    expect((await storage.get(kept))?.toString()).toBe("kept");
    expect((await listed(storage)).map((o) => o.key)).toEqual([kept]);
  });

  it("lists every object with its size and time, over several pages, and nothing that is not one of the app's keys", async () => {
    const { storage, putForeign } = await driver.fresh(2);
    const before = Date.now();
    const keys = [key(), key("proof"), key("campaign"), key("campaign", ".w480.webp"), key("resume", ".pdf")];
    for (const [i, k] of keys.entries()) await storage.put(k, Buffer.alloc(i + 1, 1));
    await putForeign("backups/database.sql", Buffer.from("not ours"));
    await putForeign("avatar/readme.txt", Buffer.from("not ours"));
    const objects = await listed(storage);
    expect(objects.map((o) => [o.key, o.size])).toEqual(
      keys.map((k, i) => [k, i + 1]).sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
    for (const o of objects) {
      // S3 keeps whole seconds.
      expect(o.modifiedAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(o.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now());
    }
  });

  it("refuses a key the server would never generate, before touching the store", async () => {
    const { storage } = await driver.fresh();
    for (const bad of ["../../etc/passwd", "avatar/x.webp", `avatar/${randomUUID()}.html`, `Avatar/${randomUUID()}.webp`, ""]) {
      await expect(storage.put(bad, Buffer.from("x")), bad).rejects.toThrow(/Invalid storage key/);
      await expect(storage.get(bad), bad).rejects.toThrow(/Invalid storage key/);
      await expect(storage.delete(bad), bad).rejects.toThrow(/Invalid storage key/);
    }
    expect(await listed(storage)).toEqual([]);
  });

  it("leaves nothing unfinished after whole writes, and removing what is unfinished keeps every object", async () => {
    const { storage } = await driver.fresh();
    const k = key();
    await storage.put(k, Buffer.from("whole"));
    expect(await storage.removeUnfinished(new Date(Date.now() + 60_000))).toEqual([]);
    expect((await storage.get(k))?.toString()).toBe("whole");
  });

  it("is ready when it can be reached and written, and says why not otherwise", async () => {
    const { storage } = await driver.fresh();
    await expect(storage.ready()).resolves.toBeUndefined();
    for (const [what, store] of await driver.broken()) {
      await expect(store.ready(), what).rejects.toThrow();
    }
  });
});

describe.skipIf(onPostgres)("choosing the driver by configuration", () => {
  beforeAll(async () => {
    s3 ??= await startS3Server();
  });

  it("STORAGE=s3 without a bucket, or a key without its secret, stops the start with a message naming what is missing", () => {
    expect(() => loadConfig({ STORAGE: "s3" })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE: "s3" })).toThrow(/STORAGE=s3 needs S3_BUCKET/);
    expect(() => loadConfig({ STORAGE: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "AKIA" })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ STORAGE: "ftp" })).toThrow(/STORAGE/);
    expect(() => loadConfig({ STORAGE: "s3", S3_BUCKET: "b", S3_ENDPOINT: "ftp://files" })).toThrow(/S3_ENDPOINT/);
    // Whatever else is wrong, the secret is never repeated in the message.
    const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    for (const env of [
      { STORAGE: "s3", S3_SECRET_ACCESS_KEY: secret },
      { STORAGE: "s3", S3_BUCKET: "b", S3_SECRET_ACCESS_KEY: secret, S3_ENDPOINT: "not a url" },
    ]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).not.toThrow(new RegExp(secret));
    }
  });

  it("puts files in the bucket with STORAGE=s3, and under DATA_DIR/files without it", async () => {
    const dataDir = tempDir();
    const k = key();
    const inBucket = await openStorage(loadConfig({ DATA_DIR: dataDir, ...s3.env }));
    await inBucket.put(k, Buffer.from("in the bucket"));
    const bucket = await createS3Storage(s3Options(s3.bucket));
    expect((await bucket.get(k))?.toString()).toBe("in the bucket");
    expect(fs.existsSync(path.join(dataDir, "files"))).toBe(false);

    const onDisk = await openStorage(loadConfig({ DATA_DIR: dataDir, S3_BUCKET: s3.bucket }));
    await onDisk.put(k, Buffer.from("on disk"));
    expect(fs.readFileSync(path.join(dataDir, "files", k), "utf8")).toBe("on disk");
    expect((await bucket.get(k))?.toString()).toBe("in the bucket");
  });
});

describe.skipIf(onPostgres)("copying local files into a bucket (npm run storage:copy)", () => {
  beforeAll(async () => {
    s3 ??= await startS3Server();
  });

  async function scene() {
    const from = await local.fresh();
    const to = await s3Driver.fresh(2);
    const keys = [key(), key("proof"), key("campaign"), key("campaign", ".w960.webp"), key("resume", ".pdf")];
    for (const [i, k] of keys.entries()) await from.storage.put(k, Buffer.alloc(100 + i, i));
    return { from: from.storage, to: to.storage, keys };
  }

  async function contents(storage: Storage) {
    const all: Record<string, string> = {};
    for (const { key: k } of await listed(storage)) all[k] = (await storage.get(k))!.toString("hex");
    return all;
  }

  it("copies what the bucket lacks or holds at another size, skips what it holds already, and a second run writes nothing", async () => {
    const { from, to, keys } = await scene();
    await to.put(keys[0]!, (await from.get(keys[0]!))!);
    await to.put(keys[1]!, Buffer.from("an older, shorter copy"));
    expect(await copyObjects(from, to)).toEqual({ copied: 4, skipped: 1, failed: [] });
    expect(await contents(to)).toEqual(await contents(from));
    expect(await copyObjects(from, to)).toEqual({ copied: 0, skipped: 5, failed: [] });
  });

  it("goes on past an object it cannot write, reports it, and a later run finishes the copy", async () => {
    const { from, to, keys } = await scene();
    const refused = keys[2]!;
    const flaky: Storage = {
      ...to,
      async put(k, body) {
        if (k === refused) throw new Error("SlowDown: please reduce your request rate\nrequest id 123");
        await to.put(k, body);
      },
    };
    expect(await copyObjects(from, flaky)).toEqual({
      copied: 4,
      skipped: 0,
      failed: [{ key: refused, message: "SlowDown: please reduce your request rate" }],
    });
    expect(await to.get(refused)).toBeNull();
    expect(await copyObjects(from, to)).toEqual({ copied: 1, skipped: 4, failed: [] });
    expect(await contents(to)).toEqual(await contents(from));
  });

  it("runs as a command: counts printed, the bucket filled; without a bucket or with one it cannot reach, it says so and stops", async () => {
    const dataDir = tempDir();
    const from = createLocalStorage(path.join(dataDir, "files"));
    const keys = [key(), key("proof", ".w480.webp")];
    for (const k of keys) await from.put(k, Buffer.from(`bytes of ${k}`));
    const bucket = await s3.createBucket();
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ["--import", "tsx", "server/cli.ts", "storage-copy"], {
        encoding: "utf8",
        // The parent's environment less anything that would choose storage or a database for the child.
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: "silent", ...env },
      });

    const copied = run({ ...s3.env, S3_BUCKET: bucket, STORAGE: "local" });
    expect(copied.stdout, copied.stderr).toBe(`Copied 2 files into the bucket ${bucket}; 0 were there already.\n`);
    expect(copied.status).toBe(0);
    const target = await createS3Storage(s3Options(bucket));
    for (const k of keys) expect((await target.get(k))?.toString()).toBe(`bytes of ${k}`);

    const noBucket = run({});
    expect(noBucket.status).toBe(2);
    expect(noBucket.stderr).toMatch(/^Name the bucket to copy into: set S3_BUCKET/);
    const missing = run({ ...s3.env, S3_BUCKET: "no-such-bucket" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("The bucket no-such-bucket cannot be reached or read (NotFound); nothing was copied.");
    expect(missing.stderr).not.toContain(S3_TEST_CREDENTIALS.secretAccessKey);
  });
});

afterAll(async () => {
  await s3?.stop();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
