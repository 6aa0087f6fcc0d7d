import fs from "node:fs";
import path from "node:path";
import { createElement, type ComponentType, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import createLucideIcon from "#app/components/ui/lucide-icon.ts";
import { iconMarkup, leanLucide } from "#scripts/lean-lucide-plugin.ts";

// The built app's icons are made by app/components/ui/lucide-icon.ts from the markup scripts/lean-lucide-plugin.ts
// writes at build time, one element an icon; `vite dev` draws lucide-react's. The two must draw the same markup: the
// pages' HTML must not change, and hydration in development meets lucide-react's <svg>.
const ESM = path.resolve("node_modules/lucide-react/dist/esm");

/** Every icon module lucide-react's index exports a name from, by that name ("Trash2" → "trash-2"). */
const moduleOf = new Map<string, string>();
for (const [, names, file] of fs
  .readFileSync(path.join(ESM, "lucide-react.mjs"), "utf8")
  .matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs'/g)) {
  for (const [, name] of names!.matchAll(/default as (\w+)/g)) moduleOf.set(name!, file!);
}

/** The icons the app draws: the names it imports from lucide-react, and the modules it imports by path. */
function appIcons(dir: string, found = new Set<string>()): Set<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) appIcons(file, found);
    else if (/\.tsx?$/.test(entry.name)) {
      const source = fs.readFileSync(file, "utf8");
      for (const [, names] of source.matchAll(/import \{([^}]*)\} from "lucide-react"/g)) {
        for (const name of names!.split(",").map((n) => n.trim())) {
          if (name && !name.startsWith("type ")) found.add(moduleOf.get(name) ?? `missing:${name}`);
        }
      }
      for (const [, icon] of source.matchAll(/from "lucide-react\/icons\/([\w-]+)"/g)) found.add(icon!);
    }
  }
  return found;
}
const used = [...appIcons(path.resolve("app"))];
// And a spread of the others: every 40th module of the package, so a change in how lucide draws shows up too.
const others = [...new Set(moduleOf.values())].sort().filter((_, i) => i % 40 === 0);
const names = [...new Set([...used, ...others])];

/** The props the app passes (a class and aria-hidden, a size), and the others lucide-react's icons take. */
const PROPS: Record<string, unknown>[] = [
  {},
  { "aria-hidden": "true", className: "size-4" },
  { "aria-hidden": "true", size: 20 },
  { className: "size-5 shrink-0  size-5 lucide", "data-testid": "icon" },
  { "aria-label": "Close", role: "img" },
  { color: "#b91c1c", strokeWidth: 1.5, width: 16, height: "18" },
  { color: "", size: "32" },
  { absoluteStrokeWidth: true, size: 48 },
  { absoluteStrokeWidth: true, strokeWidth: 3, width: 12 },
  { nonScalingStroke: true, style: { color: "red" } },
  { title: undefined, "aria-describedby": null },
  // Given attributes in their order after lucide's, one of lucide's replaced in place, aria-hidden where it was given.
  { "data-testid": "icon", "aria-label": "Close", "aria-hidden": "false", fill: "red", viewBox: "0 0 12 12" },
  { "data-testid": "icon", "aria-hidden": "false", xmlns: "http://www.w3.org/2000/svg" },
];

