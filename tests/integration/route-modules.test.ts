import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import routeConfig from "#app/routes.ts";

/** Every file a route entry names, however deep the route table nests. */
function routeFiles(entries: readonly { file: string; children?: readonly unknown[] }[]): string[] {
  return entries.flatMap((e) => [`app/${e.file}`, ...routeFiles((e.children ?? []) as typeof entries)]);
}

describe("app/routes", () => {
  it("holds only the modules app/routes.ts names: helpers live beside their components (ARCHITECTURE.md)", () => {
    const named = new Set(routeFiles(routeConfig));
    const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "app/routes"], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => !named.has(f))).toEqual([]);
  });
});
