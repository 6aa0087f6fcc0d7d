import { sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "#server/db/client.ts";

/**
 * Lets time pass for rows instead of sleeping: moves `column` of the rows matching `where` back by `seconds`.
 * The rules read the database's clock (`now()`), so a row made older is what a later moment would see, and the
 * test neither waits nor depends on how fast the machine is.
 */
export async function makeOlder(db: DbOrTx, table: PgTable, column: PgColumn, where: SQL, seconds: number): Promise<void> {
  await db
    .update(table)
    .set({ [columnKey(table, column)]: sql`${column} - make_interval(secs => ${seconds})` })
    .where(where);
}

/** The property name under which `table` holds `column` (what `.set()` expects). */
function columnKey(table: PgTable, column: PgColumn): string {
  const entry = Object.entries(table).find(([, value]) => value === column);
  if (!entry) throw new Error(`makeOlder: ${column.name} is not a column of this table`);
  return entry[0];
}
