import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "#app/i18n/provider.ts";
import { CHOSEN_FUNDS } from "#shared/statuses.ts";

/**
 * The campaign form's funds (decision 048): the kinds of giving it takes besides general, and the NGO's Zakat
 * attestation, whose words are shown in full beside its box. Ticking Zakat needs the attestation (the schema says so
 * in the browser and on the server); `attestedOn` says when the current one was given.
 */
export function CampaignFundsFields({
  funds,
  zakatAttest,
  attestedOn,
}: {
  funds: FieldMetadata<unknown>;
  zakatAttest: FieldMetadata<unknown>;
  attestedOn: string | null;
}) {
  const { t } = useTranslation();
  const v = funds.initialValue;
  const chosen = Array.isArray(v) ? v : typeof v === "string" ? [v] : [];
  const statementId = `${zakatAttest.id}-statement`;
  const attestHintId = `${zakatAttest.id}-hint`;
  return (
    <>
      <fieldset className="flex flex-col gap-2" aria-describedby={`${funds.id}-hint`}>
        <legend className="font-medium text-slate-800">{t("funds:form.legend")}</legend>
        <p id={`${funds.id}-hint`} className="text-sm text-slate-600">
          {t("funds:form.hint")}
        </p>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          {CHOSEN_FUNDS.map((f) => (
            <label key={f} className="flex min-h-11 items-center gap-2">
              <input type="checkbox" name={funds.name} value={f} defaultChecked={chosen.includes(f)} className="size-5" />
              {t(`funds:kinds.${f}`)}
            </label>
          ))}
          <span className="flex min-h-11 items-center text-slate-700">{t("funds:form.generalAlways")}</span>
        </div>
        {funds.errors && funds.errors.length > 0 && (
          <p id={funds.errorId} className="text-sm font-medium text-red-700">
            {t(funds.errors[0]!)}
          </p>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-3">
        <legend className="px-1 font-medium text-slate-800">{t("funds:form.attestLegend")}</legend>
        <label className="flex items-start gap-2">
          <input
            type="checkbox"
            id={zakatAttest.id}
            name={zakatAttest.name}
            value="yes"
            defaultChecked={zakatAttest.initialValue === "yes"}
            aria-invalid={zakatAttest.errors?.length ? true : undefined}
            aria-describedby={[statementId, attestHintId, zakatAttest.errors?.length ? zakatAttest.errorId : ""].filter(Boolean).join(" ")}
            className="mt-1 size-5 shrink-0"
          />
          <span>{t("funds:form.attest")}</span>
        </label>
        <blockquote id={statementId} className="border-s-4 border-emerald-400 ps-3 text-slate-800">
          {t("funds:attestation.statement")}
        </blockquote>
        <p id={attestHintId} className="text-sm text-slate-600">
          {t("funds:form.attestHint")} {attestedOn ? t("funds:form.attestedOn", { date: attestedOn }) : ""}
        </p>
        {zakatAttest.errors && zakatAttest.errors.length > 0 && (
          <p id={zakatAttest.errorId} className="text-sm font-medium text-red-700">
            {t(zakatAttest.errors[0]!)}
          </p>
        )}
      </fieldset>
    </>
  );
}
