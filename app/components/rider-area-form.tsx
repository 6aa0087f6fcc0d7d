import type { SubmissionResult } from "@conform-to/react";
import { Form, useActionData, useSearchParams } from "react-router";
import { SubmitButton } from "./form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { PlaceField } from "./place-field.tsx";
import type { RiderAreaIntent } from "#shared/forms/settings.ts";
import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { brandButton } from "#app/components/ui/button.ts";
import { placeLabelFor } from "#shared/places.ts";

type ActionData = { intent: string; result: SubmissionResult<string[]> } | undefined;

const SAVED: Record<RiderAreaIntent, string> = { area: "settings:area.saved", clearArea: "settings:area.cleared" };

/**
 * The rider's area on /rider_profile: a place from the place search (the point adjustable on a map), saved or
 * cleared with plain POST forms. NGOs choosing a rider for a pick-up see the nearest riders first.
 */
export function RiderAreaForm({
  area,
  map,
}: {
  area: { label: string; labelUr: string | null; lat: number; lng: number } | null;
  map: { tileUrl: string; tileAttribution: string };
}) {
  const { t, i18n } = useTranslation();
  // The saved area in the reader's language, shown and prefilled so (the server resolves either label).
  const label = area ? placeLabelFor(area, i18n.language) : "";
  const [params] = useSearchParams();
  const actionData = useActionData() as ActionData;
  const lastResult = actionData?.intent === "area" || actionData?.intent === "clearArea" ? actionData.result : undefined;
  const [form, fields] = useSchemaForm(() => import("#shared/forms/settings.ts").then((m) => m.riderAreaSchema), {
    id: "area-form",
    lastResult,
    defaultValue: { area: label },
  });
  const saved = params.get("saved");
  const typed = typeof fields.area.initialValue === "string" ? fields.area.initialValue : label;
  const buttonClass = brandButton("page", "min-h-11");
  return (
    <section aria-labelledby="area-heading" className="rounded-lg bg-white p-4 shadow-sm md:p-6">
      <h2 id="area-heading" className="text-lg font-bold text-brand-900">
        {t("settings:area.heading")}
      </h2>
      <p className="mt-1 text-slate-700">{t("settings:area.lead")}</p>
      {(saved === "area" || saved === "clearArea") && !actionData && (
        <p role="status" className="mt-3 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(SAVED[saved])}
        </p>
      )}
      <p className="mt-3 font-medium text-slate-800" data-testid="rider-area-current">
        {area ? t("settings:area.current", { label }) : t("settings:area.none")}
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
        <input type="hidden" name="intent" value="area" />
        <ErrorBox errors={form.errors} id={form.errorId} />
        <PlaceField
          name={fields.area.name}
          id={fields.area.id}
          label={t("settings:area.label")}
          hint={t("settings:area.hint")}
          defaultValue={typed}
          defaultPoint={area && typed === label ? { lat: area.lat, lng: area.lng } : undefined}
          error={fields.area.errors?.[0]}
          errorId={fields.area.errorId}
          required
          tileUrl={map.tileUrl}
          tileAttribution={map.tileAttribution}
        />
        <div>
          <SubmitButton className={buttonClass}>{t("settings:area.submit")}</SubmitButton>
        </div>
      </Form>
      {area && (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="clearArea" />
          <button type="submit" className="min-h-11 rounded-lg border-2 border-red-700 px-4 py-2 font-bold text-red-800 hover:bg-red-50">
            {t("settings:area.clear")}
          </button>
        </Form>
      )}
    </section>
  );
}
