import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { routeEntries } from "./route-areas.ts";
import { LANGS } from "#shared/i18n/i18n.ts";
import type { GuardedArea } from "#app/lib/http.server.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const appDir = path.join(root, "app");

/**
 * One address of the app and what it takes, derived from the route table, the route modules and the form
 * schemas they import (and, for the few routes the Hono app answers itself, from server/http/app.ts), so a
 * new route or a new field is covered without anyone listing it here.
 */
export interface RouteInfo {
  /** The path template, e.g. `/campaigns/:id/edit`. */
  path: string;
  /** Names of its dynamic segments, in order. */
  params: string[];
  /** Answers GET (has a loader, or is a Hono GET route). */
  get: boolean;
  /** Takes posts (exports `action`, or is a Hono POST route). */
  post: boolean;
  /** The action reads the request body (else its only inputs are the address and the session). */
  readsBody: boolean;
  /** The signed-in area whose guard the route sits behind (app/routes.ts), or null for public paths. */
  area: GuardedArea | null;
  /** Form field names, from the form schemas the module (and its helpers) import. */
  fields: string[];
  /** Values the forms' enums and literals accept (the `intent` values among them), by field. */
  knownValues: Record<string, string[]>;
  /** Fields that hold a file. */
  fileFields: string[];
  /** Query parameters the module reads. */
  query: string[];
  /** Where the facts came from, for messages. */
  source: string;
}

type ZodLike = { _zod?: { def?: Record<string, unknown> } };

/** Field names, accepted literal values and file fields of a zod (mini) schema. */
function describeSchema(
  schema: unknown,
  out: { fields: Set<string>; values: Map<string, Set<string>>; files: Set<string> },
  key?: string,
  seen = new Set<unknown>(),
): void {
  const def = (schema as ZodLike | undefined)?._zod?.def;
  if (!def || seen.has(schema)) return;
  seen.add(schema);
  const addValue = (v: unknown) => {
    if (!key || (typeof v !== "string" && typeof v !== "number")) return;
    if (!out.values.has(key)) out.values.set(key, new Set());
    out.values.get(key)!.add(String(v));
  };
  const walk = (s: unknown, k = key) => describeSchema(s, out, k, seen);
  switch (def.type) {
    case "object":
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) {
        out.fields.add(k);
        walk(v, k);
      }
      break;
    case "union":
      for (const o of def.options as unknown[]) walk(o);
      break;
    case "pipe":
      walk(def.in);
      walk(def.out);
      break;
    case "array":
      walk(def.element);
      break;
    case "literal":
      for (const v of def.values as unknown[]) addValue(v);
      break;
    case "enum":
      for (const v of Object.values(def.entries as Record<string, unknown>)) addValue(v);
      break;
    case "custom":
      // z.instanceof(File): the only custom checks the forms use.
      if (key) out.files.add(key);
      break;
    default:
      for (const inner of ["innerType", "schema"]) if (def[inner]) walk(def[inner]);
  }
}

const IMPORT = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/g;

/** Route code: modules under app/routes and the helpers beside their pages in app/components/<area>/ (not ui/). */
function isRouteCode(file: string): boolean {
  const rel = path.relative(appDir, file).split(path.sep);
  return rel[0] === "routes" || (rel[0] === "components" && rel.length > 2 && rel[1] !== "ui");
}

/** The module's source and the sources of the route code it imports, recursively. */
function moduleSources(file: string, seen = new Set<string>()): { file: string; text: string }[] {
  if (seen.has(file) || !fs.existsSync(file)) return [];
  seen.add(file);
  const text = fs.readFileSync(file, "utf8");
  const out = [{ file, text }];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[2]!;
    if (!spec.startsWith("./") && !spec.startsWith("#app/")) continue;
    const base = spec.startsWith("#") ? path.join(root, spec.slice(1)) : path.resolve(path.dirname(file), spec);
    if (!isRouteCode(base)) continue;
    for (const ext of ["", ".ts", ".tsx"]) {
      if (fs.existsSync(base + ext) && fs.statSync(base + ext).isFile()) {
        out.push(...moduleSources(base + ext, seen));
        break;
      }
    }
  }
  return out;
}

