import type { AppContext } from "#app/lib/load-context.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { parsePage } from "#server/db/query.ts";
import { listMapCampaigns } from "#server/domain/map/map.ts";

/** What both map pages need: the tile source and, for use without JavaScript, a page of the active campaigns. */
export async function loadMapPage(context: AppContext, request: Request, role: "ngo" | "donor") {
  requireUser(context, role);
  const { config, db } = context.services;
  const page = parsePage(new URL(request.url).searchParams.get("page"));
  return {
    tileUrl: config.MAP_TILE_URL,
    attribution: config.MAP_TILE_ATTRIBUTION,
    list: await listMapCampaigns(db, page),
  };
}
