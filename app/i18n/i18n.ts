import { createContext, createElement, useContext, type ReactNode } from "react";

/**
 * A small translator in i18next's key format ("namespace:path.to.key", `{{name}}` interpolation). The page
 * receives only its own language's strings, as data in the HTML, which keeps every page within its
 * JavaScript budget (see docs/decisions/005-javascript-budget.md).
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

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return createElement(I18nContext.Provider, { value: i18n }, children);
}

export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useTranslation needs an I18nProvider");
  return { t: i18n.t, i18n };
}

/** The id of the JSON data block that carries the page's strings to the browser. */
export const STRINGS_ELEMENT_ID = "ekc-strings";

/** JSON safe to place inside a <script type="application/json"> element. */
export function serializeStrings(strings: Strings): string {
  return JSON.stringify(strings).replace(/</g, "\\u003c");
}
