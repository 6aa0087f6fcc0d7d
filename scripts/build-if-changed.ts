import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `npm run quickstart` builds through this: the production build is made again only when something it is made
 * from changed since the last build (the app, the server code it compiles, the shared code, public files, the
 * packages and the build's configuration), so restarting the demo takes seconds instead of a rebuild.
 */
const INPUTS = [
  "app",
  "server",
  "shared",
  "public",
  // patch-package's patches of the libraries the build bundles and the server loads (React Router, React DOM).
  "patches",
  "scripts/build-server.ts",
  "scripts/precompress.ts",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
];

/** The project's files `vite.config.ts` imports (its plugins), read from it so that a new plugin is never left out. */
export function viteConfigImports(root: string): string[] {
  const config = path.join(root, "vite.config.ts");
  if (!fs.existsSync(config)) return [];
  const text = fs.readFileSync(config, "utf8");
  return [...text.matchAll(/^import[^;]*?from\s+"\.\/([^"]+)";/gm)].map((m) => m[1]!).sort();
}
const STAMP = ".inputs-hash";

/** A hash of every input file's path and bytes, in a fixed order. */
export function buildInputsHash(root: string): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    const full = path.join(root, rel);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) visit(path.join(rel, name));
      return;
    }
    hash.update(`${rel}\0`);
    hash.update(fs.readFileSync(full));
    hash.update("\0");
  };
  for (const input of [...INPUTS, ...viteConfigImports(root)]) visit(input);
  return hash.digest("hex");
}

/** Whether the build in `buildDir` was made from exactly these inputs. */
export function buildIsCurrent(root: string, buildDir: string, inputsHash: string): boolean {
  const stamp = path.join(root, buildDir, STAMP);
  const outputs = [path.join(root, buildDir, "server", "index.js"), path.join(root, buildDir, "node", "server.js")];
  return outputs.every((file) => fs.existsSync(file)) && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === inputsHash;
}

/** Makes the production build in `buildDir` (as `npm run build` does) unless it was made from exactly today's inputs. */
export function buildIfChanged(root: string, buildDir: string): void {
  const inputsHash = buildInputsHash(root);
  if (buildIsCurrent(root, buildDir, inputsHash)) {
    console.log("The build is up to date: nothing it is made from changed.");
    return;
  }
  // The build and its precompressed assets, as `npm run build` makes them.
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, BUILD_DIR: buildDir } });
  fs.writeFileSync(path.join(root, buildDir, STAMP), inputsHash);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildIfChanged(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."), process.env.BUILD_DIR ?? "build");
}
