import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { donations } from "#server/db/schema.ts";

/**
 * The donation a donor's form already made, by the idempotency key the form carried (cash proofs and goods
 * offers alike): a double submit or a retried request finds it instead of making a second one.
 */
export async function findDonationByKey(db: DbOrTx, donorId: string, key: string): Promise<string | null> {
  const [row] = await db
    .select({ id: donations.id })
    .from(donations)
    .where(and(eq(donations.donorId, donorId), eq(donations.idempotencyKey, key)))
    .limit(1);
  return row?.id ?? null;
}
