import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { GazetteerData } from "./gazetteer-format.ts";
import type { Place } from "#shared/places.ts";

/**
 * The offline gazetteer of Pakistan (GeoNames, CC BY 4.0): towns, districts and provinces, searched in
 * memory. The index is built once, on first use; a query scans about 720 prepared entries, well under a
 * millisecond, so it can run on every keystroke.
 */

/**
 * Read from the file next to this module, on first use. Not a JSON import: Playwright's loader refuses
 * those without an import attribute, which this project's TypeScript settings do not allow. So this module
 * runs from source (tsx, vitest) and must stay out of the Vite bundle: routes reach it through
 * `context.services.geocoder`, never by importing it.
 */
let data: GazetteerData | null = null;

function gazetteerData(): GazetteerData {
  data ??= JSON.parse(fs.readFileSync(fileURLToPath(new URL("./pakistan-places.json", import.meta.url)), "utf8")) as GazetteerData;
  return data;
}

/** Where the data comes from and under which licence (shown on /about). */
export function gazetteerAbout(): GazetteerData["about"] {
  return gazetteerData().about;
}

/** Lower case, without accents or punctuation, single spaces: "Khairpur Mir’s" and "khairpur  MIRS" meet. */
export function normalizePlaceText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['\u2018\u2019`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Words that say what kind of area a name is; a query made only of them matches nothing. */
const GENERIC_WORDS = new Set(["district", "agency", "tribal", "area", "frontier", "region", "protected", "pakistan"]);

/** Among equally good matches, a town outranks a district or province of the same population. */
const KIND_FACTOR: Record<Place["kind"], number> = { city: 1, district: 0.5, province: 0.5, other: 0.1 };

interface Entry {
  place: Place;
  name: string;
  label: string;
  nameWords: string[];
  /** The name without its generic words ("lahore" of "Lahore District"), for substring matches. */
  core: string;
  labelWords: string[];
  weight: number;
}

let index: Entry[] | null = null;

function entry(place: Place, population: number): Entry {
  const name = normalizePlaceText(place.name);
  const label = normalizePlaceText(place.label);
  return {
    place,
    name,
    label,
    nameWords: name.split(" "),
    core: name
      .split(" ")
      .filter((w) => !GENERIC_WORDS.has(w))
      .join(" "),
    labelWords: label.split(" "),
    weight: population * KIND_FACTOR[place.kind],
  };
}

function buildIndex(): Entry[] {
  const data = gazetteerData();
  const out: Entry[] = [];
  for (const [code, name, lat, lng, population] of data.provinces) {
    out.push(entry({ id: `pk:adm1:${code}`, name, label: `${name}, Pakistan`, kind: "province", lat, lng }, population));
  }
  for (const [id, name, province, lat, lng, population] of data.districts) {
    const label = `${name}, ${data.provinces[province]![1]}`;
    out.push(entry({ id: `gn:${id}`, name, label, kind: "district", lat, lng }, population));
  }
  for (const [id, name, province, district, lat, lng, population] of data.cities) {
    const parts = [name, district >= 0 ? data.districts[district]![1] : null, data.provinces[province]![1]];
    const label = parts.filter(Boolean).join(", ");
    // Towns without a GeoNames id (no population match) are named by their point, which is unique here.
    const placeId = id ? `gn:${id}` : `pk:${lat},${lng}`;
    out.push(entry({ id: placeId, name, label, kind: "city", lat, lng }, population));
  }
  return out;
}

function entries(): Entry[] {
  index ??= buildIndex();
  return index;
}

/** Every place of the gazetteer (for tests and tools). */
export function allPlaces(): Place[] {
  return entries().map((e) => e.place);
}

const enum Tier {
  Label = 0,
  Name = 1,
  Prefix = 2,
  WordPrefix = 3,
  Words = 4,
  Substring = 5,
  None = 6,
}

/** How well an entry matches a normalized query (lower is better). */
function tier(e: Entry, q: string, tokens: string[]): Tier {
  if (e.label === q) return Tier.Label;
  if (e.name === q) return Tier.Name;
  if (e.name.startsWith(q) || e.label.startsWith(q)) return Tier.Prefix;
  // A later word of the name ("fateh" in "Ahmadpur Fateh"), but not a generic one ("dis" of every "... District").
  const words = e.nameWords;
  for (let i = 1; i < words.length; i += 1) {
    if (!GENERIC_WORDS.has(words[i]!) && words[i]!.startsWith(tokens[0]!) && words.slice(i).join(" ").startsWith(q)) return Tier.WordPrefix;
  }
  // "sahiwal punjab", "lahore dist": every typed word starts a word of the label, one of them a real name.
  if (
    tokens.every((t) => t === "pakistan" || e.labelWords.some((w) => w.startsWith(t))) &&
    tokens.some((t) => !GENERIC_WORDS.has(t) && e.labelWords.some((w) => w.startsWith(t) && !GENERIC_WORDS.has(w)))
  ) {
    return Tier.Words;
  }
  if (q.length >= 3 && e.core.includes(q)) return Tier.Substring;
  return Tier.None;
}

interface Match {
  e: Entry;
  tier: Tier;
}

function rank(a: Match, b: Match): number {
  return a.tier - b.tier || b.e.weight - a.e.weight || (a.e.place.name < b.e.place.name ? -1 : a.e.place.name > b.e.place.name ? 1 : 0);
}

function matches(query: string): { q: string; tokens: string[]; found: Match[] } {
  const q = normalizePlaceText(query);
  const tokens = q ? q.split(" ") : [];
  if (!q || tokens.every((t) => GENERIC_WORDS.has(t))) return { q, tokens, found: [] };
  const found: Match[] = [];
  for (const e of entries()) {
    const t = tier(e, q, tokens);
    if (t !== Tier.None) found.push({ e, tier: t });
  }
  return { q, tokens, found: found.sort(rank) };
}

/**
 * Places for a partly typed name, best first: the exact name, then names starting with it, then names with
 * a word starting with it, then labels containing every typed word, and only when those are few, names
 * containing it. Ties go to the larger place. Text in other scripts (Urdu) finds nothing.
 */
export function searchPlaces(query: string, limit = 8): Place[] {
  if (limit <= 0) return [];
  const { found } = matches(query);
  const strong = found.filter((m) => m.tier < Tier.Substring);
  const list = strong.length >= limit ? strong : found;
  return list.slice(0, limit).map((m) => m.e.place);
}

/**
 * The one place a submitted text names, or null: a full label ("Lahore, Lahore District, Punjab"), an exact
 * name ("lahore", the largest when several share it), or a whole name followed by words of its label
 * ("Sahiwal, Punjab"). A mere
 * prefix ("lah") does not resolve: the field would silently become a place the user never chose.
 */
export function resolvePlace(text: string): Place | null {
  const { q, tokens, found } = matches(text);
  const best = found[0];
  if (!best) return null;
  if (best.tier <= Tier.Name) return best.e.place;
  // The whole name first, then only whole words of its label: "Sahiwal Punjab", "Model Town, Lahore".
  const named = found.find(
    (m) =>
      m.tier <= Tier.Words &&
      q.startsWith(`${m.e.name} `) &&
      tokens.slice(m.e.nameWords.length).every((t) => t === "pakistan" || m.e.labelWords.includes(t)),
  );
  return named ? named.e.place : null;
}
