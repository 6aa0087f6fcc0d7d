/**
 * The Vite plugin that makes every namespace of every language a file of the client build (decision 035):
 * `/assets/strings-<version>/<lang>/<namespace>.json`, minified, where the version is a hash of all the strings,
 * so the files are cached for a year like the other hashed assets and a changed word is a new address. The
 * browser's translator (app/i18n/strings-files.ts) reads the address from the module
 * `virtual:strings-files`; in development the same addresses are answered from shared/locales as they are now.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

const MODULE_ID = "virtual:strings-files";
const RESOLVED_ID = `\0${MODULE_ID}`;
const LOCALES_DIR = path.resolve("shared/locales");
const FILE_PATH = /^\/assets\/strings-[\w-]+\/(\w+)\/(\w+)\.json$/;

interface StringsFiles {
  /** "lang/namespace" → the file's minified JSON. */
  files: Map<string, string>;
  version: string;
}

function readStrings(): StringsFiles {
  const files = new Map<string, string>();
  const hash = createHash("sha256");
  for (const lang of fs.readdirSync(LOCALES_DIR).sort()) {
    for (const file of fs.readdirSync(path.join(LOCALES_DIR, lang)).sort()) {
      if (!file.endsWith(".json")) continue;
      const namespace = file.slice(0, -".json".length);
      const body = JSON.stringify(JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, lang, file), "utf8")));
      files.set(`${lang}/${namespace}`, body);
      hash.update(`${lang}/${namespace}\0${body}\0`);
    }
  }
  return { files, version: hash.digest("base64url").slice(0, 10) };
}

export function stringsFiles(): Plugin {
  let strings = readStrings();
  return {
    name: "ekc-strings-files",
    buildStart() {
      strings = readStrings();
    },
    resolveId(id) {
      return id === MODULE_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      return `export const STRINGS_BASE = ${JSON.stringify(`/assets/strings-${strings.version}/`)};`;
    },
    generateBundle() {
      if (this.environment.config.consumer !== "client") return;
      for (const [name, source] of strings.files) {
        this.emitFile({ type: "asset", fileName: `assets/strings-${strings.version}/${name}.json`, source });
      }
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const match = FILE_PATH.exec(req.url ?? "");
        const body = match && readStrings().files.get(`${match[1]}/${match[2]}`);
        if (!body) return next();
        res.setHeader("Content-Type", "application/json; charset=utf-8");
        res.setHeader("Cache-Control", "no-cache");
        res.end(body);
      });
    },
  };
}
