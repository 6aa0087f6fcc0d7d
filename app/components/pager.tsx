import { useTranslation } from "#app/i18n/provider.ts";
import { Link, useSearchParams } from "react-router";

/**
 * Previous / Next links for a paginated list. Plain links that keep the rest of the query string, so
 * paging works without JavaScript and several lists on one page page independently (`param`).
 */
export function Pager({ page, pages, param = "page", label }: { page: number; pages: number; param?: string; label: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  if (pages <= 1) return null;
  const href = (n: number) => {
    const next = new URLSearchParams(params);
    next.set(param, String(n));
    next.delete("notice");
    return `?${next.toString()}`;
  };
  const linkClass = "rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-brand-800 hover:bg-brand-50";
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-3">
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClass}>
          {t("common:previous")}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-sm text-slate-700">{t("common:pageOf", { page, pages })}</span>
      {page < pages ? (
        <Link to={href(page + 1)} className={linkClass}>
          {t("common:next")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
