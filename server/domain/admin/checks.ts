import { and, desc, eq, inArray, isNull, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { alias } from "drizzle-orm/pg-core";
import type { CheckKind, RegistrationAuthority } from "#shared/statuses.ts";
import { inBadgeOrder, type ShownCheck } from "#shared/checks.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { isUuid } from "#server/db/query.ts";
import { ngoChecks, ngoProfiles, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import type { Actor } from "#server/domain/policy.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { isCalendarDay, pakistanToday } from "#server/domain/dates.ts";
import { conflict, invalid, notFound } from "#server/domain/errors.ts";
import { deleteFile, saveCheckDocument } from "#server/domain/files/files.ts";
import { ngoInGoodStanding } from "#server/domain/volunteering/positions.ts";
import { accountScope, assertMayCheck } from "./policy.ts";

/*
 * What the administrator's vetting of an NGO checked (decision 051): its registration (authority and number), its
 * PCP certification, its tax exemption, each with the day it was checked, who checked it, the last day it is valid and
 * a document the administrator kept. The public is told the standing ones (the badge): a check stands while it is not
 * revoked, not renewed by a newer one, and its last day has not passed, computed on read against Pakistan's day.
 */

type CheckServices = Pick<Services, "db" | "storage">;

/** What a new check says; `document` is the file the administrator kept, if any. */
export interface CheckValues {
  ngoId: string;
  kind: CheckKind;
  authority?: RegistrationAuthority | undefined;
  authorityName?: string | undefined;
  reference: string;
  checkedOn: string;
  expiresOn?: string | undefined;
  document?: File | undefined;
}

/** A renewal: checked again on a day, valid to a new last day, with a new document or the old one. */
export interface RenewalValues {
  checkedOn: string;
  expiresOn?: string | undefined;
  document?: File | undefined;
}

/** A check stands on `today`: not revoked, not renewed, and not past its last day. */
export function standingSql(today: string): SQL {
  return and(
    isNull(ngoChecks.revokedAt),
    isNull(ngoChecks.renewedAt),
    or(isNull(ngoChecks.expiresOn), sql`${ngoChecks.expiresOn} >= ${today}`),
  )!;
}

/** The dates and the authority of a check, by its kind's rules; refusals name their field. */
function checkedDates(kind: CheckKind, values: { checkedOn: string; expiresOn?: string | undefined }, today: string) {
  if (!isCalendarDay(values.checkedOn)) throw invalid("checks.date_invalid", "checkedOn");
  if (values.checkedOn > today) throw invalid("checks.checked_in_future", "checkedOn");
  const expiresOn = values.expiresOn || null;
  if (expiresOn !== null && !isCalendarDay(expiresOn)) throw invalid("checks.date_invalid", "expiresOn");
  // A PCP certificate and an FBR approval are granted for a period; a registration may not lapse.
  if (expiresOn === null && kind !== "registration") throw invalid("checks.expiry_required", "expiresOn");
  if (expiresOn !== null && expiresOn < values.checkedOn) throw invalid("checks.expiry_before_check", "expiresOn");
  return { checkedOn: values.checkedOn, expiresOn };
}

function checkedAuthority(values: CheckValues): { authority: RegistrationAuthority | null; authorityName: string | null } {
  if (values.kind !== "registration") return { authority: null, authorityName: null };
  if (!values.authority) throw invalid("checks.authority_required", "authority");
  if (values.authority !== "other") return { authority: values.authority, authorityName: null };
  const name = values.authorityName?.trim();
  if (!name) throw invalid("checks.authority_name_required", "authorityName");
  return { authority: "other", authorityName: name };
}

/** The NGO a check is recorded for: an NGO account, waiting to be vetted or verified. */
async function assertCheckable(db: DbOrTx, ngoId: string): Promise<void> {
  if (!isUuid(ngoId)) throw notFound();
  const [row] = await db.select({ role: users.role, verification: users.verification }).from(users).where(eq(users.id, ngoId)).limit(1);
  if (!row) throw notFound();
  if (row.role !== "ngo" || row.verification === "rejected") throw invalid("checks.not_an_ngo");
}

/** Stores the document, then runs `write`; a write that fails takes the stored document with it. */
async function withDocument<T>(
  services: CheckServices,
  actor: Actor,
  document: File | undefined,
  write: (documentKey: string | null) => Promise<T>,
): Promise<T> {
  const key =
    document && document.size > 0 ? await saveCheckDocument(services, { file: document, ownerId: actor.id, field: "document" }) : null;
  try {
    return await write(key);
  } catch (err) {
    await deleteFile(services, key);
    throw err;
  }
}

/** Records a check of an NGO, with its audit entry, in one transaction. Returns its id. */
export async function recordCheck(services: CheckServices, actor: Actor, values: CheckValues, now = new Date()): Promise<string> {
  assertMayCheck(actor, values.ngoId, "record");
  const reference = values.reference.trim();
  if (!reference) throw invalid("checks.reference_required", "reference");
  const authority = checkedAuthority(values);
  const dates = checkedDates(values.kind, values, pakistanToday(now));
  await assertCheckable(services.db, values.ngoId);
  return withDocument(services, actor, values.document, (documentKey) =>
    services.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(ngoChecks)
        .values({ ngoId: values.ngoId, kind: values.kind, ...authority, reference, ...dates, documentKey, checkedBy: actor.id })
        .returning({ id: ngoChecks.id });
      await recordAudit(tx, {
        actorId: actor.id,
        action: "check.recorded",
        targetUserId: values.ngoId,
        details: { checkId: row!.id, kind: values.kind, reference, expiresOn: dates.expiresOn },
      });
      return row!.id;
    }),
  );
}

