import { createHash } from "node:crypto";
import type pg from "pg";

/**
 * PostgreSQL's answers to a named statement that the connection did not hold as node-postgres believed: "does not
 * exist" (26000) and "already exists" (42P05). Directly on PostgreSQL a connection keeps what it prepared, so they
 * come from a pooler between the app and PostgreSQL that hands each transaction to any of its server connections
 * and does not keep named statements itself (PgBouncer before 1.21 in transaction mode, Debian 12's 1.18; a later one
 * with `max_prepared_statements = 0`): about half of all pages failed behind one (decision 037, session 23).
 */
const NOT_KEPT = new Set(["26000", "42P05"]);

/**
 * A named statement planned before a migration changed the type of a column it returns: PostgreSQL refuses to run it
 * ("cached plan must not change result type", 0A000) on every connection that prepared it before the change, once.
 */
function planOutdated(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return e?.code === "0A000" && typeof e.message === "string" && e.message.includes("cached plan must not change result type");
}

/**
 * Makes `pool.query` survive a named statement PostgreSQL cannot run as prepared (decision 037, session 23): the query
 * is run once more unnamed (parsed and planned for itself, as every statement is without names), which gives the same
 * rows. pg-pool has already dropped the connection the statement failed on (a client released with an error is
 * destroyed), so the next named run prepares afresh on another. PostgreSQL gives each of these errors before the
 * statement runs (at parse, bind or the plan's check), so running it again runs it once. Only statements run straight
 * on the pool are named (`statementName`: never in a transaction, whose failed statement would end it).
 *
 * When the connection did not hold the statement at all (`NOT_KEPT`), the pool is behind a pooler that cannot keep
 * names: from then on this pool's statements all go unnamed, and `onNotKept` is told once (the server logs it, naming
 * the setting that says so from the start, DATABASE_PREPARED_STATEMENTS=unnamed).
 */
export function guardNamedStatements(pool: pg.Pool, onNotKept: (err: Error) => void): void {
  const query = pool.query.bind(pool) as unknown as (...args: unknown[]) => Promise<pg.QueryResult>;
  const unnamed = (config: pg.QueryConfig): pg.QueryConfig => ({ ...config, name: undefined });
  let namesKept = true;
  pool.query = ((...args: unknown[]) => {
    const [config, values, callback] = args;
    // An unnamed statement, a call with a callback, or a "submittable" (a cursor or stream object, whose own methods a
    // copy would lose; none in the app) goes as it came.
    if (
      typeof config !== "object" ||
      config === null ||
      !(config as pg.QueryConfig).name ||
      typeof (config as { submit?: unknown }).submit === "function" ||
      typeof values === "function" ||
      callback
    )
      return query(...args);
    const statement = config as pg.QueryConfig;
    if (!namesKept) return query(unnamed(statement), values);
    return query(statement, values).catch((err: unknown) => {
      const code = (err as { code?: unknown } | null)?.code;
      if (typeof code === "string" && NOT_KEPT.has(code)) {
        if (namesKept) {
          namesKept = false;
          onNotKept(err as Error);
        }
      } else if (!planOutdated(err)) throw err;
      return query(unnamed(statement), values);
    });
  }) as typeof pool.query;
}

/**
 * A statement's name on PostgreSQL: `name` and a digest of its SQL text. Two releases of the app whose statement of
 * the same name differs (a column added to the session's lookup) then never run each other's statement where server
 * connections are shared between them (a pooler that does not keep names, above, during a rolling deploy): the
 * other's is a name this one never prepared. Within 63 bytes, PostgreSQL's longest name.
 */
export function nameWithDigest(name: string, sqlText: string): string {
  const full = `${name}/${createHash("sha256").update(sqlText).digest("base64url").slice(0, 12)}`;
  if (Buffer.byteLength(full) > 63) throw new Error(`The statement name ${full} is longer than PostgreSQL keeps`);
  return full;
}
