import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { MapPin } from "lucide-react";
import { data, Form, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/join";
import { SubmitButton } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { placeLabelFor } from "#shared/places.ts";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { attempt, httpError, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { joinTarget, requestToJoin } from "#server/domain/campaigns/collaboration.ts";
import { partnershipStates } from "#server/domain/campaigns/states.ts";

export const handle = pageTitle("collab:join.title");

export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  try {
    const campaign = await joinTarget(context.services.db, user, params.campaignId);
    // What this NGO may do about its partnership, from the transition table (an owner has none with its own campaign).
    const actions = campaign.state === "owner" ? [] : partnershipStates.actionsFor(campaign.partnership, "ngo");
    return { campaign, actions };
  } catch (err) {
    throwHttp(err);
  }
}

export async function action({ context, params }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  const outcome = await attempt(requestToJoin(context.services, user, params.campaignId));
  if (outcome.ok) return redirect(`/collab1?request=${outcome.value}`);
  if (outcome.refusal.kind === "not_found") throw httpError(outcome.refusal);
  return data({ error: outcome.refusal.message }, { status: outcome.refusal.status });
}

/**
 * /collab/join/:campaignId: asks the NGO that runs a campaign to let this NGO collaborate on it. The create
 * form links here when the title chosen belongs to another NGO's active campaign.
 */
export default function JoinCampaign({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>() as { error: string } | undefined;
  const { campaign, actions } = loaderData;
  const canRequest = campaign.status === "active" && actions.includes("request");
  return (
    <>
      <title>{`${t("collab:join.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <ErrorBox errors={actionData ? [actionData.error] : null} />
        <p className="text-slate-700">{t("collab:join.lead")}</p>
        <article aria-labelledby="join-campaign" className="rounded-lg bg-white p-5 shadow-sm">
          <h2 id="join-campaign" className="text-xl font-bold break-words text-brand-900">
            <Link to={publicCampaignPath(campaign.slug)} className="underline">
              <UserText>{campaign.title}</UserText>
            </Link>
          </h2>
          <p className="mt-2 flex items-center gap-2 text-slate-800">
            <img
              src={pictureUrl(campaign.ownerLogoKey, "logo")}
              alt=""
              width={32}
              height={32}
              className="size-8 rounded-full border border-slate-200 object-cover"
            />
            {t("collab:join.by", { ngo: campaign.ownerName })}
          </p>
          <p className="mt-2 flex items-center gap-1 text-sm text-slate-700">
            <MapPin aria-hidden="true" className="size-4 shrink-0" />
            <span className="sr-only">{t("collab:join.location")}: </span>
            {placeLabelFor({ label: campaign.locationLabel, labelUr: campaign.locationLabelUr }, i18n.language)}
          </p>
          <UserText as="p" className="mt-3 break-words whitespace-pre-line text-slate-800">
            {campaign.description}
          </UserText>
        </article>
        {campaign.status !== "active" && campaign.state !== "owner" && campaign.state !== "partner" ? (
          <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">{t("collab:join.ended")}</p>
        ) : (
          campaign.state !== "none" && (
            <p className="rounded-md border border-slate-300 bg-slate-50 p-3 text-slate-900">
              {t(`collab:join.states.${campaign.state}`, { ngo: campaign.ownerName })}
            </p>
          )
        )}
        <div className="flex flex-wrap items-center gap-3">
          {canRequest && (
            <Form method="post">
              <SubmitButton className="rounded-lg bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800 disabled:opacity-70">
                {t("collab:join.request")}
              </SubmitButton>
            </Form>
          )}
          <Link to="/collab" className="px-2 py-2 font-medium text-brand-800 underline">
            {t("collab:join.back")}
          </Link>
        </div>
      </div>
    </>
  );
}
