import { sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client";
import { rateLimits } from "../db/schema";
import { rateLimited } from "./errors";

/**
 * Counts one attempt under `key` in a fixed window, atomically in the database so that several app
 * servers share the count. Throws a rate-limited error once more than `limit` attempts fall in the window.
 */
export async function hitRateLimit(db: DbOrTx, key: string, limit: number, windowSeconds: number): Promise<void> {
  const expired = sql`${rateLimits.windowStart} < now() - make_interval(secs => ${windowSeconds})`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: sql`now()`, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${expired} THEN now() ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning({ count: rateLimits.count });
  if (row && row.count > limit) throw rateLimited();
}

export async function clearRateLimit(db: DbOrTx, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}
