import { pageTitle } from "#app/components/role-shell.tsx";
import { Form, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/edit";
import { SubmitButton } from "#app/components/form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser, throwHttp } from "#app/lib/http.server.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { placeLabelFor } from "#shared/places.ts";
import { campaignOwnedBy } from "#server/domain/campaigns/access.ts";
import { closeCampaign, updateCampaign } from "#server/domain/campaigns/campaigns.ts";
import { currentAttestation } from "#server/domain/campaigns/funds.ts";
import { formatDate } from "#shared/format.ts";
import { actionsFor, canTransition } from "#server/domain/campaigns/states.ts";
import { CampaignForm } from "#app/components/campaigns/campaign-form.tsx";
import { campaignFormAction, mapSettings } from "#app/components/campaigns/campaign-action.server.ts";

export const handle = pageTitle("campaigns:edit.title");

export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const campaign = await campaignOwnedBy(context.services.db, params.id, user).catch(throwHttp);
  // An archived campaign cannot be edited: for its owner, as for anyone else, there is no such page.
  if (!canTransition("edit", campaign.status, "owner")) throw new Response("Not found", { status: 404 });
  const attestation = await currentAttestation(context.services.db, campaign.id);
  return {
    map: mapSettings(context),
    campaign: {
      id: campaign.id,
      status: campaign.status,
      actions: actionsFor(campaign.status, "owner"),
      title: campaign.title,
      description: campaign.description,
      targetAmount: String(campaign.targetAmount),
      otherItems: campaign.otherItems ?? "",
      // Prefilled in the editor's language; the server resolves either label (decision 038).
      location: placeLabelFor({ label: campaign.locationLabel, labelUr: campaign.locationLabelUr }, context.lang),
      lat: campaign.lat,
      lng: campaign.lng,
      acceptedFunds: campaign.acceptedFunds,
      zakatAttestedOn: attestation ? formatDate(attestation.attestedAt, context.lang).text : null,
      cause: campaign.cause,
      pictureUrl: pictureUrl(campaign.pictureKey, "campaign"),
    },
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  if (new URL(request.url).searchParams.get("intent") === "close") {
    await closeCampaign(context.services.db, user, params.id).catch(throwHttp);
    return redirect("/comp_camp?notice=closed");
  }
  return campaignFormAction(
    request,
    context,
    (values) => updateCampaign(context.services, user, params.id, values, context.lang),
    "/campaigns?notice=saved",
    "campaigns:errors.saveFailed",
  );
}

/** /campaigns/:id/edit: the owner changes a campaign, or ends it early. */
export default function EditCampaign({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { campaign } = loaderData;
  const [params] = useSearchParams();
  return (
    <>
      <title>{`${t("campaigns:edit.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-6">
        <section className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <CampaignForm
            lastResult={actionData?.result}
            errorParams={actionData?.errorParams}
            defaults={campaign}
            map={loaderData.map}
            submitLabel={t("campaigns:form.save")}
          />
        </section>
        {campaign.actions.includes("close") && (
          <section aria-labelledby="close-heading" className="rounded-lg border border-amber-300 bg-amber-50 p-4 sm:p-6">
            <h2 id="close-heading" className="text-lg font-bold text-slate-900">
              {t("campaigns:edit.closeTitle")}
            </h2>
            <p className="mt-1 text-slate-800">{t("campaigns:edit.closeText")}</p>
            {params.get("confirmClose") === "1" ? (
              <Form method="post" action={`?intent=close`} className="mt-3 flex flex-wrap items-center gap-3">
                <p className="font-medium text-slate-900">{t("campaigns:edit.closeConfirm")}</p>
                <SubmitButton className="rounded-lg bg-amber-800 px-4 py-2 font-bold text-white hover:bg-amber-900 disabled:opacity-70">
                  {t("campaigns:edit.closeYes")}
                </SubmitButton>
              </Form>
            ) : (
              <a
                href="?confirmClose=1#close-heading"
                className="mt-3 inline-block rounded-lg border border-amber-800 px-4 py-2 font-bold text-amber-900"
              >
                {t("campaigns:edit.closeButton")}
              </a>
            )}
          </section>
        )}
      </div>
    </>
  );
}
