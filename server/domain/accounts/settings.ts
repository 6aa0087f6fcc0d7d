import { eq, sql } from "drizzle-orm";
import type * as z from "zod/mini";
import {
  ngoContactSchema,
  ngoNameSchema,
  passwordChangeSchema,
  paymentSchema,
  personNameSchema,
  riderAreaSchema,
  type NgoContactInput,
  type NgoNameInput,
  type PasswordChangeInput,
  type PaymentInput,
  type PersonNameInput,
  type RiderAreaInput,
} from "#shared/forms/settings.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { PAYMENT_METHODS } from "#shared/constants.ts";
import { formatDateTime } from "#shared/format.ts";
import type { Db, DbOrTx } from "#server/db/client.ts";
import { donorProfiles, ngoProfiles, riderProfiles, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { forbidden, invalid, notFound, invalidInput } from "#server/domain/errors.ts";
import { deleteFile, saveImage } from "#server/domain/files/files.ts";
import { resolvePlace } from "#server/domain/places/resolve.ts";
import { hitRateLimit } from "#server/domain/rate-limit.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { appLink, notify, tellWithin } from "#server/domain/notifications/notifications.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import {
  PAYMENT_CHANGE_AUDIT_ACTION,
  PAYMENT_CHANGE_NOTICE_HOURS,
  paymentChangeDetails,
  paymentChanges,
  type PaymentAccounts,
  type PaymentChange,
} from "./payment-guard.ts";
import { deleteUserSessions, type SessionUser } from "./sessions.ts";

/**
 * Settings: every function here changes only the actor's own account. None takes a user id, so a
 * request can never reach another person's profile.
 */

export const PASSWORD_CHANGE_LIMIT = 10;
export const PASSWORD_CHANGE_WINDOW_SECONDS = 15 * 60;

/** Checks input again on the server (the forms already did): the first problem becomes a field error. */
function parse<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalidInput(issue.message, issue.path[0] === undefined ? undefined : String(issue.path[0]));
}

type PersonRole = "donor" | "rider";

function personTable(role: PersonRole) {
  return role === "donor" ? donorProfiles : riderProfiles;
}

function requirePerson(actor: SessionUser): PersonRole {
  if (actor.role !== "donor" && actor.role !== "rider") throw forbidden();
  return actor.role;
}

function requireNgo(actor: SessionUser): void {
  if (actor.role !== "ngo") throw forbidden();
}

export interface NgoSettings {
  name: string;
  address: string;
  contactNumber: string;
  logoKey: string | null;
  jazzcashNumber: string | null;
  easypaisaNumber: string | null;
  bankName: string | null;
  bankAccountTitle: string | null;
  bankAccountNumber: string | null;
}

export interface PersonSettings {
  firstName: string;
  lastName: string;
  pictureKey: string | null;
}

