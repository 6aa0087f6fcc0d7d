/**
 * The shape of `pakistan-places.json`, written by `scripts/build-gazetteer.ts` and read by `gazetteer.ts`.
 * Rows are arrays, not objects, to keep the committed file small.
 */

/** [admin1 code ("04"), name, lat, lng, population of its towns, Urdu name (left out when none)] */
export type ProvinceRow = [code: string, name: string, lat: number, lng: number, population: number, nameUr?: string];

/** [GeoNames id of the district, name, index into provinces, lat, lng, population of its towns, Urdu name (left out when none)] */
export type DistrictRow = [id: number, name: string, province: number, lat: number, lng: number, population: number, nameUr?: string];

/**
 * [GeoNames id (0 when unknown), name, index into provinces, index into districts (-1: none), lat, lng, population (0: unknown),
 * Urdu: the name shown to Urdu readers first, then other Arabic-script spellings that find it (may be empty),
 * short names found only when typed whole ("KHI", "Pindi")]. The last two are left out when there are none.
 */
export type CityRow = [
  id: number,
  name: string,
  province: number,
  district: number,
  lat: number,
  lng: number,
  population: number,
  urdu?: string[],
  short?: string[],
];

/**
 * [name, other names it goes by, index into cities, Urdu: the name shown to Urdu readers first, then others that find it
 * (left out when none)]: a neighbourhood, area or sector, at its town's point.
 */
export type AreaRow = [name: string, aka: string[], city: number, urdu?: string[]];

export interface GazetteerData {
  about: {
    source: string;
    sourceUrl: string;
    licence: string;
    licenceUrl: string;
    /** The npm packages (and versions) the rows were built from. */
    builtFrom: string[];
    notes: string;
  };
  provinces: ProvinceRow[];
  districts: DistrictRow[];
  cities: CityRow[];
  areas: AreaRow[];
}
