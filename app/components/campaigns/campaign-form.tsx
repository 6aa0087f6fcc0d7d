import type { SubmissionResult } from "@conform-to/react";
import { Form, href, Link } from "react-router";
import { FileField, RequiredNotice, SelectField, SubmitButton, TextAreaField, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { CAMPAIGN_CAUSES, type CampaignCause, type FundKind } from "#shared/statuses.ts";
import { CampaignFundsFields } from "#app/components/funds/campaign-funds-fields.tsx";
import { PlaceField } from "#app/components/place-field.tsx";

import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { IMAGE_ACCEPT } from "#shared/constants.ts";
import { brandButton } from "#app/components/ui/button.ts";

export interface CampaignFormDefaults {
  title: string;
  description: string;
  targetAmount: string;
  otherItems: string;
  location: string;
  lat: number;
  lng: number;
  /** The funds it takes now, and when its current Zakat attestation was given (decision 048). */
  acceptedFunds: FundKind[];
  zakatAttestedOn: string | null;
  cause: CampaignCause;
  pictureUrl: string;
}

/**
 * The campaign form of /create_camp and the edit screen: the specification's fields, every rule checked
 * as the user leaves a field and again on the server. Back and Post, as the specification has them.
 */
export function CampaignForm({
  lastResult,
  errorParams,
  defaults,
  map,
  submitLabel,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  errorParams?: Record<string, string>;
  defaults?: CampaignFormDefaults;
  map: { tileUrl: string; tileAttribution: string };
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/campaigns.ts").then((m) => m.campaignSchema), {
    id: "campaign",
    lastResult,
    defaultValue: defaults
      ? {
          title: defaults.title,
          description: defaults.description,
          targetAmount: defaults.targetAmount,
          otherItems: defaults.otherItems,
          location: defaults.location,
          // A list of ticked boxes: the schema's input type (unknown, as a form may send one value or several) reads as text.
          funds: defaults.acceptedFunds.filter((f) => f !== "general") as unknown as string,
          zakatAttest: defaults.acceptedFunds.includes("zakat") ? "yes" : undefined,
          cause: defaults.cause,
        }
      : undefined,
  });
  const collaborateWith = errorParams?.collaborateWith;
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" {...getFormProps(form)}>
      <RequiredNotice fields={[fields.title, fields.description, fields.targetAmount, fields.location, fields.cause]} />
      <ErrorBox id={form.errorId} errors={form.errors} />
      <div className="flex flex-col gap-2">
        <TextField field={fields.title} label={t("campaigns:form.title")} hint={t("campaigns:form.titleHint")} />
        {collaborateWith && fields.title.errors?.includes("campaigns:errors.titleTaken") && (
          <Link to={href("/collab/join/:campaignId", { campaignId: collaborateWith })} className="font-medium text-brand-800 underline">
            {t("campaigns:form.requestCollaboration")}
          </Link>
        )}
      </div>
      <TextAreaField
        field={fields.description}
        label={t("campaigns:form.description")}
        hint={t("campaigns:form.descriptionHint")}
        rows={5}
      />
      <TextField
        field={fields.targetAmount}
        label={t("campaigns:form.targetAmount")}
        inputMode="numeric"
        hint={t("campaigns:form.targetAmountHint")}
      />
      <TextAreaField field={fields.otherItems} label={t("campaigns:form.otherItems")} hint={t("campaigns:form.otherItemsHint")} rows={2} />
      <PlaceField
        name={fields.location.name}
        id={fields.location.id}
        label={t("campaigns:form.location")}
        hint={t("campaigns:form.locationHint")}
        defaultValue={defaults?.location}
        defaultPoint={defaults ? { lat: defaults.lat, lng: defaults.lng } : undefined}
        error={fields.location.errors?.[0]}
        errorId={fields.location.errorId}
        tileUrl={map.tileUrl}
        tileAttribution={map.tileAttribution}
      />
      {defaults && (
        <div className="flex items-center gap-3">
          <img src={defaults.pictureUrl} alt="" className="h-16 w-24 rounded object-cover" />
          <p className="text-sm text-slate-700">{t("campaigns:form.currentPicture")}</p>
        </div>
      )}
      <FileField
        field={fields.picture}
        label={t("campaigns:form.picture")}
        accept={IMAGE_ACCEPT}
        hint={t(defaults ? "campaigns:form.pictureKeepHint" : "campaigns:form.pictureHint")}
      />
      <SelectField
        field={fields.cause}
        label={t("campaigns:form.cause")}
        hint={t("campaigns:form.causeHint")}
        placeholder={t("campaigns:form.causeChoose")}
        options={CAMPAIGN_CAUSES.map((c) => ({ value: c, label: t(`campaigns:causes.${c}`) }))}
      />
      <CampaignFundsFields funds={fields.funds} zakatAttest={fields.zakatAttest} attestedOn={defaults?.zakatAttestedOn ?? null} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Link
          to="/campaigns"
          className="rounded-lg border border-slate-400 bg-white px-6 py-3 text-center font-bold text-slate-800 hover:bg-slate-50"
        >
          {t("campaigns:form.back")}
        </Link>
        <SubmitButton className={brandButton("wide")}>{submitLabel}</SubmitButton>
      </div>
    </Form>
  );
}
