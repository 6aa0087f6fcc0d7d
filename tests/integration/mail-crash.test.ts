import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { openDatabase } from "#server/db/client.ts";
import { mailOutbox } from "#server/db/schema.ts";
import { startWorkers } from "#server/jobs/workers.ts";
import { loadConfig } from "#server/config.ts";
import { createLogger } from "#server/log.ts";
import { createMailDelivery, createMailer } from "#server/mail/mailer.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { createGeocoder } from "#server/domain/places/geocoder.ts";
import { openTestQueue, TEST_QUEUE, until } from "#tests/helpers/queue.ts";
import { startTestSmtp } from "#tests/helpers/smtp.ts";

const child = fileURLToPath(new URL("../helpers/mail-worker-child.ts", import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new, empty PostgreSQL database for the child (dropped afterwards), or undefined on the embedded database. */
async function freshPostgres(): Promise<string | undefined> {
  if (process.env.TEST_DB !== "postgres") return undefined;
  const base = process.env.TEST_DATABASE_URL!;
  const name = `ekc_mail_${randomUUID().replace(/-/g, "")}`;
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

it(
  "a worker killed while the mail server holds its message: after restart the mail is delivered exactly once",
  { timeout: 90_000 },
  async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-mail-crash-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const url = await freshPostgres();
    const smtp = await startTestSmtp();
    cleanups.push(() => smtp.close());
    const to = `crash-${randomUUID().slice(0, 8)}@test.ekchhat.pk`;
    smtp.hold.add(to);
    const held = new Promise<void>((resolve) => (smtp.onHeld = (m) => m.to === to && resolve()));

    // The worker has sent the whole message and waits for the server's answer (DATA's 250) when it dies.
    const args = [dataDir, smtp.url, to, ...(url ? [url] : [])];
    const proc: ChildProcess = spawn(process.execPath, ["--import", "tsx", child, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    cleanups.push(() => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    });
    let err = "";
    proc.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
    await Promise.race([held, exited.then(() => Promise.reject(new Error(`the worker exited before sending: ${err}`)))]);
    proc.kill("SIGKILL");
    await exited;
    expect(smtp.received.filter((m) => m.to === to)).toHaveLength(0);
    smtp.hold.delete(to);

    // Another start on the same database (the embedded one recovers as after a power cut): the try the dead
    // worker held expires and is made again.
    const database = await openDatabase(url ? { url } : { dataDir });
    cleanups.push(() => database.close());
    const log = createLogger("silent");
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent" });
    const queue = await openTestQueue({ executeSql: database.executeSql, log });
    const services = {
      config,
      db: database.db,
      log,
      mailer: createMailer({ log, queue }),
      jobs: queue,
      storage: createLocalStorage(path.join(dataDir, "files")),
      geocoder: createGeocoder(config, log),
    };
    const workers = await startWorkers(services, queue, createMailDelivery({ log, from: config.MAIL_FROM, smtpUrl: smtp.url }));
    cleanups.push(() => workers.stop());

    const rowTo = async () => (await database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)))[0];
    const row = await until(rowTo, (r) => r?.status === "sent", 40_000);
    expect(row!.attempts).toBe(2);
    const job = async () =>
      ((await database.db.execute(sql`select state from pgboss.job where name = 'mail'`)) as unknown as { rows: { state: string }[] }).rows;
    await until(job, (rows) => rows.length === 1 && rows[0]!.state === "completed");
    // Longer than a poll and an expiry: nothing sends it again.
    await new Promise((r) => setTimeout(r, (TEST_QUEUE.mailExpireSeconds! + 1) * 1000));
    const received = smtp.received.filter((m) => m.to === to);
    expect(received).toHaveLength(1);
    expect(received[0]!.raw).toContain(`Message-ID: <${row!.id}@ekchhat.pk>`);
  },
);
