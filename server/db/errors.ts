import { DrizzleQueryError } from "drizzle-orm";
/** PostgreSQL error codes the domain reacts to (both drivers report them, often wrapped in a `cause`). */
const UNIQUE_VIOLATION = "23505";
const FOREIGN_KEY_VIOLATION = "23503";

function findDbError(err: unknown, code: string): { code?: string; constraint?: string } | null {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === code) return e as { code?: string; constraint?: string };
  }
  return null;
}

/** A unique index refused the row; with `constraint`, only that index counts. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = findDbError(err, UNIQUE_VIOLATION);
  return e !== null && (constraint === undefined || e.constraint === undefined || e.constraint === constraint);
}

/** A foreign key refused the change (e.g. deleting a row that others still reference). */
export function isForeignKeyViolation(err: unknown): boolean {
  return findDbError(err, FOREIGN_KEY_VIOLATION) !== null;
}

/**
 * The database refused or lost a statement: any error in the chain that Drizzle raised for a query, or that carries a
 * SQLSTATE code (both drivers set `code` to the five-character state). Anything else is the program's own failure.
 */
export function isDatabaseError(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof DrizzleQueryError) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return true;
  }
  return false;
}
