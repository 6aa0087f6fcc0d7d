/**
 * The Vite plugin that gives each browser module its own copy of `shared/constants.ts` (decision 033, 2026-11-27).
 *
 * The constants are one module that 40-odd modules of the browser import, so Rollup made it a chunk of its own (554
 * bytes gzip, every limit of the product) that most pages fetched for one or two numbers, and that `format.ts`
 * fetched for one. Each import of it from a module of the client build is answered with the same file under an id
 * of that importer's (`constants.ts?copy=<hash>`): Rollup sees separate modules, keeps of each only the exports its
 * importer uses and puts it in the importer's chunk, so a page carries the few numbers it uses, once per chunk that
 * uses them. The constants are plain values (numbers, strings and arrays of strings) that nothing compares by
 * identity, so a copy is the same to its reader. Client build only; the server and `vite dev` keep the one module.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { Plugin } from "vite";

const CONSTANTS = path.resolve("shared/constants.ts");

export function inlineConstants(): Plugin {
  return {
    name: "ekc:inline-constants",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    async resolveId(source, importer, options) {
      if (!importer || !/constants(\.ts)?$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved?.id !== CONSTANTS) return null;
      const copy = createHash("sha256").update(importer).digest("base64url").slice(0, 8);
      return `${CONSTANTS}?copy=${copy}`;
    },
  };
}
