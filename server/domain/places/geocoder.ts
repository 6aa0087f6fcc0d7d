import { ADDRESS_MAX_LENGTH } from "#shared/constants.ts";
import type { Config } from "#server/config.ts";
import type { Logger } from "#server/log.ts";
import { placeNamed, resolvePlace, searchPlaces } from "./gazetteer.ts";
import { insidePakistan, MAX_SUGGESTIONS, type Geocoder, type Place } from "#shared/places.ts";

export { MAX_SUGGESTIONS };
/** An external geocoder that has not answered by then is skipped for the offline gazetteer. */
export const EXTERNAL_TIMEOUT_MS = 4000;
/** Shorter text is completed offline: an external service would be asked on every keystroke for little. */
const EXTERNAL_MIN_QUERY = 3;
const CACHE_SIZE = 500;
const CACHE_TTL_MS = 60 * 60 * 1000;

export interface GeocoderDeps {
  /** Injected by tests, which must never reach the network. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The offline gazetteer of Pakistan: no key, no network, what tests use. */
export const offlineGeocoder: Geocoder = {
  async suggest(query, limit = MAX_SUGGESTIONS) {
    return searchPlaces(query, limit);
  },
  async resolve(text) {
    return resolvePlace(text);
  },
  async named(text) {
    return placeNamed(text);
  },
};

/** The geocoder chosen by configuration: offline (default), Nominatim, or Google with a key. */
export function createGeocoder(config: Config, log: Logger, deps: GeocoderDeps = {}): Geocoder {
  if (config.GEOCODER === "offline") return offlineGeocoder;
  const doFetch = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? EXTERNAL_TIMEOUT_MS;
  const search: ExternalSearch =
    config.GEOCODER === "google"
      ? googleSearch(doFetch, config.GOOGLE_MAPS_API_KEY ?? "")
      : nominatimSearch(doFetch, config.NOMINATIM_URL, config.APP_URL);
  return externalGeocoder(config.GEOCODER, search, log, timeoutMs);
}

type ExternalSearch = (query: string, limit: number, signal: AbortSignal) => Promise<Place[]>;

/**
 * An external service in front of the gazetteer: its answers when it gives some (points outside Pakistan
 * dropped), the gazetteer's when it fails, times out or finds nothing, so a flaky service never blocks a form.
 */
function externalGeocoder(name: string, search: ExternalSearch, log: Logger, timeoutMs: number): Geocoder {
  const cache = new Map<string, { at: number; places: Place[] }>();

  async function ask(query: string, limit: number): Promise<Place[] | null> {
    const key = `${limit}:${query.trim().toLowerCase().replace(/\s+/g, " ")}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_TTL_MS) return hit.places;
    try {
      const found = await withTimeout(timeoutMs, (signal) => search(query.trim(), limit, signal));
      const places = found.filter((p) => insidePakistan(p.lat, p.lng)).slice(0, limit);
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(key, { at: Date.now(), places });
      return places;
    } catch (err) {
      // The URL is not logged: Google's carries the API key.
      log.warn({ geocoder: name, error: err instanceof Error ? err.message : String(err) }, "geocoder failed; using the offline gazetteer");
      return null;
    }
  }

  return {
    async suggest(query, limit = MAX_SUGGESTIONS) {
      if (query.trim().length < EXTERNAL_MIN_QUERY) return searchPlaces(query, limit);
      const places = await ask(query, limit);
      return places && places.length > 0 ? places : searchPlaces(query, limit);
    },
    async resolve(text) {
      if (!text.trim()) return null;
      const places = await ask(text, 1);
      return places?.[0] ?? resolvePlace(text);
    },
    async named(text) {
      return placeNamed(text);
    },
  };
}

/** Aborts the request and gives up at the deadline, even when the request ignores its signal. */
async function withTimeout<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new Error(`no answer within ${ms} ms`);
      controller.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([run(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function getJson(doFetch: typeof fetch, url: string, signal: AbortSignal, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await doFetch(url, { headers: { Accept: "application/json", ...headers }, signal });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.json();
}

const clip = (text: string) => text.slice(0, ADDRESS_MAX_LENGTH);

/** One result of Nominatim's `/search?format=jsonv2`. */
export interface NominatimResult {
  place_id?: number;
  osm_type?: string;
  osm_id?: number;
  lat?: string;
  lon?: string;
  name?: string;
  display_name?: string;
  addresstype?: string;
}

const NOMINATIM_KIND: Record<string, Place["kind"]> = {
  city: "city",
  town: "city",
  village: "city",
  hamlet: "city",
  municipality: "city",
  county: "district",
  state_district: "district",
  district: "district",
  state: "province",
  province: "province",
};

export function placeFromNominatim(r: NominatimResult): Place | null {
  const lat = Number(r.lat);
  const lng = Number(r.lon);
  const label = r.display_name?.trim();
  if (!label || r.lat === undefined || r.lon === undefined || !insidePakistan(lat, lng)) return null;
  const id = r.osm_type && r.osm_id !== undefined ? `osm:${r.osm_type}/${r.osm_id}` : `nominatim:${r.place_id ?? `${lat},${lng}`}`;
  return {
    id,
    name: clip(r.name?.trim() || label.split(",")[0]!.trim()),
    label: clip(label),
    kind: NOMINATIM_KIND[r.addresstype ?? ""] ?? "other",
    lat,
    lng,
  };
}

/**
 * Nominatim's search. The public server (nominatim.openstreetmap.org) allows one request a second and no
 * autocomplete: for suggestions as people type, point NOMINATIM_URL at your own instance.
 */
function nominatimSearch(doFetch: typeof fetch, baseUrl: string, appUrl: string): ExternalSearch {
  return async (query, limit, signal) => {
    const params = new URLSearchParams({ format: "jsonv2", countrycodes: "pk", limit: String(limit), q: query });
    const url = `${baseUrl.replace(/\/+$/, "")}/search?${params}`;
    const body = await getJson(doFetch, url, signal, { "User-Agent": `EkChhat/1.0 (+${appUrl})`, "Accept-Language": "en" });
    if (!Array.isArray(body)) throw new Error("unexpected Nominatim reply");
    return (body as NominatimResult[]).map(placeFromNominatim).filter((p): p is Place => p !== null);
  };
}

/** One result of Google's Geocoding API. */
export interface GoogleResult {
  place_id?: string;
  formatted_address?: string;
  geometry?: { location?: { lat?: number; lng?: number } };
  types?: string[];
  address_components?: { long_name?: string; types?: string[] }[];
}

function googleKind(types: string[]): Place["kind"] {
  if (types.includes("locality") || types.includes("sublocality")) return "city";
  if (types.includes("administrative_area_level_2")) return "district";
  if (types.includes("administrative_area_level_1")) return "province";
  return "other";
}

export function placeFromGoogle(r: GoogleResult): Place | null {
  const lat = r.geometry?.location?.lat;
  const lng = r.geometry?.location?.lng;
  const label = r.formatted_address?.trim();
  if (!label || typeof lat !== "number" || typeof lng !== "number" || !insidePakistan(lat, lng)) return null;
  return {
    id: `google:${r.place_id ?? `${lat},${lng}`}`,
    name: clip(r.address_components?.[0]?.long_name?.trim() || label.split(",")[0]!.trim()),
    label: clip(label),
    kind: googleKind(r.types ?? []),
    lat,
    lng,
  };
}

/** Google's Geocoding API, limited to Pakistan. ZERO_RESULTS is an answer; any other status is a failure. */
function googleSearch(doFetch: typeof fetch, key: string): ExternalSearch {
  return async (query, limit, signal) => {
    const params = new URLSearchParams({ address: query, components: "country:PK", key });
    const body = (await getJson(doFetch, `https://maps.googleapis.com/maps/api/geocode/json?${params}`, signal)) as {
      status?: string;
      results?: GoogleResult[];
    };
    if (body.status === "ZERO_RESULTS") return [];
    if (body.status !== "OK" || !Array.isArray(body.results)) throw new Error(`Google geocoding status ${body.status ?? "missing"}`);
    return body.results
      .map(placeFromGoogle)
      .filter((p): p is Place => p !== null)
      .slice(0, limit);
  };
}
