import fs from "node:fs";
import { fileURLToPath } from "node:url";
import type { GazetteerData } from "./gazetteer-format.ts";
import type { Place } from "#shared/places.ts";

/**
 * The offline gazetteer of Pakistan (GeoNames, CC BY 4.0): towns (with their Urdu spellings and short names),
 * neighbourhoods, districts and provinces, searched in memory. The index is built once, on first use; a query
 * scans about 800 prepared entries, well under a millisecond, so it can run on every keystroke (decision 038).
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

/**
 * Lower case, without accents, marks or punctuation, single spaces: "Khairpur Mir’s" and "khairpur  MIRS"
 * meet. Arabic script is kept, its letters written the one way Urdu does (ي ك ه as ی ک ہ, ھ as ہ), so
 * "لاهور" and "لاہور" meet; a sector's letter joins its number ("G-9", "g 9" and "G9" are "g9").
 */
export function normalizePlaceText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['\u2018\u2019`\u0640]/g, "")
    .replace(/[\u064a\u0649]/g, "\u06cc")
    .replace(/\u0643/g, "\u06a9")
    .replace(/[\u0647\u06be\u0629\u06c3\u06d5]/g, "\u06c1")
    .replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String((d.charCodeAt(0) - 0x0660) % 0x90))
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .replace(/\b([a-z]) (?=\d)/g, "$1");
}

/** Words that say what kind of area a name is; a query made only of them matches nothing. */
const GENERIC_WORDS = new Set(["district", "agency", "tribal", "area", "frontier", "region", "protected", "pakistan", "پاکستان", "ضلع"]);

/** The country's name, which any label may be followed by. */
const COUNTRY_WORDS = new Set(["pakistan", "پاکستان"]);

/** Among equally good matches, a town outranks a district or province of the same population, and all outrank a neighbourhood. */
const KIND_FACTOR: Record<Place["kind"], number> = { city: 1, district: 0.5, province: 0.5, area: 0.01, other: 0.1 };

interface Entry {
  place: Place;
  /** The name first, then its other names (Urdu spellings, what a neighbourhood is also called); a prefix finds them. */
  names: string[];
  /** Short names ("khi", "pindi"): found only when typed whole. */
  codes: string[];
  label: string;
  labelUr: string | null;
  /** The words of the label and of the other names (and a neighbourhood's town's names). */
  labelWords: string[];
  weight: number;
  // The same, joined once so that a query asks each with one `includes` (a search is ~800 entries × these):
  /** "\n" before each name and label: a prefix of one is `includes("\n" + q)`. */
  starts: string;
  /** "\n" before each name from each of its later words on, but for generic words ("fateh" of "ahmadpur fateh"). */
  later: string;
  /** " " before each word of `labelWords`, and before each of those that is not generic. */
  words: string;
  specific: string;
  /** The name without its generic words ("lahore" of "Lahore District"), then the other names: for substring matches. */
  inner: string;
}

let index: Entry[] | null = null;

/** `townNames`: a neighbourhood's label also names its town in Urdu or short ("Gulberg، لاہور", "F-7, Isb" resolve). */
function entry(place: Place, population: number, otherNames: string[] = [], codes: string[] = [], townNames: string[] = []): Entry {
  const names = [...new Set([place.name, ...otherNames].map(normalizePlaceText).filter(Boolean))];
  const label = normalizePlaceText(place.label);
  const labelUr = place.labelUr ? normalizePlaceText(place.labelUr) : null;
  const labelWords = [
    ...new Set([...label.split(" "), ...(labelUr?.split(" ") ?? []), ...[...names.slice(1), ...townNames].flatMap((n) => n.split(" "))]),
  ];
  const later = names.flatMap((n) => {
    const words = n.split(" ");
    return words.flatMap((w, i) => (i > 0 && !GENERIC_WORDS.has(w) ? [words.slice(i).join(" ")] : []));
  });
  const core = names[0]!
    .split(" ")
    .filter((w) => !GENERIC_WORDS.has(w))
    .join(" ");
  return {
    place,
    names,
    codes: codes.map(normalizePlaceText),
    label,
    labelUr,
    labelWords,
    weight: population * KIND_FACTOR[place.kind],
    starts: [...names, label, labelUr ?? ""].map((x) => `\n${x}`).join(""),
    later: later.map((x) => `\n${x}`).join(""),
    words: labelWords.map((w) => ` ${w}`).join(""),
    specific: labelWords
      .filter((w) => !GENERIC_WORDS.has(w))
      .map((w) => ` ${w}`)
      .join(""),
    inner: [core, ...names.slice(1)].join("\n"),
  };
}

