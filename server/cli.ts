import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { email, newPassword } from "#shared/forms/fields.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { DatabaseLockedError } from "#server/db/lock.ts";
import { copyObjects } from "#server/storage/copy.ts";
import { createS3Storage, s3Options } from "#server/storage/s3.ts";
import { createLocalStorage } from "#server/storage/storage.ts";

/**
 * Operator commands. There is no public admin sign-up: `npm run create-admin -- --email x --password y`.
 * `npm run storage:copy` copies the uploaded files into the S3 bucket before a switch to STORAGE=s3.
 */
const { t } = serverI18n("en");

const createAdminSchema = z.object({ email: email(), password: newPassword() });

async function createAdmin(args: string[]): Promise<number> {
  let values: { email?: string; password?: string };
  try {
    ({ values } = parseArgs({ args, options: { email: { type: "string" }, password: { type: "string" } }, strict: true }));
  } catch {
    console.error(t("admin:cli.usage"));
    return 2;
  }
  if (values.email === undefined || values.password === undefined) {
    console.error(t("admin:cli.usage"));
    return 2;
  }
  const parsed = createAdminSchema.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      console.error(t("admin:cli.invalid", { field: issue.path.join("."), message: t(issue.message) }));
    }
    return 1;
  }
  const config = loadConfig();
  // Loaded here: the database drivers take a second to load, which storage-copy, needing no database, is spared.
  const [{ openDatabase }, { findUserByEmail }, { ensureAdmin }] = await Promise.all([
    import("#server/db/client.ts"),
    import("#server/domain/accounts/accounts.ts"),
    import("#server/domain/accounts/admin-account.ts"),
  ]);
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    const existing = await findUserByEmail(database.db, parsed.data.email);
    if (existing) {
      if (existing.role === "admin") {
        console.log(t("admin:cli.exists", { email: parsed.data.email }));
        return 0;
      }
      console.error(t("admin:cli.otherRole", { email: parsed.data.email, role: t(`common:roles.${existing.role}`) }));
      return 1;
    }
    // ensureAdmin also covers an account created between the check above and now.
    const created = await ensureAdmin(database.db, parsed.data.email, parsed.data.password);
    console.log(t(created ? "admin:cli.created" : "admin:cli.exists", { email: parsed.data.email }));
    return 0;
  } finally {
    await database.close();
  }
}

/**
 * The files under DATA_DIR/files into the bucket the S3_* settings name, whatever STORAGE says (it is run before the
 * switch). Safe to run again: what the bucket holds at the same size is skipped (decision 041).
 */
async function copyToBucket(args: string[]): Promise<number> {
  if (args.length > 0) {
    console.error(t("admin:cli.copyUsage"));
    return 2;
  }
  const config = loadConfig();
  if (!config.S3_BUCKET) {
    console.error(t("admin:cli.copyNeedsBucket"));
    return 2;
  }
  const bucket = config.S3_BUCKET;
  const to = await createS3Storage(s3Options(config));
  try {
    await to.ready();
  } catch (err) {
    const { code, name } = err as { code?: string; name?: string };
    console.error(t("admin:cli.copyUnreachable", { bucket, message: code ?? name ?? String(err) }));
    return 1;
  }
  const from = createLocalStorage(path.join(config.dataDir, "files"));
  const report = await copyObjects(from, to, (looked) => console.log(t("admin:cli.copyProgress", { looked })));
  console.log(t("admin:cli.copyDone", { copied: report.copied, skipped: report.skipped, bucket }));
  if (report.failed.length === 0) return 0;
  console.error(t("admin:cli.copyFailed", { failed: report.failed.length }));
  for (const { key, message } of report.failed) console.error(t("admin:cli.copyFailedFile", { key, message }));
  return 1;
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "create-admin") return createAdmin(rest);
  if (command === "storage-copy") return copyToBucket(rest);
  console.error(t("admin:cli.usage"));
  return 2;
}

main()
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    // A running server holds the embedded database: say so plainly instead of a stack trace.
    if (err instanceof ConfigError || err instanceof DatabaseLockedError) console.error(err.message);
    else console.error(err);
    process.exit(1);
  });
