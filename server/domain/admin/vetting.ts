import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { PAGE_SIZE, REASON_MAX_LENGTH } from "#shared/constants.ts";
import { ROLE_HOME, ROLE_SIGN_IN } from "#shared/roles.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid, likePattern, paged, pageOffset, searchTerm } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { ngoProfiles, riderProfiles, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { deleteUserSessions } from "#server/domain/accounts/sessions.ts";
import type { Actor } from "#server/domain/policy.ts";
import { accountScope, assertMaySuspend, assertMayVet, suspensionFrom } from "./policy.ts";
import { verificationStates } from "#server/domain/accounts/states.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { conflict, forbidden, invalid, notFound, type ErrorCode } from "#server/domain/errors.ts";
import { appLink, mailUser, notify } from "#server/domain/notifications/notifications.ts";

/** The roles the administrator vets. */
export type VettedRole = "ngo" | "rider";
type AdminServices = Pick<Services, "db" | "mailer" | "config" | "log">;

/** A malformed id would make PostgreSQL throw; it simply names no account. */
function assertUserId(userId: string) {
  if (!isUuid(userId)) throw notFound();
}

export interface PendingNgo {
  id: string;
  email: string;
  createdAt: Date;
  /** When the applicant corrected a rejected sign-up and sent it again, if it did. */
  resubmittedAt: Date | null;
  name: string;
  address: string;
  registrationNumber: string;
  contactNumber: string;
  logoKey: string | null;
}

export interface PendingRider {
  id: string;
  email: string;
  createdAt: Date;
  resubmittedAt: Date | null;
  firstName: string;
  lastName: string;
  contactNumber: string;
  cnic: string;
  pictureKey: string | null;
}

/** Sign-ups waiting for a decision, oldest first (a queue), with every field the applicant gave. */
export async function listPending(db: DbOrTx, actor: Actor, role: "ngo", page: number): Promise<Paged<PendingNgo>>;
export async function listPending(db: DbOrTx, actor: Actor, role: "rider", page: number): Promise<Paged<PendingRider>>;
export async function listPending(db: DbOrTx, actor: Actor, role: VettedRole, page: number): Promise<Paged<PendingNgo | PendingRider>> {
  // Waiting: the states the administrator's decisions move from (states.ts), read as the administrator may.
  const pending = and(
    eq(users.role, role),
    inArray(users.verification, verificationStates.fromStates("accept")),
    accountScope(actor, "queue"),
  );
  if (role === "ngo") {
    const [total] = await db.select({ n: count() }).from(users).innerJoin(ngoProfiles, eq(ngoProfiles.userId, users.id)).where(pending);
    const rows = await db
      .select({
        id: users.id,
        email: users.email,
        createdAt: users.createdAt,
        resubmittedAt: users.resubmittedAt,
        name: ngoProfiles.name,
        address: ngoProfiles.address,
        registrationNumber: ngoProfiles.registrationNumber,
        contactNumber: ngoProfiles.contactNumber,
        logoKey: ngoProfiles.logoKey,
      })
      .from(users)
      .innerJoin(ngoProfiles, eq(ngoProfiles.userId, users.id))
      .where(pending)
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(PAGE_SIZE)
      .offset(pageOffset(page));
    return paged(rows, page, total?.n ?? 0);
  }
  const [total] = await db.select({ n: count() }).from(users).innerJoin(riderProfiles, eq(riderProfiles.userId, users.id)).where(pending);
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      createdAt: users.createdAt,
      resubmittedAt: users.resubmittedAt,
      firstName: riderProfiles.firstName,
      lastName: riderProfiles.lastName,
      contactNumber: riderProfiles.contactNumber,
      cnic: riderProfiles.cnic,
      pictureKey: riderProfiles.pictureKey,
    })
    .from(users)
    .innerJoin(riderProfiles, eq(riderProfiles.userId, users.id))
    .where(pending)
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(rows, page, total?.n ?? 0);
}

/** The NGO's name or the rider's full name, for messages. */
const displayName = sql<string>`coalesce(${ngoProfiles.name}, ${riderProfiles.firstName} || ' ' || ${riderProfiles.lastName}, ${users.email})`;

