import type { FieldMetadata } from "@conform-to/react";
import { TextField } from "#app/components/form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { FundKind } from "#shared/statuses.ts";

/** The value a radio group or checkbox starts with: the form's reply after a refused post, else the default. */
function initial(field: FieldMetadata<unknown>): string | undefined {
  const v = field.initialValue;
  return typeof v === "string" ? v : undefined;
}

/**
 * What the donor says about a gift on the cash proof form and the goods form (decision 048): which fund it is given to
 * (only those the campaign takes are offered; general is chosen unless the donor picks another), whether their name
 * is shown in the public list of gifts (unticked: anonymous to the public), and in whose name it is given. Plain
 * radios, a checkbox and a text field: the form works without JavaScript.
 */
export function GiftFundFields({
  fund,
  showName,
  inNameOf,
  accepted,
}: {
  fund: FieldMetadata<unknown>;
  showName: FieldMetadata<unknown>;
  inNameOf: FieldMetadata<unknown>;
  accepted: readonly FundKind[];
}) {
  const { t } = useTranslation();
  const chosen = initial(fund) ?? "general";
  const hintId = `${fund.id}-hint`;
  const showHintId = `${showName.id}-hint`;
  return (
    <>
      <fieldset className="flex flex-col gap-2" aria-describedby={fund.errors?.length ? `${hintId} ${fund.errorId}` : hintId}>
        <legend className="font-medium text-slate-800">{t("funds:gift.fundLegend")}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          {accepted.map((f) => (
            <label key={f} className="flex min-h-11 items-center gap-2">
              <input type="radio" name={fund.name} value={f} defaultChecked={chosen === f} className="size-5" />
              {t(`funds:kinds.${f}`)}
            </label>
          ))}
        </div>
        <p id={hintId} className="text-sm text-slate-600">
          {t("funds:gift.fundHint")}
        </p>
        {fund.errors && fund.errors.length > 0 && (
          <p id={fund.errorId} className="text-sm font-medium text-red-700">
            {t(fund.errors[0]!)}
          </p>
        )}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label className="flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            id={showName.id}
            name={showName.name}
            value="yes"
            defaultChecked={initial(showName) === "yes"}
            aria-describedby={showHintId}
            className="size-5"
          />
          {t("funds:gift.showName")}
        </label>
        <p id={showHintId} className="text-sm text-slate-600">
          {t("funds:gift.showNameHint")}
        </p>
      </div>
      <TextField field={inNameOf} label={t("funds:gift.inNameOf")} hint={t("funds:gift.inNameOfHint")} autoComplete="off" />
    </>
  );
}