/** Why a guarded change of a check changed nothing: no such check, or it was renewed or revoked already. */
async function explainCheck(db: DbOrTx, checkId: string): Promise<never> {
  const [row] = await db.select({ id: ngoChecks.id }).from(ngoChecks).where(eq(ngoChecks.id, checkId)).limit(1);
  if (!row) throw notFound();
  throw conflict("checks.not_current");
}

/**
 * Renews a check: a new row with the same kind, authority and number, checked on a new day and valid to a new last
 * day, which ends the old one. Of two renewals at once exactly one applies; the other is told the check moved on.
 * Returns the new check's id.
 */
export async function renewCheck(
  services: CheckServices,
  actor: Actor,
  checkId: string,
  values: RenewalValues,
  now = new Date(),
): Promise<string> {
  // The steps on checks are the administrator's, whatever the NGO: refused before the check is looked up.
  assertMayCheck(actor, "", "renew");
  if (!isUuid(checkId)) throw notFound();
  const [old] = await services.db.select().from(ngoChecks).where(eq(ngoChecks.id, checkId)).limit(1);
  if (!old) throw notFound();
  const dates = checkedDates(old.kind, values, pakistanToday(now));
  const renewed = await withDocument(services, actor, values.document, (documentKey) =>
    services.db.transaction(async (tx) => {
      const [ended] = await tx
        .update(ngoChecks)
        .set({ renewedAt: sql`now()` })
        .where(and(eq(ngoChecks.id, checkId), isNull(ngoChecks.revokedAt), isNull(ngoChecks.renewedAt)))
        .returning({ id: ngoChecks.id });
      if (!ended) return null;
      const [row] = await tx
        .insert(ngoChecks)
        .values({
          ngoId: old.ngoId,
          kind: old.kind,
          authority: old.authority,
          authorityName: old.authorityName,
          reference: old.reference,
          ...dates,
          documentKey: documentKey ?? old.documentKey,
          checkedBy: actor.id,
        })
        .returning({ id: ngoChecks.id });
      await recordAudit(tx, {
        actorId: actor.id,
        action: "check.renewed",
        targetUserId: old.ngoId,
        details: { checkId: row!.id, renews: checkId, kind: old.kind, expiresOn: dates.expiresOn },
      });
      return row!.id;
    }),
  );
  return renewed ?? explainCheck(services.db, checkId);
}

