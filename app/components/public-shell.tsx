import { useTranslation } from "#app/i18n/provider.ts";
import { Link } from "react-router";
import { LanguageSwitch } from "./language-switch.tsx";

/** The frame of pages seen before signing in: brand, language switch, content. */
export function PublicShell({ children }: { children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex items-center justify-between gap-4 bg-brand-800 px-4 py-1 text-white sm:py-3">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          {t("common:brand")}
        </Link>
        <LanguageSwitch />
      </header>
      <main id="main" className="flex-1 px-4 py-3 sm:py-8">
        {children}
      </main>
      <footer className="px-4 py-4 text-center text-sm text-slate-600">
        <p>{t("common:footer")}</p>
        <p className="mt-1">{t("places:sources.footer")}</p>
        <p className="mt-1">
          <Link to="/about" className="text-brand-800 underline">
            {t("home:about.link")}
          </Link>
        </p>
      </footer>
    </div>
  );
}
