import { and, eq } from "drizzle-orm";
import type { Role } from "../../../app/lib/roles";
import type { Config } from "../../config";
import { users } from "../../db/schema";
import type { Services } from "../../services";
import { forbidden, invalid } from "../errors";
import { clearRateLimit, hitRateLimit } from "../rate-limit";
import { dummyPasswordHash, verifyPassword } from "./passwords";
import { createSession, SESSION_COOKIE, SESSION_DAYS } from "./sessions";

export interface SignInResult {
  userId: string;
  token: string;
  /** A rejected NGO or rider gets a session only to correct and re-submit their details. */
  rejected: boolean;
}

const accountKey = (email: string) => `signin:acct:${email}`;

/**
 * Signs in to one role's account. Both limiters are counted before any hashing, so neither guessing
 * nor a flood of requests can make the server hash without bound. The password is checked before the
 * account's state is told, so only its owner learns that it is pending or suspended.
 */
export async function signIn(
  services: Pick<Services, "config" | "db">,
  input: { role: Role; email: string; password: string; clientIp: string },
): Promise<SignInResult> {
  const { config, db } = services;
  const email = input.email.trim().toLowerCase();
  const window = config.AUTH_LIMIT_WINDOW_SECONDS;
  await hitRateLimit(db, `signin:ip:${input.clientIp}`, config.AUTH_LIMIT_PER_IP, window);
  await hitRateLimit(db, accountKey(email), config.AUTH_LIMIT_PER_ACCOUNT, window);

  const [user] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      verification: users.verification,
      suspendedAt: users.suspendedAt,
    })
    .from(users)
    .where(and(eq(users.email, email), eq(users.role, input.role)))
    .limit(1);
  if (!user) {
    // Spend the time of a real check, so a missing account is not told apart by timing alone.
    await verifyPassword(await dummyPasswordHash(), input.password);
    throw invalid(`auth:signIn.noAccount.${input.role}`);
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) throw invalid("auth:signIn.wrongPassword");
  if (user.suspendedAt) throw forbidden("auth:signIn.suspended");
  if (user.verification === "pending") throw forbidden("auth:signIn.notVerified");

  const { token } = await createSession(db, user.id);
  await clearRateLimit(db, accountKey(email));
  return { userId: user.id, token, rejected: user.verification === "rejected" };
}

/** The Set-Cookie value that carries a session token; the one place its attributes are decided. */
export function sessionCookie(config: Pick<Config, "secureCookies">, token: string): string {
  return serialize(token, SESSION_DAYS * 24 * 60 * 60, config.secureCookies);
}

/** The Set-Cookie value that removes the session cookie (log out, re-submission). */
export function expiredSessionCookie(config: Pick<Config, "secureCookies">): string {
  return serialize("", 0, config.secureCookies);
}

function serialize(value: string, maxAge: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
