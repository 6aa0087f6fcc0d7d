import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "#server/log.ts";

describe("the log", () => {
  it("keeps a failed query's parameters (a password hash, an email) out of an error, down its causes", () => {
    const lines: string[] = [];
    const memory = createLogger("error", new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: "23505",
      constraint: "users_email_key",
    });
    const err = new Error(
      "Failed query: insert into users (email, password_hash) values ($1, $2)\nparams: zara@example.pk,$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
      { cause },
    );
    Object.assign(err, { params: ["zara@example.pk", "$argon2id$v=19$secret"] });
    memory.error({ err }, "a page failed");
    const out = lines.join("");
    expect(out).toContain("Failed query: insert into users");
    expect(out).toContain('"code":"23505"');
    expect(out).toContain("users_email_key");
    expect(out).not.toContain("argon2id");
    expect(out).not.toContain("zara@example.pk");
  });
});
