import type { FieldMetadata, SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { FileField, TextAreaField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { IMAGE_ACCEPT, UPDATE_PHOTOS_MAX } from "#shared/constants.ts";
import { brandButton } from "#app/components/ui/button.ts";

const SLOTS = Array.from({ length: UPDATE_PHOTOS_MAX }, (_, i) => i + 1);

/**
 * The NGO's update form (decision 050): text, up to three photos each with "shows people" and the consent box, then
 * "Publish now" or "Save as draft". Sent as a plain multipart form, so it works without JavaScript; the server checks
 * the consent rule and names the photo's consent box when it refuses.
 */
export function UpdateForm({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/updates.ts").then((m) => m.updateSchema), {
    id: "update",
    lastResult,
  });
  const f = fields as unknown as Record<string, FieldMetadata<unknown>>;
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" {...getFormProps(form)}>
      <ErrorBox id={form.errorId} errors={form.errors} />
      <TextAreaField field={fields.body} label={t("updates:form.body")} hint={t("updates:form.bodyHint")} rows={6} />
      {SLOTS.map((n) => (
        <fieldset key={n} className="flex flex-col gap-2 rounded-md border border-slate-300 p-3">
          <legend className="px-1 font-medium text-slate-800">{t("updates:form.photo", { n })}</legend>
          <FileField field={f[`photo${n}`]!} label={t("updates:form.photoFile")} accept={IMAGE_ACCEPT} hint={t("updates:form.photoHint")} />
          <Tick field={f[`people${n}`]!} label={t("updates:form.people")} />
          <Tick field={f[`consent${n}`]!} label={t("updates:form.consent")} hint={t("updates:form.consentHint")} />
        </fieldset>
      ))}
      <div className="flex flex-wrap gap-3">
        <button type="submit" name="intent" value="publish" className={brandButton("wide")}>
          {t("updates:form.publish")}
        </button>
        <button
          type="submit"
          name="intent"
          value="draft"
          className="rounded-lg border border-brand-700 px-6 py-3 font-bold text-brand-800 hover:bg-brand-50"
        >
          {t("updates:form.draft")}
        </button>
      </div>
    </Form>
  );
}

/** A box to tick, its label beside it, and its error (the consent rule's) below. */
function Tick({ field, label, hint }: { field: FieldMetadata<unknown>; label: string; hint?: string }) {
  const { t } = useTranslation();
  // A box sent as "yes", ticked when the form was drawn with it (what Conform's helper does with `value: "yes"`).
  const { key, defaultValue, ...props } = getInputProps(field, { type: "checkbox" });
  const hintId = hint ? `${field.id}-hint` : undefined;
  const describedBy = [props["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-start gap-2 text-slate-800">
        <input
          key={key}
          {...props}
          value="yes"
          defaultChecked={defaultValue === "yes"}
          aria-describedby={describedBy}
          className="mt-1 size-5 shrink-0"
        />
        <span>{label}</span>
      </label>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      {field.errors && field.errors.length > 0 && (
        <p id={field.errorId} className="text-sm font-medium text-red-700">
          {t(field.errors[0]!)}
        </p>
      )}
    </div>
  );
}
