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
