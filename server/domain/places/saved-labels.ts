import { and, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, dropoffPoints, pickups, riderProfiles, volunteerPositions } from "#server/db/schema.ts";
import { resolvePlace } from "./gazetteer.ts";

/** Every saved place: its table, the English label's column and the Urdu label's beside it (decision 038). */
const SAVED_PLACES: { table: PgTable; label: PgColumn; labelUr: PgColumn }[] = [
  { table: campaigns, label: campaigns.locationLabel, labelUr: campaigns.locationLabelUr },
  { table: pickups, label: pickups.areaLabel, labelUr: pickups.areaLabelUr },
  { table: dropoffPoints, label: dropoffPoints.areaLabel, labelUr: dropoffPoints.areaLabelUr },
  { table: riderProfiles, label: riderProfiles.areaLabel, labelUr: riderProfiles.areaLabelUr },
  { table: volunteerPositions, label: volunteerPositions.cityLabel, labelUr: volunteerPositions.cityLabelUr },
];

/**
 * Places saved with one label (before both were kept, or before the gazetteer had the place's Urdu name) get both:
 * a label that is exactly a gazetteer place's English or Urdu label becomes that place's English label, with its
 * Urdu label beside it. Any other label (a geocoder service's, a place the gazetteer has no Urdu for) stays as it
 * is. Idempotent and safe on several servers at once: only rows without an Urdu label are touched. Returns the
 * rows given both labels.
 */
export async function backfillPlaceLabels(db: DbOrTx): Promise<number> {
  let done = 0;
  for (const { table, label, labelUr } of SAVED_PLACES) {
    const labels = await db
      .selectDistinct({ text: sql<string>`${label}` })
      .from(table)
      .where(and(isNull(labelUr), isNotNull(label)));
    for (const { text } of labels) {
      const place = resolvePlace(text);
      if (!place?.labelUr || (text !== place.label && text !== place.labelUr)) continue;
      const set: SQL = sql`${sql.identifier(label.name)} = ${place.label}, ${sql.identifier(labelUr.name)} = ${place.labelUr}`;
      const updated = await db.execute(sql`update ${table} set ${set} where ${label} = ${text} and ${labelUr} is null returning 1`);
      done += (updated as unknown as { rows: unknown[] }).rows.length;
    }
  }
  return done;
}
