import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { FileField, RequiredNotice, SubmitButton, TextAreaField, TextField } from "./form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { PlaceField } from "./place-field.tsx";

import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { IMAGE_ACCEPT } from "#shared/constants.ts";
import { brandButton } from "#app/components/ui/button.ts";

/**
 * The volunteer position form of /vol1: every rule checked as the user leaves a field and again on the
 * server, which also checks the closing day against today, resolves the city and checks the poster by content.
 */
export function PositionForm({
  lastResult,
  map,
  days,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  map: { tileUrl: string; tileAttribution: string };
  /** The closing days the server accepts (today up to a year ahead), as YYYY-MM-DD. */
  days: { min: string; max: string };
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/volunteering.ts").then((m) => m.positionSchema), {
    id: "position",
    lastResult,
  });
  const optional = (key: string) => t("positions:form.optional", { label: t(key) });
  const { key: closesKey, ...closesInput } = getInputProps(fields.closesOn, { type: "date" });
  const closesHintId = `${fields.closesOn.id}-hint`;
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" {...getFormProps(form)}>
      <RequiredNotice fields={[fields.title, fields.description, fields.workingHours, fields.timings, fields.volunteersNeeded]} />
      <ErrorBox id={form.errorId} errors={form.errors} />
      <FileField
        field={fields.poster}
        label={optional("volunteer:fields.poster")}
        accept={IMAGE_ACCEPT}
        hint={t("positions:form.posterHint")}
      />
      <TextField field={fields.title} label={t("volunteer:fields.title")} />
      <TextAreaField
        field={fields.description}
        label={t("volunteer:fields.description")}
        hint={t("positions:form.descriptionHint")}
        rows={5}
      />
      <TextAreaField
        field={fields.responsibilities}
        label={optional("volunteer:fields.responsibilities")}
        hint={t("positions:form.responsibilitiesHint")}
        rows={4}
      />
      <TextField field={fields.workingHours} label={t("volunteer:fields.workingHours")} hint={t("positions:form.workingHoursHint")} />
      <TextField field={fields.duration} label={optional("volunteer:fields.duration")} hint={t("positions:form.durationHint")} />
      <TextField field={fields.timings} label={t("volunteer:fields.timings")} hint={t("positions:form.timingsHint")} />
      <PlaceField
        name={fields.city.name}
        id={fields.city.id}
        label={optional("volunteer:fields.city")}
        hint={t("positions:form.cityHint")}
        defaultValue={typeof fields.city.initialValue === "string" ? fields.city.initialValue : undefined}
        error={fields.city.errors?.[0]}
        errorId={fields.city.errorId}
        tileUrl={map.tileUrl}
        tileAttribution={map.tileAttribution}
      />
      <TextField
        field={fields.volunteersNeeded}
        label={t("volunteer:fields.volunteersNeeded")}
        inputMode="numeric"
        hint={t("positions:form.volunteersNeededHint")}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={fields.closesOn.id} className="font-medium text-slate-800">
          {optional("volunteer:fields.closesOn")}
        </label>
        <input
          key={closesKey}
          {...closesInput}
          min={days.min}
          max={days.max}
          aria-describedby={[closesInput["aria-describedby"], closesHintId].filter(Boolean).join(" ")}
          className="w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600 sm:w-60"
        />
        <p id={closesHintId} className="text-sm text-slate-600">
          {t("positions:form.closesOnHint")} {t("common:dateInput")}
        </p>
        {fields.closesOn.errors && fields.closesOn.errors.length > 0 && (
          <p id={fields.closesOn.errorId} className="text-sm font-medium text-red-700">
            {t(fields.closesOn.errors[0]!)}
          </p>
        )}
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Link
          to="/vol0"
          className="rounded-lg border border-slate-400 bg-white px-6 py-3 text-center font-bold text-slate-800 hover:bg-slate-50"
        >
          {t("positions:form.back")}
        </Link>
        <SubmitButton className={brandButton("wide")}>{t("positions:form.post")}</SubmitButton>
      </div>
    </Form>
  );
}
