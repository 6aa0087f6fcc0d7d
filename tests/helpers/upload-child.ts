/**
 * A child process for tests/integration/sweep-crash.test.ts: the real services on the embedded database in
 * <dataDir> (or PostgreSQL at <databaseUrl>), submitting cash donations with screenshots in a few loops at once
 * until it is killed. It prints "ready" once its accounts exist, "stored <key>" when a screenshot's bytes are
 * stored and "saved <donation id>" when a donation is written.
 *   upload-child.ts <dataDir> [databaseUrl]
 */
import path from "node:path";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { cashProofSchema } from "#shared/forms/donations.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/client.ts";
import { ngoProfiles } from "#server/db/schema.ts";
import { submitCashDonation } from "#server/domain/donations/cash.ts";
import type { JobQueue } from "#server/jobs/queue.ts";
import { createLogger } from "#server/log.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { createLocalStorage, type Storage } from "#server/storage/storage.ts";
import { makeCampaign, makeProofPng, makeUser } from "./factories.ts";

const LOOPS = 3;
const [dataDir, databaseUrl] = process.argv.slice(2);

async function main() {
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir!, LOG_LEVEL: "silent" });
  const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: config.dataDir });
  const db = database.db;
  const log = createLogger("silent");
  const local = createLocalStorage(path.join(config.dataDir, "files"));
  const storage: Storage = {
    ...local,
    async put(key, body) {
      await local.put(key, body);
      process.stdout.write(`stored ${key}\n`);
    },
  };
  // No statement line waits here, so a proof queues no matching round: the queue is never asked for anything.
  const jobs = {
    send: async () => {
      throw new Error("upload-child: nothing should be queued");
    },
  } as unknown as JobQueue;
  const services = { config, db, log, storage, mailer: createMailer({ log }), jobs };

  const ngo = await makeUser(db, "ngo");
  await db.update(ngoProfiles).set({ jazzcashNumber: "03001112222" }).where(eq(ngoProfiles.userId, ngo.id));
  const donor = await makeUser(db, "donor");
  const campaign = await makeCampaign(db, ngo.id, { targetAmount: 1_000_000_000 });
  process.stdout.write("ready\n");

  const loop = async () => {
    for (;;) {
      const form = new FormData();
      const fields: Record<string, string> = {
        campaign: campaign.slug,
        ngo: ngo.id,
        method: "jazzcash",
        idempotencyKey: randomUUID(),
        phone: "03001234567",
        amount: "500",
        transactionId: `TX${randomUUID().slice(0, 8)}`.toUpperCase(),
      };
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append("screenshot", new File([new Uint8Array(await makeProofPng())], "proof.png", { type: "image/png" }));
      const submission = parseWithZod(form, { schema: cashProofSchema });
      if (submission.status !== "success") throw new Error(`refused: ${JSON.stringify(submission.error)}`);
      const { id } = await submitCashDonation(services, donor, submission.value);
      process.stdout.write(`saved ${id}\n`);
    }
  };
  await Promise.all(Array.from({ length: LOOPS }, loop));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
