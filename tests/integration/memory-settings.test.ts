import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#server/db/client.ts";

/**
 * glibc's allocator keeps what a burst of image re-encodes and password hashes freed unless it is told not to
 * (docs/decisions/014-memory-and-image-cost.md), and V8 sizes its heap for the machine, not for the server's 75 MB
 * of live objects (docs/decisions/045-resident-memory.md). The settings are environment variables read when the
 * process starts, so the project's own start commands set them; these tests keep them there, and in the container's.
 */
const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;

/**
 * V8's heap, bounded (decision 045): an old generation of at most 512 MB, and semi-spaces of 16 MB (V8's own default
 * on this machine; 4 MB doubled the scavenges of every page and cost /donate1 about a tenth of its CPU, decision 037).
 */
const V8_FLAGS = "--max-semi-space-size=16 --max-old-space-size=512";

/** The compiled server (decision 032), with stack traces that name the sources. */
const SERVER = /node --enable-source-maps \$\{BUILD_DIR:-build\}\/node\/server\.js$/;

/** What the shell part of an npm script before the server's command puts in the server's environment. */
function environmentOf(script: string, outer: Record<string, string> = {}): Record<string, string> {
  const last = script.split("&&").at(-1)!;
  const command = last.replace(SERVER, "env");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...outer };
  const out = execFileSync("sh", ["-c", command], { env, encoding: "utf8" });
  return Object.fromEntries(
    out
      .trim()
      .split("\n")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

describe("memory settings of the server's start commands", () => {
  it.each(["start", "quickstart"])("npm run %s bounds malloc's arenas and returns large blocks to the system", (name) => {
    expect(scripts[name]).toMatch(SERVER);
    const env = environmentOf(scripts[name]!);
    expect(env.MALLOC_ARENA_MAX).toBe("2");
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe("131072");
    expect(env.NODE_OPTIONS!.trim()).toBe(V8_FLAGS);
    expect(env.NODE_ENV).toBe("production");
  });

  it("an operator's own value wins", () => {
    const env = environmentOf(scripts.start!, { MALLOC_ARENA_MAX: "4", NODE_OPTIONS: "--max-old-space-size=1024 --require ./probe.cjs" });
    expect(env.MALLOC_ARENA_MAX).toBe("4");
    // Kept, after ours: of two values of one flag in NODE_OPTIONS, Node takes the last.
    expect(env.NODE_OPTIONS).toBe(`${V8_FLAGS} --max-old-space-size=1024 --require ./probe.cjs`);
  });

  it("the flags reach V8: a node started with them has the heap they describe", () => {
    const limitMb = execFileSync(process.execPath, ["-e", "console.log(require('v8').getHeapStatistics().heap_size_limit / 2 ** 20)"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NODE_OPTIONS: V8_FLAGS },
      encoding: "utf8",
    });
    // 512 MB of old generation and 3 × 16 MB of young generation (two semi-spaces and the space they are promoted through).
    expect(Number(limitMb)).toBe(560);
  });

  it("the end-to-end server is the compiled server, started with the same settings", () => {
    const config = fs.readFileSync("playwright.config.ts", "utf8");
    expect(config).toContain("node --enable-source-maps ${buildDir}/node/server.js");
    expect(config).toContain('MALLOC_ARENA_MAX: "2"');
    expect(config).toContain('MALLOC_MMAP_THRESHOLD_: "131072"');
    expect(config).toContain(`NODE_OPTIONS: "${V8_FLAGS}"`);
  });

  it("the container image sets the same environment for its own command", () => {
    const dockerfile = fs.readFileSync("Dockerfile", "utf8");
    expect(dockerfile).toMatch(/MALLOC_ARENA_MAX=2\b/);
    expect(dockerfile).toMatch(/MALLOC_MMAP_THRESHOLD_=131072\b/);
    expect(dockerfile).toContain(`NODE_OPTIONS="${V8_FLAGS}"`);
    expect(dockerfile).toContain('CMD ["node", "--enable-source-maps", "build/node/server.js"]');
  });

  it("the servers the end-to-end tests start themselves run with them too", () => {
    const appProcess = fs.readFileSync("tests/e2e/app-process.ts", "utf8");
    expect(appProcess).toContain('MALLOC_ARENA_MAX: "2"');
    expect(appProcess).toContain('MALLOC_MMAP_THRESHOLD_: "131072"');
    expect(appProcess).toContain(`NODE_OPTIONS: "${V8_FLAGS}"`);
  });
});

describe("the embedded database's memory", () => {
  // PGlite's buffers live in its WebAssembly memory, which never shrinks; its default 128 MB of shared buffers was
  // the largest part of the embedded server's resident memory (decision 045). A new database runs initdb and every
  // migration: most of a minute on a busy machine.
  it(
    "runs with 16 MB of shared buffers and 16 MB for index builds",
    { skip: process.env.TEST_DB === "postgres", timeout: 120_000 },
    async () => {
      const database = await openDatabase({});
      try {
        const { rows } = await database.executeSql(
          "select name, setting, unit from pg_settings where name in ('shared_buffers', 'maintenance_work_mem') order by name",
        );
        expect(rows).toEqual([
          { name: "maintenance_work_mem", setting: "16384", unit: "kB" },
          { name: "shared_buffers", setting: "2048", unit: "8kB" },
        ]);
      } finally {
        await database.close();
      }
    },
  );
});
