import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/donor-map";
import { MapPage } from "#app/components/map/map-page.tsx";
import { loadMapPage } from "#app/components/map/map-page.server.ts";

export const handle = pageTitle("map:title");

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadMapPage(context, request, "donor");
}

/** /donor_map: the map of every active campaign, with the donor's first name and picture in the sidebar. */
export default function DonorMap({ loaderData }: Route.ComponentProps) {
  return <MapPage {...loaderData} />;
}
