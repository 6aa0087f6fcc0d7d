import { sql, type SQL } from "drizzle-orm";

/** Great-circle distance in km between two points, in SQL (the haversine formula; PostgreSQL 15 has no earthdistance here). */
export function distanceKm(lat1: SQL | number, lng1: SQL | number, lat2: SQL | number, lng2: SQL | number): SQL<number> {
  return sql<number>`(6371 * 2 * asin(sqrt(
    power(sin(radians(${lat2} - ${lat1}) / 2), 2) +
    cos(radians(${lat1})) * cos(radians(${lat2})) * power(sin(radians(${lng2} - ${lng1}) / 2), 2))))`;
}
