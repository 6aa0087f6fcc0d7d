/**
 * What the backfill of saved places' Urdu labels costs (decision 038): campaigns saved with one label each (a third
 * in Urdu, a third in English, a third a label the gazetteer does not have), the first round that gives them both
 * labels, then the rounds after it, which find nothing to do (what every hourly maintenance round pays), median of
 * several. In-memory PGlite. `npx tsx scripts/measure-place-labels.ts [rows]`
 */
import { isNotNull, count } from "drizzle-orm";
import { openDatabase } from "#server/db/client.ts";
import { campaigns } from "#server/db/schema.ts";
import { createAccount } from "#server/domain/accounts/accounts.ts";
import { allPlaces } from "#server/domain/places/gazetteer.ts";
import { backfillPlaceLabels } from "#server/domain/places/saved-labels.ts";

const ROWS = Number(process.argv[2] ?? 10_000);
const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const { db, close } = await openDatabase({});
const ownerId = await createAccount(db, {
  role: "ngo",
  email: "measure@example.org",
  password: "Str0ng-measure-pass",
  profile: { name: "Measure", address: "Karachi", registrationNumber: "REG-1", contactNumber: "03001234567" },
});
const urdu = allPlaces().filter((p) => p.labelUr);
const rows = Array.from({ length: ROWS }, (_, i) => {
  const place = urdu[i % urdu.length]!;
  const label = i % 3 === 0 ? place.labelUr! : i % 3 === 1 ? place.label : `House ${i}, ${place.name}, Pakistan`;
  return {
    ownerId,
    slug: `c-${i}`,
    title: `Campaign ${i}`,
    description: "-",
    targetAmount: 1000,
    locationLabel: label,
    lat: place.lat,
    lng: place.lng,
  };
});
for (let i = 0; i < rows.length; i += 1000) await db.insert(campaigns).values(rows.slice(i, i + 1000));

let start = performance.now();
const given = await backfillPlaceLabels(db);
const first = performance.now() - start;
const [both] = await db.select({ n: count() }).from(campaigns).where(isNotNull(campaigns.locationLabelUr));
const again: number[] = [];
for (let i = 0; i < RUNS; i++) {
  start = performance.now();
  if ((await backfillPlaceLabels(db)) !== 0) throw new Error("a second round changed rows");
  again.push(performance.now() - start);
}
console.log(
  JSON.stringify({
    rows: ROWS,
    placesWithUrdu: urdu.length,
    given,
    withBoth: both!.n,
    firstRoundMs: Math.round(first),
    laterRoundMs: { median: Math.round(median(again)), all: again.map(Math.round) },
  }),
);
await close();
