import { pageTitle } from "#app/components/role-shell.tsx";
import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/delete";
import { SubmitButton } from "#app/components/form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser, throwHttp } from "#app/lib/http.server.ts";
import { campaignOwnedBy } from "#server/domain/campaigns/access.ts";
import { campaignHasDonations, deleteCampaign } from "#server/domain/campaigns/campaigns.ts";
import { canTransition } from "#server/domain/campaigns/states.ts";

export const handle = pageTitle("campaigns:delete.title");

export async function loader({ context, params }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const campaign = await campaignOwnedBy(context.services.db, params.id, user).catch(throwHttp);
  if (!canTransition("delete", campaign.status, "owner")) throw new Response("Not found", { status: 404 });
  return {
    campaign: { id: campaign.id, title: campaign.title, status: campaign.status },
    hasDonations: await campaignHasDonations(context.services.db, campaign.id),
  };
}

export async function action({ context, params }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  const outcome = await deleteCampaign(context.services, user, params.id).catch(throwHttp);
  return redirect(`/campaigns?notice=${outcome}`);
}

/** /campaigns/:id/delete: the confirmation the delete icon leads to (works without JavaScript). */
export default function DeleteCampaign({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { campaign, hasDonations } = loaderData;
  const back = campaign.status === "completed" ? "/comp_camp" : "/campaigns";
  return (
    <>
      <title>{`${t("campaigns:delete.title")} · ${t("common:brand")}`}</title>
      <section className="mx-auto max-w-xl rounded-lg bg-white p-4 shadow-sm sm:p-6" aria-labelledby="delete-question">
        <h2 id="delete-question" className="text-xl font-bold text-slate-900">
          {t("campaigns:delete.question", { title: campaign.title })}
        </h2>
        <p className="mt-2 text-slate-800">{t(hasDonations ? "campaigns:delete.archiveNote" : "campaigns:delete.deleteNote")}</p>
        <Form method="post" className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Link to={back} className="rounded-lg border border-slate-400 px-6 py-3 text-center font-bold text-slate-800 hover:bg-slate-50">
            {t("campaigns:delete.cancel")}
          </Link>
          <SubmitButton className="rounded-lg bg-red-700 px-6 py-3 font-bold text-white hover:bg-red-800 disabled:opacity-70">
            {t(hasDonations ? "campaigns:delete.confirmArchive" : "campaigns:delete.confirm")}
          </SubmitButton>
        </Form>
      </section>
    </>
  );
}
