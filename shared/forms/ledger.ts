import * as z from "zod/mini";
import { SPENDING_AMOUNT_MAX, SPENDING_DOCUMENT_MAX_BYTES, SPENDING_PURPOSE_MAX_LENGTH } from "#shared/constants.ts";
import { FUND_KINDS, TAKEDOWN_REASON_MAX_LENGTH } from "#shared/statuses.ts";
import { westernDigits } from "#shared/numbers.ts";
import { blankToUndefined, requiredText, rupees } from "./fields.ts";

/** A day as the date input sends it (YYYY-MM-DD; Urdu digits read as 0–9); whether it is a real day, and not ahead, is the server's check. */
const day = (key: string) =>
  z.pipe(
    z.pipe(
      z.string({ error: key }),
      z.transform((s: string) => westernDigits(s).trim()),
    ),
    z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, key)),
  );

const recordId = z.uuid({ error: "errors:notFound" });

/**
 * The spending form (/campaigns/:id/spending): which fund it came from, how much, when, what for, and the invoice or
 * receipt (a photo or a PDF; its content is checked and re-made on the server). A correction names the published
 * record it corrects.
 */
export const spendingSchema = z.object({
  intent: z.literal("write"),
  fund: z.enum(FUND_KINDS, { error: "ledger:errors.fundRequired" }),
  amount: rupees(SPENDING_AMOUNT_MAX, {
    required: "ledger:errors.amountRequired",
    digits: "ledger:errors.amountDigits",
    positive: "ledger:errors.amountPositive",
    tooLarge: "ledger:errors.amountTooLarge",
  }),
  spentOn: day("ledger:errors.dateInvalid"),
  purpose: requiredText("ledger:errors.purposeRequired", SPENDING_PURPOSE_MAX_LENGTH),
  document: z.instanceof(File, { error: "ledger:errors.documentRequired" }).check(
    z.refine((f) => f.size > 0, "ledger:errors.documentRequired"),
    z.refine((f) => f.size <= SPENDING_DOCUMENT_MAX_BYTES, "ledger:errors.documentTooLarge"),
  ),
  correctsId: blankToUndefined(recordId),
});
export type SpendingValues = z.output<typeof spendingSchema>;

/** Publish (with the NGO's statement that the document shows no private data) or discard a draft. */
export const spendingDecisionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("publish"),
    recordId,
    confirmRedacted: z.literal("on", { error: "ledger:errors.confirmRedacted" }),
  }),
  z.object({ intent: z.literal("discard"), recordId }),
]);
export type SpendingDecision = z.output<typeof spendingDecisionSchema>;

/**
 * The administrator takes a published record down (/admin/spending, decision 049), with the reason the NGO is told.
 * Characters no person types are refused by `parseWithZod` for every field, and again by the domain.
 */
export const takedownSchema = z.object({
  intent: z.literal("takeDown"),
  recordId,
  reason: requiredText("ledger:errors.takedownReasonRequired", TAKEDOWN_REASON_MAX_LENGTH),
});