async function accountForMail(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ role: users.role, name: displayName })
    .from(users)
    .leftJoin(ngoProfiles, eq(ngoProfiles.userId, users.id))
    .leftJoin(riderProfiles, eq(riderProfiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** Why a conditional update changed nothing: no such account, or its state had already moved on. */
async function explainNoChange(db: DbOrTx, userId: string, code: ErrorCode): Promise<never> {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw notFound();
  throw conflict(code);
}

/**
 * Moves a pending NGO or rider to its decided state. The update only applies while the account is
 * still pending, so of several concurrent decisions exactly one changes it and writes the audit entry.
 * Returns the account's details for telling the user, after the transaction has committed.
 */
async function decide(
  services: AdminServices,
  actor: Actor,
  userId: string,
  decision: { verification: "verified" | "rejected"; reason: string | null },
  tell: (told: AdminServices, account: NonNullable<Awaited<ReturnType<typeof accountForMail>>>) => Promise<void>,
): Promise<void> {
  const decided = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({
        verification: decision.verification,
        rejectionReason: decision.reason,
        // The vetting record the NGO's public profile shows: when the platform accepted it.
        verifiedAt: decision.verification === "verified" ? sql`now()` : null,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(users.id, userId),
          inArray(users.verification, verificationStates.fromStates(decision.verification === "verified" ? "accept" : "reject")),
          inArray(users.role, ["ngo", "rider"]),
        ),
      )
      .returning({ id: users.id });
    if (!row) return null;
    await recordAudit(tx, {
      actorId: actor.id,
      action: decision.verification === "verified" ? "account.accepted" : "account.rejected",
      targetUserId: userId,
      details: decision.reason ? { reason: decision.reason } : {},
    });
    // Told in the decision's transaction (decision 042): the notice and its mail exist exactly when it commits.
    const account = await accountForMail(tx, userId);
    if (account) await tell({ ...services, db: tx }, account);
    return row;
  });
  if (!decided) return explainNoChange(services.db, userId, "admin.already_decided");
}

/** Verifies a pending NGO or rider and tells them. */
export async function accept(services: AdminServices, actor: Actor, userId: string): Promise<void> {
  assertMayVet(actor, userId, "accept");
  assertUserId(userId);
  await decide(services, actor, userId, { verification: "verified", reason: null }, (told, account) =>
    notify(told, {
      userId,
      type: "accountAccepted",
      params: { name: account.name },
      link: ROLE_HOME[account.role],
      email: {
        subject: "mail:accepted.subject",
        body: "mail:accepted.body",
        params: { name: account.name, signInUrl: appLink(services.config, ROLE_SIGN_IN[account.role]) },
        keyParams: { role: `common:roles.${account.role}` },
      },
    }),
  );
}

/** The reason a decision needs: trimmed, present, not too long. */
export function checkReason(reason: string | null | undefined): string {
  const text = (reason ?? "").trim();
  if (!text) throw invalid("validation.reason_required", "reason");
  if (text.length > REASON_MAX_LENGTH) throw invalid("validation.too_long", "reason");
  return text;
}

/**
 * Rejects a pending NGO or rider with a reason the applicant sees. They may still sign in, to correct
 * their details and re-submit; the email says so.
 */
export async function reject(services: AdminServices, actor: Actor, userId: string, reason: string): Promise<void> {
  assertMayVet(actor, userId, "reject");
  const text = checkReason(reason);
  assertUserId(userId);
  await decide(services, actor, userId, { verification: "rejected", reason: text }, (told, account) =>
    notify(told, {
      userId,
      type: "accountRejected",
      params: { reason: text },
      link: "/resubmit",
      email: {
        subject: "mail:rejected.subject",
        body: "mail:rejected.body",
        params: { name: account.name, reason: text, signInUrl: appLink(services.config, ROLE_SIGN_IN[account.role]) },
      },
    }),
  );
}

export interface AccountRow {
  id: string;
  email: string;
  role: "ngo" | "rider";
  name: string;
  contactNumber: string;
  verification: "pending" | "verified" | "rejected";
  suspendedAt: Date | null;
  createdAt: Date;
}

