/**
 * What a statement column can hold (server/domain/statements/columns.ts reads them), and the orders a statement's
 * dates may be written in. A module of their own, without zod: the column step's page draws its choices from them and
 * so does not load the form's schema until the form is used (decision 033).
 *
 * `phone`: a column holding only the sender's number (a wallet's Sender MSISDN) when another holds the sender's name.
 */
export const STATEMENT_FIELDS = [
  "date",
  "amount",
  "credit",
  "debit",
  "direction",
  "description",
  "sender",
  "reference",
  "balance",
  "phone",
] as const;
export const DATE_ORDERS = ["dmy", "mdy", "ymd"] as const;
