import { isolateForeign } from "#shared/text.ts";

/**
 * A small translator in i18next's key format ("namespace:path.to.key", `{{name}}` interpolation). The page
 * receives, as data in its HTML, only the namespaces its server render used (plus ALWAYS_SENT); a later
 * screen's other namespaces come from hashed, cached files (app/i18n/strings-files.ts, decision 035). The
 * React side is app/i18n/provider.ts.
 */
export const LANGS = ["en", "ur"] as const;
export type Lang = (typeof LANGS)[number];
export const LANG_COOKIE = "ekc_lang";
export const DEFAULT_NAMESPACE = "common";

/** One language's strings: namespace → nested keys → text. */
export type Strings = Record<string, unknown>;

/** `params.defaultValue` is shown when the key has no text (e.g. an action recorded by a newer area). */
export type TFunction = (key: string, params?: Record<string, string | number>) => string;

export interface I18n {
  language: Lang;
  strings: Strings;
  t: TFunction;
  /** The namespaces `t` has been asked for, in the order first asked (the server's page render reads them). */
  used: Set<string>;
  /** Asks for namespaces the page may show later (a form's messages) as if `t` had asked for them now. */
  need: (namespaces: Iterable<string>) => void;
}

/**
 * Namespaces every page receives whatever its first render used: the shell's words, and the messages a form
 * or a refused action may show later without a new page (client-side validation, errors).
 */
export const ALWAYS_SENT = ["common", "validation", "errors"] as const;

/**
 * What `t` does when a namespace is not loaded: the browser's translator (entry.client) fetches it and
 * suspends the render until it arrives; undefined means the key is missing.
 */
export type MissingNamespace = (namespace: string) => Strings[string] | undefined;

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGS as readonly string[]).includes(value);
}

export function dirOf(lang: Lang): "rtl" | "ltr" {
  return lang === "ur" ? "rtl" : "ltr";
}

function splitKey(key: string): [namespace: string, path: string] {
  const colon = key.indexOf(":");
  return colon === -1 ? [DEFAULT_NAMESPACE, key] : [key.slice(0, colon), key.slice(colon + 1)];
}

function lookup(node: unknown, path: string): unknown {
  for (const part of path.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * The texts found so far in a language's strings, by key, with their namespace. The server's strings of a language are
 * one object for every request (and a page's in the browser one for its life), and a text found in them does not
 * change, so each key is split and looked up once rather than on every call (decision 037, session 19).
 */
const foundTexts = new WeakMap<Strings, Map<string, [namespace: string, text: string]>>();

export function createI18n(language: Lang, strings: Strings, options: { fallback?: Strings; missing?: MissingNamespace } = {}): I18n {
  const { fallback, missing } = options;
  const used = new Set<string>();
  const dir = dirOf(language);
  let found = foundTexts.get(strings);
  if (!found) foundTexts.set(strings, (found = new Map()));
  const namespaceOf = (ns: string) => {
    used.add(ns);
    if (strings[ns] === undefined && missing) strings[ns] = missing(ns);
    return strings[ns];
  };
  const t: TFunction = (key, params) => {
    let text: unknown;
    const known = found.get(key);
    if (known) {
      used.add(known[0]);
      text = known[1];
    } else {
      const [ns, path] = splitKey(key);
      text = lookup(namespaceOf(ns), path);
      if (typeof text === "string") found.set(key, [ns, text]);
      else if (fallback) text = lookup(fallback[ns], path);
    }
    if (typeof text !== "string") return params?.defaultValue !== undefined ? String(params.defaultValue) : key;
    if (!params) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      name in params ? isolateForeign(String(params[name]), dir) : whole,
    );
  };
  const need = (namespaces: Iterable<string>) => {
    for (const ns of namespaces) namespaceOf(ns);
  };
  return { language, strings, t, used, need };
}

/** The part of a translator's strings a page carries in its HTML: what its render used, and ALWAYS_SENT. */
export function pageStrings(i18n: I18n): Strings {
  const page: Strings = {};
  for (const ns of [...ALWAYS_SENT, ...i18n.used]) if (i18n.strings[ns] !== undefined) page[ns] = i18n.strings[ns];
  return page;
}

/** The id of the JSON data block that carries the page's strings to the browser. */
export const STRINGS_ELEMENT_ID = "ekc-strings";

const namespaceJson = new WeakMap<object, string>();

/**
 * JSON safe to place inside a <script type="application/json"> element. A language's namespaces do not change
 * while the server runs, so each one's JSON is made once and kept (by its object) for every page that sends it.
 */
export function serializeStrings(strings: Strings): string {
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  const parts = Object.entries(strings).map(([namespace, value]) => {
    if (typeof value !== "object" || value === null) return `${json(namespace)}:${json(value)}`;
    let made = namespaceJson.get(value);
    if (made === undefined) namespaceJson.set(value, (made = json(value)));
    return `${json(namespace)}:${made}`;
  });
  return `{${parts.join(",")}}`;
}
