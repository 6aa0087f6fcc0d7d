import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { parseWithZod } from "#shared/forms/parse.ts";
import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "#app/i18n/provider.ts";
import { data, Form, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/accounts";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime } from "#shared/format.ts";
import { ErrorBox } from "#app/components/error-box.tsx";
import { Pager } from "#app/components/pager.tsx";
import { accountActionSchema } from "#shared/forms/admin.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { parsePage } from "#server/db/query.ts";
import { listAccounts, restore, suspend, type VettedRole } from "#server/domain/admin/vetting.ts";
import { suspensionState, suspensionStates } from "#server/domain/accounts/states.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { checksPath } from "#app/components/admin/checks-path.ts";

export const handle = pageTitle("admin:accounts.title");

const TABS: VettedRole[] = ["ngo", "rider"];

function roleOf(value: string | null): VettedRole {
  return value === "rider" ? "rider" : "ngo";
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireUser(context, "admin");
  const url = new URL(request.url);
  const role = roleOf(url.searchParams.get("role"));
  const q = (url.searchParams.get("q") ?? "").trim();
  const list = await listAccounts(context.services.db, admin, role, parsePage(url.searchParams.get("page")), q);
  return {
    role,
    q,
    notice: url.searchParams.get("notice"),
    accounts: {
      ...list,
      rows: list.rows.map((r) => ({
        ...r,
        createdAt: formatDateTime(r.createdAt, context.lang),
        suspended: r.suspendedAt !== null,
        // The step the suspension table gives the administrator from the account's state: suspend or restore.
        actions: suspensionStates.actionsFor(suspensionState(r.suspendedAt), "admin"),
      })),
    },
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireUser(context, "admin");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: accountActionSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { intent, userId } = submission.value;
  const outcome = await formAction(submission, () =>
    intent === "suspend" ? suspend(context.services, admin, userId) : restore(context.services, admin, userId),
  );
  if (!outcome.ok) return outcome.answer();
  const back = new URL(request.url);
  back.searchParams.set("notice", intent === "suspend" ? "suspended" : "restored");
  return redirect(back.pathname + back.search);
}

export default function AdminAccounts({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>() as { result: SubmissionResult<string[]> } | undefined;
  const { role, q, notice, accounts } = loaderData;
  return (
    <>
      <title>{`${t("admin:accounts.title")} · ${t("common:brand")}`}</title>
      {(notice === "suspended" || notice === "restored") && !actionData && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(`admin:accounts.${notice}`)}
        </p>
      )}
      <ErrorBox errors={actionData?.result.error?.[""] ?? null} />

      <nav aria-label={t("admin:accounts.tabs")} className="mb-4 flex gap-2 border-b border-slate-300">
        {TABS.map((r) => (
          <Link
            key={r}
            to={`?role=${r}`}
            aria-current={r === role ? "page" : undefined}
            className={`-mb-px rounded-t-md border border-b-0 px-4 py-2 font-bold ${
              r === role ? "border-slate-300 bg-white text-brand-900" : "border-transparent text-brand-800 hover:bg-brand-50"
            }`}
          >
            {t(r === "ngo" ? "admin:accounts.ngos" : "admin:accounts.riders")}
          </Link>
        ))}
      </nav>

      <Form method="get" role="search" className="mb-4 flex flex-wrap items-end gap-2">
        <input type="hidden" name="role" value={role} />
        <div className="flex flex-col gap-1">
          <label htmlFor="account-search" className="font-medium text-slate-800">
            {t("admin:accounts.search")}
          </label>
          <input
            id="account-search"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            className="rounded-md border border-slate-400 bg-white px-3 py-2 text-base"
          />
        </div>
        <button type="submit" className={brandButton("regular")}>
          {t("admin:accounts.searchButton")}
        </button>
        {q && (
          <Link to={`?role=${role}`} className="px-2 py-2 text-brand-800 underline">
            {t("admin:accounts.clearSearch")}
          </Link>
        )}
      </Form>

      {accounts.rows.length === 0 ? (
        <p className="text-slate-700">{t("admin:accounts.none")}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg bg-white shadow-sm">
          <table className="w-full text-start text-sm">
            <caption className="sr-only">{t(role === "ngo" ? "admin:accounts.ngos" : "admin:accounts.riders")}</caption>
            <thead className="bg-slate-100 text-start">
              <tr>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:fields.name")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:fields.email")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:fields.contactNumber")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:fields.status")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:fields.signedUp")}
                </th>
                <th scope="col" className="px-3 py-2 text-start">
                  {t("admin:fields.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {accounts.rows.map((a) => (
                <tr key={a.id} className="border-t border-slate-200">
                  <th scope="row" className="px-3 py-2 text-start font-medium">
                    <UserText>{a.name}</UserText>
                  </th>
                  <td className="px-3 py-2 break-all">{a.email}</td>
                  <td className="px-3 py-2">{a.contactNumber}</td>
                  <td className="px-3 py-2">
                    {t(`admin:status.${a.verification}`)}
                    {a.suspended && (
                      <span className="ms-2 rounded bg-red-100 px-2 py-0.5 font-bold text-red-800">{t("admin:status.suspended")}</span>
                    )}
                  </td>
                  <td className="px-3 py-2">
                    <DateTime value={a.createdAt} />
                  </td>
                  <td className="flex flex-wrap items-center gap-2 px-3 py-2">
                    {a.role === "ngo" && a.verification !== "rejected" && (
                      <Link
                        to={checksPath(a.id)}
                        aria-label={t("checks:admin.checksLinkOf", { name: a.name })}
                        className="rounded-md border-2 border-brand-700 px-3 py-1 font-bold text-brand-800 hover:bg-brand-50"
                      >
                        {t("checks:admin.checksLink")}
                      </Link>
                    )}
                    {a.actions.map((intent) => (
                      <Form method="post" key={intent}>
                        <input type="hidden" name="intent" value={intent} />
                        <input type="hidden" name="userId" value={a.id} />
                        <button
                          type="submit"
                          className={
                            intent === "restore"
                              ? brandButton("small")
                              : "rounded-md border-2 border-red-700 px-3 py-1 font-bold text-red-800 hover:bg-red-50"
                          }
                        >
                          {t(intent === "restore" ? "admin:accounts.restore" : "admin:accounts.suspend")}
                          <span className="sr-only"> {a.name}</span>
                        </button>
                      </Form>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={accounts.page} pages={accounts.pages} label={t("admin:accounts.title")} />
    </>
  );
}
