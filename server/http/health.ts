import { sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Services } from "#server/services.ts";

/** How long each readiness check may take before it counts as failed: a balancer polls, it must not hang. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

/** The process's state as the balancer sees it: once it drains, /readyz answers 503 (decision 043). */
export interface Lifecycle {
  draining: boolean;
}

type Check = "database" | "storage";

const NO_STORE = { "Cache-Control": "no-store" };

/** `GET /healthz`: the process is up and answering. Touches nothing else, so a slow database cannot fail it. */
export function healthz(c: Context) {
  return c.json({ status: "ok" }, 200, NO_STORE);
}

/**
 * `GET /readyz`: 200 when the database answers `select 1` and the file store can be written; otherwise 503 with
 * the names of the checks that failed (never their errors, which can hold an address or a credential: those go to
 * the log). 503 while the process drains, so a balancer stops sending it new requests.
 */
export function readyz(services: Pick<Services, "db" | "storage" | "log">, lifecycle: Lifecycle) {
  return async (c: Context) => {
    if (lifecycle.draining) return c.json({ status: "draining" }, 503, NO_STORE);
    const checks: Record<Check, () => Promise<unknown>> = {
      database: () => services.db.execute(sql`select 1`),
      storage: () => services.storage.ready(),
    };
    const failed: Check[] = [];
    await Promise.all(
      (Object.keys(checks) as Check[]).map(async (name) => {
        try {
          await withTimeout(checks[name](), READY_CHECK_TIMEOUT_MS);
        } catch (err) {
          services.log.warn({ err, check: name }, "a readiness check failed");
          failed.push(name);
        }
      }),
    );
    if (failed.length) return c.json({ status: "unavailable", failed: failed.sort() }, 503, NO_STORE);
    return c.json({ status: "ok" }, 200, NO_STORE);
  };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
