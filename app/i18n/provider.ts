import { createContext, createElement, useContext, type ReactNode } from "react";
import type { I18n, TFunction } from "#shared/i18n/i18n.ts";

/** The page's translator, given to every component by the root (shared/i18n/i18n.ts makes it). */
const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return createElement(I18nContext.Provider, { value: i18n }, children);
}

export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useTranslation needs an I18nProvider");
  return { t: i18n.t, i18n };
}
