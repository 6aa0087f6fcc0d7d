import type { Db } from "#server/db/client.ts";
import { createAccount, findUserByEmail } from "./accounts.ts";

/** Creates the administrator account when no account has that email. Returns whether one was created. */
export async function ensureAdmin(db: Db, email: string, password: string): Promise<boolean> {
  if (await findUserByEmail(db, email)) return false;
  await createAccount(db, { role: "admin", email, password });
  return true;
}
