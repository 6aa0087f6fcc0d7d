import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Role } from "#shared/roles.ts";
import { passwordResets, users } from "#server/db/schema.ts";
import type { DbOrTx } from "#server/db/client.ts";
import type { Services } from "#server/services.ts";
import { invalid } from "#server/domain/errors.ts";
import { mailUser } from "#server/domain/notifications/notifications.ts";
import {
  clearRateLimit,
  clearRateLimitsStartingWith,
  giveBack,
  hitRateLimit,
  limitAddress,
  takeAttempts,
} from "#server/domain/rate-limit.ts";
import { findUserByEmail } from "./accounts.ts";
import { hashPassword } from "./passwords.ts";
import { deleteUserSessions, hashToken } from "./sessions.ts";
import { accountAddressPrefix, accountKey } from "./sign-in.ts";
import { safeRedirectTarget } from "#shared/roles.ts";

export const RESET_TOKEN_MINUTES = 60;

/**
 * Mails a reset link when an account has this email, and says nothing either way: the screen shows
 * the same words whether or not the account exists. Only the token's hash is stored. The mail is in the
 * account's language: whoever asks may not be its owner.
 *
 * Limits (decision 011): per email, every request (a mailbox is not flooded); per client address, requests for
 * no account (AUTH_LIMIT_PER_IP) and links mailed (AUTH_CREATIONS_PER_IP) apart, so that many people behind one
 * address can each ask. Both are counted before the email is looked up and the one that does not apply is given
 * back, so which limit refuses tells nothing about whether the account exists.
 */
export async function requestPasswordReset(
  services: Pick<Services, "config" | "db" | "mailer">,
  input: { email: string; clientIp: string; returnTo?: unknown },
): Promise<void> {
  const { config, db } = services;
  const email = input.email.trim().toLowerCase();
  // Where the person was going before they forgot (a shared campaign): carried through the link, a local path only.
  const returnTo = safeRedirectTarget(input.returnTo, "");
  const window = config.AUTH_LIMIT_WINDOW_SECONDS;
  const address = limitAddress(input.clientIp);
  const [failure, mailed] = await takeAttempts(
    db,
    [
      { key: `reset:ip:${address}`, limit: config.AUTH_LIMIT_PER_IP },
      { key: `reset:mailed:ip:${address}`, limit: config.AUTH_CREATIONS_PER_IP },
    ],
    window,
  );
  try {
    await hitRateLimit(db, `reset:email:${email}`, config.AUTH_LIMIT_PER_ACCOUNT, window);
  } catch (err) {
    await giveBack(db, [failure!, mailed!]);
    throw err;
  }

  const user = await findUserByEmail(db, email);
  await giveBack(db, [user ? failure! : mailed!]);
  if (!user) return;
  const token = randomBytes(32).toString("base64url");
  const link = `${config.APP_URL}/reset_password?token=${token}${returnTo ? `&redirectTo=${encodeURIComponent(returnTo)}` : ""}`;
  // The link and its mail are one change: a link is mailed only if it was stored, and stored only if mailed.
  await db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60 * 1000),
    });
    await mailUser(
      { ...services, db: tx },
      user.id,
      { subject: "auth:mail.resetSubject", body: "auth:mail.resetBody", params: { link, minutes: String(RESET_TOKEN_MINUTES) } },
      { sensitive: true },
    );
  });
}

const usable = (tokenHash: string) =>
  and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`));

/** Whether a reset link can still be used (the page says so before asking for a password). */
export async function isResetTokenUsable(db: DbOrTx, token: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: passwordResets.userId })
    .from(passwordResets)
    .where(usable(hashToken(token)))
    .limit(1);
  return Boolean(row);
}

/**
 * Sets a new password with a reset link. The link is spent by a conditional update, so two
 * submissions of one link cannot both succeed. Every session of the account ends, as do its other
 * links. Returns the account's role, for the sign-in page to go to.
 */
export async function resetPassword(
  services: Pick<Services, "config" | "db">,
  input: { token: string; password: string; clientIp: string },
): Promise<Role> {
  const { config } = services;
  // Counted, and the link checked, before hashing: made-up links cannot make the server hash at will. A usable
  // link is no guess and gives its count back; it hashes once, as the links mailed are limited.
  const taken = await takeAttempts(
    services.db,
    [{ key: `reset:ip:${limitAddress(input.clientIp)}`, limit: config.AUTH_LIMIT_PER_IP }],
    config.AUTH_LIMIT_WINDOW_SECONDS,
  );
  if (!(await isResetTokenUsable(services.db, input.token))) throw invalid("auth.reset.invalid_token");
  await giveBack(services.db, taken);
  const passwordHash = await hashPassword(input.password);
  return services.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(usable(hashToken(input.token)))
      .returning({ userId: passwordResets.userId });
    if (!spent) throw invalid("auth.reset.invalid_token");
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(users.id, spent.userId))
      .returning({ role: users.role, email: users.email });
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(and(eq(passwordResets.userId, spent.userId), isNull(passwordResets.usedAt)));
    await deleteUserSessions(tx, spent.userId);
    // Someone locked out by wrong guesses, theirs or anyone's, can sign in at once with the new password.
    await clearRateLimit(tx, accountKey(user!.email));
    await clearRateLimitsStartingWith(tx, accountAddressPrefix(user!.email));
    return user!.role;
  });
}
