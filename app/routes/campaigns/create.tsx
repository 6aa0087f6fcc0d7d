import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/create";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { createCampaign } from "#server/domain/campaigns/campaigns.ts";
import { CampaignForm } from "#app/components/campaigns/campaign-form.tsx";
import { NoAccountWarning } from "#app/components/campaigns/no-account-warning.tsx";
import { ngoPaymentMethods } from "#server/domain/donations/cash.ts";
import { campaignFormAction, mapSettings } from "#app/components/campaigns/campaign-action.server.ts";

export const handle = pageTitle("campaigns:create.title");

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  return { map: mapSettings(context), canTakeCash: (await ngoPaymentMethods(context.services.db, user)).length > 0 };
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  return campaignFormAction(
    request,
    context,
    (values) => createCampaign(context.services, user, values, context.lang),
    "/campaigns?notice=created",
    "campaigns:errors.createFailed",
  );
}

/** /create_camp: a new campaign. */
export default function CreateCampaign({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <title>{`${t("campaigns:create.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto max-w-2xl rounded-lg bg-white p-4 shadow-sm sm:p-6">
        {!loaderData.canTakeCash && <NoAccountWarning />}
        <CampaignForm
          lastResult={actionData?.result}
          errorParams={actionData?.errorParams}
          map={loaderData.map}
          submitLabel={t("campaigns:form.post")}
        />
      </div>
    </>
  );
}
