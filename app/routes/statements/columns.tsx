import { UserOption, UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/columns";
import { StatementProblem } from "#app/components/statements/problem.tsx";
import { brandButton } from "#app/components/ui/button.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { attempt, formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { statementMappingSchema } from "#shared/forms/statements.ts";
import { DATE_ORDERS, STATEMENT_FIELDS } from "#shared/statement-columns.ts";
import type { StatementMapping } from "#server/domain/statements/columns.ts";
import { importUpload, mappingStep } from "#server/domain/statements/import.ts";

export const handle = pageTitle("reconcile:columns.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const ngo = requireUser(context, "ngo");
  const uploadId = new URL(request.url).searchParams.get("upload") ?? "";
  const step = await attempt(mappingStep(context.services.db, ngo, uploadId));
  if (!step.ok) return data({ step: null }, { status: step.refusal.kind === "not_found" ? 404 : step.refusal.status });
  return { step: step.value };
}

type ActionResult = { result: SubmissionResult<string[]>; errorParams?: Record<string, string> };

export async function action({ context, request }: Route.ActionArgs) {
  const ngo = requireUser(context, "ngo");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: statementMappingSchema });
  if (submission.status !== "success") return data<ActionResult>({ result: submission.reply() }, { status: 400 });
  const { upload, headerRow, dateOrder, ...chosen } = submission.value;
  const columns = Object.fromEntries(Object.entries(chosen).filter(([, v]) => v !== undefined)) as StatementMapping["columns"];
  const outcome = await formAction(submission, () => importUpload(context.services, ngo, upload, { headerRow, dateOrder, columns }));
  if (!outcome.ok) return outcome.answer();
  return redirect(`/statements?imported=${outcome.value}`);
}

const letter = (i: number) =>
  i < 26 ? String.fromCharCode(65 + i) : `${String.fromCharCode(64 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;

/** /statements/columns: the first import of a layout says which column holds what; saved for the account's next file. */
export default function StatementColumns({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const step = loaderData.step;
  const answer = actionData as ActionResult | undefined;
  const navigation = useNavigation();
  const mapping = step?.mapping;
  const [form, fields] = useSchemaForm(() => import("#shared/forms/statements.ts").then((m) => m.statementMappingSchema), {
    id: "statement-columns",
    lastResult: answer?.result,
    defaultValue: step
      ? {
          upload: step.uploadId,
          headerRow: String(mapping?.headerRow ?? 1),
          dateOrder: mapping?.dateOrder ?? "dmy",
          ...Object.fromEntries(Object.entries(mapping?.columns ?? {}).map(([k, v]) => [k, String(v)])),
        }
      : undefined,
  });
  if (!step) {
    return (
      <div className="mx-auto max-w-3xl rounded-lg bg-white p-4 shadow-sm">
        <p role="alert">{t("reconcile:columns.gone")}</p>
        <Link to="/statements" className="font-medium text-brand-800 underline">
          {t("reconcile:columns.again")}
        </Link>
      </div>
    );
  }
  const header = step.preview[0] ?? [];
  const columnName = (i: number) => (header[i] ? `${letter(i)}: ${header[i]}` : letter(i));
  return (
    <>
      <title>{`${t("reconcile:columns.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-5xl flex-col gap-4">
        <section aria-labelledby="columns-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <h2 id="columns-heading" className="mb-1 text-xl font-bold text-brand-900">
            {t("reconcile:columns.heading")}
          </h2>
          <p className="mb-4 text-slate-700">
            {t("reconcile:columns.lead", { file: step.fileName, account: t(`donations:methods.${step.method}`) })}
          </p>
          <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
            <StatementProblem errors={form.errors} params={answer?.errorParams} />
            <input type="hidden" name={fields.upload.name} value={step.uploadId} />
            <div className="grid gap-4 sm:grid-cols-2">
              <label className="flex flex-col gap-1">
                <span className="font-medium text-slate-800">{t("reconcile:columns.headerRow")}</span>
                <input
                  name={fields.headerRow.name}
                  defaultValue={String(fields.headerRow.initialValue ?? "1")}
                  inputMode="numeric"
                  aria-invalid={fields.headerRow.errors ? true : undefined}
                  className="rounded-md border border-slate-400 bg-white px-3 py-2"
                />
              </label>
              <label className="flex flex-col gap-1">
                <span className="font-medium text-slate-800">{t("reconcile:columns.dateOrder")}</span>
                <select
                  name={fields.dateOrder.name}
                  defaultValue={String(fields.dateOrder.initialValue ?? "dmy")}
                  className="rounded-md border border-slate-400 bg-white px-3 py-2"
                >
                  {DATE_ORDERS.map((o) => (
                    <option key={o} value={o}>
                      {t(`reconcile:columns.order.${o}`)}
                    </option>
                  ))}
                </select>
              </label>
              {STATEMENT_FIELDS.map((f) => {
                const field = fields[f];
                return (
                  <label key={f} className="flex flex-col gap-1">
                    <span className="font-medium text-slate-800">{t(`reconcile:columns.field.${f}`)}</span>
                    <select
                      name={field.name}
                      defaultValue={field.initialValue === undefined ? "" : String(field.initialValue)}
                      className="rounded-md border border-slate-400 bg-white px-3 py-2"
                    >
                      <option value="">{t("reconcile:columns.none")}</option>
                      {Array.from({ length: step.columnCount }, (_, i) => (
                        <UserOption key={i} value={String(i)} text={columnName(i)} />
                      ))}
                    </select>
                  </label>
                );
              })}
            </div>
            <p className="text-sm text-slate-700">{t("reconcile:columns.rule")}</p>
            <button type="submit" disabled={navigation.state === "submitting"} className={brandButton("block")}>
              {navigation.state === "submitting" ? t("reconcile:columns.importing") : t("reconcile:columns.submit")}
            </button>
          </Form>
        </section>
        <section aria-labelledby="preview-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <h2 id="preview-heading" className="mb-2 text-lg font-bold text-brand-900">
            {t("reconcile:columns.preview")}
          </h2>
          <div className="overflow-x-auto" tabIndex={0} role="region" aria-labelledby="preview-heading">
            <table className="min-w-full text-sm">
              <thead>
                <tr>
                  {Array.from({ length: step.columnCount }, (_, i) => (
                    <th key={i} scope="col" className="border-b border-slate-300 px-2 py-1 text-start font-bold">
                      {letter(i)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {step.preview.map((row, r) => (
                  <tr key={r} className="odd:bg-slate-50">
                    {Array.from({ length: step.columnCount }, (_, i) => (
                      <td key={i} className="whitespace-nowrap px-2 py-1">
                        <UserText>{row[i] ?? ""}</UserText>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </>
  );
}
