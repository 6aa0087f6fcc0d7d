import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq, getTableColumns, inArray, is, sql } from "drizzle-orm";
import { PgTable, type AnyPgColumn } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#server/db/client.ts";
import * as schema from "#server/db/schema.ts";
import { campaigns, donorProfiles, files, ngoProfiles, passwordResets, rateLimits, riderProfiles, sessions } from "#server/db/schema.ts";
import { deleteFile } from "#server/domain/files/files.ts";
import type { FileKind } from "#shared/statuses.ts";
import { FILE_REFERENCES, SWEEP_GRACE_MS, sweepFiles } from "#server/domain/files/sweep.ts";
import { runMaintenance } from "#server/maintenance.ts";
import type { Storage } from "#server/storage/storage.ts";
import { makeApplication, makeCampaign, makeCashDonation, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

const HOUR = 60 * 60 * 1000;
const OLD = SWEEP_GRACE_MS + HOUR;
const YOUNG = SWEEP_GRACE_MS / 2;

describe("which columns own files", () => {
  it("every kind of file has a column that references it", () => {
    for (const kind of schema.fileKindEnum.enumValues) {
      expect(FILE_REFERENCES[kind]?.length ?? 0, `no column references files of kind ${kind}`).toBeGreaterThan(0);
    }
  });

  it("every column of the schema that holds a file's key is listed", () => {
    const listed = new Set<AnyPgColumn>(Object.values(FILE_REFERENCES).flat());
    const holdingKeys = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => is(value, PgTable))
      .flatMap((table) => Object.values(getTableColumns(table)))
      .filter((column) => column.name.endsWith("_key") && column.name !== "idempotency_key");
    const missing = holdingKeys.filter((column) => !listed.has(column as AnyPgColumn)).map((c) => c.name);
    expect(missing, "columns holding file keys that FILE_REFERENCES does not list").toEqual([]);
    expect(holdingKeys.length).toBe(listed.size);
  });
});

