import * as z from "zod/mini";
import { REASON_MAX_LENGTH, STATEMENT_MAX_BYTES } from "#shared/constants.ts";
import { paymentMethod } from "./donations.ts";
import { requiredText } from "./fields.ts";
import { DATE_ORDERS } from "#shared/statement-columns.ts";

/** Upload a statement (/statements): which of the NGO's accounts it is of, and the file. */
export const statementUploadSchema = z.object({
  account: paymentMethod(),
  file: z.instanceof(File, { error: "reconcile:form.fileRequired" }).check(
    z.refine((f) => f.size > 0, "reconcile:form.fileRequired"),
    z.refine((f) => f.size <= STATEMENT_MAX_BYTES, "reconcile:form.fileTooLarge"),
  ),
});

const column = z.optional(
  z.coerce.number({ error: "reconcile:form.columnInvalid" }).check(z.int("reconcile:form.columnInvalid"), z.gte(0), z.lte(59)),
);

/** The column step (/statements/columns): which column holds what. The server checks it again against the file. */
export const statementMappingSchema = z.object({
  upload: z.uuid({ error: "errors:notFound" }),
  headerRow: z.coerce
    .number({ error: "reconcile:form.headerRowInvalid" })
    .check(
      z.int("reconcile:form.headerRowInvalid"),
      z.gte(0, "reconcile:form.headerRowInvalid"),
      z.lte(1000, "reconcile:form.headerRowInvalid"),
    ),
  dateOrder: z.enum(DATE_ORDERS, { error: "reconcile:form.dateOrderInvalid" }),
  date: column,
  amount: column,
  credit: column,
  debit: column,
  direction: column,
  description: column,
  sender: column,
  reference: column,
  balance: column,
  phone: column,
});
export type StatementMappingValues = z.output<typeof statementMappingSchema>;

const lineId = z.uuid({ error: "errors:notFound" });

/** The reconciliation queue's steps (/reconcile). */
export const reconcileSchema = z.discriminatedUnion("intent", [
  // Confirm the ticked matches (one or a page of them).
  z.object({
    intent: z.literal("confirm"),
    // One row's own button, or the ticked boxes (one ticked box arrives as a single value, several as a list).
    one: z.optional(lineId),
    line: z.pipe(
      z.transform((v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
      z.array(lineId).check(z.maxLength(50, "reconcile:form.tooMany")),
    ),
  }),
  z.object({ intent: z.literal("ignore"), line: lineId, reason: requiredText("reconcile:form.reasonRequired", REASON_MAX_LENGTH) }),
  z.object({ intent: z.literal("restore"), line: lineId }),
  // Record the gift a line's pledge code proves, for a donor who paid but sent no proof.
  z.object({ intent: z.literal("record"), line: lineId }),
  z.object({ intent: z.literal("match"), line: lineId, donation: z.uuid({ error: "reconcile:form.giftRequired" }) }),
]);
