import { parseArgs } from "node:util";
import { z } from "zod";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { email, newPassword } from "#shared/forms/fields.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "#server/db/client.ts";
import { DatabaseLockedError } from "#server/db/lock.ts";
import { findUserByEmail } from "#server/domain/accounts/accounts.ts";
import { ensureAdmin } from "#server/domain/accounts/admin-account.ts";

/** Operator commands. There is no public admin sign-up: `npm run create-admin -- --email x --password y`. */
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

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === "create-admin") return createAdmin(rest);
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
