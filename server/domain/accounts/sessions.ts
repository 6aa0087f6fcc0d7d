import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { statementName, type DbOrTx } from "#server/db/client.ts";
import { donorProfiles, ngoProfiles, notifications, riderProfiles, sessions, users } from "#server/db/schema.ts";
import type { Role } from "#shared/roles.ts";
import { unreadOf } from "#server/domain/notifications/unread.ts";

export const SESSION_COOKIE = "ekc_session";
export const SESSION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  verification: "pending" | "verified" | "rejected";
  /** NGO name, or a person's first name. */
  displayName: string;
  /** Storage key of the logo or picture, if any. */
  pictureKey: string | null;
  /** Unread notifications when the session was read (the sidebar's badge), counted in the same query. */
  unreadNotifications: number;
}

/** Starts a session and returns the token for the cookie; only its hash is stored. */
export async function createSession(db: DbOrTx, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_DAYS * DAY_MS);
  await db.insert(sessions).values({ id: hashToken(token), userId, expiresAt });
  return { token, expiresAt };
}

/**
 * The lookup of every request that carries a session cookie, its SQL built once per database handle rather than for
 * each request (decision 037, 2026-11-27: Drizzle's building was most of the lookup's Node time), and named on
 * PostgreSQL so that it is parsed and planned once a connection (`statementName`, decision 037, session 21; unnamed
 * where the deployment says so, docs/deployment.md). A transaction's handle gets its own, unnamed.
 */
function sessionLookup(db: DbOrTx) {
  const statement = db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      verification: users.verification,
      expiresAt: sessions.expiresAt,
      ngoName: ngoProfiles.name,
      logoKey: ngoProfiles.logoKey,
      donorFirst: donorProfiles.firstName,
      donorPicture: donorProfiles.pictureKey,
      riderFirst: riderProfiles.firstName,
      riderPicture: riderProfiles.pictureKey,
      unread: sql<number>`(select count(*) from ${notifications} where ${unreadOf(users.id)})`.mapWith(Number),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(ngoProfiles, eq(ngoProfiles.userId, users.id))
    .leftJoin(donorProfiles, eq(donorProfiles.userId, users.id))
    .leftJoin(riderProfiles, eq(riderProfiles.userId, users.id))
    .where(and(eq(sessions.id, sql.placeholder("id")), gt(sessions.expiresAt, sql`now()`), isNull(users.suspendedAt)))
    .limit(1);
  return statement.prepare(statementName(db, "session_user", statement));
}

const sessionLookups = new WeakMap<DbOrTx, ReturnType<typeof sessionLookup>>();

/** The signed-in user for a cookie token, or null when the session is unknown, expired or the account suspended. */
export async function findSessionUser(db: DbOrTx, token: string): Promise<SessionUser | null> {
  const id = hashToken(token);
  let lookup = sessionLookups.get(db);
  if (!lookup) sessionLookups.set(db, (lookup = sessionLookup(db)));
  const [row] = await lookup.execute({ id });
  if (!row) return null;
  // Sliding expiry: renew once half the lifetime has passed.
  if (row.expiresAt.getTime() - Date.now() < (SESSION_DAYS / 2) * DAY_MS) {
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() + SESSION_DAYS * DAY_MS) })
      .where(eq(sessions.id, id));
  }
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    verification: row.verification,
    displayName: row.ngoName ?? row.donorFirst ?? row.riderFirst ?? row.email,
    pictureKey: row.logoKey ?? row.donorPicture ?? row.riderPicture ?? null,
    unreadNotifications: row.unread,
  };
}

export async function deleteSession(db: DbOrTx, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, hashToken(token)));
}

/** Ends every session of an account (suspension, password change). `exceptToken` keeps the current one. */
export async function deleteUserSessions(db: DbOrTx, userId: string, exceptToken?: string): Promise<void> {
  const where = exceptToken
    ? and(eq(sessions.userId, userId), sql`${sessions.id} <> ${hashToken(exceptToken)}`)
    : eq(sessions.userId, userId);
  await db.delete(sessions).where(where);
}

/** Removes sessions past their expiry (run by the periodic maintenance, server/maintenance.ts); returns how many. */
export async function deleteExpiredSessions(db: DbOrTx): Promise<number> {
  const removed = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, sql`now()`))
    .returning({ id: sessions.id });
  return removed.length;
}
