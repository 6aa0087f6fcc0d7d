import { ensureAdmin } from "#server/domain/accounts/admin-account.ts";
import { demoAccountsText, seedDemoData } from "#server/demo/seed.ts";
import type { Config } from "./config.ts";
import type { Services } from "./services.ts";

/**
 * Work done once when the server starts: the first admin from configuration, demo data on first start. Returns
 * the demo accounts' text when demo data is loaded, for the ready message.
 */
export async function startUp(services: Services): Promise<{ demoAccounts: string | null }> {
  const { config, log } = services;
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const created = await ensureAdmin(services.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    if (created) log.info({ email: config.ADMIN_EMAIL }, "created the first admin account");
  }
  if (!config.SEED_DEMO) return { demoAccounts: null };
  await seedDemoData(services);
  return { demoAccounts: demoAccountsText() };
}

/**
 * What the server prints last, once it listens: where to open it and, with demo data, the accounts to sign in
 * with, after everything the build and the start-up wrote, so a newcomer finds it without scrolling.
 */
export function readyMessage(config: Pick<Config, "APP_URL" | "HOST" | "PORT">, demoAccounts: string | null): string {
  const local =
    config.HOST === "0.0.0.0" || config.HOST === "::" ? `http://localhost:${config.PORT}` : `http://${config.HOST}:${config.PORT}`;
  const lines = ["", `Ek Chhat is ready. Open ${config.APP_URL}`];
  if (new URL(config.APP_URL).origin !== new URL(local).origin) lines.push(`(listening on ${local})`);
  if (demoAccounts) lines.push("", demoAccounts);
  lines.push("");
  return lines.join("\n");
}
