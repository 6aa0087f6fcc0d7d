/**
 * A child process for tests/integration/mail-crash.test.ts: a server's queue worker on the embedded database in
 * <dataDir> (or PostgreSQL at <databaseUrl>) with the SMTP server at <smtpUrl>. It queues one mail to <to>, prints
 * "ready" and delivers it, until it is killed.
 *   mail-worker-child.ts <dataDir> <smtpUrl> <to> [databaseUrl]
 */
import { loadConfig } from "#server/config.ts";
import { openDatabase } from "#server/db/client.ts";
import { startWorkers } from "#server/jobs/workers.ts";
import { createLogger } from "#server/log.ts";
import { createMailDelivery, createMailer } from "#server/mail/mailer.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { createGeocoder } from "#server/domain/places/geocoder.ts";
import { openTestQueue } from "./queue.ts";

const [dataDir, smtpUrl, to, databaseUrl] = process.argv.slice(2);

async function main() {
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir!, LOG_LEVEL: "silent" });
  const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: config.dataDir });
  const log = createLogger("silent");
  const queue = await openTestQueue({ executeSql: database.executeSql, log });
  const mailer = createMailer({ log, queue });
  const services = {
    config,
    db: database.db,
    log,
    mailer,
    jobs: queue,
    storage: createLocalStorage(`${dataDir}/files`),
    geocoder: createGeocoder(config, log),
  };
  await mailer.send(database.db, { to: to!, subject: "Your receipt", body: "Thank you for your gift" });
  process.stdout.write("ready\n");
  await startWorkers(services, queue, createMailDelivery({ log, from: config.MAIL_FROM, smtpUrl: smtpUrl! }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
