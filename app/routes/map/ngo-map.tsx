import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/ngo-map";
import { MapPage } from "#app/components/map/map-page.tsx";
import { loadMapPage } from "#app/components/map/map-page.server.ts";

export const handle = pageTitle("map:title");

export async function loader({ context, request }: Route.LoaderArgs) {
  return loadMapPage(context, request, "ngo");
}

/** /ngo_map: the map of every active campaign, with the NGO's name and logo in the sidebar. */
export default function NgoMap({ loaderData }: Route.ComponentProps) {
  return <MapPage {...loaderData} />;
}