/**
 * The label an Urdu reader is shown: each part in Urdu where the gazetteer has its Urdu name, else in English, joined
 * with the Urdu comma ("گلبرگ، لاہور، ضلع لاہور، پنجاب"; "کراچی، سندھ"; "ضلع لاہور، پنجاب").
 */
function urduLabel(parts: { name: string; nameUr?: string | undefined }[]): string {
  return parts.map((p) => p.nameUr ?? p.name).join("\u060c ");
}

const PAKISTAN = { name: "Pakistan", nameUr: "پاکستان" };

function buildIndex(): Entry[] {
  const data = gazetteerData();
  const out: Entry[] = [];
  // Urdu readers see a place's label in Urdu when its own name has an Urdu name (a neighbourhood: or its town's).
  const withUrdu = (place: Place, nameUr: string | undefined, parts: { name: string; nameUr?: string | undefined }[]) =>
    nameUr ? Object.assign(place, { nameUr, labelUr: urduLabel([{ name: place.name, nameUr }, ...parts]) }) : place;
  const provinceName = (i: number) => ({ name: data.provinces[i]![1], nameUr: data.provinces[i]![5] });
  const districtName = (i: number) => ({ name: data.districts[i]![1], nameUr: data.districts[i]![6] });
  for (const [code, name, lat, lng, population, nameUr] of data.provinces) {
    const place = withUrdu({ id: `pk:adm1:${code}`, name, label: `${name}, Pakistan`, kind: "province", lat, lng }, nameUr, [PAKISTAN]);
    out.push(entry(place, population, nameUr ? [nameUr] : []));
  }
  for (const [id, name, province, lat, lng, population, nameUr] of data.districts) {
    const label = `${name}, ${data.provinces[province]![1]}`;
    const place = withUrdu({ id: `gn:${id}`, name, label, kind: "district", lat, lng }, nameUr, [provinceName(province)]);
    out.push(entry(place, population, nameUr ? [nameUr] : []));
  }
  const cities: Entry[] = [];
  for (const [id, name, province, district, lat, lng, population, urdu = [], short = []] of data.cities) {
    const parts = [name, district >= 0 ? data.districts[district]![1] : null, data.provinces[province]![1]];
    const label = parts.filter(Boolean).join(", ");
    // Towns without a GeoNames id (no population match) are named by their point, which is unique here.
    const placeId = id ? `gn:${id}` : `pk:${lat},${lng}`;
    const place = withUrdu({ id: placeId, name, label, kind: "city", lat, lng }, urdu[0] || undefined, [
      ...(district >= 0 ? [districtName(district)] : []),
      provinceName(province),
    ]);
    const e = entry(place, population, urdu.filter(Boolean), short);
    cities.push(e);
    out.push(e);
  }
  for (const [name, aka, city, urdu = []] of data.areas) {
    const { place: town, names: townNames, codes: townCodes } = cities[city]!;
    const place: Place = {
      id: `area:${town.id}:${normalizePlaceText(name)}`,
      name,
      label: `${name}, ${town.label}`,
      kind: "area",
      lat: town.lat,
      lng: town.lng,
    };
    if (urdu[0]) place.nameUr = urdu[0];
    if (urdu[0] || town.labelUr) {
      const [, , province, district] = data.cities[city]!;
      const townUr = town.labelUr ?? urduLabel([town, ...(district >= 0 ? [districtName(district)] : []), provinceName(province)]);
      place.labelUr = `${urdu[0] ?? name}\u060c ${townUr}`;
    }
    out.push(entry(place, data.cities[city]![6], [...aka, ...urdu], [], [...townNames, ...townCodes]));
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

/** A normalized query, with the forms `tier` looks for. */
interface Query {
  q: string;
  tokens: string[];
  /** "\n" + q: the start of a name or label. */
  start: string;
  /** " " + each token: the start of a word. */
  wordStarts: string[];
}

/** How well an entry matches a query (lower is better). */
function tier(e: Entry, { q, tokens, start, wordStarts }: Query): Tier {
  if (e.label === q || e.labelUr === q) return Tier.Label;
  if (e.names.includes(q) || e.codes.includes(q)) return Tier.Name;
  if (e.starts.includes(start)) return Tier.Prefix;
  // A later word of a name ("fateh" in "Ahmadpur Fateh"), but not a generic one ("dis" of every "... District").
  if (e.later.includes(start)) return Tier.WordPrefix;
  // "sahiwal punjab", "lahore dist": every typed word starts a word of the label, one of them a real name.
  if (
    wordStarts.every((w, i) => COUNTRY_WORDS.has(tokens[i]!) || e.words.includes(w)) &&
    wordStarts.some((w, i) => !GENERIC_WORDS.has(tokens[i]!) && e.specific.includes(w))
  ) {
    return Tier.Words;
  }
  if (q.length >= 3 && e.inner.includes(q)) return Tier.Substring;
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
  const asked: Query = { q, tokens, start: `\n${q}`, wordStarts: tokens.map((t) => ` ${t}`) };
  const found: Match[] = [];
  for (const e of entries()) {
    const t = tier(e, asked);
    if (t !== Tier.None) found.push({ e, tier: t });
  }
  return { q, tokens, found: found.sort(rank) };
}

/**
 * Places for a partly typed name, in English or Urdu, best first: the exact name or short name, then names
 * starting with it, then names with a word starting with it, then labels containing every typed word, and
 * only when those are few, names containing it. Ties go to the larger place.
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
 * name or short name ("lahore", "لاہور", "Pindi"; the largest when several share it), or a whole name
 * followed by words of its label ("Sahiwal, Punjab", "Gulberg, Lahore"). A neighbourhood the gazetteer does
 * not know, before a comma and a town it does ("Street 4, Mohalla Sadiq, Bahawalpur"), is that town's point
 * under the text as written. A mere prefix ("lah") does not resolve: the field would silently become a place
 * the user never chose.
 */
export function resolvePlace(text: string): Place | null {
  const { q, tokens, found } = matches(text);
  const best = found[0];
  if (best && best.tier <= Tier.Name) return best.e.place;
  // The whole name first, then only whole words of its label: "Sahiwal Punjab", "Model Town, Lahore".
  const named = found.find(
    (m) =>
      m.tier <= Tier.Words &&
      [...m.e.names, ...m.e.codes].some(
        (n) => q.startsWith(`${n} `) && tokens.slice(n.split(" ").length).every((t) => COUNTRY_WORDS.has(t) || m.e.labelWords.includes(t)),
      ),
  );
  if (named) return named.e.place;
  return withinTown(text);
}

/**
 * The place a text is the name of, or null: its name or a short name in English or Urdu, however written ("لاہور",
 * "لاهور", "LAHORE", "Pindi", "Khi"; the largest when several share it), or its whole label. Nothing looser (no
 * prefix, no "area, town"): a campaign search asks it of every text searched for, which is mostly not a place.
 */
export function placeNamed(text: string): Place | null {
  const best = matches(text).found[0];
  return best && best.tier <= Tier.Name ? best.e.place : null;
}

/** "Mohalla Sadiq, Bahawalpur": the town after the first comma, with the text before it as its area. */
function withinTown(text: string): Place | null {
  const comma = text.search(/[,\u060c]/);
  if (comma < 0) return null;
  const head = text.slice(0, comma).replace(/\s+/g, " ").trim();
  const key = normalizePlaceText(head);
  if (!key || key.split(" ").every((w) => GENERIC_WORDS.has(w))) return null;
  const town = resolvePlace(text.slice(comma + 1));
  if (!town || (town.kind !== "city" && town.kind !== "area")) return null;
  const place: Place = { id: `${town.id}~${key}`, name: head, label: `${head}, ${town.label}`, kind: "area", lat: town.lat, lng: town.lng };
  if (town.labelUr) place.labelUr = `${head}\u060c ${town.labelUr}`;
  return place;
}
