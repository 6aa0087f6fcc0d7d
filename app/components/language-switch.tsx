import { useTranslation } from "#app/i18n/provider.ts";
import { useLocation } from "react-router";

/** A plain form post, so switching works before JavaScript arrives; the page reloads in the new language. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const next = i18n.language === "ur" ? "en" : "ur";
  return (
    <form method="post" action="/language">
      <input type="hidden" name="lang" value={next} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        lang={next}
        className="min-h-11 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100"
      >
        {t(next === "ur" ? "common:switchToUrdu" : "common:switchToEnglish")}
      </button>
    </form>
  );
}
