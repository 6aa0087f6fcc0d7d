import { and, asc, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { ngoProfiles, users } from "#server/db/schema.ts";

export const PARTNER_LOGO_LIMIT = 12;

/** Verified, active NGOs for the landing page's partner strip. */
export async function listPartnerNgos(db: DbOrTx) {
  return db
    .select({ id: ngoProfiles.userId, name: ngoProfiles.name, logoKey: ngoProfiles.logoKey })
    .from(ngoProfiles)
    .innerJoin(users, eq(users.id, ngoProfiles.userId))
    .where(and(eq(users.verification, "verified"), isNull(users.suspendedAt)))
    .orderBy(asc(ngoProfiles.name))
    .limit(PARTNER_LOGO_LIMIT);
}
