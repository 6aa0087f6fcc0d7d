import type { SubmissionResult } from "@conform-to/react";
import { data, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/spending";
import { pageTitle } from "#app/components/role-shell.tsx";
import { DateTime } from "#app/components/date-time.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { SubmitButton } from "#app/components/form.tsx";
import { Pager } from "#app/components/pager.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { UserText } from "#app/components/user-text.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { ledgerPath } from "#app/lib/ledger-links.ts";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { takedownSchema } from "#shared/forms/ledger.ts";
import { formatDateTime, formatDay } from "#shared/format.ts";
import { formatRupees } from "#shared/money.ts";
import { TAKEDOWN_REASON_MAX_LENGTH } from "#shared/statuses.ts";
import { parsePage } from "#server/db/query.ts";
import { spendingForAdmin, takeDownSpending } from "#server/domain/ledger/takedown.ts";

export const handle = pageTitle("ledger:admin.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireUser(context, "admin");
  const url = new URL(request.url);
  const page = parsePage(url.searchParams.get("page"));
  const list = await spendingForAdmin(context.services.db, admin, { page }).catch(throwHttp);
  const lang = context.lang;
  return {
    notice: url.searchParams.get("notice") === "takenDown" ? "takenDown" : null,
    list: {
      ...list,
      rows: list.rows.map((r) => ({
        ...r,
        spentOn: formatDay(r.spentOn, lang),
        publishedAt: formatDateTime(r.publishedAt, lang),
        takenDown: r.takenDown ? { ...r.takenDown, at: formatDateTime(r.takenDown.at, lang) } : null,
      })),
    },
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireUser(context, "admin");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: takedownSchema });
  // Which entry the answer belongs to, so its form opens again with the error.
  const target = { recordId: String(submission.payload.recordId ?? "") };
  if (submission.status !== "success") return data({ result: submission.reply(), ...target }, { status: 400 });
  const { recordId, reason } = submission.value;
  const outcome = await formAction(submission, () => takeDownSpending(context.services, admin, recordId, reason));
  if (!outcome.ok) return outcome.answer(target);
  const back = new URL(request.url);
  back.searchParams.set("notice", "takenDown");
  return redirect(back.pathname + back.search);
}

type ActionData = { result: SubmissionResult<string[]>; recordId: string } | undefined;

/**
 * /admin/spending: every campaign's published spending, newest published first, each with its document and a form to
 * take it down with a reason the NGO is told (decision 049). Plain forms: works without JavaScript.
 */
export default function AdminSpending({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>() as ActionData;
  const { list, notice } = loaderData;
  const formErrors = actionData && !list.rows.some((r) => r.id === actionData.recordId) ? (actionData.result.error?.[""] ?? null) : null;
  return (
    <>
      <title>{`${t("ledger:admin.title")} · ${t("common:brand")}`}</title>
      <p className="mb-4 max-w-3xl text-slate-700">{t("ledger:admin.lead")}</p>
      {notice === "takenDown" && !actionData && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t("ledger:admin.takenDown")}
        </p>
      )}
      <ErrorBox errors={formErrors} />
      {list.rows.length === 0 ? (
        <p className="text-slate-700">{t("ledger:admin.empty")}</p>
      ) : (
        <ol className="space-y-4">
          {list.rows.map((r) => (
            <li key={r.id}>
              <article
                aria-labelledby={`spending-${r.id}`}
                className="rounded-lg bg-white p-4 shadow-sm"
                data-testid="admin-spending"
                data-status={r.status}
              >
                <h2 id={`spending-${r.id}`} className="font-bold break-words">
                  <span className="me-2">{formatRupees(r.amount, i18n.language)}</span>
                  <Link to={ledgerPath(r.campaignSlug)} className="text-brand-800 underline">
                    <UserText>{r.campaignTitle}</UserText>
                  </Link>
                </h2>
                <UserText as="p" className="mt-1 break-words text-start text-slate-900">
                  {r.purpose}
                </UserText>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("ledger:admin.ngo")}</dt>
                    <UserText as="dd" className="break-words">
                      {r.ngoName}
                    </UserText>
                  </div>
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("ledger:funds.fund")}</dt>
                    <dd>{t(`ledger:fund.${r.fund}`)}</dd>
                  </div>
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("ledger:admin.spentOn")}</dt>
                    <dd>{r.spentOn}</dd>
                  </div>
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("ledger:admin.published")}</dt>
                    <dd>
                      <DateTime value={r.publishedAt} />
                    </dd>
                  </div>
                </dl>
                <p>
                  <a
                    href={`/files/${r.documentKey}`}
                    className="inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2"
                    aria-label={t("ledger:spending.documentLabel", { purpose: r.purpose })}
                  >
                    {t("ledger:spending.document")}
                  </a>
                </p>
                {r.takenDown ? (
                  <div className="mt-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900" data-testid="taken-down">
                    <p className="font-bold">
                      {t("ledger:admin.wasTakenDown")} <DateTime value={r.takenDown.at} />
                      {r.takenDown.byEmail && <span className="break-all"> · {r.takenDown.byEmail}</span>}
                    </p>
                    <UserText as="p" className="mt-1 break-words text-start">
                      {r.takenDown.reason}
                    </UserText>
                  </div>
                ) : (
                  <TakedownForm id={r.id} purpose={r.purpose} lastResult={actionData?.recordId === r.id ? actionData.result : undefined} />
                )}
              </article>
            </li>
          ))}
        </ol>
      )}
      <Pager page={list.page} pages={list.pages} label={t("ledger:admin.title")} />
    </>
  );
}

/**
 * The takedown form of one entry: a plain POST form (no form engine in the browser: the page stays within the JavaScript
 * budget); the server's answer opens it again with its error, under the reason.
 */
function TakedownForm({ id, purpose, lastResult }: { id: string; purpose: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  // A refusal of the whole form (taken down meanwhile) is shown with the field, where the administrator is looking.
  const errors = [...(lastResult?.error?.reason ?? []), ...(lastResult?.error?.[""] ?? []), ...(lastResult?.error?.recordId ?? [])];
  return (
    <ReasonForm
      open={Boolean(lastResult)}
      className="mt-3 min-w-0"
      summary={
        <>
          {t("ledger:admin.takeDown")}
          <span className="sr-only"> {purpose}</span>
        </>
      }
      hidden={{ intent: "takeDown", recordId: id }}
      field={{ id: `takedown-${id}-reason`, name: "reason", errorId: `takedown-${id}-error`, errors }}
      label={t("ledger:admin.reason")}
      hint={t("ledger:admin.reasonHint")}
      required
      maxLength={TAKEDOWN_REASON_MAX_LENGTH}
      dir="auto"
    >
      <SubmitButton className="self-start rounded-md bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800 disabled:opacity-70">
        {t("ledger:admin.send")}
      </SubmitButton>
    </ReasonForm>
  );
}
