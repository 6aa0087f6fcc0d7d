import type { Config } from "./config.ts";
import type { Db } from "#server/db/client.ts";
import type { Logger } from "./log.ts";
import type { JobQueue } from "#server/jobs/queue.ts";
import type { Mailer } from "#server/mail/mailer.ts";
import type { Storage } from "#server/storage/storage.ts";
import type { Geocoder } from "#shared/places.ts";

/** Everything a request handler may use, built once at start-up and passed down explicitly. */
export interface Services {
  config: Config;
  db: Db;
  log: Logger;
  mailer: Mailer;
  /** The job queue (decision 042): queue a job in a change's transaction, read where a job stands. */
  jobs: Pick<JobQueue, "send" | "states">;
  storage: Storage;
  geocoder: Geocoder;
}
