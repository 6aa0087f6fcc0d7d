import { eq } from "drizzle-orm";
import type { Lang } from "#shared/i18n/i18n.ts";
import { isUniqueViolation } from "#server/db/errors.ts";
import type { Db } from "#server/db/client.ts";
import { donorProfiles, ngoProfiles, riderProfiles, users } from "#server/db/schema.ts";
import { conflict } from "#server/domain/errors.ts";
import { hashPassword } from "./passwords.ts";

type NgoProfile = Omit<typeof ngoProfiles.$inferInsert, "userId">;
type DonorProfile = Omit<typeof donorProfiles.$inferInsert, "userId">;
type RiderProfile = Omit<typeof riderProfiles.$inferInsert, "userId">;

/** `language` is the one the person signed up in (English when not given); their emails are written in it. */
export type NewAccount = (
  | { role: "admin"; email: string; password: string }
  | { role: "ngo"; email: string; password: string; profile: NgoProfile }
  | { role: "donor"; email: string; password: string; profile: DonorProfile }
  | { role: "rider"; email: string; password: string; profile: RiderProfile }
) & { language?: Lang };

/** NGOs and riders wait for the administrator; donors and admins may sign in at once. */
export function initialVerification(role: NewAccount["role"]) {
  return role === "ngo" || role === "rider" ? ("pending" as const) : ("verified" as const);
}

/**
 * Creates an account and its role's profile in one transaction. The email is stored lower-cased; a taken
 * address (even by a concurrent request) gives the field error `validation:emailTaken`.
 */
export async function createAccount(db: Db, account: NewAccount): Promise<string> {
  const email = account.email.trim().toLowerCase();
  const passwordHash = await hashPassword(account.password);
  try {
    return await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email,
          passwordHash,
          role: account.role,
          verification: initialVerification(account.role),
          language: account.language ?? "en",
        })
        .returning({ id: users.id });
      const userId = user!.id;
      if (account.role === "ngo") await tx.insert(ngoProfiles).values({ ...account.profile, userId });
      if (account.role === "donor") await tx.insert(donorProfiles).values({ ...account.profile, userId });
      if (account.role === "rider") await tx.insert(riderProfiles).values({ ...account.profile, userId });
      return userId;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("validation.email_taken", "email");
    throw err;
  }
}

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row ?? null;
}
