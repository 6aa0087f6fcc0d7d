import { createContext, createElement, useContext, type ReactNode } from "react";
import type { I18n, TFunction } from "#shared/i18n/i18n.ts";

/** The page's translator, given to every component by the root (shared/i18n/i18n.ts makes it). */
const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return createElement(I18nContext.Provider, { value: i18n }, children);
}

/**
 * The page's translator. Name the namespaces a component shows only later (after hydration, in a callback or an
 * effect): the page then carries them from the server, and a screen reached in the browser waits for them before
 * it shows, instead of the later render or callback waiting (decision 035).
 */
export function useTranslation(...later: string[]): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useTranslation needs an I18nProvider");
  if (later.length > 0) i18n.need(later);
  return { t: i18n.t, i18n };
}
