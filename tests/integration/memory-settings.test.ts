import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * glibc's allocator keeps what a burst of image re-encodes and password hashes freed unless it is told not to
 * (docs/decisions/014-memory-and-image-cost.md). The settings are environment variables read when the process
 * starts, so the project's own start commands set them; these tests keep them there.
 */
const scripts = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;

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
    expect(env.NODE_ENV).toBe("production");
  });

  it("an operator's own value wins", () => {
    const env = environmentOf(scripts.start!, { MALLOC_ARENA_MAX: "4" });
    expect(env.MALLOC_ARENA_MAX).toBe("4");
  });

  it("the end-to-end server is the compiled server, started with the same settings", () => {
    const config = fs.readFileSync("playwright.config.ts", "utf8");
    expect(config).toContain("node --enable-source-maps ${buildDir}/node/server.js");
    expect(config).toContain('MALLOC_ARENA_MAX: "2"');
    expect(config).toContain('MALLOC_MMAP_THRESHOLD_: "131072"');
  });
});
