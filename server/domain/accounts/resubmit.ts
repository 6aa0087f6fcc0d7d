import { and, eq, inArray, sql } from "drizzle-orm";
import type { NgoResubmit, RiderResubmit } from "#shared/forms/accounts.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { ngoProfiles, riderProfiles, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { conflict, notFound } from "#server/domain/errors.ts";
import { deleteFile, saveImage } from "#server/domain/files/files.ts";
import { verificationStates } from "./states.ts";
import { deleteUserSessions, type SessionUser } from "./sessions.ts";

/** Only NGOs and riders are vetted, so only they can be rejected and re-submit. */
export type Resubmission = { role: "ngo"; data: NgoResubmit } | { role: "rider"; data: RiderResubmit };

/** What the re-submission page shows: the administrator's reason and the profile as it was sent. */
export async function findRejectedProfile(db: DbOrTx, user: Pick<SessionUser, "id" | "role">) {
  const [account] = await db
    .select({ verification: users.verification, reason: users.rejectionReason })
    .from(users)
    .where(eq(users.id, user.id))
    .limit(1);
  if (!account || account.verification !== "rejected") return null;
  const reason = account.reason ?? "";
  if (user.role === "ngo") {
    const [p] = await db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, user.id)).limit(1);
    if (!p) return null;
    const { name, address, registrationNumber, contactNumber, logoKey } = p;
    return { role: "ngo" as const, reason, pictureKey: logoKey, values: { name, address, registrationNumber, contactNumber } };
  }
  if (user.role === "rider") {
    const [p] = await db.select().from(riderProfiles).where(eq(riderProfiles.userId, user.id)).limit(1);
    if (!p) return null;
    const { firstName, lastName, contactNumber, cnic, pictureKey } = p;
    return { role: "rider" as const, reason, pictureKey, values: { firstName, lastName, contactNumber, cnic } };
  }
  return null;
}

/**
 * Sends corrected details back to the administrator: the profile is updated and the account returns to
 * pending in one transaction, which only applies while the account is still rejected (a second click
 * changes nothing). The account's sessions end, since a pending account may not be signed in.
 */
export async function resubmit(
  services: Pick<Services, "db" | "storage">,
  user: Pick<SessionUser, "id" | "role">,
  input: Resubmission,
): Promise<void> {
  if (input.role !== user.role) throw notFound();
  const { db } = services;
  const file = input.role === "ngo" ? input.data.logo : input.data.picture;
  // Checked and stored first: the image check happens outside the transaction, and a failure changes nothing.
  const newKey =
    file && file.size > 0
      ? await saveImage(services, {
          file,
          kind: input.role === "ngo" ? "logo" : "avatar",
          ownerId: user.id,
          field: input.role === "ngo" ? "logo" : "picture",
        })
      : null;

  let oldKey: string | null = null;
  try {
    await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(users)
        .set({ verification: "pending", rejectionReason: null, resubmittedAt: sql`now()`, updatedAt: sql`now()` })
        // The account's own step, from the states the verification table lets it start (rejected).
        .where(and(eq(users.id, user.id), inArray(users.verification, verificationStates.fromStates("resubmit"))))
        .returning({ id: users.id });
      if (!moved) throw conflict("auth.resubmit.not_rejected");
      oldKey = await updateProfile(tx, user.id, input, newKey);
      await recordAudit(tx, { actorId: user.id, action: "account.resubmitted", targetUserId: user.id });
      await deleteUserSessions(tx, user.id);
    });
  } catch (err) {
    if (newKey) await deleteFile(services, newKey);
    throw err;
  }
  if (newKey && oldKey) await deleteFile(services, oldKey);
}

/** Updates the role's profile and returns the picture key it replaced, if a new one was given. */
async function updateProfile(tx: DbOrTx, userId: string, input: Resubmission, newKey: string | null): Promise<string | null> {
  if (input.role === "ngo") {
    const { logo: _logo, ...values } = input.data;
    const [old] = await tx.select({ key: ngoProfiles.logoKey }).from(ngoProfiles).where(eq(ngoProfiles.userId, userId));
    await tx
      .update(ngoProfiles)
      .set({ ...values, ...(newKey ? { logoKey: newKey } : {}) })
      .where(eq(ngoProfiles.userId, userId));
    return old?.key ?? null;
  }
  const { picture: _picture, ...values } = input.data;
  const [old] = await tx.select({ key: riderProfiles.pictureKey }).from(riderProfiles).where(eq(riderProfiles.userId, userId));
  await tx
    .update(riderProfiles)
    .set({ ...values, ...(newKey ? { pictureKey: newKey } : {}) })
    .where(eq(riderProfiles.userId, userId));
  return old?.key ?? null;
}
