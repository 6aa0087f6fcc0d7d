import type { Route } from "./+types/ongoing";
import { CampaignList } from "./+shared/list";
import { campaignListLoader } from "./+shared/list.server";

export const loader = (args: Route.LoaderArgs) => campaignListLoader(args, "ongoing");

/** /campaigns */
export default function OngoingCampaigns({ loaderData }: Route.ComponentProps) {
  return <CampaignList loaderData={loaderData} />;
}
