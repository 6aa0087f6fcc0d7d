/** The port and database of one end-to-end run; several runs may use different ports side by side. */
export function e2ePort(): number {
  return Number(process.env.E2E_PORT ?? 3210);
}

export function e2eBaseDatabaseUrl(): string {
  return process.env.E2E_PG_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres:postgres@127.0.0.1:5432/postgres";
}

export function e2eDatabaseUrl(): string {
  const u = new URL(e2eBaseDatabaseUrl());
  u.pathname = `/ekc_e2e_${e2ePort()}`;
  return u.toString();
}

/** The loopback SMTP server of one end-to-end run (tests/e2e/mail-sink.ts) and the folder it writes to. */
export function e2eMailPort(): number {
  return e2ePort() + 1;
}

/**
 * Ports for the servers a spec starts itself, after the run's server and its mail sink: 0–3 the drain spec's,
 * 2–5 the balancer spec's two servers and HAProxy's plain and TLS ends; the memory spec's takes 0 again (specs run one
 * after the other).
 */
export function e2eOwnPort(n: number): number {
  return e2ePort() + 2 + n;
}

export function e2eMailDir(): string {
  return `/tmp/ekc-e2e-${e2ePort()}-mail`;
}

/** Debian's Chromium, as the tests, the bench and the measuring scripts start it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Its flags besides headless: no sandbox (root), and no traffic of its own to skew what a page loads. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