/** What the NGO settings screen shows. */
export async function ngoSettings(db: DbOrTx, actor: SessionUser): Promise<NgoSettings> {
  requireNgo(actor);
  const [row] = await db
    .select({
      name: ngoProfiles.name,
      address: ngoProfiles.address,
      contactNumber: ngoProfiles.contactNumber,
      logoKey: ngoProfiles.logoKey,
      jazzcashNumber: ngoProfiles.jazzcashNumber,
      easypaisaNumber: ngoProfiles.easypaisaNumber,
      bankName: ngoProfiles.bankName,
      bankAccountTitle: ngoProfiles.bankAccountTitle,
      bankAccountNumber: ngoProfiles.bankAccountNumber,
    })
    .from(ngoProfiles)
    .where(eq(ngoProfiles.userId, actor.id))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** What the donor settings or rider profile screen shows. */
export async function personSettings(db: DbOrTx, actor: SessionUser): Promise<PersonSettings> {
  const table = personTable(requirePerson(actor));
  const [row] = await db
    .select({ firstName: table.firstName, lastName: table.lastName, pictureKey: table.pictureKey })
    .from(table)
    .where(eq(table.userId, actor.id))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function changeNgoName(db: DbOrTx, actor: SessionUser, input: NgoNameInput): Promise<void> {
  requireNgo(actor);
  const { name } = parse(ngoNameSchema, input);
  await db.update(ngoProfiles).set({ name }).where(eq(ngoProfiles.userId, actor.id));
}

/** The NGO's address and contact number, shown on its receipts, posters and to the riders who deliver to it. */
export async function changeNgoContact(db: DbOrTx, actor: SessionUser, input: NgoContactInput): Promise<void> {
  requireNgo(actor);
  const { address, contactNumber } = parse(ngoContactSchema, input);
  await db.update(ngoProfiles).set({ address, contactNumber }).where(eq(ngoProfiles.userId, actor.id));
}

export async function changePersonName(db: DbOrTx, actor: SessionUser, input: PersonNameInput): Promise<void> {
  const table = personTable(requirePerson(actor));
  const { firstName, lastName } = parse(personNameSchema, input);
  await db.update(table).set({ firstName, lastName }).where(eq(table.userId, actor.id));
}

/** Remembers the language the actor switched to: their emails are written in it from now on. */
export async function changeLanguage(db: DbOrTx, actor: SessionUser, language: Lang): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, actor.id));
}

/**
 * Checks the actor's current password before a guarded change (the password itself, the payment accounts).
 * Attempts are counted per account before the check, under one key for every form that asks, so the forms
 * together give no more guesses than one: a wrong password is refused under the `currentPassword` field.
 */
async function confirmCurrentPassword(db: DbOrTx, actor: SessionUser, currentPassword: string): Promise<void> {
  await hitRateLimit(db, `pwchange:${actor.id}`, PASSWORD_CHANGE_LIMIT, PASSWORD_CHANGE_WINDOW_SECONDS);
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, actor.id)).limit(1);
  if (!row) throw notFound();
  if (!(await verifyPassword(row.passwordHash, currentPassword))) {
    throw invalid("validation.current_password_wrong", "currentPassword");
  }
}

/**
 * Changes the actor's password after checking the current one. Attempts are counted per account before
 * the check, so the form cannot be used to guess the password. Every other session of the account ends;
 * the one making the change (`keepSessionToken`) stays signed in.
 */
export async function changePassword(
  db: Db,
  actor: SessionUser,
  input: PasswordChangeInput & { keepSessionToken: string | null },
): Promise<void> {
  const { currentPassword, newPassword } = parse(passwordChangeSchema, input);
  await confirmCurrentPassword(db, actor, currentPassword);
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, updatedAt: sql`now()` })
      .where(eq(users.id, actor.id));
    await deleteUserSessions(tx, actor.id, input.keepSessionToken ?? undefined);
  });
}

/** The profile table and column holding the actor's picture (an NGO's logo, a person's avatar). */
function pictureTarget(actor: SessionUser) {
  if (actor.role === "ngo") return { table: ngoProfiles, column: ngoProfiles.logoKey, kind: "logo" as const };
  const table = personTable(requirePerson(actor));
  return { table, column: table.pictureKey, kind: "avatar" as const };
}

/**
 * Points the actor's profile at a new picture key (or none) and returns the key it replaced. The row is
 * locked while it is read and changed, so two uploads at once cannot both keep the same old key and leak one file.
 */
async function swapPictureKey(db: Db, actor: SessionUser, key: string | null): Promise<string | null> {
  const { table, column } = pictureTarget(actor);
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ old: column }).from(table).where(eq(table.userId, actor.id)).for("update").limit(1);
    if (!row) throw notFound();
    if (actor.role === "ngo") await tx.update(ngoProfiles).set({ logoKey: key }).where(eq(ngoProfiles.userId, actor.id));
    else if (actor.role === "donor") await tx.update(donorProfiles).set({ pictureKey: key }).where(eq(donorProfiles.userId, actor.id));
    else await tx.update(riderProfiles).set({ pictureKey: key }).where(eq(riderProfiles.userId, actor.id));
    return row.old;
  });
}