/** Revokes a check with the administrator's reason: the badge loses it at once. Only a current check changes, once. */
export async function revokeCheck(services: Pick<Services, "db">, actor: Actor, checkId: string, reason: string): Promise<void> {
  assertMayCheck(actor, "", "revoke");
  const text = reason.trim();
  if (!text) throw invalid("validation.reason_required", "reason");
  if (!isUuid(checkId)) throw notFound();
  const done = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(ngoChecks)
      .set({ revokedAt: sql`now()`, revokedBy: actor.id, revokedReason: text })
      .where(and(eq(ngoChecks.id, checkId), isNull(ngoChecks.revokedAt), isNull(ngoChecks.renewedAt)))
      .returning({ id: ngoChecks.id, ngoId: ngoChecks.ngoId, kind: ngoChecks.kind });
    if (!row) return false;
    await recordAudit(tx, {
      actorId: actor.id,
      action: "check.revoked",
      targetUserId: row.ngoId,
      details: { checkId, kind: row.kind, reason: text },
    });
    return true;
  });
  if (!done) await explainCheck(services.db, checkId);
}

/** Where a check stands on a day, for the administrator's list. */
export type CheckState = "standing" | "expired" | "renewed" | "revoked";

export interface AdminCheck extends ShownCheck {
  id: string;
  state: CheckState;
  documentKey: string | null;
  checkedByEmail: string | null;
  revokedAt: Date | null;
  revokedByEmail: string | null;
  revokedReason: string | null;
}

const checkedBy = alias(users, "checked_by_user");
const revokedBy = alias(users, "revoked_by_user");

function stateOf(row: { revokedAt: Date | null; renewedAt: Date | null; expiresOn: string | null }, today: string): CheckState {
  if (row.revokedAt) return "revoked";
  if (row.renewedAt) return "renewed";
  return row.expiresOn !== null && row.expiresOn < today ? "expired" : "standing";
}

/** The checks of these NGOs as the administrator reads them, newest first; `current` leaves out renewed and revoked ones. */
async function adminChecks(db: DbOrTx, actor: Actor, ngoIds: string[], now: Date, current: boolean): Promise<Map<string, AdminCheck[]>> {
  const result = new Map<string, AdminCheck[]>(ngoIds.map((id) => [id, []]));
  if (ngoIds.length === 0) return result;
  const today = pakistanToday(now);
  const rows = await db
    .select({
      check: ngoChecks,
      checkedByEmail: checkedBy.email,
      revokedByEmail: revokedBy.email,
    })
    .from(ngoChecks)
    .innerJoin(users, eq(users.id, ngoChecks.ngoId))
    .leftJoin(checkedBy, eq(checkedBy.id, ngoChecks.checkedBy))
    .leftJoin(revokedBy, eq(revokedBy.id, ngoChecks.revokedBy))
    .where(
      and(
        inArray(ngoChecks.ngoId, ngoIds),
        accountScope(actor, "checks"),
        current ? and(isNull(ngoChecks.revokedAt), isNull(ngoChecks.renewedAt)) : undefined,
      ),
    )
    .orderBy(desc(ngoChecks.checkedOn), desc(ngoChecks.createdAt));
  for (const { check: c, checkedByEmail, revokedByEmail } of rows) {
    result.get(c.ngoId)?.push({
      id: c.id,
      kind: c.kind,
      authority: c.authority,
      authorityName: c.authorityName,
      reference: c.reference,
      checkedOn: c.checkedOn,
      expiresOn: c.expiresOn,
      state: stateOf(c, today),
      documentKey: c.documentKey,
      checkedByEmail,
      revokedAt: c.revokedAt,
      revokedByEmail,
      revokedReason: c.revokedReason,
    });
  }
  return result;
}

export interface NgoChecks {
  ngo: { id: string; name: string; verification: "pending" | "verified" | "rejected"; suspended: boolean };
  checks: AdminCheck[];
}

/** An NGO's checks for the administrator (/admin/ngos/:id/checks): every one, revoked, renewed and expired ones too. */
export async function checksOfNgo(db: DbOrTx, actor: Actor, ngoId: string, now = new Date()): Promise<NgoChecks> {
  if (!isUuid(ngoId)) throw notFound();
  const [ngo] = await db
    .select({ id: users.id, name: ngoProfiles.name, verification: users.verification, suspendedAt: users.suspendedAt })
    .from(users)
    .innerJoin(ngoProfiles, eq(ngoProfiles.userId, users.id))
    .where(and(eq(users.id, ngoId), eq(users.role, "ngo"), accountScope(actor, "checks")))
    .limit(1);
  if (!ngo) throw notFound();
  const checks = (await adminChecks(db, actor, [ngoId], now, false)).get(ngoId) ?? [];
  return { ngo: { id: ngo.id, name: ngo.name, verification: ngo.verification, suspended: ngo.suspendedAt !== null }, checks };
}

