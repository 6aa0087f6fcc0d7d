/**
 * A place a user can pick: a city or town, a neighbourhood or area of one (at the town's point), a district or
 * a province of Pakistan (or an external geocoder's result).
 */
export interface Place {
  /** Stable within one geocoder, e.g. "gn:1172451" for a GeoNames place. */
  id: string;
  /** The short name, e.g. "Lahore". */
  name: string;
  /** The formatted address shown in the field, e.g. "Lahore, Lahore District, Punjab". */
  label: string;
  /** The name in Urdu script where GeoNames has one ("لاہور"); Urdu readers are shown it. */
  nameUr?: string;
  /** The label an Urdu reader is shown, each part in Urdu where the gazetteer has it ("لاہور، ضلع لاہور، پنجاب"); resolves like `label`. */
  labelUr?: string;
  kind: "city" | "area" | "district" | "province" | "other";
  lat: number;
  lng: number;
}

/**
 * The label a reader of `lang` is shown: the Urdu one for Urdu where there is one. The one way a place is shown, a
 * suggestion or a saved place (its `*_label` and `*_label_ur` columns), whichever language it was written in.
 */
export function placeLabelFor(place: { label: string; labelUr?: string | null }, lang: string): string {
  return lang === "ur" && place.labelUr ? place.labelUr : place.label;
}

/**
 * Turns typed text into places. The offline gazetteer is the default and what tests use; an external
 * service (Nominatim, Google with a key) can be configured instead.
 */
export interface Geocoder {
  /** Suggestions for a partly typed name, best first; fast enough for every keystroke. */
  suggest(query: string, limit?: number): Promise<Place[]>;
  /** The single best place for a submitted text (a chosen label or a typed name), or null when none matches. */
  resolve(text: string): Promise<Place | null>;
  /**
   * The place a searched text is exactly the name of (English or Urdu, a short name, any spelling the gazetteer
   * knows), or null; always from the offline gazetteer, never a service: campaign searches ask it of every text.
   */
  named(text: string): Promise<Place | null>;
}

/** Suggestions the place field asks for at most. */
export const MAX_SUGGESTIONS = 8;

/** Pakistan's bounding box, with a little margin: points outside it are refused. */
export const PAKISTAN_BOUNDS = { south: 23.5, west: 60.5, north: 37.2, east: 77.9 } as const;

export function insidePakistan(lat: number, lng: number): boolean {
  return (
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    lat >= PAKISTAN_BOUNDS.south &&
    lat <= PAKISTAN_BOUNDS.north &&
    lng >= PAKISTAN_BOUNDS.west &&
    lng <= PAKISTAN_BOUNDS.east
  );
}