/** Stores a new logo or profile picture (checked and re-encoded by saveImage) and deletes the old file. */
export async function changePicture(
  services: Pick<Services, "db" | "storage">,
  actor: SessionUser,
  input: { picture: File },
): Promise<string> {
  const { kind } = pictureTarget(actor);
  const key = await saveImage(services, { file: input.picture, kind, ownerId: actor.id, field: "picture" });
  let old: string | null;
  try {
    old = await swapPictureKey(services.db, actor, key);
  } catch (err) {
    await deleteFile(services, key);
    throw err;
  }
  await deleteFile(services, old);
  return key;
}

/** Removes the logo or picture; the default picture stands in. */
export async function removePicture(services: Pick<Services, "db" | "storage">, actor: SessionUser): Promise<void> {
  const old = await swapPictureKey(services.db, actor, null);
  await deleteFile(services, old);
}

export interface PaymentUpdate {
  /** False when the saved accounts were already these (after normalisation): nothing was written or sent. */
  changed: boolean;
  changes: PaymentChange[];
}

/**
 * The NGO's receiving accounts, shown to donors on the payment screen. An empty field clears that account.
 * Guarded (decision 024): the current password is checked first (counted like the password change), and only
 * a real change is written: the accounts, `payment_changed_at` (donors are told for a day) and the audit entry
 * (masked endings only) in one transaction on the locked profile row, with the NGO's notice in the app and by
 * email (decision 042: a notice that fails for a reason other than the database's is logged, never undoing it).
 */
export async function updatePaymentAccounts(
  services: Pick<Services, "db" | "mailer" | "config" | "log">,
  actor: SessionUser,
  input: PaymentInput,
): Promise<PaymentUpdate> {
  requireNgo(actor);
  const { db } = services;
  const { currentPassword, ...values } = parse(paymentSchema, input);
  await confirmCurrentPassword(db, actor, currentPassword);
  const next: PaymentAccounts = {
    jazzcashNumber: values.jazzcashNumber ?? null,
    easypaisaNumber: values.easypaisaNumber ?? null,
    bankName: values.bankName ?? null,
    bankAccountTitle: values.bankAccountTitle ?? null,
    bankAccountNumber: values.bankAccountNumber ?? null,
  };

  const outcome = await db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        jazzcashNumber: ngoProfiles.jazzcashNumber,
        easypaisaNumber: ngoProfiles.easypaisaNumber,
        bankName: ngoProfiles.bankName,
        bankAccountTitle: ngoProfiles.bankAccountTitle,
        bankAccountNumber: ngoProfiles.bankAccountNumber,
      })
      .from(ngoProfiles)
      .where(eq(ngoProfiles.userId, actor.id))
      .for("update")
      .limit(1);
    if (!current) throw notFound();
    const changes = paymentChanges(current, next);
    if (changes.length === 0) return { changes, changedAt: null };
    const [row] = await tx
      .update(ngoProfiles)
      .set({ ...next, paymentChangedAt: sql`now()` })
      .where(eq(ngoProfiles.userId, actor.id))
      .returning({ changedAt: ngoProfiles.paymentChangedAt });
    await recordAudit(tx, {
      actorId: actor.id,
      action: PAYMENT_CHANGE_AUDIT_ACTION,
      targetUserId: actor.id,
      details: paymentChangeDetails(changes),
    });
    await tellNgoOfPaymentChange({ ...services, db: tx }, actor, changes, row!.changedAt!);
    return { changes, changedAt: row!.changedAt! };
  });

  return { changed: outcome.changedAt !== null, changes: outcome.changes };
}

