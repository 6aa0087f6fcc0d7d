/**
 * What the benches (`bench/run.ts`, `bench/tbt-pair.ts`, `bench/trace-tasks.ts`, `bench/cpu-pair.ts`,
 * `bench/alloc-profile.ts`, `bench/render-profile.ts`) share to set up a run: an empty PostgreSQL database of their own,
 * the production server's environment, and a demo account's session signed in through its form.
 */
import pg from "pg";
import { SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "#server/demo/seed.ts";

/** The PostgreSQL server the benches make their databases in (`BENCH_PG_URL`, else the local one). */
export const BENCH_PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";

/**
 * The URL of database `name` on `BENCH_PG_URL`, dropped and created empty (the server seeds its demo data into it), or
 * left as it is when `keep` and it exists. `name` must be a plain identifier: it is written into the statements.
 */
export async function benchDatabase(name: string, opts: { keep?: boolean } = {}): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`${name}: a database name of lower-case letters, digits and _`);
  const client = new pg.Client({ connectionString: BENCH_PG_URL });
  await client.connect();
  try {
    const exists = (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount;
    if (!opts.keep || !exists) {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${name}`);
    }
  } finally {
    await client.end();
  }
  const url = new URL(BENCH_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Signs in as the demo account of `role` through its form, as a browser posts it (with its Origin): the session token. */
export async function demoSession(base: string, role: keyof typeof DEMO_ACCOUNTS): Promise<string> {
  const res = await fetch(`${base}/${role}_signin`, {
    method: "POST",
    headers: { origin: base },
    body: new URLSearchParams({ email: DEMO_ACCOUNTS[role], password: DEMO_PASSWORD, redirectTo: "" }),
    redirect: "manual",
  });
  await res.arrayBuffer();
  const pair = res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .find((p) => p.startsWith(`${SESSION_COOKIE}=`));
  if (res.status !== 302 || !pair) throw new Error(`Signing in as the demo ${role} failed: ${res.status}`);
  return pair.slice(SESSION_COOKIE.length + 1);
}

/**
 * The environment a bench starts a production server with: `npm start`'s (NODE_ENV, the allocator's settings) on
 * loopback at `port`, its files in `dataDir`, the demo data seeded into `databaseUrl`, quiet logs and no sign-in
 * limits (a bench signs in many times), over this process's own environment.
 */
export function benchServerEnv(opts: { port: number; dataDir: string; databaseUrl: string }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    MALLOC_ARENA_MAX: "2",
    MALLOC_MMAP_THRESHOLD_: "131072",
    HOST: "127.0.0.1",
    PORT: String(opts.port),
    APP_URL: `http://127.0.0.1:${opts.port}`,
    DATA_DIR: opts.dataDir,
    DATABASE_URL: opts.databaseUrl,
    SEED_DEMO: "true",
    LOG_LEVEL: "warn",
    AUTH_LIMIT_PER_IP: "1000000",
    AUTH_LIMIT_PER_ACCOUNT: "1000000",
  };
}
