import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, e2eDatabaseUrl, e2eMailPort, e2ePort } from "#tests/e2e/env.ts";

const port = e2ePort();
const buildDir = process.env.BUILD_DIR ?? "build";

/**
 * End-to-end tests run against the production build on PostgreSQL (a fresh database per run), so the
 * fixtures can prepare accounts directly while the server runs. Chromium is Debian's.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: ["--headless", ...CHROMIUM_FLAGS],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    // Mail goes to a loopback SMTP server that keeps it in files (tests/e2e/mail-sink.ts): a reset link is
    // only ever delivered to its recipient, never shown in the outbox.
    {
      command: "tsx tests/e2e/mail-sink.ts",
      port: e2eMailPort(),
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      // The compiled server, as `npm start` runs it (package.json).
      command: `tsx tests/e2e/prepare-db.ts && node --enable-source-maps ${buildDir}/node/server.js`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        // As `npm start` sets them (package.json): glibc's allocator kept bounded, docs/decisions/014; V8's heap
        // sized for the server, docs/decisions/045.
        MALLOC_ARENA_MAX: "2",
        MALLOC_MMAP_THRESHOLD_: "131072",
        NODE_OPTIONS: "--max-semi-space-size=16 --max-old-space-size=512",
        HOST: "127.0.0.1",
        PORT: String(port),
        APP_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: e2eDatabaseUrl(),
        DATA_DIR: `/tmp/ekc-e2e-${port}`,
        BUILD_DIR: buildDir,
        LOG_LEVEL: "warn",
        AUTH_LIMIT_PER_IP: "100000",
        AUTH_LIMIT_PER_ACCOUNT: "1000",
        // Unreachable on purpose: tests never touch the internet, and the map must show its markers without tiles.
        MAP_TILE_URL: "http://127.0.0.1:9/{z}/{x}/{y}.png",
        SMTP_URL: `smtp://127.0.0.1:${e2eMailPort()}?ignoreTLS=true`,
      },
    },
  ],
});
