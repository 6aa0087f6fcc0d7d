import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { statementLines } from "#server/db/schema.ts";
import { fromStates } from "./states.ts";

/**
 * What a cash decision does to the statement line tied to its gift, inside the decision's transaction (the gift's
 * row is locked first, as the matcher locks it): an approval confirms the line as its evidence; a disapproval
 * releases it, so the transfer can be tied to the right gift. Returns the line, for the audit entry.
 */
export async function settleStatementLine(
  tx: DbOrTx,
  donationId: string,
  status: "approved" | "rejected",
  actorId: string,
): Promise<{ id: string; postedOn: string; reference: string } | null> {
  const columns = { id: statementLines.id, postedOn: statementLines.postedOn, reference: statementLines.reference };
  if (status === "approved") {
    const [line] = await tx
      .update(statementLines)
      .set({ status: "confirmed", decidedBy: actorId, decidedAt: sql`now()` })
      .where(and(eq(statementLines.donationId, donationId), inArray(statementLines.status, fromStates("confirm"))))
      .returning(columns);
    return line ?? null;
  }
  const [line] = await tx
    .update(statementLines)
    .set({ status: "unmatched", donationId: null, matchRule: null, confidence: null, decidedBy: null, decidedAt: null })
    .where(and(eq(statementLines.donationId, donationId), inArray(statementLines.status, fromStates("unmatch"))))
    .returning(columns);
  return line ?? null;
}
