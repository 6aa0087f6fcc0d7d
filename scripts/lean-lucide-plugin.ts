/**
 * The Vite plugin that makes the browser's lucide-react icons with `app/components/ui/lucide-icon.ts` instead of the
 * package's `createLucideIcon` (decision 033, 2026-11-27): the same markup without the package's generic builder
 * and context, about 1 KB (gzip) less on every page. Client build only; the server and `vite dev` keep the package's.
 *
 * Each icon module (`lucide-react/dist/esm/icons/*.mjs`) imports `../createLucideIcon.mjs`; that one import is
 * answered with our module. If a release of lucide-react made its icons otherwise, nothing would be replaced and
 * the JavaScript budget (tests/e2e/budget.spec.ts) would show the bytes; the markup test would still hold the two equal.
 */
import path from "node:path";
import type { Plugin } from "vite";

const ICON_MODULE = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/][^\\/]+\.mjs$/;
const LEAN = path.resolve("app/components/ui/lucide-icon.ts");

export function leanLucide(): Plugin {
  return {
    name: "ekc:lean-lucide",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    resolveId(source, importer) {
      if (source === "../createLucideIcon.mjs" && importer && ICON_MODULE.test(importer)) return LEAN;
      return null;
    },
  };
}
