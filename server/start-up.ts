import { ensureAdmin } from "#server/domain/accounts/admin-account.ts";
import { demoAccountsText, seedDemoData } from "#server/demo/seed.ts";
import type { Services } from "./services.ts";

/** Work done once when the server starts: the first admin from configuration, demo data on first start. */
export async function startUp(services: Services): Promise<void> {
  const { config, log } = services;
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const created = await ensureAdmin(services.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    if (created) log.info({ email: config.ADMIN_EMAIL }, "created the first admin account");
  }
  if (config.SEED_DEMO) {
    await seedDemoData(services);
    console.log(demoAccountsText());
  }
}
