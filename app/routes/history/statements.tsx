import { FileDown } from "lucide-react";
import { href, Link } from "react-router";
import type { Route } from "./+types/statements";
import { pageTitle } from "#app/components/role-shell.tsx";
import { HistoryTabs } from "#app/components/history-tabs.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { formatCount, formatRupees } from "#shared/money.ts";
import { STATEMENT_YEARS_LISTED, statementYears, type StatementKind } from "#server/domain/donations/giving-statements.ts";
import { statementYearLabel } from "#server/domain/donations/giving-statement-pdf.ts";

export const handle = pageTitle("givingStatements:title");

/**
 * /dvh/statements: the years the donor has approved cash gifts in (fiscal years) and Zakat gifts in (Hijri years),
 * newest first, each with its PDF in English and in Urdu as plain links (decision 052).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const { db } = context.services;
  const { t } = serverI18n(context.lang);
  const [fiscal, zakat] = await Promise.all([statementYears(db, user, "fiscal"), statementYears(db, user, "zakat")]);
  const shape = (kind: StatementKind, years: typeof fiscal.years) =>
    years.map((y) => ({
      year: y.year,
      label: statementYearLabel(kind, y.year, t),
      count: formatCount(y.count, context.lang),
      one: y.count === 1,
      total: formatRupees(y.total, context.lang),
    }));
  return {
    fiscal: shape("fiscal", fiscal.years),
    zakat: shape("zakat", zakat.years),
    // Gifts older than the years the page lists (a donor giving for over 30 years): it says so.
    capped: fiscal.older || zakat.older,
    cap: formatCount(STATEMENT_YEARS_LISTED, context.lang),
  };
}

type Year = Route.ComponentProps["loaderData"]["fiscal"][number];

function YearList({ kind, years, label }: { kind: StatementKind; years: Year[]; label: string }) {
  const { t } = useTranslation();
  const link =
    "inline-flex min-h-11 items-center gap-1 rounded-md border border-brand-700 px-3 py-2 text-sm font-medium text-brand-800 hover:bg-brand-50";
  return (
    <ul aria-label={label} className="grid gap-3">
      {years.map((y) => {
        const path = href("/dvh/statements/:kind/:year", { kind, year: String(y.year) });
        return (
          <li key={y.year} className="rounded-lg bg-white p-4 shadow-sm" data-year={`${kind}-${y.year}`}>
            <h3 className="text-lg font-bold text-slate-900">{y.label}</h3>
            <p className="text-sm text-slate-700">
              {y.one
                ? t("givingStatements:yearSummaryOne", { total: y.total })
                : t("givingStatements:yearSummary", { count: y.count, total: y.total })}
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <a href={`${path}?lang=en`} download className={link} aria-label={t("givingStatements:downloadLabel", { year: y.label })}>
                <FileDown aria-hidden="true" className="size-4 shrink-0" />
                {t("givingStatements:download")}
              </a>
              <a href={`${path}?lang=ur`} download className={link} aria-label={t("givingStatements:downloadUrduLabel", { year: y.label })}>
                <FileDown aria-hidden="true" className="size-4 shrink-0" />
                {t("givingStatements:downloadUrdu")}
              </a>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export default function DonorStatements({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { fiscal, zakat, capped, cap } = loaderData;
  const title = t("givingStatements:title");
  return (
    <>
      <title>{`${title} · ${t("common:brand")}`}</title>
      <HistoryTabs current="statements" />
      <p className="mb-4 max-w-3xl text-slate-700">{t("givingStatements:lead")}</p>
      {fiscal.length === 0 ? (
        <div className="max-w-3xl rounded-lg bg-white p-6 shadow-sm">
          <p className="text-slate-700">{t("givingStatements:empty")}</p>
          <Link to="/dvh" className={brandButton("page", "mt-3 inline-block")}>
            {t("givingStatements:emptyLink")}
          </Link>
        </div>
      ) : (
        <div className="grid max-w-3xl gap-6">
          <section aria-labelledby="fiscal-heading">
            <h2 id="fiscal-heading" className="mb-3 text-xl font-bold text-slate-900">
              {t("givingStatements:fiscalHeading")}
            </h2>
            <YearList kind="fiscal" years={fiscal} label={t("givingStatements:fiscalListLabel")} />
          </section>
          <section aria-labelledby="zakat-heading">
            <h2 id="zakat-heading" className="mb-1 text-xl font-bold text-slate-900">
              {t("givingStatements:zakatHeading")}
            </h2>
            <p className="mb-3 text-sm text-slate-700">{t("givingStatements:zakatLead")}</p>
            {zakat.length === 0 ? (
              <p className="text-slate-700">{t("givingStatements:zakatEmpty")}</p>
            ) : (
              <YearList kind="zakat" years={zakat} label={t("givingStatements:zakatListLabel")} />
            )}
          </section>
          <p className="text-sm text-slate-700">{t("givingStatements:goodsNote")}</p>
          {capped && <p className="text-sm text-slate-700">{t("givingStatements:capNote", { count: cap })}</p>}
        </div>
      )}
    </>
  );
}
