import path from "node:path";
import type { Config } from "#server/config.ts";
import { createS3Storage, s3Options } from "./s3.ts";
import { createLocalStorage, type Storage } from "./storage.ts";

/** The driver the configuration names: DATA_DIR/files, or the S3 bucket (decision 041). */
export async function openStorage(config: Config): Promise<Storage> {
  if (config.STORAGE === "s3") return createS3Storage(s3Options(config));
  return createLocalStorage(path.join(config.dataDir, "files"));
}
