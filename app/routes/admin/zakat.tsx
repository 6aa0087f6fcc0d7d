import { Link } from "react-router";
import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { Route } from "./+types/zakat";
import { DateTime } from "#app/components/date-time.tsx";
import { Pager } from "#app/components/pager.tsx";
import { UserText } from "#app/components/user-text.tsx";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { requireUser, throwHttp } from "#app/lib/http.server.ts";
import { formatDateTime } from "#shared/format.ts";
import { parsePage } from "#server/db/query.ts";
import { attestationLog } from "#server/domain/campaigns/funds.ts";

export const handle = pageTitle("funds:admin.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireUser(context, "admin");
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const log = await attestationLog(context.services.db, admin, { page }).catch(throwHttp);
  const when = (d: Date) => formatDateTime(d, context.lang);
  return {
    log: {
      ...log,
      rows: log.rows.map((r) => ({
        ...r,
        attestedAt: when(r.attestedAt),
        withdrawnAt: r.withdrawnAt ? when(r.withdrawnAt) : null,
      })),
    },
  };
}

/** /admin/zakat: who attested which campaign's Zakat eligibility, with which words and when, and when it was withdrawn (decision 048). */
export default function AdminZakat({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { log } = loaderData;
  return (
    <>
      <title>{`${t("funds:admin.title")} · ${t("common:brand")}`}</title>
      <p className="mb-4 max-w-3xl text-slate-700">{t("funds:admin.intro")}</p>
      {log.rows.length === 0 ? (
        <p className="text-slate-700">{t("funds:admin.empty")}</p>
      ) : (
        <ol className="space-y-4">
          {log.rows.map((r) => (
            <li key={r.id}>
              <article aria-labelledby={`attestation-${r.id}`} className="rounded-lg bg-white p-4 shadow-sm" data-testid="attestation">
                <h2 id={`attestation-${r.id}`} className="font-bold break-words">
                  <Link to={publicCampaignPath(r.campaignSlug)} className="text-brand-800 underline">
                    <UserText>{r.campaignTitle}</UserText>
                  </Link>
                  <span
                    className={`ms-2 rounded px-2 py-0.5 text-xs ${r.withdrawnAt ? "bg-slate-200 text-slate-800" : "bg-emerald-100 text-emerald-900"}`}
                  >
                    {r.withdrawnAt ? t("funds:admin.withdrawn") : t("funds:admin.current")}
                  </span>
                </h2>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("funds:admin.ngo")}</dt>
                    <UserText as="dd" className="break-words">
                      {r.ngoName}
                    </UserText>
                  </div>
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("funds:admin.attested")}</dt>
                    <dd className="break-all">
                      <DateTime value={r.attestedAt} /> · {r.attestedByEmail}
                      {r.carriedOver && <span className="block text-slate-700">{t("funds:admin.carriedOver")}</span>}
                    </dd>
                  </div>
                  {r.withdrawnAt && (
                    <div className="contents">
                      <dt className="font-medium text-slate-600">{t("funds:admin.withdrawn")}</dt>
                      <dd className="break-all">
                        <DateTime value={r.withdrawnAt} /> · {r.withdrawnByEmail}
                      </dd>
                    </div>
                  )}
                </dl>
                <h3 className="mt-3 text-sm font-medium text-slate-600">{t("funds:admin.statement")}</h3>
                <blockquote
                  lang={r.lang}
                  dir={r.lang === "ur" ? "rtl" : "ltr"}
                  className="mt-1 border-s-4 border-emerald-400 ps-3 text-slate-800"
                >
                  {r.statement}
                </blockquote>
              </article>
            </li>
          ))}
        </ol>
      )}
      <Pager page={log.page} pages={log.pages} label={t("funds:admin.title")} />
    </>
  );
}
