import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { loadConfig } from "#server/config.ts";
import { openDatabase, type Database } from "#server/db/client.ts";
import { createLogger } from "#server/log.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { openQueue, type JobQueue } from "#server/jobs/queue.ts";
import type { Services } from "#server/services.ts";
import { openStorage } from "#server/storage/open.ts";
import { createGeocoder } from "#server/domain/places/geocoder.ts";
import { TEST_QUEUE } from "./queue.ts";

export interface TestServices extends Services {
  /** The driver itself, for the job queue (server/jobs/queue.ts). */
  executeSql: Database["executeSql"];
  /** The job queue on this database, opened (pg-boss's schema made) the first time a test queues or reads a job. */
  jobs: JobQueue;
  /** The database's PostgreSQL URL; none on the embedded database. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or (in the `postgres` project)
 * a new database on TEST_DATABASE_URL that is dropped afterwards. Files go to a temporary folder, or to the
 * bucket that `overrides` name with STORAGE=s3.
 */
export async function createTestServices(overrides: Record<string, string> = {}): Promise<TestServices> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-test-"));
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dir, LOG_LEVEL: "silent", ...overrides });
  let url: string | undefined;
  let dropDatabase = async () => {};
  if (process.env.TEST_DB === "postgres") {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `ekc_test_${randomUUID().replace(/-/g, "")}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    url = u.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const database = await openDatabase({ url, preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
  const log = createLogger("silent");
  let opened: Promise<JobQueue> | null = null;
  const queue = () => (opened ??= openQueue(database, log, TEST_QUEUE));
  const jobs: JobQueue = {
    send: async (db, name, data, opts) => (await queue()).send(db, name, data, opts),
    states: async (name, ids) => (await queue()).states(name, ids),
    work: async (name, handle) => (await queue()).work(name, handle),
    schedule: async (name, cron) => (await queue()).schedule(name, cron),
    depth: async () => (await queue()).depth(),
    counts: async () => (await queue()).counts(),
    stop: async (timeoutMs) => {
      if (opened) await (await opened).stop(timeoutMs);
    },
  };
  return {
    config,
    db: database.db,
    executeSql: database.executeSql,
    log,
    mailer: createMailer({ log }),
    jobs,
    databaseUrl: url,
    storage: await openStorage(config),
    geocoder: createGeocoder(config, log),
    async close() {
      await jobs.stop();
      await database.close();
      await dropDatabase();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A unique email address for test data. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${randomUUID().slice(0, 6)}@test.ekchhat.pk`;
}