describe("maintenance", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  const root = () => path.join(s.config.dataDir, "files");
  const onDisk = (name: string) => fs.existsSync(path.join(root(), name));
  const rowOf = async (key: string) => (await s.db.select().from(files).where(eq(files.key, key)))[0];
  const ago = (ms: number) => new Date(Date.now() - ms);

  /** Stores a file as an upload would (bytes, then a row), `age` ago; either part can be left out. */
  async function stored(kind: FileKind, age: number, parts: { bytes?: boolean; row?: boolean; ownerId?: string } = {}) {
    const key = `${kind}/${randomUUID()}.${kind === "resume" ? "pdf" : "webp"}`;
    if (parts.bytes !== false) {
      await s.storage.put(key, Buffer.from(`bytes of ${key}`));
      const when = ago(age);
      fs.utimesSync(path.join(root(), key), when, when);
    }
    if (parts.row !== false) {
      await s.db.insert(files).values({
        key,
        kind,
        ownerId: parts.ownerId ?? null,
        contentType: kind === "resume" ? "application/pdf" : "image/webp",
        size: 10,
        createdAt: ago(age),
      });
    }
    return key;
  }

  it("leaves stored files alone, and says so, when far more lack a row than crashes leave (another database)", async () => {
    const keys: string[] = [];
    for (let i = 0; i < 60; i++) keys.push(await stored("proof", OLD, { row: false }));
    const report = await sweepFiles(s);
    expect(report.withheld).toBeGreaterThanOrEqual(60);
    expect(report.bytes).toEqual([]);
    expect(keys.every((key) => onDisk(key))).toBe(true);
    // Once the operator has looked (here: the rows were the missing piece), a few leftovers are swept as usual.
    for (const key of keys) {
      await s.db.insert(files).values({ key, kind: "proof", ownerId: null, contentType: "image/webp", size: 10, createdAt: new Date() });
    }
    const leftover = await stored("proof", OLD, { row: false });
    expect((await sweepFiles(s)).bytes).toEqual([leftover]);
    expect(onDisk(leftover)).toBe(false);
  });

  /** A temp file as a `put` cut short by a crash leaves it, `age` ago. */
  function tempFile(kind: FileKind, age: number) {
    const name = `${kind}/${randomUUID()}.webp.4242.tmp`;
    fs.mkdirSync(path.join(root(), kind), { recursive: true });
    fs.writeFileSync(path.join(root(), name), "half an upload");
    const when = ago(age);
    fs.utimesSync(path.join(root(), name), when, when);
    return name;
  }

  it("removes old file rows nothing references, with their bytes, and old bytes without a row; keeps young and referenced ones", async () => {
    const orphanRow = await stored("proof", OLD);
    const orphanRowNoBytes = await stored("resume", OLD, { bytes: false });
    const youngRow = await stored("proof", YOUNG);
    const orphanBytes = await stored("avatar", OLD, { row: false });
    const youngBytes = await stored("proof", YOUNG, { row: false });

    // One old, referenced file for every column that references files.
    const ngo = await makeUser(s.db, "ngo");
    const donor = await makeUser(s.db, "donor");
    const rider = await makeUser(s.db, "rider");
    const referenced: Record<string, string> = {};
    referenced.logo = await stored("logo", OLD);
    await s.db.update(ngoProfiles).set({ logoKey: referenced.logo }).where(eq(ngoProfiles.userId, ngo.id));
    referenced.donorAvatar = await stored("avatar", OLD);
    await s.db.update(donorProfiles).set({ pictureKey: referenced.donorAvatar }).where(eq(donorProfiles.userId, donor.id));
    referenced.riderAvatar = await stored("avatar", OLD);
    await s.db.update(riderProfiles).set({ pictureKey: referenced.riderAvatar }).where(eq(riderProfiles.userId, rider.id));
    referenced.campaign = await stored("campaign", OLD);
    const campaign = await makeCampaign(s.db, ngo.id, { pictureKey: referenced.campaign });
    referenced.poster = await stored("poster", OLD);
    const position = await makePosition(s.db, ngo.id, { posterKey: referenced.poster });
    referenced.resume = await stored("resume", OLD);
    await makeApplication(s.db, position.id, donor.id, { resumeKey: referenced.resume });
    const donation = await makeCashDonation(s, campaign, donor.id);
    await s.db
      .update(files)
      .set({ createdAt: ago(OLD) })
      .where(eq(files.key, donation.proofKey!));
    fs.utimesSync(path.join(root(), donation.proofKey!), ago(OLD), ago(OLD));
    referenced.proof = donation.proofKey!;

    const report = await sweepFiles(s);

    expect(report.rows).toEqual(expect.arrayContaining([orphanRow, orphanRowNoBytes]));
    expect(report.bytes).toContain(orphanBytes);
    for (const key of [orphanRow, orphanRowNoBytes]) expect(await rowOf(key), key).toBeUndefined();
    for (const key of [orphanRow, orphanBytes]) expect(onDisk(key), key).toBe(false);

    expect(await rowOf(youngRow)).toBeDefined();
    expect(onDisk(youngRow)).toBe(true);
    expect(onDisk(youngBytes)).toBe(true);
    for (const [what, key] of Object.entries(referenced)) {
      expect(await rowOf(key), `${what}: row`).toBeDefined();
      expect(onDisk(key), `${what}: bytes`).toBe(true);
    }
    expect(report.rows).not.toEqual(expect.arrayContaining([youngRow]));
    expect([...report.rows, ...report.bytes].some((k) => Object.values(referenced).includes(k) || k === youngBytes)).toBe(false);

    // A second sweep finds nothing more of these.
    const again = await sweepFiles(s);
    expect([...again.rows, ...again.bytes].filter((k) => [orphanRow, orphanRowNoBytes, orphanBytes].includes(k))).toEqual([]);
  });

  it("the grace period is measured from the time it is given", async () => {
    const young = await stored("proof", YOUNG);
    expect((await sweepFiles(s)).rows).not.toContain(young);
    const later = new Date(Date.now() + SWEEP_GRACE_MS);
    const report = await sweepFiles(s, { now: later });
    expect(report.rows).toContain(young);
    expect(onDisk(young)).toBe(false);
  });

  it("removes old temp files of writes that never finished, and only those", async () => {
    const old = tempFile("proof", OLD);
    const young = tempFile("proof", YOUNG);
    const keep = await stored("proof", YOUNG, { row: false });
    const report = await sweepFiles(s);
    expect(report.unfinished).toContain(old);
    expect(report.unfinished).not.toContain(young);
    expect(onDisk(old)).toBe(false);
    expect(onDisk(young)).toBe(true);
    expect(onDisk(keep)).toBe(true);
    // The temp file is not a stored object.
    const listed: string[] = [];
    for await (const o of s.storage.list()) listed.push(o.key);
    expect(listed).toContain(keep);
    expect(listed.some((k) => k.endsWith(".tmp"))).toBe(false);
  });

  it("two sweeps at once remove each orphan once, and neither fails", async () => {
    const orphans = await Promise.all(Array.from({ length: 12 }, (_, i) => stored("proof", OLD, { bytes: i % 3 !== 0 })));
    const loose = await Promise.all(Array.from({ length: 6 }, () => stored("campaign", OLD, { row: false })));
    const [a, b] = await Promise.all([sweepFiles(s), sweepFiles(s)]);
    const rows = [...a.rows, ...b.rows].filter((k) => orphans.includes(k));
    expect(rows.sort()).toEqual([...orphans].sort());
    expect(await s.db.select().from(files).where(inArray(files.key, orphans))).toEqual([]);
    for (const key of [...orphans, ...loose]) expect(onDisk(key), key).toBe(false);
  });

  it("deleteFile removes the bytes even when the database is down; the sweep removes the row later", async () => {
    const donor = await makeUser(s.db, "donor");
    const key = await stored("proof", 0, { ownerId: donor.id });
    const down = new Proxy(s.db, {
      get(target, prop) {
        if (prop === "delete") return () => ({ where: () => Promise.reject(new Error("connection refused")) });
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as Db;
    await expect(deleteFile({ db: down, storage: s.storage }, key)).rejects.toThrow("connection refused");
    expect(onDisk(key), "private bytes outlived the database outage").toBe(false);
    expect(await rowOf(key)).toBeDefined();

    expect((await sweepFiles(s, { now: new Date(Date.now() + OLD) })).rows).toContain(key);
    expect(await rowOf(key)).toBeUndefined();
  });

  it("removes expired sessions, reset links and ended rate-limit windows, and keeps live ones", async () => {
    const user = await makeUser(s.db, "donor");
    const tag = randomUUID();
    await s.db.insert(sessions).values([
      { id: `expired-${tag}`, userId: user.id, expiresAt: ago(60_000) },
      { id: `live-${tag}`, userId: user.id, expiresAt: new Date(Date.now() + HOUR) },
    ]);
    await s.db.insert(passwordResets).values([
      { tokenHash: `expired-${tag}`, userId: user.id, expiresAt: ago(60_000) },
      { tokenHash: `live-${tag}`, userId: user.id, expiresAt: new Date(Date.now() + HOUR) },
    ]);
    await s.db.insert(rateLimits).values([
      { key: `test:ended:${tag}`, windowStart: ago(2 * 24 * HOUR), count: 3 },
      { key: `test:current:${tag}`, windowStart: ago(60_000), count: 3 },
    ]);

    const report = await runMaintenance(s);

    expect(report.sessions).toBeGreaterThanOrEqual(1);
    expect((await s.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))).map((r) => r.id)).toEqual([
      `live-${tag}`,
    ]);
    expect(
      (await s.db.select({ t: passwordResets.tokenHash }).from(passwordResets).where(eq(passwordResets.userId, user.id))).map((r) => r.t),
    ).toEqual([`live-${tag}`]);
    const limits = await s.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(sql`${rateLimits.key} like ${`test:%:${tag}`}`);
    expect(limits.map((r) => r.key)).toEqual([`test:current:${tag}`]);
  });

  it("a failing task is logged and the others still run; nothing is thrown", async () => {
    const user = await makeUser(s.db, "donor");
    const id = `expired-${randomUUID()}`;
    await s.db.insert(sessions).values({ id, userId: user.id, expiresAt: ago(60_000) });
    const broken: Storage = {
      ...s.storage,
      async *list() {
        throw new Error("disk unreadable");
      },
    };
    const errors: unknown[] = [];
    const log = Object.assign(Object.create(s.log) as typeof s.log, { error: (o: unknown) => errors.push(o) });
    const report = await runMaintenance({ ...s, storage: broken, log });
    expect(report.files).toBeNull();
    expect(errors).toHaveLength(1);
    expect(await s.db.select().from(sessions).where(eq(sessions.id, id))).toEqual([]);
  });

  it("never removes a campaign picture while the campaign has it", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const key = await stored("campaign", OLD);
    const campaign = await makeCampaign(s.db, ngo.id, { pictureKey: key });
    await sweepFiles(s, { now: new Date(Date.now() + 10 * OLD) });
    expect(await rowOf(key)).toBeDefined();
    // Once the campaign lets it go (a crash before deleteFile ran), the sweep takes it.
    await s.db.update(campaigns).set({ pictureKey: null }).where(eq(campaigns.id, campaign.id));
    await sweepFiles(s);
    expect(await rowOf(key)).toBeUndefined();
    expect(onDisk(key)).toBe(false);
  });
});
