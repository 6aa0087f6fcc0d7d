import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { ErrorBox } from "#app/components/error-box.tsx";
import { FileField, SelectField, SubmitButton, TextField } from "#app/components/form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { CHECK_KINDS, REGISTRATION_AUTHORITIES } from "#shared/statuses.ts";
import { checksPath } from "./checks-path.ts";

/** What a check's document may be: a PDF or a picture (checked again by content on the server). */
export const DOCUMENT_ACCEPT = "application/pdf,.pdf,image/jpeg,image/png,image/webp";

/**
 * Record a check of an NGO (decision 051): what was checked, with whom, its number, the day, the last day it is valid
 * and the document kept. A native disclosure on the vetting cards (`collapsed`), open on the NGO's checks page. It
 * posts to the checks page; `from` says where a success goes back to.
 */
export function RecordCheckForm({
  ngoId,
  name,
  today,
  from,
  lastResult,
  collapsed = false,
}: {
  ngoId: string;
  name: string;
  today: string;
  from?: "vetting";
  lastResult?: SubmissionResult<string[]>;
  collapsed?: boolean;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/checks.ts").then((m) => m.recordCheckSchema), {
    id: `record-check-${ngoId}`,
    lastResult,
    defaultValue: { intent: "record", checkedOn: today },
  });
  const body = (
    <Form method="post" action={checksPath(ngoId)} encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
      <ErrorBox id={form.errorId} errors={form.errors ?? null} />
      <input {...getInputProps(fields.intent, { type: "hidden" })} key={fields.intent.key} />
      {from && <input type="hidden" name="from" value={from} />}
      <SelectField
        field={fields.kind}
        label={t("checks:fields.kind")}
        placeholder={t("checks:fields.kindPlaceholder")}
        options={CHECK_KINDS.map((k) => ({ value: k, label: t(`checks:kind.${k}`) }))}
      />
      <SelectField
        field={fields.authority}
        label={t("checks:fields.authority")}
        hint={t("checks:fields.authorityHint")}
        placeholder={t("checks:fields.authorityPlaceholder")}
        options={REGISTRATION_AUTHORITIES.map((a) => ({ value: a, label: t(`checks:authority.${a}.name`) }))}
      />
      <TextField field={fields.authorityName} label={t("checks:fields.authorityName")} hint={t("checks:fields.authorityNameHint")} />
      <TextField field={fields.reference} label={t("checks:fields.reference")} hint={t("checks:fields.referenceHint")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.checkedOn} type="date" label={t("checks:fields.checkedOn")} />
        <TextField field={fields.expiresOn} type="date" label={t("checks:fields.expiresOn")} hint={t("checks:fields.expiresOnHint")} />
      </div>
      <FileField
        field={fields.document}
        label={t("checks:fields.document")}
        accept={DOCUMENT_ACCEPT}
        hint={t("checks:fields.documentHint")}
      />
      <div className="max-w-xs">
        <SubmitButton busyLabel={t("checks:admin.submitting")}>{t("checks:admin.submit")}</SubmitButton>
      </div>
    </Form>
  );
  if (!collapsed) return body;
  return (
    <details open={Boolean(lastResult)} className="min-w-0 flex-1 basis-full">
      <summary className="inline-block cursor-pointer rounded-md border-2 border-brand-700 px-4 py-1.5 font-bold text-brand-800 hover:bg-brand-50">
        {t("checks:admin.recordTitle")}
        <span className="sr-only"> {t("checks:admin.recordFor", { name })}</span>
      </summary>
      <div className="mt-3">{body}</div>
    </details>
  );
}
