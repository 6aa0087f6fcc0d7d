import { isIP } from "node:net";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { rateLimits } from "#server/db/schema.ts";
import { rateLimited } from "./errors.ts";

/**
 * Fixed-window counters kept in the database, so that several app servers share them. Every change is one atomic
 * statement, so concurrent requests cannot slip past a limit together.
 */

/** Adds one to `key`'s count in the current window (a new window starts at 1) and returns the row. */
async function countOne(db: DbOrTx, key: string, windowSeconds: number): Promise<{ count: number; windowStart: string }> {
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
    // As text, so that giving back finds exactly this window (a JavaScript Date would lose the microseconds).
    .returning({ count: rateLimits.count, windowStart: sql<string>`${rateLimits.windowStart}::text` });
  return row!;
}

/**
 * Counts one attempt under `key`. Throws a rate-limited error once more than `limit` attempts fall in the window.
 */
export async function hitRateLimit(db: DbOrTx, key: string, limit: number, windowSeconds: number): Promise<void> {
  const { count } = await countOne(db, key, windowSeconds);
  if (count > limit) throw rateLimited();
}

export async function clearRateLimit(db: DbOrTx, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}

/** Removes every counter whose key starts with `prefix` (the prefix must end in a separator keys cannot hold). */
export async function clearRateLimitsStartingWith(db: DbOrTx, prefix: string): Promise<void> {
  await db.delete(rateLimits).where(sql`starts_with(${rateLimits.key}, ${prefix})`);
}

export interface Limit {
  key: string;
  /** A number, or one worked out from the counts of the limits before it in the same attempt (this one included). */
  limit: number | ((earlierCounts: number[]) => number);
}

/** One attempt counted under one key, in one window: what `giveBack` returns. */
export interface CountedAttempt {
  key: string;
  windowStart: string;
}

/**
 * Counts one attempt under every limit, before the costly or risky work it guards. When any limit is over, gives
 * every count back and throws a rate-limited error: a refused attempt costs nothing and is not counted. The caller
 * gives back, with `giveBack`, the counts of an attempt that turns out not to be a failure, so that what stays
 * counted is failures, plus the attempts still in flight, which is what keeps a burst of concurrent attempts
 * from all passing together.
 */
export async function takeAttempts(db: DbOrTx, limits: Limit[], windowSeconds: number): Promise<CountedAttempt[]> {
  const taken: CountedAttempt[] = [];
  const counts: number[] = [];
  for (const { key, limit } of limits) {
    const { count, windowStart } = await countOne(db, key, windowSeconds);
    taken.push({ key, windowStart });
    const allowed = typeof limit === "number" ? limit : limit(counts);
    counts.push(count);
    if (count > allowed) {
      await giveBack(db, taken);
      throw rateLimited();
    }
  }
  return taken;
}

/** Takes back counted attempts. A window that has since ended is left alone: its successor owes nothing. */
export async function giveBack(db: DbOrTx, attempts: CountedAttempt[]): Promise<void> {
  for (const a of attempts) {
    await db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(sql`${rateLimits.key} = ${a.key} AND ${rateLimits.windowStart} = ${a.windowStart}::timestamptz`);
  }
}

/**
 * The part of a client address that limits are kept per. One IPv6 subscriber is usually handed a whole /64, so
 * counting per IPv6 address would give one person billions of fresh addresses; IPv4 addresses count as they are.
 */
export function limitAddress(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(":")}::/64`;
}

function expandIPv6(ip: string): string[] {
  let s = ip.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  return groups.map((g) => parseInt(g, 16).toString(16));
}
