import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/ongoing";
import { CampaignList } from "#app/components/campaigns/list.tsx";
import { campaignListLoader } from "#app/components/campaigns/list.server.ts";

export const handle = pageTitle("campaigns:list.title");

export const loader = (args: Route.LoaderArgs) => campaignListLoader(args, "ongoing");

/** /campaigns */
export default function OngoingCampaigns({ loaderData }: Route.ComponentProps) {
  return <CampaignList loaderData={loaderData} />;
}
