import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import type { ManualChunkMeta } from "rollup";
import { defineConfig } from "vite";
import { inlineConstants } from "./scripts/inline-constants-plugin.ts";
import { leanLucide } from "./scripts/lean-lucide-plugin.ts";
import { leanPreloadHelper } from "./scripts/lean-preload-helper-plugin.ts";
import { reactRouterProductionBuild } from "./scripts/react-router-production-plugin.ts";
import { reactRouterWithoutUnused } from "./scripts/react-router-unused-plugin.ts";
import { stringsFiles } from "./scripts/strings-files-plugin.ts";

/** React, React DOM and React Router: every page loads all of them. */
const FRAMEWORK = /\/node_modules\/(react|react-dom|scheduler|react-router)\//;
/** The client's entry and the root route, whose own modules (the shell, the translator) every page loads too. */
const EVERY_PAGE = /\/app\/(entry\.client\.tsx|root\.tsx\?__react-router-build-client-route)$/;

let everyPage: Set<string> | undefined;
/** The project's modules that the entry and the root route import, directly or through each other. */
function everyPageModules(meta: ManualChunkMeta): Set<string> {
  if (everyPage) return everyPage;
  const found = new Set<string>();
  const walk = (id: string) => {
    for (const dep of meta.getModuleInfo(id)?.importedIds ?? []) {
      if (found.has(dep) || dep.includes("/node_modules/") || dep.startsWith("\0") || /\.css(\?|$)/.test(dep)) continue;
      found.add(dep);
      walk(dep);
    }
  };
  for (const id of meta.getModuleIds()) if (EVERY_PAGE.test(id)) walk(id);
  everyPage = found;
  return found;
}

export default defineConfig(({ command }) => ({
  // The browser gets React Router's production build, without its development warnings, and a smaller helper for
  // dynamic imports than Vite's, and lucide's icons made by a smaller function (decision 033, 2026-11-27).
  plugins: [
    tailwindcss(),
    reactRouter(),
    stringsFiles(),
    reactRouterProductionBuild(),
    reactRouterWithoutUnused(),
    leanPreloadHelper(),
    leanLucide(),
    inlineConstants(),
  ],
  build: {
    assetsInlineLimit: 0,
    // Terser makes React DOM and React Router 3 KB (gzip) smaller than esbuild's minifier (decision 033).
    // NO_MINIFY=1 keeps the functions' names for a CPU or allocation profile (bench/render-profile.ts,
    // bench/alloc-profile.ts); never shipped.
    minify: process.env.NO_MINIFY ? false : "terser",
    terserOptions: { compress: { passes: 2 } },
    rollupOptions: {
      output: {
        manualChunks: (id, meta) => {
          // What every page loads is one file, which compresses 6 KB (gzip) smaller than the ten it was split into.
          if (FRAMEWORK.test(id) || everyPageModules(meta).has(id)) return "framework";
          // Leaflet is one chunk of its own, shared by the campaign map and the place field's point map, which
          // both load it on demand; left to itself Rollup would merge it with a small module those pages share.
          // The controls only the point map shows stay in its own chunk.
          if (id.includes("/node_modules/leaflet/src/") && !id.includes("/leaflet/src/control/")) return "leaflet";
          return undefined;
        },
      },
    },
  },
  // The server build takes only the icons the app draws; loaded from node_modules, lucide-react's server entry is
  // every icon (half a second and 45 MB at start). Development keeps it external, so Vite does not transform it.
  ssr: command === "build" ? { noExternal: ["lucide-react"] } : {},
}));
