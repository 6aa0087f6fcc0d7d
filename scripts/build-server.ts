/**
 * Compiles the server (server/main.ts and what it imports from server/ and shared/) into one JavaScript file,
 * `build/node/server.js`, so production runs plain Node: no TypeScript compiled at start, no tsx launcher process
 * (decision 032). Run by `npm run build` after `react-router build`; `npm start` runs the result.
 *
 * Packages stay outside the bundle and load from node_modules as they do for React Router's server build, so both
 * share one copy of each (drizzle, zod, hono). React picks its production build itself under NODE_ENV=production.
 * The files the server reads from disk beside its own module (the migrations, the gazetteer) are copied next to it,
 * and the PDFs' Urdu font beside React Router's server chunk; the child process that re-makes spending PDFs beside
 * both bundles.
 *
 *   npx tsx scripts/build-server.ts
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { PDF_URDU_FONT } from "#server/domain/pdf.ts";
import { REMAKE_PDF_CHILD, REMAKE_PDF_CHILD_BUILD } from "#server/domain/ledger/remake-pdf.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.resolve(root, process.env.BUILD_DIR ?? "build", "node");

fs.rmSync(outDir, { recursive: true, force: true });
await esbuild.build({
  absWorkingDir: root,
  entryPoints: ["server/main.ts"],
  outfile: path.join(outDir, "server.js"),
  bundle: true,
  packages: "external",
  platform: "node",
  format: "esm",
  target: "node20",
  // Stack traces in the log name the TypeScript source under `node --enable-source-maps`.
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
});
// Read at run time relative to the module that reads them (server/db/client.ts, server/domain/places/gazetteer.ts).
fs.cpSync(path.join(root, "server/db/migrations"), path.join(outDir, "migrations"), { recursive: true });
fs.copyFileSync(path.join(root, "server/domain/places/pakistan-places.json"), path.join(outDir, "pakistan-places.json"));
// The PDFs' Urdu font (server/domain/pdf.ts, decision 039), read beside React Router's server chunk that holds the
// receipt and poster routes.
fs.copyFileSync(
  path.join(root, "server/domain", PDF_URDU_FONT),
  path.resolve(root, process.env.BUILD_DIR ?? "build", "server/assets", PDF_URDU_FONT),
);
// The child process that re-makes spending PDFs (decision 049), started from the module that holds remake-pdf.ts:
// this bundle (the demo seed) and React Router's server chunk (the NGO's form), so it is written beside both.
const childFile = path.join(outDir, `${REMAKE_PDF_CHILD}.js`);
await esbuild.build({
  ...REMAKE_PDF_CHILD_BUILD,
  absWorkingDir: root,
  entryPoints: [`server/domain/ledger/${REMAKE_PDF_CHILD}.ts`],
  outfile: childFile,
});
fs.copyFileSync(childFile, path.resolve(root, process.env.BUILD_DIR ?? "build", "server/assets", `${REMAKE_PDF_CHILD}.js`));
console.log(`Compiled the server into ${path.relative(root, outDir)}/server.js`);
