import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

export type Logger = pino.Logger;

/** The id of the request being handled, for every log line written while it is (decision 043). */
const requestScope = new AsyncLocalStorage<string>();

/** Runs `work` as part of the request `id`: every log line it writes, awaited or streamed later, carries the id. */
export function withRequestId<T>(id: string, work: () => T): T {
  return requestScope.run(id, work);
}

/**
 * Structured JSON logs; anything that could carry a secret is redacted by path. A line written while a request is
 * handled carries its `requestId`: handlers keep logging through `services.log`, the id comes from the request's
 * async context.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    mixin: () => {
      const requestId = requestScope.getStore();
      return requestId ? { requestId } : {};
    },
    serializers: { err: safeError },
    redact: {
      paths: [
        "password",
        "*.password",
        "currentPassword",
        "newPassword",
        "token",
        "*.token",
        "cookie",
        "*.cookie",
        "headers.cookie",
        "authorization",
      ],
      censor: "[redacted]",
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * An error as the logs keep it. A database driver's error carries the query's parameters (Drizzle writes them
 * into the message too), which can be a password hash, an email or a token hash: only the message's first line,
 * the SQL state and the constraint are kept, down the chain of causes.
 */
function safeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 3) return err;
  const e = err as Error & { code?: unknown; constraint?: unknown; cause?: unknown };
  return {
    type: e.name,
    message: e.message
      .split("\n")[0]!
      .replace(/\bparams:.*$/, "")
      .slice(0, 500),
    ...(typeof e.code === "string" ? { code: e.code } : {}),
    ...(typeof e.constraint === "string" ? { constraint: e.constraint } : {}),
    // The frames only: a message's later lines (the parameters) are repeated at the top of the stack.
    stack: e.stack
      ?.split("\n")
      .filter((line) => line.startsWith("    at "))
      .slice(0, 8)
      .join("\n"),
    ...(e.cause ? { cause: safeError(e.cause, depth + 1) } : {}),
  };
}
