import { UserText } from "#app/components/user-text.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { MapPin, Trash2 } from "lucide-react";
import { Form, useActionData, useSearchParams } from "react-router";
import { SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { PlaceField } from "#app/components/place-field.tsx";
import { brandButton } from "#app/components/ui/button.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { DROPOFF_POINTS_MAX } from "#shared/constants.ts";
import type { DropoffIntent } from "#shared/forms/pickups.ts";

type ActionData = { intent: string; result: SubmissionResult<string[]>; errorParams?: Record<string, string> } | undefined;

const SAVED: Record<DropoffIntent, string> = { addDropoff: "pickups:dropoffs.added", removeDropoff: "pickups:dropoffs.removed" };

export interface DropoffPointView {
  id: string;
  name: string;
  address: string;
  areaLabel: string;
}

/**
 * The NGO's drop-off points on /settingsNGO (decision 026): the list with a Remove form for each, and a form to
 * add one (name, street address, and a place from the place search). Plain POST forms; each pick-up goes to the
 * point nearest the donor, or to the office address when none is listed.
 */
export function DropoffPoints({
  points,
  officeAddress,
  map,
}: {
  points: DropoffPointView[];
  officeAddress: string;
  map: { tileUrl: string; tileAttribution: string };
}) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const actionData = useActionData() as ActionData;
  const mine = actionData?.intent === "addDropoff" || actionData?.intent === "removeDropoff" ? actionData : undefined;
  const [form, fields] = useSchemaForm(() => import("#shared/forms/pickups.ts").then((m) => m.dropoffAddSchema), {
    id: "dropoff-form",
    lastResult: mine?.intent === "addDropoff" ? mine.result : undefined,
  });
  const saved = params.get("saved");
  const removeErrors = mine?.intent === "removeDropoff" ? Object.values(mine.result.error ?? {}).flatMap((e) => e ?? []) : [];
  const full = points.length >= DROPOFF_POINTS_MAX;
  const typedPlace = typeof fields.place.initialValue === "string" ? fields.place.initialValue : "";
  const withParams = (keys: string[] | undefined | null) => (keys ?? []).map((k) => t(k, mine?.errorParams ?? {}));
  return (
    <section aria-labelledby="dropoffs-heading" className="rounded-lg bg-white p-4 shadow-sm md:p-6">
      <h2 id="dropoffs-heading" className="text-lg font-bold text-brand-900">
        {t("pickups:dropoffs.heading")}
      </h2>
      <p className="mt-1 text-slate-700">{t("pickups:dropoffs.lead")}</p>
      {(saved === "addDropoff" || saved === "removeDropoff") && !actionData && (
        <p role="status" className="mt-3 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(SAVED[saved])}
        </p>
      )}
      <div className="mt-3">
        <ErrorBox errors={withParams(removeErrors)} />
      </div>
      {points.length === 0 ? (
        <p className="mt-3 text-slate-800" data-testid="dropoffs-none">
          {t("pickups:dropoffs.none", { address: officeAddress })}
        </p>
      ) : (
        <>
          <ul aria-label={t("pickups:dropoffs.listLabel")} className="mt-3 flex flex-col gap-2">
            {points.map((p) => (
              <li key={p.id} className="flex flex-wrap items-start justify-between gap-2 rounded-md border border-slate-200 p-3">
                <div className="flex min-w-0 flex-1 gap-2">
                  <MapPin aria-hidden="true" className="mt-1 size-4 shrink-0 text-brand-700" />
                  <div className="min-w-0 wrap-anywhere">
                    <UserText as="p" className="font-bold text-slate-900">
                      {p.name}
                    </UserText>
                    <UserText as="p" className="text-slate-800">
                      {p.address}
                    </UserText>
                    <p className="text-sm text-slate-700">{p.areaLabel}</p>
                  </div>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="removeDropoff" />
                  <input type="hidden" name="id" value={p.id} />
                  <button
                    type="submit"
                    aria-label={t("pickups:dropoffs.removeLabel", { name: p.name })}
                    className="inline-flex min-h-11 items-center gap-1 rounded-lg border-2 border-red-700 px-3 font-bold text-red-800 hover:bg-red-50"
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                    {t("pickups:dropoffs.remove")}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm text-slate-700">{t("pickups:dropoffs.count", { count: points.length, max: DROPOFF_POINTS_MAX })}</p>
        </>
      )}
      {full ? (
        <p className="mt-4 rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950">
          {t("pickups:dropoffs.full", { max: DROPOFF_POINTS_MAX })}
        </p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-4 border-t border-slate-200 pt-4">
          <h3 className="font-bold text-slate-800">{t("pickups:dropoffs.addHeading")}</h3>
          <input type="hidden" name="intent" value="addDropoff" />
          <ErrorBox errors={withParams(form.errors)} id={form.errorId} />
          <TextField field={fields.name} label={t("pickups:dropoffs.name")} hint={t("pickups:dropoffs.nameHint")} />
          <TextField
            field={fields.address}
            label={t("pickups:dropoffs.address")}
            hint={t("pickups:dropoffs.addressHint")}
            autoComplete="street-address"
          />
          <PlaceField
            name={fields.place.name}
            id={fields.place.id}
            label={t("pickups:dropoffs.place")}
            defaultValue={typedPlace}
            error={fields.place.errors?.[0]}
            errorId={fields.place.errorId}
            required
            tileUrl={map.tileUrl}
            tileAttribution={map.tileAttribution}
          />
          <div>
            <SubmitButton className={brandButton("page", "min-h-11")}>{t("pickups:dropoffs.submit")}</SubmitButton>
          </div>
        </Form>
      )}
    </section>
  );
}
