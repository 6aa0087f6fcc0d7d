import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "#server/db/schema.ts";
import type { Db } from "#server/db/client.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import fs from "node:fs";
import path from "node:path";
import { e2eDatabaseUrl, e2eMailDir, e2ePort } from "./env.ts";

type Role = "admin" | "ngo" | "donor" | "rider";
type LoginOptions = { role: Role; name?: string };
type Account = { id: string; email: string; password: string };

export const test = base.extend<
  {
    login: (opts: LoginOptions) => Promise<Account>;
    account: (opts: LoginOptions & { verification?: "pending" | "verified" | "rejected" }) => Promise<Account>;
    /** Browser console errors a test provokes on purpose (`test.use({ expectedConsoleErrors: [/.../] })`). */
    expectedConsoleErrors: RegExp[];
  },
  { db: Db }
>({
  expectedConsoleErrors: [[], { option: true }],
  /**
   * Every test fails on a script error or a console error in the page (a hydration mismatch, a CSP violation, a
   * React warning), unless it said it expects it. "Failed to load resource" is the browser noting an error
   * status, which the tests that provoke one assert themselves.
   */
  page: async ({ page, expectedConsoleErrors }, use) => {
    const errors: string[] = [];
    const unexpected = (text: string) => !/^Failed to load resource/.test(text) && !expectedConsoleErrors.some((re) => re.test(text));
    page.on("console", (m) => {
      if (m.type() === "error" && unexpected(m.text())) errors.push(`console.error: ${m.text()} (${page.url()})`);
    });
    page.on("pageerror", (e) => {
      if (unexpected(e.message)) errors.push(`page error: ${e.message} (${page.url()})`);
    });
    await use(page);
    expect(errors, "errors in the browser").toEqual([]);
  },
  db: [
    async ({}, use) => {
      const pool = new pg.Pool({ connectionString: e2eDatabaseUrl(), max: 2 });
      await use(drizzle(pool, { schema }) as unknown as Db);
      await pool.end();
    },
    { scope: "worker" },
  ],
  /** Creates an account in the database without signing in. */
  account: async ({ db }, use) => {
    await use((opts) => makeUser(db, opts.role, { verification: opts.verification, name: opts.name }));
  },
  /** Creates a verified account of the role and signs the page in as it (the sign-in screens have their own tests). */
  login: async ({ db, context }, use) => {
    await use(async (opts) => {
      const user = await makeUser(db, opts.role, { name: opts.name });
      const { token } = await createSession(db, user.id);
      await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
      return user;
    });
  },
});

export { expect };

/** Fails with the list of violations when axe finds any on the current page. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, `accessibility violations on ${page.url()}`).toEqual([]);
}

export const baseUrl = () => `http://127.0.0.1:${e2ePort()}`;

/**
 * The text of every message the run's mail server received for `to`, oldest first (quoted-printable undone), as
 * the recipient's mail program would show it.
 */
export function receivedMail(to: string): string[] {
  const dir = e2eMailDir();
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as { to: string; raw: string })
    .filter((m) => m.to === to)
    .map((m) => decodeQuotedPrintable(m.raw));
}

function decodeQuotedPrintable(raw: string): string {
  const bytes = Buffer.from(raw.replace(/=\r?\n/g, ""), "latin1").toString("latin1");
  return Buffer.from(
    bytes.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");
}
