/**
 * The Vite plugin that gives the browser a smaller `__vitePreload` (decision 033, 2026-11-27).
 *
 * Vite wraps every `import()` of the client build in its preload helper, a chunk of its own that every page with a
 * dynamic import loads (the forms' engine, the place field, the map): 638 bytes gzip, of which the CSP nonce lookup
 * (this app has no `csp-nonce` meta: its script policy allows 'self'), the `allSettled` wrapper and the
 * `vite:preloadError` event (nothing listens for it) do nothing here. This one does what remains, the same way: the
 * chunks the imported one needs are asked for at once (`modulepreload`, so they come side by side rather than one
 * after another), each once and not if the page already links it, and its stylesheets are added and waited for; a
 * stylesheet or chunk that cannot be fetched rejects the import, as Vite's does when nothing handles the event.
 *
 * It answers for Vite's own module id; if a Vite release renamed it, Vite's helper would come back unchanged and the
 * JavaScript budget (tests/e2e/budget.spec.ts) would show the bytes.
 */
import type { Plugin } from "vite";

const HELPER_ID = "\0vite/preload-helper.js";

export function leanPreloadHelper(): Plugin {
  let base = "/";
  return {
    name: "ekc:lean-preload-helper",
    apply: "build",
    // Ahead of Vite's build-import-analysis plugin, which loads its own helper for this id.
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    configResolved(config) {
      base = config.base;
    },
    load(id) {
      if (id !== HELPER_ID) return null;
      return `const seen = {};
export const __vitePreload = (load, deps) =>
  Promise.all(
    (deps || []).map((dep) => {
      dep = ${JSON.stringify(base)} + dep;
      const css = dep.endsWith(".css");
      if (seen[dep] || document.querySelector(\`link[href="\${dep}"]\${css ? '[rel="stylesheet"]' : ""}\`)) return;
      seen[dep] = true;
      const link = document.createElement("link");
      link.rel = css ? "stylesheet" : "modulepreload";
      link.crossOrigin = "";
      link.href = dep;
      document.head.appendChild(link);
      if (css) return new Promise((resolve, reject) => {
        link.onload = resolve;
        link.onerror = () => reject(new Error(\`Unable to preload CSS for \${dep}\`));
      });
    }),
  ).then(load);
`;
    },
  };
}
