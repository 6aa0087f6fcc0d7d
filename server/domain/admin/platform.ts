import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { platformSettings } from "#server/db/schema.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";

/** Platform-wide switches (one row, made by the migration). */
export interface PlatformSettings {
  /** Show the Raast QR on payment screens and posters (decision 023). */
  raastQr: boolean;
}

export async function platformSettingsOf(db: DbOrTx): Promise<PlatformSettings> {
  const [row] = await db.select({ raastQr: platformSettings.raastQr }).from(platformSettings).where(eq(platformSettings.id, 1)).limit(1);
  return { raastQr: row?.raastQr ?? true };
}

/** The administrator turns the Raast QR on or off; written to the audit log. */
export async function setRaastQr(db: DbOrTx, actor: Actor, on: boolean): Promise<void> {
  const adminId = idAs(actor, "admin");
  await db.transaction(async (tx) => {
    await tx
      .insert(platformSettings)
      .values({ id: 1, raastQr: on, updatedBy: adminId })
      .onConflictDoUpdate({ target: platformSettings.id, set: { raastQr: on, updatedBy: adminId, updatedAt: sql`now()` } });
    await recordAudit(tx, {
      actorId: adminId,
      action: on ? "platform.raast_qr_on" : "platform.raast_qr_off",
      targetUserId: null,
      details: {},
    });
  });
}