/** The mail's word for each method: what happened to it, or that it stayed as it was. */
const MAIL_CHANGE_KEYS = {
  added: "settings:mail.paymentChanged.status.added",
  changed: "settings:mail.paymentChanged.status.changed",
  removed: "settings:mail.paymentChanged.status.removed",
  unchanged: "settings:mail.paymentChanged.status.unchanged",
} as const;

/**
 * Tells the NGO its accounts changed, in the app and by email (which accounts, when, and what to do if it was
 * not them). Runs in the change's transaction, by the rule of `notify`.
 */
async function tellNgoOfPaymentChange(
  services: Pick<Services, "db" | "mailer" | "config" | "log">,
  actor: SessionUser,
  changes: PaymentChange[],
  changedAt: Date,
): Promise<void> {
  await tellWithin(services, { ngoId: actor.id }, async () => {
    const [account] = await services.db.select({ language: users.language }).from(users).where(eq(users.id, actor.id)).limit(1);
    const keyParams: Record<string, string> = {};
    for (const method of PAYMENT_METHODS) {
      keyParams[method] = MAIL_CHANGE_KEYS[changes.find((c) => c.method === method)?.change ?? "unchanged"];
    }
    await notify(services, {
      userId: actor.id,
      type: "paymentAccountsChanged",
      params: { hours: String(PAYMENT_CHANGE_NOTICE_HOURS) },
      link: "/settingsNGO",
      email: {
        subject: "settings:mail.paymentChanged.subject",
        body: "settings:mail.paymentChanged.body",
        params: {
          name: actor.displayName,
          when: formatDateTime(changedAt, account?.language ?? "en").text,
          hours: String(PAYMENT_CHANGE_NOTICE_HOURS),
          link: appLink(services.config, "/settingsNGO"),
        },
        keyParams,
      },
    });
  });
}

export interface RiderArea {
  label: string;
  labelUr: string | null;
  lat: number;
  lng: number;
}

function requireRider(actor: SessionUser): void {
  if (actor.role !== "rider") throw forbidden();
}

/** The rider's area (where it usually starts from), or null when none is set. */
export async function findRiderArea(db: DbOrTx, actor: SessionUser): Promise<RiderArea | null> {
  requireRider(actor);
  const [row] = await db
    .select({ label: riderProfiles.areaLabel, labelUr: riderProfiles.areaLabelUr, lat: riderProfiles.areaLat, lng: riderProfiles.areaLng })
    .from(riderProfiles)
    .where(eq(riderProfiles.userId, actor.id))
    .limit(1);
  if (!row) throw notFound();
  return row.label !== null && row.lat !== null && row.lng !== null
    ? { label: row.label, labelUr: row.labelUr, lat: row.lat, lng: row.lng }
    : null;
}

/**
 * Sets the rider's area from a place the geocoder knows (a point adjusted on the map wins when it lies in
 * Pakistan). NGOs choosing a rider see the nearest first, measured from this point.
 */
export async function setRiderArea(
  services: Pick<Services, "db" | "geocoder">,
  actor: SessionUser,
  input: RiderAreaInput,
): Promise<RiderArea> {
  requireRider(actor);
  const v = parse(riderAreaSchema, input);
  const place = await resolvePlace(
    services.geocoder,
    v.area,
    { lat: v.areaLat, lng: v.areaLng },
    { message: "settings:area.invalid", field: "area" },
  );
  await services.db
    .update(riderProfiles)
    .set({ areaLabel: place.label, areaLabelUr: place.labelUr, areaLat: place.lat, areaLng: place.lng })
    .where(eq(riderProfiles.userId, actor.id));
  return place;
}

/** Forgets the rider's area: the rider is then listed after those with an area, without a distance. */
export async function clearRiderArea(db: DbOrTx, actor: SessionUser): Promise<void> {
  requireRider(actor);
  await db
    .update(riderProfiles)
    .set({ areaLabel: null, areaLabelUr: null, areaLat: null, areaLng: null })
    .where(eq(riderProfiles.userId, actor.id));
}
