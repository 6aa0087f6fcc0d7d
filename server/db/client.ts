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

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: domain functions accept either. */
export type DbOrTx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/** The contrib extensions the migrations create (`pg_trgm`: the searches' trigram indexes, decision 044); PostgreSQL has them built in. */
const extensions = { pg_trgm };

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Opens PostgreSQL when a URL is given, otherwise the embedded database under `dataDir`, and migrates it. */
export async function openDatabase(opts: { url?: string; dataDir?: string; onIdleError?: (err: Error) => void }): Promise<Database> {
  if (opts.url) {
    // No JIT compilation: for a query whose plan looks costly (a count over 80,000 campaigns) PostgreSQL spent 1.3 s
    // compiling to save milliseconds; the app's queries are short (decision 044).
    const pool = new pg.Pool({ connectionString: opts.url, max: 10, options: "-c jit=off" });
    // An idle connection that the server drops (restart, failover) emits an error on the pool; without a
    // listener Node treats it as uncaught and the process dies. The pool replaces the connection itself.
    pool.on("error", opts.onIdleError ?? (() => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(db as never, { migrationsFolder });
    return { db, kind: "postgres", close: () => pool.end() };
  }
  let release = () => {};
  let client: PGlite;
  if (opts.dataDir) {
    const dir = path.join(opts.dataDir, "pglite");
    fs.mkdirSync(dir, { recursive: true });
    release = acquireDirectoryLock(path.join(opts.dataDir, "pglite.lock"));
    client = new PGlite(dir, { extensions });
  } else {
    client = new PGlite({ extensions });
  }
  try {
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    return {
      db,
      kind: "pglite",
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
