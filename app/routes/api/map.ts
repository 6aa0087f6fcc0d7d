import type { Route } from "./+types/map";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { DomainError } from "#server/domain/errors.ts";
import { mapView, parseMapView } from "#server/domain/map/map.ts";

/**
 * GET /api/map?south=&west=&north=&east=&zoom= → the active campaigns in that view, clustered
 * ({ clusters, campaigns }). Public: titles and previews are shown on the public campaign pages too.
 * A malformed view is answered with 400 and a message, never a server error.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  try {
    const view = parseMapView(url.searchParams);
    const body = await mapView(context.services.db, view);
    return Response.json(body, { headers: { "Cache-Control": "public, max-age=30" } });
  } catch (err) {
    if (!(err instanceof DomainError) || err.kind !== "invalid") throw err;
    const { t } = serverI18n(context.lang);
    return Response.json(
      { error: t(err.message, err.params) },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
}
