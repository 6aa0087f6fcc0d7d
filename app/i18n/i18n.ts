import i18next, { type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { resources } from "./resources";

export const LANGS = ["en", "ur"] as const;
export type Lang = (typeof LANGS)[number];
export const LANG_COOKIE = "ekc_lang";
export const NAMESPACES = Object.keys(resources.en) as (keyof (typeof resources)["en"])[];

export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGS as readonly string[]).includes(value);
}

export function dirOf(lang: Lang): "rtl" | "ltr" {
  return lang === "ur" ? "rtl" : "ltr";
}

/** One instance per request on the server, one per page load in the browser. */
export function createI18n(lang: Lang): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: "en",
    resources,
    ns: NAMESPACES,
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}
