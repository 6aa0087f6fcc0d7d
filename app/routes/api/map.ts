import type { Route } from "./+types/map";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { mapView, parseMapView } from "#server/domain/map/map.ts";
import { attempt, httpError } from "#app/lib/http.server.ts";

/**
 * GET /api/map?south=&west=&north=&east=&zoom= → the active campaigns in that view, clustered
 * ({ clusters, campaigns }). Public: titles and previews are shown on the public campaign pages too.
 * A malformed view is answered with 400 and a message, never a server error.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const outcome = await attempt(Promise.resolve().then(() => mapView(context.services.db, parseMapView(url.searchParams))));
  if (outcome.ok) return Response.json(outcome.value, { headers: { "Cache-Control": "public, max-age=30" } });
  const { kind, message, params, status } = outcome.refusal;
  if (kind !== "invalid") throw httpError(outcome.refusal);
  const { t } = serverI18n(context.lang);
  return Response.json({ error: t(message, params) }, { status, headers: { "Cache-Control": "no-store" } });
}
