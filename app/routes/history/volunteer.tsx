import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { Link } from "react-router";
import type { Route } from "./+types/volunteer";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime } from "#shared/format.ts";
import { HistoryTabs } from "#app/components/history-tabs.tsx";
import { Pager } from "#app/components/pager.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { parsePage } from "#server/db/query.ts";
import { applicationsOfDonor, type ApplicationState } from "#server/domain/volunteering/applications.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { ApprovedNextStep } from "#app/components/volunteer/approved-next-step.tsx";

export const handle = pageTitle("opportunities:history.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  const list = await applicationsOfDonor(context.services.db, user, page);
  return {
    list: {
      ...list,
      rows: list.rows.map((a) => ({
        id: a.id,
        positionId: a.positionId,
        positionTitle: a.positionTitle,
        ngoName: a.ngoName,
        state: a.state,
        appliedOn: formatDateTime(a.createdAt, context.lang),
        decidedOn: a.decidedAt && (a.state === "approved" || a.state === "declined") ? formatDateTime(a.decidedAt, context.lang) : null,
        decisionMessage: a.decisionMessage,
        timings: a.timings,
        ngoContact: a.ngoContact,
      })),
    },
  };
}

const BADGE: Record<ApplicationState, string> = {
  live: "bg-amber-100 text-amber-900 border-amber-300",
  closed: "bg-slate-100 text-slate-900 border-slate-300",
  approved: "bg-emerald-100 text-emerald-900 border-emerald-300",
  declined: "bg-red-100 text-red-900 border-red-300",
};

/** /dvh2: the donor's volunteer applications, newest first, with each one's state and the NGO's message. */
export default function VolunteerHistory({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { list } = loaderData;
  const title = t("opportunities:history.title");
  return (
    <>
      <title>{`${title} · ${t("common:brand")}`}</title>
      <HistoryTabs current="volunteering" />
      <p className="mb-4 max-w-3xl text-slate-700">{t("opportunities:history.lead")}</p>
      {list.rows.length === 0 ? (
        <div className="rounded-lg bg-white p-6 shadow-sm">
          <p className="text-slate-700">{t("opportunities:history.empty")}</p>
          <Link to="/vfg1" className={brandButton("page", "mt-3 inline-block")}>
            {t("opportunities:history.emptyLink")}
          </Link>
        </div>
      ) : (
        <ul aria-label={t("opportunities:history.listLabel")} className="grid max-w-4xl gap-3">
          {list.rows.map((a) => (
            <li key={a.id} className="rounded-lg bg-white p-4 shadow-sm" data-application={a.id}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <UserText as="h2" className="min-w-0 break-words text-start text-lg font-bold text-slate-900">
                  <Link to={`/vfg2?position=${a.positionId}`} className="hover:underline">
                    {a.positionTitle}
                  </Link>
                </UserText>
                <span className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-bold whitespace-nowrap ${BADGE[a.state]}`}>
                  {t(`volunteer:states.${a.state}`)}
                </span>
              </div>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
                <dt className="font-medium text-slate-600">{t("volunteer:fields.ngo")}</dt>
                <UserText as="dd" className="min-w-0 break-words text-start text-slate-900">
                  {a.ngoName}
                </UserText>
                <dt className="font-medium text-slate-600">{t("opportunities:history.appliedOn")}</dt>
                <dd className="text-slate-900">
                  <DateTime value={a.appliedOn} />
                </dd>
                {a.decidedOn && (
                  <>
                    <dt className="font-medium text-slate-600">{t("opportunities:history.decidedOn")}</dt>
                    <dd className="text-slate-900">
                      <DateTime value={a.decidedOn} />
                    </dd>
                  </>
                )}
              </dl>
              {a.decisionMessage && (
                <div className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
                  <p className="font-bold">{t("opportunities:history.message")}</p>
                  <UserText as="p" className="break-words text-start whitespace-pre-line">
                    {a.decisionMessage}
                  </UserText>
                </div>
              )}
              {a.state === "approved" && a.ngoContact && (
                <ApprovedNextStep ngoName={a.ngoName} timings={a.timings} contact={a.ngoContact} />
              )}
            </li>
          ))}
        </ul>
      )}
      <Pager page={list.page} pages={list.pages} label={t("opportunities:history.pagerLabel")} />
    </>
  );
}