describe("the app's lucide icons", () => {
  it("are drawn as lucide-react draws them, for every icon the app uses and a sample of the others", async () => {
    expect(used.filter((n) => n.startsWith("missing:"))).toEqual([]);
    expect(used.length).toBeGreaterThan(40);
    for (const name of names) {
      const mod = (await import(`lucide-react/icons/${name}`)) as {
        default: ComponentType<Record<string, unknown>>;
        __iconData?: Omit<Parameters<typeof createLucideIcon>[0], "html"> & { node: Parameters<typeof iconMarkup>[0] };
      };
      expect(mod.__iconData, name).toBeDefined();
      if (!mod.__iconData) continue;
      const { node, ...data } = mod.__iconData;
      const Lean = createLucideIcon({ ...data, html: iconMarkup(node) }) as unknown as ComponentType<Record<string, unknown>>;
      for (const props of PROPS) {
        expect(renderToStaticMarkup(createElement(Lean, props)), `${name} ${JSON.stringify(props)}`).toBe(
          renderToStaticMarkup(createElement(mod.default, props)),
        );
      }
      // With children (a <title>): no aria-hidden, the children after the icon's own.
      for (const props of [
        { className: "x" },
        { nonScalingStroke: true, "aria-hidden": "true" },
        { "data-x": "1", "aria-hidden": "false" },
      ]) {
        const withTitle = (C: ComponentType<Record<string, unknown>>) =>
          renderToStaticMarkup(createElement(C, props, createElement("title", null, "A title")));
        expect(withTitle(Lean), name).toBe(withTitle(mod.default));
      }
    }
  });

  it("are built from lucide-react's modules with their shapes as markup, and one element each", async () => {
    const plugin = leanLucide();
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    const resolveId = plugin.resolveId as (source: string, importer?: string) => string | null;
    for (const name of used) {
      const id = path.join(ESM, "icons", `${name}.mjs`);
      const mod = (await import(`lucide-react/icons/${name}`)) as { __iconData: { node: Parameters<typeof iconMarkup>[0] } };
      const built = transform(fs.readFileSync(id, "utf8"), id)!.code;
      // The module still makes its icon with ../createLucideIcon.mjs, which the plugin answers with the app's.
      expect(built, name).toContain("createLucideIcon(__iconData)");
      expect(resolveId("../createLucideIcon.mjs", id)).toBe(path.resolve("app/components/ui/lucide-icon.ts"));
      const data = JSON.parse(/const __iconData = (\{.*\});\n/.exec(built)![1]!) as Parameters<typeof createLucideIcon>[0];
      const { node, ...rest } = mod.__iconData;
      expect(data).toEqual({ ...rest, html: iconMarkup(node) });
      expect(built).not.toMatch(/\bnode\b|key:/);
    }
    expect(resolveId("../createLucideIcon.mjs", path.resolve("app/x.mjs"))).toBeNull();
    expect(transform("const a = 1;", path.resolve("app/x.ts"))).toBeNull();
    // A module lucide-react wrote otherwise stops the build instead of drawing an icon without its shapes.
    const index = path.join(ESM, "icons", "index.mjs");
    expect(transform(fs.readFileSync(index, "utf8"), index)).toBeNull();
    const odd = "import createLucideIcon from '../createLucideIcon.mjs';\nexport default createLucideIcon('x', []);\n";
    expect(() => transform(odd, path.join(ESM, "icons", "x.mjs"))).toThrow(/without its data/);
    expect(() => iconMarkup([["path", { d: 'M0 0"' }]])).toThrow(/not drawn here/);
    expect(() => iconMarkup([["path", { strokeWidth: "1" }]])).toThrow(/not drawn here/);

    // One element an icon: React is handed the <svg> alone, its shapes as inner HTML.
    type Data = { name: string; node: Parameters<typeof iconMarkup>[0] };
    const { __iconData } = (await import(`lucide-react/icons/${"map-pin"}`)) as { __iconData: Data };
    const Lean = createLucideIcon({ ...__iconData, html: iconMarkup(__iconData.node) }) as unknown as {
      render: (props: Record<string, unknown>, ref: null) => ReactElement<{ children?: unknown; dangerouslySetInnerHTML?: unknown }>;
    };
    const rendered = Lean.render({ className: "size-4" }, null);
    expect(rendered.type).toBe("svg");
    expect(rendered.props.children).toBeUndefined();
    expect(rendered.props.dangerouslySetInnerHTML).toEqual({ __html: iconMarkup(__iconData.node) });
  });
});
