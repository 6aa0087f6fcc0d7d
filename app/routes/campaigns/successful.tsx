import type { Route } from "./+types/successful";
import { CampaignList } from "./+shared/list";
import { campaignListLoader } from "./+shared/list.server";

export const loader = (args: Route.LoaderArgs) => campaignListLoader(args, "successful");

/** /comp_camp */
export default function SuccessfulCampaigns({ loaderData }: Route.ComponentProps) {
  return <CampaignList loaderData={loaderData} />;
}
