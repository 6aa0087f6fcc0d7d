import fs from "node:fs";
import path from "node:path";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import createLucideIcon from "#app/components/ui/lucide-icon.ts";

// The browser's icons are made by app/components/ui/lucide-icon.ts (scripts/lean-lucide-plugin.ts), the server's by
// lucide-react: the two must draw the same markup, or hydration would meet a different <svg> than the server sent.
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
];

describe("the browser's lucide icons", () => {
  it("are drawn as lucide-react draws them, for every icon the app uses and a sample of the others", async () => {
    expect(used.filter((n) => n.startsWith("missing:"))).toEqual([]);
    expect(used.length).toBeGreaterThan(40);
    for (const name of names) {
      const mod = (await import(`lucide-react/icons/${name}`)) as {
        default: ComponentType<Record<string, unknown>>;
        __iconData?: Parameters<typeof createLucideIcon>[0];
      };
      expect(mod.__iconData, name).toBeDefined();
      if (!mod.__iconData) continue;
      const Lean = createLucideIcon(mod.__iconData) as unknown as ComponentType<Record<string, unknown>>;
      for (const props of PROPS) {
        expect(renderToStaticMarkup(createElement(Lean, props)), `${name} ${JSON.stringify(props)}`).toBe(
          renderToStaticMarkup(createElement(mod.default, props)),
        );
      }
      // With children (a <title>): no aria-hidden, the children after the icon's own.
      const withTitle = (C: ComponentType<Record<string, unknown>>) =>
        renderToStaticMarkup(createElement(C, { className: "x" }, createElement("title", null, "A title")));
      expect(withTitle(Lean), name).toBe(withTitle(mod.default));
    }
  });
});
