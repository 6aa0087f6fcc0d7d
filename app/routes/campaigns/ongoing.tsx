import type { Route } from "./+types/ongoing";
import { CampaignList } from "#app/routes/campaigns/+shared/list.tsx";
import { campaignListLoader } from "#app/routes/campaigns/+shared/list.server.ts";

export const loader = (args: Route.LoaderArgs) => campaignListLoader(args, "ongoing");

/** /campaigns */
export default function OngoingCampaigns({ loaderData }: Route.ComponentProps) {
  return <CampaignList loaderData={loaderData} />;
}
