import type { Config } from "./config";
import type { Db } from "./db/client";
import type { Logger } from "./log";
import type { Mailer } from "./mail/mailer";
import type { Storage } from "./storage/storage";
import type { Geocoder } from "./domain/places/types";

/** Everything a request handler may use, built once at start-up and passed down explicitly. */
export interface Services {
  config: Config;
  db: Db;
  log: Logger;
  mailer: Mailer;
  storage: Storage;
  geocoder: Geocoder;
}
