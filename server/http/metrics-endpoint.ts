import { createHash, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import type { Metrics } from "#server/metrics.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * `GET /metrics` in Prometheus's text format, for a scraper holding the bearer token. The token is compared in
 * constant time (as digests, so its length does not show either); a wrong or missing one is 401.
 */
export function metricsEndpoint(metrics: Metrics, token: string) {
  const expected = digest(token);
  return async (c: Context) => {
    const sent = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    if (!timingSafeEqual(digest(sent), expected)) {
      return c.body(null, 401, { "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" });
    }
    return c.body(await metrics.registry.metrics(), 200, { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" });
  };
}
