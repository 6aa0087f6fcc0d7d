import type { SubmissionResult } from "@conform-to/react";
import { getFormProps, getInputProps } from "#app/lib/use-schema-form.ts";
import { Form } from "react-router";
import { ErrorBox } from "#app/components/error-box.tsx";
import { FileField, SubmitButton, TextField } from "#app/components/form.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { useSchemaForm } from "#app/lib/use-schema-form.ts";
import { checksPath } from "./checks-path.ts";
import { DOCUMENT_ACCEPT } from "./record-check-form.tsx";

/** Renew a check: checked again today, valid to a new last day, optionally with a new document. */
export function RenewCheckForm({
  ngoId,
  checkId,
  what,
  today,
  lastResult,
}: {
  ngoId: string;
  checkId: string;
  what: string;
  today: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/checks.ts").then((m) => m.renewCheckSchema), {
    id: `renew-${checkId}`,
    lastResult,
    defaultValue: { intent: "renew", checkId, checkedOn: today },
  });
  // A problem with the hidden check id (renewed or revoked meanwhile) belongs to the whole form.
  const formErrors = [...(form.errors ?? []), ...(fields.checkId.errors ?? [])];
  return (
    <details open={Boolean(lastResult)} className="min-w-0">
      <summary className="inline-block cursor-pointer rounded-md border-2 border-brand-700 px-4 py-1.5 font-bold text-brand-800 hover:bg-brand-50">
        {t("checks:admin.renew")}
        <span className="sr-only"> {what}</span>
      </summary>
      <Form
        method="post"
        action={checksPath(ngoId)}
        encType="multipart/form-data"
        className="mt-3 flex flex-col gap-3"
        {...getFormProps(form)}
      >
        <ErrorBox id={form.errorId} errors={formErrors.length > 0 ? formErrors : null} />
        <input {...getInputProps(fields.intent, { type: "hidden" })} key={fields.intent.key} />
        <input {...getInputProps(fields.checkId, { type: "hidden" })} key={fields.checkId.key} />
        <TextField field={fields.checkedOn} type="date" label={t("checks:fields.checkedOn")} />
        <TextField field={fields.expiresOn} type="date" label={t("checks:fields.expiresOn")} hint={t("checks:fields.expiresOnHint")} />
        <FileField
          field={fields.document}
          label={t("checks:fields.document")}
          accept={DOCUMENT_ACCEPT}
          hint={t("checks:fields.documentHint")}
        />
        <div className="max-w-xs">
          <SubmitButton>{t("checks:admin.sendRenew")}</SubmitButton>
        </div>
      </Form>
    </details>
  );
}

/** Revoke a check, with the administrator's reason (kept with it and in the audit log). */
export function RevokeCheckForm({ checkId, what, lastResult }: { checkId: string; what: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/checks.ts").then((m) => m.revokeCheckSchema), {
    id: `revoke-${checkId}`,
    lastResult,
  });
  return (
    <ReasonForm
      open={Boolean(lastResult)}
      summary={
        <>
          {t("checks:admin.revoke")}
          <span className="sr-only"> {what}</span>
        </>
      }
      formProps={getFormProps(form)}
      hidden={{ intent: "revoke", checkId }}
      field={fields.reason}
      label={t("checks:admin.revokeReason")}
      hint={t("checks:admin.revokeHint")}
    >
      <SubmitButton className="self-start rounded-md bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800 disabled:opacity-70">
        {t("checks:admin.sendRevoke")}
      </SubmitButton>
    </ReasonForm>
  );
}
