import { sql } from "drizzle-orm";
import { PAYMENT_METHODS, type PaymentMethod } from "#shared/constants.ts";
import { paymentAccountsSchema } from "#shared/forms/settings.ts";
import { ngoProfiles } from "#server/db/schema.ts";
import type { AuditDetails } from "#server/domain/audit/audit.ts";

/**
 * The guard on an NGO's payment accounts (decision 024): what counts as a change, how it is written in the audit
 * log (never a whole number), and whether donors should be told that an NGO's accounts changed recently.
 */

/** For this long after a change, donors paying the NGO see a notice that its accounts recently changed. */
export const PAYMENT_CHANGE_NOTICE_HOURS = 24;

/** The audit action of a change of an NGO's payment accounts. */
export const PAYMENT_CHANGE_AUDIT_ACTION = "ngo.payment_accounts_changed";

/** An NGO's receiving accounts as stored (`ngo_profiles`); null is "no such account". */
export interface PaymentAccounts {
  jazzcashNumber: string | null;
  easypaisaNumber: string | null;
  bankName: string | null;
  bankAccountTitle: string | null;
  bankAccountNumber: string | null;
}

export type PaymentChangeKind = "added" | "changed" | "removed";

/** One method whose account is not what it was. Endings are the last 4 characters of the number, never more. */
export interface PaymentChange {
  method: PaymentMethod;
  change: PaymentChangeKind;
  /** The old number's ending, or null when the method had no account. */
  before: string | null;
  /** The new number's ending, or null when the account was removed. */
  after: string | null;
}

const ENDING_LENGTH = 4;

/** The last 4 characters of an account number, marked as cut ("…4567"); the rest is never written anywhere. */
export function maskedEnding(value: string): string {
  return `…${value.slice(-ENDING_LENGTH)}`;
}

const EMPTY: PaymentAccounts = {
  jazzcashNumber: null,
  easypaisaNumber: null,
  bankName: null,
  bankAccountTitle: null,
  bankAccountNumber: null,
};

/**
 * Accounts in the form's normal form (national mobile numbers, an IBAN without spaces in capitals, trimmed
 * names), so that the same account typed another way is no change. Stored values were saved through the same
 * schema; one that no longer passes it (older data) is compared as it is, trimmed.
 */
export function normalisePaymentAccounts(accounts: { [K in keyof PaymentAccounts]?: string | null | undefined }): PaymentAccounts {
  const input = Object.fromEntries(Object.keys(EMPTY).map((k) => [k, accounts[k as keyof PaymentAccounts] ?? ""]));
  const parsed = paymentAccountsSchema.safeParse(input);
  const out = { ...EMPTY };
  for (const key of Object.keys(EMPTY) as (keyof PaymentAccounts)[]) {
    const value = parsed.success ? parsed.data[key] : accounts[key]?.trim();
    out[key] = value ? value : null;
  }
  return out;
}

/** The number that identifies each method's account, and the fields that make it up. */
const METHOD_FIELDS: Record<PaymentMethod, { number: keyof PaymentAccounts; fields: (keyof PaymentAccounts)[] }> = {
  jazzcash: { number: "jazzcashNumber", fields: ["jazzcashNumber"] },
  easypaisa: { number: "easypaisaNumber", fields: ["easypaisaNumber"] },
  bank: { number: "bankAccountNumber", fields: ["bankName", "bankAccountTitle", "bankAccountNumber"] },
};

/**
 * What differs between two sets of accounts, method by method in the payment screen's order. Both sides are
 * normalised first; an empty list means nothing changed. A bank account whose name or title alone changed is
 * "changed" too (donors read all three), with the same ending before and after.
 */
export function paymentChanges(before: PaymentAccounts, after: PaymentAccounts): PaymentChange[] {
  const old = normalisePaymentAccounts(before);
  const now = normalisePaymentAccounts(after);
  const changes: PaymentChange[] = [];
  for (const method of PAYMENT_METHODS) {
    const { number, fields } = METHOD_FIELDS[method];
    if (fields.every((f) => old[f] === now[f])) continue;
    const had = old[number];
    const has = now[number];
    changes.push({
      method,
      change: had === null ? "added" : has === null ? "removed" : "changed",
      before: had === null ? null : maskedEnding(had),
      after: has === null ? null : maskedEnding(has),
    });
  }
  return changes;
}

/**
 * The audit entry's details for a change: per method, what happened (`jazzcash: "changed"`) and the endings
 * before and after (`jazzcashBefore`, `jazzcashAfter`), each only when there is one.
 */
export function paymentChangeDetails(changes: PaymentChange[]): AuditDetails {
  const details: AuditDetails = {};
  for (const c of changes) {
    details[c.method] = c.change;
    if (c.before !== null) details[`${c.method}Before`] = c.before;
    if (c.after !== null) details[`${c.method}After`] = c.after;
  }
  return details;
}

/**
 * Whether an NGO's payment accounts were added or changed within the last PAYMENT_CHANGE_NOTICE_HOURS (the
 * database's clock), as a column of any query that reads `ngo_profiles`: donors paying it are told. Part of the query
 * that already reads the NGO's accounts (donationTarget), so the warning costs no round trip of its own.
 */
export const paymentChangedRecentlySql = () =>
  sql<boolean>`coalesce(${ngoProfiles.paymentChangedAt} > now() - make_interval(hours => ${PAYMENT_CHANGE_NOTICE_HOURS}), false)`;
