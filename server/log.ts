import pino from "pino";

export type Logger = pino.Logger;

/** Structured JSON logs; anything that could carry a secret is redacted by path. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ["password", "*.password", "currentPassword", "newPassword", "token", "*.token", "cookie", "*.cookie", "headers.cookie", "authorization"],
      censor: "[redacted]",
    },
  });
}