/** All NGOs or all riders, whatever their state, by name; optionally filtered by name or email. */
export async function listAccounts(db: DbOrTx, actor: Actor, role: VettedRole, page: number, search?: string): Promise<Paged<AccountRow>> {
  const q = searchTerm(search);
  const name =
    role === "ngo" ? sql<string>`${ngoProfiles.name}` : sql<string>`${riderProfiles.firstName} || ' ' || ${riderProfiles.lastName}`;
  const contact = role === "ngo" ? ngoProfiles.contactNumber : riderProfiles.contactNumber;
  const conditions: SQL[] = [eq(users.role, role), accountScope(actor, "accounts")];
  if (q) conditions.push(or(ilike(users.email, likePattern(q)), ilike(name, likePattern(q)))!);
  const where = and(...conditions);
  const base = () =>
    role === "ngo"
      ? db.select({ n: count() }).from(users).innerJoin(ngoProfiles, eq(ngoProfiles.userId, users.id))
      : db.select({ n: count() }).from(users).innerJoin(riderProfiles, eq(riderProfiles.userId, users.id));
  const [total] = await base().where(where);
  const select = {
    id: users.id,
    email: users.email,
    role: sql<"ngo" | "rider">`${users.role}`,
    name,
    contactNumber: contact,
    verification: users.verification,
    suspendedAt: users.suspendedAt,
    createdAt: users.createdAt,
  };
  const query =
    role === "ngo"
      ? db.select(select).from(users).innerJoin(ngoProfiles, eq(ngoProfiles.userId, users.id))
      : db.select(select).from(users).innerJoin(riderProfiles, eq(riderProfiles.userId, users.id));
  const rows = await query
    .where(where)
    .orderBy(sql`lower(${name})`, asc(users.id))
    .limit(PAGE_SIZE)
    .offset(pageOffset(page));
  return paged(rows, page, total?.n ?? 0);
}

/**
 * Suspends an account and ends all its sessions at once, in one transaction. Administrators cannot be
 * suspended. Only an active account changes, so a repeated click does nothing twice.
 */
export async function suspend(services: AdminServices, actor: Actor, userId: string): Promise<void> {
  assertMaySuspend(actor, userId, "suspend");
  assertUserId(userId);
  const done = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ suspendedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(users.id, userId), suspensionFrom("suspend"), ne(users.role, "admin")))
      .returning({ id: users.id });
    if (!row) return null;
    await deleteUserSessions(tx, userId);
    await recordAudit(tx, { actorId: actor.id, action: "account.suspended", targetUserId: userId });
    const account = await accountForMail(tx, userId);
    // No in-app notification: a suspended account cannot sign in to read it. The mail is queued with the change.
    if (account) {
      await mailUser({ ...services, db: tx }, userId, {
        subject: "mail:suspended.subject",
        body: "mail:suspended.body",
        params: { name: account.name },
      });
    }
    return row;
  });
  if (done) return;
  const [row] = await services.db.select({ role: users.role }).from(users).where(eq(users.id, userId)).limit(1);
  if (!row) throw notFound();
  if (row.role === "admin") throw forbidden("admin.cannot_suspend_admin");
  throw conflict("admin.already_suspended");
}

/** Lifts a suspension; the user signs in again as usual. */
export async function restore(services: AdminServices, actor: Actor, userId: string): Promise<void> {
  assertMaySuspend(actor, userId, "restore");
  assertUserId(userId);
  const done = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ suspendedAt: null, updatedAt: sql`now()` })
      .where(and(eq(users.id, userId), suspensionFrom("restore")))
      .returning({ id: users.id });
    if (!row) return null;
    await recordAudit(tx, { actorId: actor.id, action: "account.restored", targetUserId: userId });
    const account = await accountForMail(tx, userId);
    if (account) {
      await notify(
        { ...services, db: tx },
        {
          userId,
          type: "accountRestored",
          link: ROLE_HOME[account.role],
          email: {
            subject: "mail:restored.subject",
            body: "mail:restored.body",
            params: { name: account.name, signInUrl: appLink(services.config, ROLE_SIGN_IN[account.role]) },
          },
        },
      );
    }
    return row;
  });
  if (!done) return explainNoChange(services.db, userId, "admin.not_suspended");
}
