import { UserText } from "#app/components/user-text.tsx";
import { ArrowLeft, Eye, FileText, Filter } from "lucide-react";
import { Form, Link, NavLink } from "react-router";
import { APPLICATION_TABS } from "#app/components/application-parts.tsx";
import { FilterSelect } from "#app/components/filter-select.tsx";
import { DateTime } from "#app/components/date-time.tsx";
import { Pager } from "#app/components/pager.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { brandButton } from "#app/components/ui/button.ts";
import type { applicationsLoader } from "./applications.server.ts";

/** A list's URL with the position filter (and nothing else: a tab or filter change starts at page 1). */
function listHref(path: string, position: string): string {
  return position ? `${path}?position=${encodeURIComponent(position)}` : path;
}

/** /vol2 (live), /volApproved and /volRejected: the applications to the NGO's positions, by state, filtered and paged. */
export function ApplicationsPage({ loaderData }: { loaderData: Awaited<ReturnType<typeof applicationsLoader>> }) {
  const { t } = useTranslation();
  const { tab, path, position, positions, notice, list } = loaderData;
  const tabClass = ({ isActive }: { isActive: boolean }) =>
    `inline-flex min-h-11 items-center rounded-t-md border-b-4 px-4 py-2 font-bold ${isActive ? "border-brand-700 text-brand-900" : "border-transparent text-slate-700 hover:text-brand-800"}`;
  const openPath = tab === "approved" ? "/volPSDAA" : "/vol3";
  const listLabel = t(`applications:listLabel.${tab}`);

  return (
    <>
      <title>{`${t(`applications:tabs.${tab}`)} · ${t("applications:title")} · ${t("common:brand")}`}</title>
      {notice && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(`applications:notices.${notice}`)}
        </p>
      )}
      <Link to="/vol0" className="mb-4 inline-flex min-h-11 items-center gap-1 font-medium text-brand-800 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
        {t("applications:backToPositions")}
      </Link>

      <nav aria-label={t("applications:tabs.label")} className="flex flex-wrap gap-1 border-b border-slate-300">
        {APPLICATION_TABS.map((item) => (
          <NavLink key={item.tab} to={listHref(item.path, position)} end className={tabClass}>
            {t(`applications:tabs.${item.tab}`)}
          </NavLink>
        ))}
      </nav>

      <Form method="get" action={path} className="my-4 flex flex-wrap items-end gap-2">
        <FilterSelect
          id="applications-position"
          name="position"
          label={t("applications:filter.label")}
          allLabel={t("applications:filter.all")}
          options={positions}
          value={position}
        />
        <button
          type="submit"
          className="inline-flex min-h-11 items-center gap-1 rounded-md bg-slate-800 px-4 py-2 font-medium text-white hover:bg-slate-700"
        >
          <Filter aria-hidden="true" className="size-4" />
          {t("applications:filter.submit")}
        </button>
      </Form>

      <h2 className="mb-3 text-lg font-bold text-brand-900">{t(`applications:total.${tab}`, { count: list.total })}</h2>
      {list.rows.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-slate-700 shadow-sm">
          {t(position ? "applications:empty.filtered" : `applications:empty.${tab}`)}
        </p>
      ) : (
        <ol aria-label={listLabel} className="grid gap-3 lg:grid-cols-2">
          {list.rows.map((a) => (
            <li key={a.id} className="min-w-0">
              <article aria-labelledby={`applicant-${a.id}`} className="flex h-full flex-col gap-2 rounded-lg bg-white p-4 shadow-sm">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                  <UserText as="h3" id={`applicant-${a.id}`} className="text-lg font-bold break-words">
                    {a.applicantName}
                  </UserText>
                  {a.hasResume && (
                    <span className="inline-flex items-center gap-1 rounded bg-sky-100 px-2 py-0.5 text-sm font-bold text-sky-900">
                      <FileText aria-hidden="true" className="size-4" />
                      {t("applications:resumeBadge")}
                    </span>
                  )}
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="font-medium text-slate-600">{t("volunteer:fields.email")}</dt>
                  <dd className="wrap-anywhere">{a.applicantEmail}</dd>
                  <dt className="font-medium text-slate-600">{t("volunteer:fields.position")}</dt>
                  <UserText as="dd" className="text-start wrap-anywhere">
                    {a.positionTitle}
                  </UserText>
                  <dt className="font-medium text-slate-600">{t("volunteer:fields.appliedOn")}</dt>
                  <dd>
                    <DateTime value={a.createdAt} />
                  </dd>
                  {tab !== "live" && a.decidedAt && (
                    <>
                      <dt className="font-medium text-slate-600">{t("volunteer:fields.decidedOn")}</dt>
                      <dd>
                        <DateTime value={a.decidedAt} />
                      </dd>
                    </>
                  )}
                </dl>
                <div className="mt-auto pt-1">
                  <Link
                    to={`${openPath}?application=${a.id}`}
                    aria-label={t("applications:openLabel", {
                      name: a.applicantName,
                      position: a.positionTitle,
                    })}
                    className={brandButton("regular", "inline-flex min-h-11 items-center gap-1")}
                  >
                    <Eye aria-hidden="true" className="size-4" />
                    {t("applications:open")}
                  </Link>
                </div>
              </article>
            </li>
          ))}
        </ol>
      )}
      <Pager page={list.page} pages={list.pages} label={listLabel} />
    </>
  );
}
