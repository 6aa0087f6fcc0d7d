import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { isNotNull } from "drizzle-orm";
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { openDatabase, type Database } from "#server/db/client.ts";
import { donations, files } from "#server/db/schema.ts";
import { SWEEP_GRACE_MS, sweepFiles } from "#server/domain/files/sweep.ts";
import { createLocalStorage, type Storage } from "#server/storage/storage.ts";

const onPostgres = process.env.TEST_DB === "postgres";
const child = path.resolve("tests/helpers/upload-child.ts");
/** Donations the child writes before it is killed, at the next screenshot it stores. */
const SAVED_BEFORE_KILL = 4;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new, empty PostgreSQL database for the child (dropped afterwards), or undefined on the embedded database. */
async function freshPostgres(): Promise<string | undefined> {
  if (!onPostgres) return undefined;
  const base = process.env.TEST_DATABASE_URL!;
  const name = `ekc_crash_${randomUUID().replace(/-/g, "")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs the child until it has saved some donations and is storing another screenshot, then kills it with SIGKILL. */
function runAndKill(args: string[]): Promise<{ saved: number; stored: number }> {
  const proc: ChildProcess = spawn(process.execPath, ["--import", "tsx", child, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  cleanups.push(() => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
  });
  return new Promise((resolve, reject) => {
    let saved = 0;
    let stored = 0;
    let pending = "";
    let err = "";
    proc.stdout!.on("data", (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith("saved ")) saved += 1;
        if (line.startsWith("stored ")) {
          stored += 1;
          if (saved >= SAVED_BEFORE_KILL && proc.signalCode === null) proc.kill("SIGKILL");
        }
      }
    });
    proc.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    proc.on("error", reject);
    proc.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve({ saved, stored });
      else reject(new Error(`the child exited (${code ?? signal}) before it was killed: ${err}`));
    });
  });
}

async function storedKeys(storage: Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of storage.list()) keys.push(o.key);
  return keys.sort();
}

function tempFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".tmp"));
}

it(
  "after kill -9 in the middle of saving screenshots, the sweep leaves no file row without a donation and no bytes without a row",
  { timeout: 60_000 },
  async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-crash-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const url = await freshPostgres();

    const { saved } = await runAndKill(url ? [dataDir, url] : [dataDir]);
    expect(saved).toBeGreaterThanOrEqual(SAVED_BEFORE_KILL);

    // The same data directory the killed process used: the embedded database recovers as after a power cut.
    const database: Database = await openDatabase(url ? { url } : { dataDir });
    cleanups.push(() => database.close());
    const db = database.db;
    const root = path.join(dataDir, "files");
    const storage = createLocalStorage(root);

    const proofs = async () =>
      new Set((await db.select({ key: donations.proofKey }).from(donations).where(isNotNull(donations.proofKey))).map((r) => r.key!));
    const rows = async () => (await db.select({ key: files.key }).from(files)).map((r) => r.key).sort();
    const owned = await proofs();
    expect(owned.size).toBeGreaterThanOrEqual(SAVED_BEFORE_KILL);
    const before = { rows: await rows(), bytes: await storedKeys(storage), temp: tempFiles(root) };
    const leftBehind =
      before.rows.filter((k) => !owned.has(k)).length + before.bytes.filter((k) => !before.rows.includes(k)).length + before.temp.length;
    // The kill lands while a screenshot is being saved, so something is normally left behind; the sweep must
    // cope whether or not it is.
    console.log(
      `crash left ${leftBehind} things behind (rows ${before.rows.length}, bytes ${before.bytes.length}, temp ${before.temp.length}, donations ${owned.size})`,
    );

    // Within the grace period an upload may still be in flight: nothing of the crash is touched yet.
    const early = await sweepFiles({ db, storage });
    expect(early).toEqual({ rows: [], bytes: [], unfinished: [], withheld: 0 });

    // An hour and more later (the clock is given, not waited for).
    const later = new Date(Date.now() + SWEEP_GRACE_MS + 60_000);
    const report = await sweepFiles({ db, storage }, { now: later });
    expect(report.rows.length + report.bytes.length + report.unfinished.length).toBe(leftBehind);
    expect(report.withheld, "a crash's leftovers are few enough to sweep").toBe(0);

    const rowsAfter = await rows();
    const bytesAfter = await storedKeys(storage);
    expect(rowsAfter, "file rows = screenshots of donations").toEqual([...(await proofs())].sort());
    expect(bytesAfter, "stored bytes = file rows").toEqual(rowsAfter);
    expect(tempFiles(root), "temp files").toEqual([]);
    // Every donation still has its screenshot.
    for (const key of owned) expect(await storage.get(key), key).not.toBeNull();
  },
);
