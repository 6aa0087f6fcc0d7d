import { defineConfig } from "vitest/config";
import { stringsFiles } from "./scripts/strings-files-plugin.ts";

const include = ["server/**/*.test.ts", "app/**/*.test.ts", "tests/integration/**/*.test.ts"];

/** Every test runs on the embedded database; with TEST_DATABASE_URL set, the same tests run on PostgreSQL too. */
export default defineConfig({
  plugins: [stringsFiles()],
  test: {
    testTimeout: 30_000,
    setupFiles: ["tests/helpers/console-guard.ts"],
    hookTimeout: 60_000,
    projects: [
      { extends: true as const, test: { name: "pglite", include, env: { TEST_DB: "pglite" } } },
      ...(process.env.TEST_DATABASE_URL
        ? [{ extends: true as const, test: { name: "postgres", include, env: { TEST_DB: "postgres" } } }]
        : []),
    ],
  },
});
