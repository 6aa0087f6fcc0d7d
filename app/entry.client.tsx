import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { createI18n, isLang, STRINGS_ELEMENT_ID, type Strings } from "#shared/i18n/i18n.ts";
import { I18nProvider } from "#app/i18n/provider.ts";

const lang = document.documentElement.lang;
// The server puts this page's strings in the HTML as JSON, so they are not part of the JavaScript.
const strings = JSON.parse(document.getElementById(STRINGS_ELEMENT_ID)?.textContent ?? "{}") as Strings;
const i18n = createI18n(isLang(lang) ? lang : "en", strings);

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
