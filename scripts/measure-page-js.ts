/**
 * Gzipped JavaScript each route's page loads, read from a client build rather than a browser (decision 033): the
 * entry, each module and import React Router's manifest lists for the route and its parents, and every chunk those
 * import in turn, each gzipped alone at Node's default level, as tests/e2e/budget.spec.ts counts what the browser
 * fetched. A chunk the page fetches on demand (a dialog opened on a record, the parts only some records show) is
 * named after the route, by the start of its file name, and added with its imports.
 *
 *   npx tsx scripts/measure-page-js.ts                       every route with a screen, heaviest last
 *   npx tsx scripts/measure-page-js.ts routes/review/apps donation-review donation-record
 *   BUILD=/elsewhere/build V=1 npx tsx scripts/measure-page-js.ts routes/goods/offer   (V=1: each chunk's bytes)
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 120 * 1024;
const assets = path.join(process.env.BUILD ?? "build", "client", "assets");
const files = fs.readdirSync(assets);
const manifestFile = files.find((f) => /^manifest-[\w-]+\.js$/.test(f));
if (!manifestFile) throw new Error(`no React Router manifest in ${assets}: run npm run build first`);
const manifestText = fs.readFileSync(path.join(assets, manifestFile), "utf8");

interface RouteEntry {
  parentId?: string;
  module: string;
  imports?: string[];
  hasDefaultExport: boolean;
}
const manifest = JSON.parse(manifestText.slice(manifestText.indexOf("=") + 1).replace(/;\s*$/, "")) as {
  entry: { module: string; imports: string[] };
  routes: Record<string, RouteEntry>;
};

const gzipped = new Map<string, number>();
const size = (name: string) => {
  let n = gzipped.get(name);
  if (n === undefined) gzipped.set(name, (n = gzipSync(fs.readFileSync(path.join(assets, name))).length));
  return n;
};

/** The chunks a page of this route loads, with the named on-demand chunks. */
function chunksOf(routeId: string, onDemand: string[]): Set<string> {
  const found = new Set<string>();
  const add = (ref: string) => {
    const name = path.basename(ref);
    if (found.has(name) || !name.endsWith(".js")) return;
    found.add(name);
    // Static imports only: a dynamic import() is fetched when the page asks for it, so it is named on demand.
    for (const m of fs.readFileSync(path.join(assets, name), "utf8").matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) add(m[1]!);
  };
  add(manifest.entry.module);
  manifest.entry.imports.forEach(add);
  for (let id: string | undefined = routeId; id; id = manifest.routes[id]?.parentId) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the manifest`);
    add(route.module);
    route.imports?.forEach(add);
  }
  for (const start of onDemand) {
    const file = files.find((f) => f.startsWith(`${start}-`) && /^[\w.-]+-[\w-]{8}\.js$/.test(f));
    if (!file) throw new Error(`no chunk ${start}-*.js`);
    add(file);
  }
  return found;
}

function report(routeId: string, onDemand: string[]) {
  const chunks = [...chunksOf(routeId, onDemand)];
  const total = chunks.reduce((sum, name) => sum + size(name), 0);
  if (process.env.V) for (const name of chunks.sort((a, b) => size(b) - size(a))) console.log(String(size(name)).padStart(9), name);
  return { total, line: `${String(total).padStart(9)} ${String(BUDGET - total).padStart(7)} under  ${[routeId, ...onDemand].join(" ")}` };
}

const [routeId, ...onDemand] = process.argv.slice(2);
if (routeId) {
  console.log(report(routeId, onDemand).line);
} else {
  const rows = Object.entries(manifest.routes)
    .filter(([, route]) => route.hasDefaultExport)
    .map(([id]) => report(id, []))
    .sort((a, b) => a.total - b.total);
  for (const row of rows) console.log(row.line);
}
