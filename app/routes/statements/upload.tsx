import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/upload";
import { FileField } from "#app/components/form.tsx";
import { StatementProblem } from "#app/components/statements/problem.tsx";
import { ImportSummaryCard } from "#app/components/statements/summary.tsx";
import { brandButton } from "#app/components/ui/button.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { findOrNull, formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { getFormProps, getSelectProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { STATEMENT_ACCEPT } from "#shared/constants.ts";
import { formatDateTime } from "#shared/format.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { statementUploadSchema } from "#shared/forms/statements.ts";
import { statementAccounts, uploadStatement } from "#server/domain/statements/import.ts";
import { useRevalidateWhileMatching } from "#app/components/statements/matching.tsx";
import { importSummary, recentImports } from "#server/domain/statements/reconcile.ts";

export const handle = pageTitle("reconcile:upload.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const ngo = requireUser(context, "ngo");
  const { db } = context.services;
  const importId = new URL(request.url).searchParams.get("imported");
  const when = (d: Date) => formatDateTime(d, context.lang);
  const done = importId ? await findOrNull(importSummary(context.services, ngo, importId)) : null;
  const recent = await recentImports(context.services, ngo);
  return {
    accounts: await statementAccounts(db, ngo),
    imported: done ? { ...done, createdAt: when(done.createdAt) } : null,
    recent: recent.map((r) => ({ ...r, createdAt: when(r.createdAt) })),
  };
}

type ActionResult = { result: SubmissionResult<string[]>; errorParams?: Record<string, string> };

export async function action({ context, request }: Route.ActionArgs) {
  const ngo = requireUser(context, "ngo");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: statementUploadSchema });
  if (submission.status !== "success") return data<ActionResult>({ result: submission.reply({ hideFields: ["file"] }) }, { status: 400 });
  const { account, file } = submission.value;
  const outcome = await formAction(submission, () => uploadStatement(context.services, ngo, { method: account, file }), ["file"]);
  if (!outcome.ok) return outcome.answer();
  return outcome.value.kind === "imported"
    ? redirect(`/statements?imported=${outcome.value.importId}`)
    : redirect(`/statements/columns?upload=${outcome.value.uploadId}`);
}

/** /statements: upload a statement of one of the NGO's accounts; the result of the last import; the latest imports. */
export default function StatementUpload({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { accounts, imported, recent } = loaderData;
  const answer = actionData as ActionResult | undefined;
  useRevalidateWhileMatching(imported?.matching === "running" || recent.some((r) => r.matching === "running"));
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/statements.ts").then((m) => m.statementUploadSchema), {
    id: "statement-upload",
    lastResult: answer?.result,
  });
  return (
    <>
      <title>{`${t("reconcile:upload.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-3xl flex-col gap-4">
        {imported && <ImportSummaryCard summary={imported} />}
        <section aria-labelledby="upload-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <h2 id="upload-heading" className="mb-1 text-xl font-bold text-brand-900">
            {t("reconcile:upload.heading")}
          </h2>
          <p className="mb-4 text-slate-700">{t("reconcile:upload.lead")}</p>
          {accounts.length === 0 ? (
            <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
              {t("reconcile:upload.noAccounts")}{" "}
              <Link to="/settingsNGO" className="font-medium underline">
                {t("reconcile:upload.toSettings")}
              </Link>
            </p>
          ) : (
            <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" {...getFormProps(form)}>
              <StatementProblem errors={form.errors} params={answer?.errorParams} />
              <div className="flex flex-col gap-1">
                <label htmlFor={fields.account.id} className="font-medium text-slate-800">
                  {t("reconcile:upload.account")}
                </label>
                <select
                  {...getSelectProps(fields.account)}
                  key={fields.account.key}
                  defaultValue={accounts.length === 1 ? accounts[0] : undefined}
                  className="rounded-md border border-slate-400 bg-white px-3 py-2 text-base"
                >
                  {accounts.length > 1 && <option value="">{t("reconcile:upload.chooseAccount")}</option>}
                  {accounts.map((m) => (
                    <option key={m} value={m}>
                      {t(`donations:methods.${m}`)}
                    </option>
                  ))}
                </select>
                {fields.account.errors && (
                  <p id={fields.account.errorId} className="text-sm font-medium text-red-700">
                    {t(fields.account.errors[0]!)}
                  </p>
                )}
              </div>
              <FileField
                field={fields.file}
                label={t("reconcile:upload.file")}
                accept={STATEMENT_ACCEPT}
                hint={t("reconcile:upload.fileHint")}
              />
              <button type="submit" disabled={navigation.state === "submitting"} className={brandButton("block")}>
                {navigation.state === "submitting" ? t("reconcile:upload.reading") : t("reconcile:upload.submit")}
              </button>
            </Form>
          )}
        </section>
        <p>
          <Link to="/reconcile" className="font-medium text-brand-800 underline">
            {t("reconcile:upload.toQueue")}
          </Link>
        </p>
        {recent.length > 0 && (
          <section aria-labelledby="recent-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
            <h2 id="recent-heading" className="mb-3 text-lg font-bold text-brand-900">
              {t("reconcile:upload.recent")}
            </h2>
            <ul className="flex flex-col divide-y divide-slate-200">
              {recent.map((r) => (
                <li key={r.id} className="flex flex-wrap justify-between gap-2 py-2">
                  <span>
                    <UserText className="font-medium">{r.fileName}</UserText> · {t(`donations:methods.${r.method}`)}
                  </span>
                  <span className="text-sm text-slate-700">
                    {t(
                      r.matching === "running"
                        ? "reconcile:upload.recentLineMatching"
                        : r.matching === "failed"
                          ? "reconcile:upload.recentLineFailed"
                          : "reconcile:upload.recentLine",
                      {
                        added: r.newLines,
                        lines: r.creditLines,
                        matched: r.matchedLines,
                        when: r.createdAt.text,
                      },
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  );
}
