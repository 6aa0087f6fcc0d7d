import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resources } from "#shared/i18n/resources.ts";

/**
 * Every English string is shown by some code: a key that no code asks for is a word nobody reads, still translated,
 * still carried by every page of its namespace (decision 035). The product's code (app/, server/, shared/, scripts/;
 * not the tests) names a key in one of two ways, and both are read here:
 *
 * - whole, as a string literal: `t("donate:pick.heading")`, `title: "errors:badAddress.title"`;
 * - as a template with a part chosen at run time: `` t(`funds:kinds.${fund}`) `` stands for every key its pattern
 *   matches (each `${…}` one or more segments of a key).
 *
 * A key built any other way goes in DYNAMIC_KEYS with the code that builds it.
 */
const DYNAMIC_KEYS: Record<string, string> = {};

const SOURCE_ROOTS = ["app", "server", "shared", "scripts"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "locales" || entry.name.startsWith(".") ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function keysOf(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

const namespaces = Object.keys(resources.en);
const source = SOURCE_ROOTS.flatMap(sourceFiles)
  .map((f) => fs.readFileSync(f, "utf8"))
  .join("\n");
const ns = `(?:${namespaces.join("|")})`;
/** `"ns:a.b"`, `'ns:a.b'` or `` `ns:a.b` `` whole. */
const literals = new Set([...source.matchAll(new RegExp(`["'\`](${ns}:[\\w.]+)["'\`]`, "g"))].map((m) => m[1]!));
/** `` `ns:a.${x}.b` `` as a pattern of the keys it can name. */
const templates = [
  ...source.matchAll(new RegExp(`\`(${ns}:(?:[\\w.]|\\$\\{[^}\`]*\\})*\\$\\{[^}\`]*\\}(?:[\\w.]|\\$\\{[^}\`]*\\})*)\``, "g")),
].map((m) => new RegExp(`^${m[1]!.replace(/\./g, "\\.").replace(/\$\{[^}`]*\}/g, "[\\w.]+")}$`));

describe("translations", () => {
  it("has no English string that no code asks for", () => {
    const unused = namespaces.flatMap((n) =>
      keysOf(resources.en[n as keyof typeof resources.en])
        .map((k) => `${n}:${k}`)
        .filter((key) => !literals.has(key) && !templates.some((t) => t.test(key)) && !(key in DYNAMIC_KEYS)),
    );
    expect(unused).toEqual([]);
  });

  it("reads the code it checks: literal and template keys are found, and the allowed ones exist", () => {
    // The scan itself must see the usual ways of naming a key, or the test above passes on an empty source.
    expect(literals).toContain("common:brand");
    expect(templates.some((t) => t.test("funds:kinds.zakat"))).toBe(true);
    expect(templates.some((t) => t.test("funds:kinds"))).toBe(false);
    const all = new Set(namespaces.flatMap((n) => keysOf(resources.en[n as keyof typeof resources.en]).map((k) => `${n}:${k}`)));
    for (const key of Object.keys(DYNAMIC_KEYS)) expect(all, `${key} is allowed but is no key`).toContain(key);
  });
});
