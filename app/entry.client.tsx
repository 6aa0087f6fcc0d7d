import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { createI18n, isLang, STRINGS_ELEMENT_ID, type Strings } from "#shared/i18n/i18n.ts";
import { I18nProvider } from "#app/i18n/provider.ts";
import { fetchMissingNamespaces } from "#app/i18n/strings-files.ts";

const htmlLang = document.documentElement.lang;
const lang = isLang(htmlLang) ? htmlLang : "en";
// The server puts the strings this page's render used in the HTML as JSON, so they are not part of the
// JavaScript; another screen's namespaces are fetched when it first needs them.
const strings = JSON.parse(document.getElementById(STRINGS_ELEMENT_ID)?.textContent ?? "{}") as Strings;
const i18n = createI18n(lang, strings, { missing: fetchMissingNamespaces(lang, strings) });

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <HydratedRouter />
      </I18nProvider>
    </StrictMode>,
  );
});
