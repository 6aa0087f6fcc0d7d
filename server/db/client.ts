import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema.ts";
import { acquireDirectoryLock } from "./lock.ts";
import { guardNamedStatements, nameWithDigest } from "./named-statements.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: domain functions accept either. */
export type DbOrTx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

/** A statement as text with $1, $2 … and its values, as node-postgres runs it; text without values may hold several. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** The PostgreSQL pool's connections, for the metrics; the embedded database has no pool. */
  poolUsage?: () => { total: number; idle: number; waiting: number };
  /** The driver itself, for a library that brings its own SQL (the job queue, decision 042). */
  executeSql: ExecuteSql;
  close(): Promise<void>;
}

/** The contrib extensions the migrations create (`pg_trgm`: the searches' trigram indexes, decision 044); PostgreSQL has them built in. */
const extensions = { pg_trgm };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * The embedded PostgreSQL's memory settings (decision 045). Its buffers live in PGlite's WebAssembly memory, which
 * never shrinks: PGlite's own default of 128 MB of shared buffers filled to about 190 MB of that memory as pages
 * were read, more than the rest of the server together. 16 MB holds the demo data's working set several times
 * over, and a page that is not in them is read back from the file system's cache, a copy, not a disk read. WAL
 * buffers follow shared_buffers (1/32 of them) unless set, and maintenance_work_mem bounds what an index build
 * of a migration takes from the WebAssembly memory (64 MB by default).
 */
export const PGLITE_SETTINGS = ["shared_buffers=16MB", "maintenance_work_mem=16MB"] as const;

/** PGlite's own start parameters, with the settings above. */
const pgliteOptions = {
  extensions,
  startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ["-c", setting])],
};

/** Any number, the same in every server: the session lock that migrations wait on. */
const MIGRATION_LOCK = 7_115_001;

/**
 * Migrates PostgreSQL on a connection of its own, holding a session lock while it does: servers that start together
 * take turns, and each one after the first finds nothing left to do (two at once both ran the first new migration,
 * and one of them stopped on "already exists"). Closing the connection releases the lock, even after an error.
 */
async function migrateTogether(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
  } finally {
    await client.end();
  }
}

/**
 * Marks a PostgreSQL handle whose statements may be named (`statementName`); a transaction's handle never has it. A
 * property under a registered symbol, not a module's WeakSet: the server (build/node) opens the database and the React
 * Router build, which holds the routes' copy of this module, names the statements.
 */
const NAMES_STATEMENTS = Symbol.for("ekchhat.db.namesStatements");

/**
 * The name to prepare a statement run on every request under (decision 037, session 21): on PostgreSQL a named
 * statement is parsed and planned once a connection, then run with each request's values (PostgreSQL switches to a
 * generic plan once it is no dearer than the custom ones), where an unnamed one is parsed and planned again each time:
 * for the picker's statement that was three quarters of PostgreSQL's time a page. Unnamed ("") on a handle opened with
 * `preparedStatements: "unnamed"` (a PgBouncer that cannot keep them), on a transaction's handle and on the embedded
 * database, which has one connection and plans in-process. The name carries a digest of the statement's SQL
 * (`nameWithDigest`), so that one name always stands for one text, whatever release of the app prepared it.
 */
export function statementName(db: DbOrTx, name: string, statement: { toSQL(): { sql: string } }): string {
  return (db as { [NAMES_STATEMENTS]?: boolean })[NAMES_STATEMENTS] === true ? nameWithDigest(name, statement.toSQL().sql) : "";
}

/** Opens PostgreSQL when a URL is given, otherwise the embedded database under `dataDir`, and migrates it. */
export async function openDatabase(opts: {
  url?: string;
  /** Whether the statements of `statementName` are named on PostgreSQL: "named" unless set (config DATABASE_PREPARED_STATEMENTS). */
  preparedStatements?: "named" | "unnamed";
  /** Where migrations run, when not at `url` (PgBouncer in transaction mode cannot keep their session lock). */
  migrationUrl?: string;
  dataDir?: string;
  onIdleError?: (err: Error) => void;
  /** Told once when the connections turn out not to keep named statements (a pooler in between): they go unnamed. */
  onNamedStatementsNotKept?: (err: Error) => void;
}): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 10 });
    // An idle connection that the server drops (restart, failover) emits an error on the pool; without a
    // listener Node treats it as uncaught and the process dies. The pool replaces the connection itself.
    pool.on("error", opts.onIdleError ?? (() => {}));
    guardNamedStatements(pool, opts.onNamedStatementsNotKept ?? (() => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    if (opts.preparedStatements !== "unnamed") Object.defineProperty(db, NAMES_STATEMENTS, { value: true });
    await migrateTogether(opts.migrationUrl ?? opts.url);
    return {
      db,
      kind: "postgres",
      executeSql: (text, values) => pool.query(text, values),
      poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    };
  }
  let release = () => {};
  let client: PGlite;
  if (opts.dataDir) {
    const dir = path.join(opts.dataDir, "pglite");
    fs.mkdirSync(dir, { recursive: true });
    release = acquireDirectoryLock(path.join(opts.dataDir, "pglite.lock"));
    client = new PGlite(dir, pgliteOptions);
  } else {
    client = new PGlite(pgliteOptions);
  }
  try {
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    return {
      db,
      kind: "pglite",
      // PGlite's query takes one statement with values; exec takes several without (a schema's creation).
      executeSql: async (text, values) => {
        if (values && values.length > 0) return client.query(text, values);
        const results = await client.exec(text);
        return results.at(-1) ?? { rows: [] };
      },
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