const QUERY = /searchParams\.(?:get|getAll|has)\("([^"]+)"\)/g;
const INTENT_LITERALS = [/intent\s*===\s*"([^"]+)"/g, /name="intent"\s+value="([^"]+)"/g];

async function describeModule(file: string) {
  const sources = moduleSources(path.join(appDir, file));
  const out = { fields: new Set<string>(), values: new Map<string, Set<string>>(), files: new Set<string>() };
  const query = new Set<string>();
  let readsBody = false;
  for (const { text } of sources) {
    if (/readFormData\(|\.formData\(\)|\.text\(\)|\.json\(\)|\.arrayBuffer\(\)/.test(text)) readsBody = true;
    for (const m of text.matchAll(QUERY)) query.add(m[1]!);
    // A switch on the intent names the intents it takes (the settings pages).
    const patterns = /switch \(intent\)/.test(text) ? [...INTENT_LITERALS, /case "([^"]+)":/g] : INTENT_LITERALS;
    for (const re of patterns) {
      for (const m of text.matchAll(re)) {
        out.fields.add("intent");
        if (!out.values.has("intent")) out.values.set("intent", new Set());
        out.values.get("intent")!.add(m[1]!);
      }
    }
    for (const m of text.matchAll(IMPORT)) {
      if (!m[2]!.startsWith("#shared/forms/")) continue;
      const mod = (await import(path.join(root, m[2]!.slice(1)))) as Record<string, unknown>;
      for (const name of m[1]!.split(",").map((n) =>
        n
          .replace(/^\s*type\s+/, "")
          .split(/\s+as\s+/)[0]!
          .trim(),
      )) {
        const value = mod[name];
        if (Array.isArray(value) && /INTENTS$/.test(name)) {
          out.fields.add("intent");
          if (!out.values.has("intent")) out.values.set("intent", new Set());
          for (const v of value) out.values.get("intent")!.add(String(v));
        } else {
          describeSchema(value, out);
        }
      }
    }
  }
  return { out, query, readsBody, files: sources.map((s) => path.relative(root, s.file)) };
}

function paramsOf(p: string): string[] {
  return [...p.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
}

/**
 * Every route of the React Router route table (its loader and action as the real server build has them) and
 * every route the Hono app answers itself (`app.routes`, minus middleware and catch-alls).
 */
export async function routeInventory(build: ServerBuild, honoRoutes: { method: string; path: string }[]): Promise<RouteInfo[]> {
  const out: RouteInfo[] = [];
  for (const entry of routeEntries()) {
    const mod = build.routes[entry.id]?.module as Record<string, unknown> | undefined;
    if (!mod) throw new Error(`route ${entry.id} (${entry.path}) is in app/routes.ts but not in the server build`);
    const { out: d, query, readsBody } = await describeModule(entry.file);
    out.push({
      path: entry.path,
      params: paramsOf(entry.path),
      get: typeof mod.loader === "function",
      post: typeof mod.action === "function",
      readsBody,
      area: entry.area,
      fields: [...d.fields],
      knownValues: Object.fromEntries([...d.values].map(([k, v]) => [k, [...v]])),
      fileFields: [...d.files],
      query: [...query],
      source: entry.file,
    });
  }
  // The Hono app's own routes: what they read is written in server/http/app.ts.
  const honoSource = fs.readFileSync(path.join(root, "server/http/app.ts"), "utf8");
  const formFields = [...new Set([...honoSource.matchAll(/form\.(?:get|getAll)\("([^"]+)"\)/g)].map((m) => m[1]!))];
  const queryNames = [...new Set([...honoSource.matchAll(/c\.req\.query\("([^"]+)"\)/g)].map((m) => m[1]!))];
  const own = honoRoutes.filter((r) => r.path !== "*" && r.path !== "/*" && !r.path.endsWith("/*") && r.method !== "ALL");
  const byPath = new Map<string, { get: boolean; post: boolean }>();
  for (const r of own) {
    const seen = byPath.get(r.path) ?? { get: false, post: false };
    if (r.method === "GET") seen.get = true;
    if (r.method === "POST") seen.post = true;
    byPath.set(r.path, seen);
  }
  for (const [p, { get, post }] of byPath) {
    out.push({
      path: p,
      params: paramsOf(p),
      get,
      post,
      readsBody: post,
      area: null,
      fields: post ? formFields : [],
      knownValues: post ? { lang: [...LANGS] } : {},
      fileFields: [],
      query: queryNames,
      source: "server/http/app.ts",
    });
  }
  return out;
}
