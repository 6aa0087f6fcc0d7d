import { invalidInput } from "#server/domain/errors.ts";
import { hasUrduScript, insidePakistan, type Geocoder } from "#shared/places.ts";

/**
 * The place a form named, resolved by the configured geocoder; a point the user adjusted on the map wins if it
 * lies in Pakistan. `error` is the field message when the text names no place. Text written in Urdu keeps
 * the Urdu label where the place has one, so the saved place reads as its writer wrote it.
 */
export async function resolvePlace(
  geocoder: Geocoder,
  text: string,
  point: { lat?: number; lng?: number },
  error: { message: string; field: string },
): Promise<{ label: string; lat: number; lng: number }> {
  const place = await geocoder.resolve(text);
  if (!place) throw invalidInput(error.message, error.field);
  const { lat, lng } = point;
  const adjusted = lat !== undefined && lng !== undefined && insidePakistan(lat, lng);
  const label = hasUrduScript(text) && place.labelUr ? place.labelUr : place.label;
  return { label, lat: adjusted ? lat : place.lat, lng: adjusted ? lng : place.lng };
}