/** The current checks (not renewed or revoked; expired ones marked) of several NGOs: the vetting screen's, one query. */
export function currentChecks(db: DbOrTx, actor: Actor, ngoIds: string[], now = new Date()): Promise<Map<string, AdminCheck[]>> {
  return adminChecks(db, actor, ngoIds, now, true);
}

/**
 * The standing checks of these NGOs, as anyone may read them (the full badge of the profile and the campaign page),
 * in the badge's order; only NGOs whose profile is public (verified, not suspended) have any. One query.
 */
export async function standingChecks(db: DbOrTx, ngoIds: string[], now = new Date()): Promise<Map<string, ShownCheck[]>> {
  const result = new Map<string, ShownCheck[]>(ngoIds.map((id) => [id, []]));
  const ids = ngoIds.filter(isUuid);
  if (ids.length === 0) return result;
  const rows = await db
    .select({
      ngoId: ngoChecks.ngoId,
      kind: ngoChecks.kind,
      authority: ngoChecks.authority,
      authorityName: ngoChecks.authorityName,
      reference: ngoChecks.reference,
      checkedOn: ngoChecks.checkedOn,
      expiresOn: ngoChecks.expiresOn,
    })
    .from(ngoChecks)
    .innerJoin(users, eq(users.id, ngoChecks.ngoId))
    .where(and(inArray(ngoChecks.ngoId, ids), standingSql(pakistanToday(now)), ngoInGoodStanding));
  for (const { ngoId, ...c } of rows) result.get(ngoId)?.push(c);
  for (const [id, list] of result) result.set(id, inBadgeOrder(list));
  return result;
}

/**
 * The kinds of standing check the NGO in `ngoId` (a column of the query it is part of, a campaign's owner) has, as a
 * column: a card's compact badge is read with its card, so a page of cards stays one query (decision 051).
 */
export function standingKindsColumn(ngoId: AnyPgColumn, now = new Date()) {
  return standingKindsColumnOn(ngoId, pakistanToday(now));
}

/**
 * `standingKindsColumn` on a Pakistan calendar day given as a value or as a placeholder (the day a prepared statement
 * is run on: the picker's, donations/picker.ts).
 */
export function standingKindsColumnOn(ngoId: AnyPgColumn, today: string | Placeholder) {
  return sql<CheckKind[]>`(select coalesce(json_agg(distinct nc.kind), '[]'::json) from ${ngoChecks} nc
    where nc.ngo_id = ${ngoId} and nc.revoked_at is null and nc.renewed_at is null
      and (nc.expires_on is null or nc.expires_on >= ${today}))`;
}

/**
 * Each NGO's tax-exemption reference (FBR's approval under section 2(36)) for a donor's statement of a period: the
 * newest check of that kind that was valid during some of it (checked on or before its last day, not lapsed before
 * its first, never revoked; a check renewed since still speaks for its own time). A statement of a past year names
 * the approval the platform had checked then, not today's, and an NGO whose approval lapsed since keeps it on the
 * years it covered. An NGO without one is not in the map. Whether the NGO is suspended now does not matter: the
 * statement tells the donor about gifts already made. `period` is Pakistan calendar days, both included.
 */
export async function taxExemptionReferences(
  db: DbOrTx,
  ngoIds: string[],
  period: { from: string; to: string },
): Promise<Map<string, string>> {
  const ids = [...new Set(ngoIds.filter(isUuid))];
  const result = new Map<string, string>();
  if (ids.length === 0) return result;
  const rows = await db
    .select({ ngoId: ngoChecks.ngoId, reference: ngoChecks.reference })
    .from(ngoChecks)
    .where(
      and(
        inArray(ngoChecks.ngoId, ids),
        eq(ngoChecks.kind, "tax_exemption"),
        isNull(ngoChecks.revokedAt),
        sql`${ngoChecks.checkedOn} <= ${period.to}`,
        or(isNull(ngoChecks.expiresOn), sql`${ngoChecks.expiresOn} >= ${period.from}`),
      ),
    )
    .orderBy(desc(ngoChecks.checkedOn), desc(ngoChecks.createdAt));
  for (const r of rows) if (!result.has(r.ngoId)) result.set(r.ngoId, r.reference);
  return result;
}
