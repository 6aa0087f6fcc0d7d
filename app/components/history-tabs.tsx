import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";

const TABS = [
  { key: "donations", to: "/dvh", label: "opportunities:tabs.donations" },
  { key: "statements", to: "/dvh/statements", label: "opportunities:tabs.statements" },
  { key: "volunteering", to: "/dvh2", label: "opportunities:tabs.volunteering" },
] as const;

export type HistoryTab = (typeof TABS)[number]["key"];

/**
 * The donor's records as tabs over their screens: donations (/dvh), the statements of them (/dvh/statements, decision 052)
 * and volunteering (/dvh2).
 */
export function HistoryTabs({ current }: { current: HistoryTab }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("opportunities:tabs.label")} className="mb-4 flex flex-wrap gap-1 border-b border-slate-300">
      {TABS.map((tab) => {
        const active = tab.key === current;
        return (
          <Link
            key={tab.key}
            to={tab.to}
            aria-current={active ? "page" : undefined}
            className={`inline-flex min-h-11 items-center rounded-t-md border-b-4 px-4 py-2 font-bold ${
              active ? "border-brand-700 text-brand-900" : "border-transparent text-slate-700 hover:text-brand-800"
            }`}
          >
            {t(tab.label)}
          </Link>
        );
      })}
    </nav>
  );
}
