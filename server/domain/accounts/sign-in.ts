import { and, eq } from "drizzle-orm";
import type { Role } from "#shared/roles.ts";
import { users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { forbidden, invalid } from "#server/domain/errors.ts";
import { clearRateLimit, giveBack, limitAddress, takeAttempts } from "#server/domain/rate-limit.ts";
import { dummyPasswordHash, verifyPassword } from "./passwords.ts";
import { createSession } from "./sessions.ts";

export interface SignInResult {
  userId: string;
  token: string;
  /** A rejected NGO or rider gets a session only to correct and re-submit their details. */
  rejected: boolean;
}

/** Failed sign-ins on one account, from every address. */
export const accountKey = (email: string) => `signin:acct:${email}`;
/** The prefix of every per-address counter of one account; `|` cannot occur in the encoded email. */
export const accountAddressPrefix = (email: string) => `signin:pair:${encodeURIComponent(email)}|`;

/**
 * Signs in to one role's account. What is limited is failures (decision 011): per client address, per account
 * from that address, and per account from all addresses together. Each attempt is counted under all three before
 * any hashing, so neither guessing nor a flood can make the server hash without bound; an attempt whose password
 * is right gives its counts back and clears its address's failures on the account. So the owner still gets in
 * from an address that has not been failing while someone else's guesses keep theirs locked out. The password is
 * checked before the account's state is told, so only its owner learns that it is pending or suspended.
 */
export async function signIn(
  services: Pick<Services, "config" | "db">,
  input: { role: Role; email: string; password: string; clientIp: string },
): Promise<SignInResult> {
  const { config, db } = services;
  const email = input.email.trim().toLowerCase();
  const address = limitAddress(input.clientIp);
  const taken = await takeAttempts(
    db,
    [
      { key: `signin:ip:${address}`, limit: config.AUTH_LIMIT_PER_IP },
      { key: `${accountAddressPrefix(email)}${address}`, limit: config.AUTH_LIMIT_PER_ACCOUNT },
      // Over all addresses; an address with no failure on this account in the window (its count here is this
      // attempt alone) gets twice the allowance, so the owner on their own phone still gets in while guessers
      // elsewhere have used up the account's ordinary allowance, and fresh addresses (a /48 of IPv6 holds 65,536
      // /64s) still cannot guess without bound.
      {
        key: accountKey(email),
        limit: ([, fromThisAddress]) => config.AUTH_LIMIT_PER_ACCOUNT_ALL_ADDRESSES * (fromThisAddress! <= 1 ? 2 : 1),
      },
    ],
    config.AUTH_LIMIT_WINDOW_SECONDS,
  );

  // An error of ours (the database, say) is no guess: only a wrong password or a missing account stays counted.
  const checked = await checkPassword(db, input.role, email, input.password).catch(async (err: unknown) => {
    await giveBack(db, taken);
    throw err;
  });
  if ("failure" in checked) throw checked.failure;
  await giveBack(db, taken);
  const { user } = checked;
  // The right password: whatever this address got wrong on this account before was its owner's typing.
  await clearRateLimit(db, `${accountAddressPrefix(email)}${address}`);
  if (user.suspendedAt) throw forbidden("auth.sign_in.suspended");
  if (user.verification === "pending") throw forbidden("auth.sign_in.not_verified");

  const { token } = await createSession(db, user.id);
  return { userId: user.id, token, rejected: user.verification === "rejected" };
}

async function checkPassword(db: Services["db"], role: Role, email: string, password: string) {
  const [user] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      verification: users.verification,
      suspendedAt: users.suspendedAt,
    })
    .from(users)
    .where(and(eq(users.email, email), eq(users.role, role)))
    .limit(1);
  if (!user) {
    // Spend the time of a real check, so a missing account is not told apart by timing alone.
    await verifyPassword(await dummyPasswordHash(), password);
    return { failure: invalid(`auth.sign_in.no_account.${role}`) };
  }
  if (!(await verifyPassword(user.passwordHash, password))) return { failure: invalid("auth.sign_in.wrong_password") };
  return { user };
}
