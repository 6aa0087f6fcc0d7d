import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/successful";
import { CampaignList } from "#app/components/campaigns/list.tsx";
import { campaignListLoader } from "#app/components/campaigns/list.server.ts";

export const handle = pageTitle("campaigns:list.title");

export const loader = (args: Route.LoaderArgs) => campaignListLoader(args, "successful");

/** /comp_camp */
export default function SuccessfulCampaigns({ loaderData }: Route.ComponentProps) {
  return <CampaignList loaderData={loaderData} />;
}
