import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { withRequestId } from "#server/log.ts";

export const REQUEST_ID_HEADER = "X-Request-Id";
/** An id a balancer or a client sent is kept only when it looks like one: no spaces, quotes or log-breaking text. */
const INCOMING_REQUEST_ID = /^[A-Za-z0-9-]{8,64}$/;

/** The request's id: the caller's when it matches the pattern, else a new UUID. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Gives every request an id, answers it in X-Request-Id and runs the rest of the request in its log scope
 * (server/log.ts), so each line logged while handling it names it.
 */
export function requestIds(): MiddlewareHandler {
  return (c, next) => {
    const id = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    return withRequestId(id, async () => {
      await next();
      c.res.headers.set(REQUEST_ID_HEADER, id);
    });
  };
}
