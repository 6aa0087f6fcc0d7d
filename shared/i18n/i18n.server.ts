import { createI18n, type I18n, type Lang } from "./i18n.ts";
import { resources } from "./resources.ts";

/**
 * A translator with every string of the language, for the server (pages, emails, the command line). Make one
 * per page: it records the namespaces the page used (`used`), and the page sends the browser only those.
 */
export function serverI18n(lang: Lang): I18n {
  return createI18n(lang, resources[lang], { fallback: resources.en });
}
