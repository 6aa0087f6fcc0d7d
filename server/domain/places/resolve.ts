import { invalidInput } from "#server/domain/errors.ts";
import { insidePakistan, type Geocoder } from "#shared/places.ts";

/**
 * The place a form named, resolved by the configured geocoder; a point the user adjusted on the map wins if it
 * lies in Pakistan. `error` is the field message when the text names no place.
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
  return { label: place.label, lat: adjusted ? lat : place.lat, lng: adjusted ? lng : place.lng };
}
