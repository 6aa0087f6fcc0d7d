import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Rollup } from "vite";
import { build } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import { inlineConstants } from "#scripts/inline-constants-plugin.ts";
import { REASON_MAX_LENGTH } from "#shared/constants.ts";

const CONSTANTS = path.resolve("shared/constants.ts");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-inline-constants-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Two pages' modules that import the constants, as the app's do, each printing the ones it uses. */
function write(name: string, names: string[]): string {
  const file = path.join(dir, `${name}.js`);
  fs.writeFileSync(file, `import { ${names.join(", ")} } from ${JSON.stringify(CONSTANTS)};\nconsole.log(${names.join(", ")});\n`);
  return file;
}
const inputs = { reason: write("reason", ["REASON_MAX_LENGTH"]), items: write("items", ["ITEMS_MAX_LENGTH", "REASON_MAX_LENGTH"]) };

/** Builds the two pages for the browser, with or without the plugin, and returns the chunks. */
async function chunks(withPlugin: boolean): Promise<Rollup.OutputChunk[]> {
  const out = (await build({
    configFile: false,
    logLevel: "silent",
    root: dir,
    plugins: withPlugin ? [inlineConstants()] : [],
    build: { write: false, minify: false, modulePreload: false, rollupOptions: { input: inputs } },
  })) as Rollup.RollupOutput;
  return out.output.filter((o): o is Rollup.OutputChunk => o.type === "chunk");
}

describe("each browser module's own copy of the constants (decision 033)", () => {
  it("puts the constants a page uses in its own chunk, and no chunk holds them all", async () => {
    // Without the plugin: a shared chunk of the constants any page uses, which each page fetches whole (what the test
    // would see if the plugin stopped working).
    const shared = await chunks(false);
    expect(shared).toHaveLength(3);
    expect(shared.find((c) => !c.isEntry)!.code).toContain("ITEMS_MAX_LENGTH");
    expect(shared.find((c) => c.name === "reason")!.imports).toHaveLength(1);

    const own = await chunks(true);
    expect(own.map((c) => c.name).sort()).toEqual(["items", "reason"]);
    const reason = own.find((c) => c.name === "reason")!.code;
    const items = own.find((c) => c.name === "items")!.code;
    expect(reason).toContain(`REASON_MAX_LENGTH = ${REASON_MAX_LENGTH}`);
    expect(reason).not.toContain("ITEMS_MAX_LENGTH");
    expect(items).toMatch(/ITEMS_MAX_LENGTH = (1000|1e3)/);
    expect(items).toContain(`REASON_MAX_LENGTH = ${REASON_MAX_LENGTH}`);
    // Only what each uses, and nothing fetched for them.
    for (const code of [reason, items]) expect(code).not.toContain("PROOF_MAX_EDGE");
    expect(own.every((c) => c.imports.length === 0)).toBe(true);
  });
});
