import { invalidInput } from "#server/domain/errors.ts";
import { insidePakistan, type Geocoder } from "#shared/places.ts";

/** A place as a form saves it: its English label, its Urdu one where the gazetteer has one, and its point. */
export interface SavedPlace {
  label: string;
  labelUr: string | null;
  lat: number;
  lng: number;
}

/**
 * The place a form named, resolved by the configured geocoder; a point the user adjusted on the map wins if it
 * lies in Pakistan. `error` is the field message when the text names no place. Both labels are kept, whichever
 * language the text was written in, so each reader is shown the place in their own (decision 038).
 */
export async function resolvePlace(
  geocoder: Geocoder,
  text: string,
  point: { lat?: number; lng?: number },
  error: { message: string; field: string },
): Promise<SavedPlace> {
  const place = await geocoder.resolve(text);
  if (!place) throw invalidInput(error.message, error.field);
  const { lat, lng } = point;
  const adjusted = lat !== undefined && lng !== undefined && insidePakistan(lat, lng);
  return { label: place.label, labelUr: place.labelUr ?? null, lat: adjusted ? lat : place.lat, lng: adjusted ? lng : place.lng };
}
