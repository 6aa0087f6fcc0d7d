/**
 * The Vite plugin that gives the browser React Router's production build (decision 033, 2026-11-27).
 *
 * `react-router`'s package exports name only `dist/development` (its development build, which warns about misused
 * routes and writes a "Hey developer" script into its default error page); `dist/production` is the same code with
 * `ENABLE_DEV_WARNINGS = false`, so a minifier drops those branches and their strings. For the client build, the
 * two entries the app reaches (`react-router` and `react-router/dom`) are resolved to their production files; the
 * production entries import their chunks by relative path, so the whole of React Router comes from one folder.
 * Loading any development file in the client build stops it: two copies of React Router (two router contexts)
 * would break every page.
 *
 * The server keeps the package's own export (decision 032: bundled once, with the app's `react-router` imports);
 * development (`vite dev`) pre-bundles dependencies itself and keeps its warnings.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

const ENTRIES = new Set(["react-router", "react-router/dom"]);
const DEVELOPMENT = `${path.sep}node_modules${path.sep}react-router${path.sep}dist${path.sep}development${path.sep}`;
const PRODUCTION = `${path.sep}node_modules${path.sep}react-router${path.sep}dist${path.sep}production${path.sep}`;

export function reactRouterProductionBuild(): Plugin {
  return {
    name: "ekc:react-router-production",
    apply: "build",
    // Before the React Router plugin and Vite's own resolver, which would otherwise answer first.
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    async resolveId(source, importer, options) {
      if (!ENTRIES.has(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !resolved.id.includes(DEVELOPMENT)) return resolved;
      const id = resolved.id.replace(DEVELOPMENT, PRODUCTION);
      if (!fs.existsSync(id)) this.error(`react-router has no production build of ${resolved.id} (${id} is missing)`);
      return { ...resolved, id };
    },
    load(id) {
      if (id.includes(DEVELOPMENT)) {
        this.error(`the client build reached React Router's development build (${id}) beside its production build`);
      }
      return null;
    },
  };
}
