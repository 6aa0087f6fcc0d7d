/**
 * The shape of `pakistan-places.json`, written by `scripts/build-gazetteer.ts` and read by `gazetteer.ts`.
 * Rows are arrays, not objects, to keep the committed file small.
 */

/** [admin1 code ("04"), name, lat, lng, population of its towns] */
export type ProvinceRow = [code: string, name: string, lat: number, lng: number, population: number];

/** [GeoNames id of the district, name, index into provinces, lat, lng, population of its towns] */
export type DistrictRow = [id: number, name: string, province: number, lat: number, lng: number, population: number];

/** [GeoNames id (0 when unknown), name, index into provinces, index into districts (-1: none), lat, lng, population (0: unknown)] */
export type CityRow = [id: number, name: string, province: number, district: number, lat: number, lng: number, population: number];

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
}
