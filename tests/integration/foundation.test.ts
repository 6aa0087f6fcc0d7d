import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "#server/db/client.ts";
import { DatabaseLockedError } from "#server/db/lock.ts";
import { users } from "#server/db/schema.ts";
import { loadConfig, ConfigError } from "#server/config.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { resources } from "#shared/i18n/resources.ts";
import { readyMessage } from "#server/start-up.ts";

describe("foundation", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("stores argon2id password hashes, never the password", async () => {
    const u = await makeUser(s.db, "donor");
    const [row] = await s.db
      .select()
      .from(users)
      .where(sql`${users.id} = ${u.id}`);
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row!.passwordHash).not.toContain(u.password);
  });

  it("refuses a second account with the same email in another case", async () => {
    const u = await makeUser(s.db, "donor");
    await expect(makeUser(s.db, "ngo", { email: u.email.toUpperCase() })).rejects.toMatchObject({
      kind: "conflict",
      message: "validation:emailTaken",
    });
  });
});

describe("embedded database lock", () => {
  // Opens two embedded databases (each runs the migrations): more than the default timeout on a busy machine.
  it(
    "refuses a second opener of the same data directory with a clear message",
    { skip: process.env.TEST_DB === "postgres", timeout: 90_000 },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-lock-"));
      const first = await openDatabase({ dataDir: dir });
      try {
        await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DatabaseLockedError);
        await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by another Ek Chhat process/);
      } finally {
        await first.close();
      }
      const again = await openDatabase({ dataDir: dir });
      await again.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  );
});

describe("configuration", () => {
  it("stops on a bad value with a message naming it", () => {
    expect(() => loadConfig({ PORT: "not-a-port" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "not-a-port" })).toThrow(/PORT/);
    expect(() => loadConfig({ ADMIN_EMAIL: "a@b.pk" })).toThrow(/ADMIN_PASSWORD/);
    expect(() => loadConfig({ DATABASE_MIGRATION_URL: "postgres://127.0.0.1/x" })).toThrow(/DATABASE_MIGRATION_URL needs DATABASE_URL/);
  });
  it("writes links to the port the server listens on when APP_URL is not set, and to APP_URL when it is", () => {
    expect(loadConfig({ PORT: "4100" }).APP_URL).toBe("http://localhost:4100");
    expect(loadConfig({}).APP_URL).toBe("http://localhost:3000");
    const behindProxy = loadConfig({ PORT: "4100", APP_URL: "https://ekchhat.pk" });
    expect(behindProxy.APP_URL).toBe("https://ekchhat.pk");
    expect(behindProxy.secureCookies).toBe(true);
  });
});

describe("the ready message", () => {
  it("names the address to open, and the demo accounts when there are any, at the end of the start-up output", () => {
    const demo = "Demo accounts (password for all: x):";
    const local = readyMessage(loadConfig({ PORT: "4100" }), demo);
    expect(local).toContain("Ek Chhat is ready. Open http://localhost:4100");
    expect(local).toContain("(listening on http://127.0.0.1:4100)");
    expect(local.trimEnd().endsWith(demo)).toBe(true);
    const network = readyMessage(loadConfig({ HOST: "0.0.0.0", PORT: "3000", APP_URL: "http://192.168.1.20:3000" }), null);
    expect(network).toContain("Open http://192.168.1.20:3000");
    expect(network).not.toContain("Demo accounts");
  });
});

describe("translations", () => {
  function keys(obj: unknown, prefix = ""): string[] {
    if (typeof obj !== "object" || obj === null) return [prefix];
    return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  }
  it("has every English string in Urdu and no Urdu string without English", () => {
    for (const ns of Object.keys(resources.en) as (keyof typeof resources.en)[]) {
      const en = keys(resources.en[ns]).sort();
      const ur = keys(resources.ur[ns]).sort();
      expect(ur, `namespace ${ns}`).toEqual(en);
    }
  });
  it("writes every email in Urdu with the same placeholders as in English", () => {
    const at = (strings: unknown, path: string) =>
      path.split(".").reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], strings);
    const placeholders = (text: unknown) => [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    let checked = 0;
    for (const ns of Object.keys(resources.en) as (keyof typeof resources.en)[]) {
      for (const key of keys(resources.en[ns]).filter((k) => ns === "mail" || k.split(".").includes("mail"))) {
        const en = at(resources.en[ns], key);
        const ur = at(resources.ur[ns], key);
        expect(ur, `${ns}:${key}`).not.toBe(en);
        expect(placeholders(ur), `${ns}:${key}`).toEqual(placeholders(en));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});
