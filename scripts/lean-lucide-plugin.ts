/**
 * The Vite plugin that makes lucide-react's icons with `app/components/ui/lucide-icon.ts` instead of the package's
 * `createLucideIcon`, in the browser's build and the server's (decisions 033 and 037, 2026-11-27): the same markup,
 * one React element an icon instead of one for the `<svg>` and one for each shape, without the package's generic
 * builder and context. `vite dev` keeps the package's own (there the server loads lucide-react from node_modules).
 *
 * Each icon module (`lucide-react/dist/esm/icons/*.mjs`) imports `../createLucideIcon.mjs`; that import is answered
 * with our module, and the module's data (`const __iconData = {…, node: [[tag, attributes], …]}`) is rewritten with
 * its shapes as markup (`html`) in place of `node`, as React would write them, so neither the server nor the browser
 * builds them. A release of lucide-react that wrote its icons otherwise stops the build here, rather than drawing
 * icons without their shapes.
 */
import path from "node:path";
import type { Plugin } from "vite";

const ICON_MODULE = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/][^\\/]+\.mjs$/;
const LEAN = path.resolve("app/components/ui/lucide-icon.ts");
const ICON_DATA = /const __iconData = (\{[\s\S]*?\n\});\n(?:__iconData\.node;\n)?/;

type IconNode = [string, Record<string, string | number>, unknown?][];

/**
 * An icon's shapes as the markup React's server renderer writes for them (`<path d="…"></path>`), lucide's `key`s
 * left out. Attribute names are lucide's SVG names as they are (d, cx, x1, …: none needs React's renaming); a name
 * or value that would need renaming or escaping is refused, so what is written is exactly what React would write.
 */
export function iconMarkup(node: IconNode): string {
  return node
    .map(([tag, attributes, children]) => {
      if (!/^[a-z]+$/.test(tag) || children !== undefined) throw new Error(`lucide shape not drawn here: ${tag}`);
      const attrs = Object.entries(attributes)
        .filter(([name]) => name !== "key")
        .map(([name, value]) => {
          if (!/^[a-z][a-z0-9]*$/.test(name) || /[&<>"']/.test(String(value))) {
            throw new Error(`lucide attribute not drawn here: ${tag} ${name}=${String(value)}`);
          }
          return ` ${name}="${String(value)}"`;
        });
      return `<${tag}${attrs.join("")}></${tag}>`;
    })
    .join("");
}

export function leanLucide(): Plugin {
  return {
    name: "ekc:lean-lucide",
    apply: "build",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "../createLucideIcon.mjs" && importer && ICON_MODULE.test(importer)) return LEAN;
      return null;
    },
    transform(code, id) {
      // An icon's module, not the folder's index of them.
      if (!ICON_MODULE.test(id) || !code.includes(`from '../createLucideIcon.mjs'`)) return null;
      const found = ICON_DATA.exec(code);
      if (!found) throw new Error(`lucide-react icon module without its data as expected: ${id}`);
      // lucide's own data (object and array literals of strings and numbers), read as the expression it is.
      const data = new Function(`return (${found[1]});`)() as { node: IconNode } & Record<string, unknown>;
      const { node, ...rest } = data;
      const lean = `const __iconData = ${JSON.stringify({ ...rest, html: iconMarkup(node) })};\n`;
      return { code: code.replace(found[0], lean), map: null };
    },
  };
}
