import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildInputsHash, buildIsCurrent, viteConfigImports } from "#scripts/build-if-changed.ts";

describe("quickstart's build only when its inputs changed (scripts/build-if-changed.ts)", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-build-inputs-"));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };

  it("changes its hash with any input's bytes or name, and not with what is not an input", () => {
    write("app/root.tsx", "one");
    write("server/main.ts", "two");
    const first = buildInputsHash(root);
    write("tests/x.test.ts", "not an input");
    write("docs/ARCHITECTURE.md", "nor this");
    expect(buildInputsHash(root)).toBe(first);
    write("server/main.ts", "two, edited");
    const edited = buildInputsHash(root);
    expect(edited).not.toBe(first);
    fs.renameSync(path.join(root, "app/root.tsx"), path.join(root, "app/renamed.tsx"));
    expect(buildInputsHash(root)).not.toBe(edited);
  });

  it("counts the Vite plugins the config imports and the libraries' patches as inputs", () => {
    write("vite.config.ts", 'import { defineConfig } from "vite";\nimport { mine } from "./scripts/mine-plugin.ts";\n');
    write("scripts/mine-plugin.ts", "one");
    write("scripts/not-imported.ts", "one");
    write("patches/react-dom+19.3.1.patch", "one");
    expect(viteConfigImports(root)).toEqual(["scripts/mine-plugin.ts"]);
    const before = buildInputsHash(root);
    write("scripts/not-imported.ts", "two");
    expect(buildInputsHash(root)).toBe(before);
    write("scripts/mine-plugin.ts", "two");
    const pluginEdited = buildInputsHash(root);
    expect(pluginEdited).not.toBe(before);
    write("patches/react-dom+19.3.1.patch", "two");
    expect(buildInputsHash(root)).not.toBe(pluginEdited);
  });

  it("lists every plugin of the project's own vite.config.ts", () => {
    const project = path.resolve(import.meta.dirname, "../..");
    const plugins = viteConfigImports(project);
    expect(plugins).toContain("scripts/lean-lucide-plugin.ts");
    for (const plugin of plugins) expect(fs.existsSync(path.join(project, plugin)), plugin).toBe(true);
  });

  it("counts a build as current only when it exists and was stamped with the same inputs", () => {
    const hash = buildInputsHash(root);
    expect(buildIsCurrent(root, "build", hash)).toBe(false);
    write("build/server/index.js", "built");
    expect(buildIsCurrent(root, "build", hash)).toBe(false);
    write("build/.inputs-hash", hash);
    // A build from before the server was compiled (React Router's part only) is not current.
    expect(buildIsCurrent(root, "build", hash)).toBe(false);
    write("build/node/server.js", "compiled");
    expect(buildIsCurrent(root, "build", hash)).toBe(true);
    expect(buildIsCurrent(root, "build", "another")).toBe(false);
  });
});
