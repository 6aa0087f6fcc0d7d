import type { Route } from "./+types/places";
import { hitRateLimit, limitAddress } from "#server/domain/rate-limit.ts";
import { MAX_SUGGESTIONS, type Place } from "#shared/places.ts";
import { attempt, httpError } from "#app/lib/http.server.ts";

/** Suggestions per client address per minute when they cost a call to an external (possibly paid) geocoder. */
const EXTERNAL_SUGGESTIONS_PER_MINUTE = 120;

/** Longer text is cut: no place name is this long, and it bounds the work a request can ask for. */
export const PLACE_QUERY_MAX_LENGTH = 100;

/**
 * GET /api/places?q=lah → { places: Place[] }: suggestions for the place field, from the configured
 * geocoder. Public (sign-up and public pages may use it) and cacheable: the answer depends on q alone.
 * With an external geocoder each client address is limited, so nobody can spend the service's quota.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const raw = new URL(request.url).searchParams.get("q") ?? "";
  const q = raw.slice(0, PLACE_QUERY_MAX_LENGTH).trim();
  let places: Place[] = [];
  if (q && context.services.config.GEOCODER !== "offline") {
    const counted = await attempt(
      hitRateLimit(context.services.db, `places:ip:${limitAddress(context.clientIp)}`, EXTERNAL_SUGGESTIONS_PER_MINUTE, 60),
    );
    if (!counted.ok) {
      if (counted.refusal.kind !== "rate_limited") throw httpError(counted.refusal);
      return Response.json({ places: [] }, { status: counted.refusal.status, headers: { "Cache-Control": "no-store" } });
    }
  }
  if (q) {
    try {
      places = (await context.services.geocoder.suggest(q, MAX_SUGGESTIONS)).slice(0, MAX_SUGGESTIONS);
    } catch (err) {
      // A suggestion list is never worth an error page: the field still works as plain text.
      context.services.log.warn({ error: err instanceof Error ? err.message : String(err) }, "place suggestions failed");
    }
  }
  return Response.json({ places }, { headers: { "Cache-Control": "public, max-age=3600" } });
}
