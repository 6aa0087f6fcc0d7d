import path from "node:path";
import { fileURLToPath } from "node:url";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll } from "vitest";
import type { Db } from "#server/db/client.ts";
import * as schema from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { createApp } from "#server/http/app.ts";
import type { Services } from "#server/services.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface LoadedBuild {
  build: ServerBuild;
  close(): Promise<void>;
}

/**
 * The real React Router server build, compiled on the fly by Vite as `server/main.ts` does in development, so a
 * test of the whole app needs no prior `npm run build` (CI runs the tests first). About 5 s: load it once per
 * test file. No watcher and no HMR: other people edit the tree while tests run.
 */
export async function loadServerBuild(): Promise<LoadedBuild> {
  const vite = await import("vite");
  const server = await vite.createServer({
    root,
    configFile: path.join(root, "vite.config.ts"),
    mode: "development",
    logLevel: "error",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, watch: null },
  });
  try {
    const build = (await server.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
    return { build, close: () => server.close() };
  } catch (err) {
    await server.close();
    throw err;
  }
}

export interface TestApp {
  /** The Hono app exactly as the server runs it. */
  app: ReturnType<typeof createApp>;
  appUrl: string;
  /**
   * Sends a request to the app. `path` is sent as written (percent escapes and all); state-changing methods
   * carry the app's own Origin, as a browser's form post does; `cookie` is a session cookie from `signIn`.
   */
  request(path: string, init?: RequestInit & { cookie?: string | null }): Promise<Response>;
}

/** The whole app (Hono middleware, route guard, React Router) over the given services and build. */
export function createTestApp(services: Services, build: ServerBuild, mode: "development" | "production" = "production"): TestApp {
  const app = createApp({ services, build, mode });
  const appUrl = services.config.APP_URL.replace(/\/$/, "");
  return {
    app,
    appUrl,
    async request(p, init = {}) {
      const { cookie, ...rest } = init;
      const headers = new Headers(rest.headers);
      const method = (rest.method ?? "GET").toUpperCase();
      if (!["GET", "HEAD", "OPTIONS"].includes(method) && !headers.has("origin")) headers.set("origin", appUrl);
      if (cookie) headers.set("cookie", headers.has("cookie") ? `${headers.get("cookie")}; ${cookie}` : cookie);
      const streaming = rest.body instanceof ReadableStream;
      return app.request(`${appUrl}${p}`, { ...rest, method, headers, ...(streaming ? { duplex: "half" } : {}) } as RequestInit);
    },
  };
}

/** What `withWholeApp` hands a test file: fresh services, the app over them, and the build it runs. */
export interface WholeApp {
  s: TestServices;
  t: TestApp;
  build: ServerBuild;
}

/**
 * The whole app over fresh test services, opened once for the test file (or the `describe` it is called in) and
 * closed after it: `use` gets it in `beforeAll`, to keep what the tests need and set up more.
 */
export function withWholeApp(use: (app: WholeApp) => unknown, timeoutMs = 120_000): void {
  let services: TestServices | undefined;
  let loaded: LoadedBuild | undefined;
  beforeAll(async () => {
    services = await createTestServices();
    loaded = await loadServerBuild();
    await use({ s: services, t: createTestApp(services, loaded.build), build: loaded.build });
  }, timeoutMs);
  afterAll(async () => {
    await loaded?.close();
    await services?.close();
  });
}

/** A session cookie for the account, as signing in would set it. */
export async function signIn(db: Db, userId: string): Promise<string> {
  const { token } = await createSession(db, userId);
  return `${SESSION_COOKIE}=${token}`;
}

/** Every table of the schema, by its SQL name. */
export function tableNames(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((v): v is PgTable => is(v, PgTable))
    .map((t) => getTableName(t))
    .sort();
}

/**
 * A cheap fingerprint of the database: per table, its row count and an md5 of all its rows as text, in one
 * round trip. Two equal fingerprints mean no row was added, removed or changed.
 */
export async function databaseFingerprint(db: Db, { exclude = [] }: { exclude?: string[] } = {}): Promise<Record<string, string>> {
  const tables = tableNames().filter((t) => !exclude.includes(t));
  const parts = tables.map(
    (t) =>
      sql`SELECT ${t}::text AS t, count(*)::text || ':' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '-') AS f FROM ${sql.identifier(t)} x`,
  );
  const result = await db.execute(sql.join(parts, sql` UNION ALL `));
  const rows = (result as unknown as { rows: { t: string; f: string }[] }).rows;
  return Object.fromEntries(rows.map((r) => [r.t, r.f]));
}

/** The tables whose fingerprints differ. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
}
