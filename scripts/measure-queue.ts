/**
 * What the job queue costs (decision 042): opening it on a new database (pg-boss creates its tables) and again, and
 * queueing one mail in a transaction (the outbox row and the job), median of 200. On the embedded database, or on
 * PostgreSQL with DATABASE_URL (a scratch database: the script leaves its rows there).
 *   npx tsx scripts/measure-queue.ts
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "#server/db/client.ts";
import { openQueue, type JobQueue } from "#server/jobs/queue.ts";
import { createLogger } from "#server/log.ts";
import { createMailer } from "#server/mail/mailer.ts";

const SENDS = 200;
const log = createLogger("silent");
const options = { mailAttempts: 5, mailRetrySeconds: 60 };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-queue-"));
const url = process.env.DATABASE_URL;

const time = async (run: () => Promise<unknown>) => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};
const opened: JobQueue[] = [];
const open = async () => {
  const queue = await openQueue(database, log, options);
  opened.push(queue);
  return queue;
};

const database = await openDatabase(url ? { url } : { dataDir });
const first = await time(open);
const again = await time(open);
const queue = opened[0]!;
const mailer = createMailer({ log, queue });
const sends: number[] = [];
for (let i = 0; i < SENDS; i++) {
  sends.push(await time(() => database.db.transaction((tx) => mailer.send(tx, { to: `m${i}@example.org`, subject: "S", body: "B" }))));
}
sends.sort((a, b) => a - b);
console.log(
  JSON.stringify({
    database: database.kind,
    openFirstMs: Math.round(first),
    openAgainMs: Math.round(again),
    sendMedianMs: Number(sends[SENDS / 2]!.toFixed(2)),
    sendP95Ms: Number(sends[Math.floor(SENDS * 0.95)]!.toFixed(2)),
    depth: await queue.depth(),
  }),
);
for (const q of opened) await q.stop();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
