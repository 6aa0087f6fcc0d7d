/**
 * A small translator in i18next's key format ("namespace:path.to.key", `{{name}}` interpolation). The page
 * receives only its own language's strings, as data in the HTML, which keeps every page within its
 * JavaScript budget (see docs/decisions/005-javascript-budget.md). The React side is app/i18n/provider.ts.
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
}

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGS as readonly string[]).includes(value);
}

export function dirOf(lang: Lang): "rtl" | "ltr" {
  return lang === "ur" ? "rtl" : "ltr";
}

function lookup(strings: Strings, key: string): unknown {
  const colon = key.indexOf(":");
  const ns = colon === -1 ? DEFAULT_NAMESPACE : key.slice(0, colon);
  const path = colon === -1 ? key : key.slice(colon + 1);
  let node: unknown = strings[ns];
  for (const part of path.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function createI18n(language: Lang, strings: Strings, fallback?: Strings): I18n {
  const t: TFunction = (key, params) => {
    let text = lookup(strings, key);
    if (typeof text !== "string" && fallback) text = lookup(fallback, key);
    if (typeof text !== "string") return params?.defaultValue !== undefined ? String(params.defaultValue) : key;
    if (!params) return text;
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };
  return { language, strings, t };
}

/** The id of the JSON data block that carries the page's strings to the browser. */
export const STRINGS_ELEMENT_ID = "ekc-strings";

/** JSON safe to place inside a <script type="application/json"> element. */
export function serializeStrings(strings: Strings): string {
  return JSON.stringify(strings).replace(/</g, "\\u003c");
}
