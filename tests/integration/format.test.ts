import { afterEach, describe, expect, it, vi } from "vitest";
import { formatDate, formatDateTime, formatDay, formatKm, pakistanTimestamp } from "#shared/format.ts";
import { createI18n, LANGS } from "#shared/i18n/i18n.ts";
import { resources } from "#shared/i18n/resources.ts";
import { isolateForeign, isolateLtr } from "#shared/text.ts";
import { isolateDepth } from "#tests/helpers/bidi.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("dates and numbers as the product shows them", () => {
  const moment = new Date("2026-11-23T10:05:09Z"); // 15:05:09 in Pakistan (UTC+05:00)

  it("writes a moment in Pakistan's time, in either language", () => {
    expect(formatDateTime(moment, "en")).toEqual({ iso: "2026-11-23T10:05:09.000Z", text: "23 Nov 2026, 3:05 pm" });
    expect(formatDate(moment, "en").text).toBe("23 Nov 2026");
    expect(pakistanTimestamp(moment)).toBe("2026-11-23 15:05:09");
    // Just before midnight UTC is already the next day in Pakistan.
    expect(formatDate(new Date("2026-11-23T20:00:00Z"), "en").text).toBe("24 Nov 2026");
  });

  it("writes the file's timestamp as the zone's rules say, in arithmetic since Pakistan's last summer time (2009)", () => {
    const byRules = new Intl.DateTimeFormat("sv-SE", { timeZone: "Asia/Karachi", dateStyle: "short", timeStyle: "medium" });
    // Every 7 h 13 min 17 s from 2008 (summer time: UTC+06:00 from April to October 2008 and 2009) to 2040.
    for (let ms = Date.UTC(2008, 0, 1), i = 0; ms < Date.UTC(2040, 0, 1); ms += 26_997_000, i++) {
      const date = new Date(ms + (i % 1000));
      expect(pakistanTimestamp(date), date.toISOString()).toBe(byRules.format(date));
    }
    expect(pakistanTimestamp(new Date("2009-06-01T00:00:00Z"))).toBe("2009-06-01 06:00:00");
    expect(pakistanTimestamp(new Date("2009-12-31T18:59:59.999Z"))).toBe("2009-12-31 23:59:59");
  });

  it("writes one date format per language, the same in a moment, a day and a pick-up's weekday", () => {
    for (const lang of ["en", "ur"] as const) {
      const date = formatDate(moment, lang).text;
      expect(formatDay("2026-11-23", lang)).toBe(date);
      expect(formatDateTime(moment, lang).text.startsWith(date)).toBe(true);
      expect(formatDay("2026-11-23", lang, "weekday").endsWith(date)).toBe(true);
    }
    expect(formatDate(moment, "ur").text).toBe("23 نومبر، 2026");
  });

  it('keeps an Urdu time of day in the order it is read, "3:05 PM", isolated left to right', () => {
    expect(formatDateTime(moment, "ur").text).toBe(`23 نومبر، 2026، ${isolateLtr("3:05 PM")}`);
    expect(formatDateTime(moment, "ur").text).toBe("23 نومبر، 2026، \u20663:05 PM\u2069");
    expect(formatDateTime(moment, "en").text).not.toMatch(/[\u2066-\u2069]/);
  });

  it("writes a calendar day in each style, and an unreadable day as it came", () => {
    expect(formatDay("2026-11-23", "en")).toBe("23 Nov 2026");
    expect(formatDay("2026-11-23", "en", "weekday")).toBe("Mon, 23 Nov 2026");
    expect(formatDay("2026-11-23", "en", "month")).toBe("Nov 2026");
    expect(formatDay("2026-11-23", "en", "year")).toBe("2026");
    expect(formatDay("not-a-day", "en")).toBe("not-a-day");
  });

  it("makes each date format once per language and style, not once per row", () => {
    // Warm every format these calls use, then count: a list page formats every row with the same few formats.
    const all = () => {
      formatDateTime(moment, "en");
      formatDateTime(moment, "ur");
      formatDate(moment, "en");
      formatDay("2026-11-23", "ur", "weekday");
    };
    all();
    const made = vi.spyOn(Intl, "DateTimeFormat");
    for (let i = 0; i < 50; i += 1) all();
    expect(made).not.toHaveBeenCalled();
  });

  it("writes distances as a reader says them", () => {
    expect(formatKm(0.4, "en")).toBeNull();
    expect(formatKm(3.24, "en")).toBe("3.2");
    expect(formatKm(48.6, "en")).toBe("49");
  });
});

describe("text of the other direction inside a sentence (decision 040)", () => {
  it("is isolated when it holds letters of the other script, and left alone otherwise", () => {
    expect(isolateForeign("Wells for Thar", "rtl")).toBe("\u2068Wells for Thar\u2069");
    expect(isolateForeign("Rs. 500", "rtl")).toBe("\u2068Rs. 500\u2069");
    expect(isolateForeign("کراچی", "rtl")).toBe("کراچی");
    expect(isolateForeign("42", "rtl")).toBe("42");
    expect(isolateForeign("روشنی ٹرسٹ", "ltr")).toBe("\u2068روشنی ٹرسٹ\u2069");
    expect(isolateForeign("Roshni Trust", "ltr")).toBe("Roshni Trust");
    expect(isolateForeign("https://ekchhat.pk/reset?token=abc", "rtl")).toBe("https://ekchhat.pk/reset?token=abc");
    expect(isolateForeign(isolateLtr("5 MB"), "rtl")).toBe(isolateLtr("5 MB"));
  });

  it("is what the translator does with every value it places", () => {
    const strings = { common: { by: "{{name}} کی طرف سے", byEn: "By {{name}}" } };
    expect(createI18n("ur", strings).t("common:by", { name: "Roshni Trust" })).toBe("\u2068Roshni Trust\u2069 کی طرف سے");
    expect(createI18n("ur", strings).t("common:by", { name: "روشنی" })).toBe("روشنی کی طرف سے");
    expect(createI18n("en", strings).t("common:byEn", { name: "روشنی" })).toBe("By \u2068روشنی\u2069");
    expect(createI18n("en", strings).t("common:byEn", { name: "Roshni" })).toBe("By Roshni");
  });
});

describe("one isolate never inside another (decision 040)", () => {
  const moment = new Date("2026-11-23T10:05:09Z");
  const urduTime = formatDateTime(moment, "ur").text;

  it("counts how deep isolates go", () => {
    expect(isolateDepth("plain")).toBe(0);
    expect(isolateDepth(`\u2068a\u2069 and \u2066b\u2069`)).toBe(1);
    expect(isolateDepth(`\u2068a \u2066b\u2069\u2069`)).toBe(2);
    expect(isolateDepth(`\u2069\u2069\u2068a\u2069`)).toBe(1);
  });

  it("a value's own isolates decide nothing, and are dropped when the value is isolated whole", () => {
    // An Urdu date holds its Latin time isolated: in an Urdu sentence it is Urdu, left as it is.
    expect(isolateDepth(urduTime)).toBe(1);
    expect(isolateForeign(urduTime, "rtl")).toBe(urduTime);
    // An Urdu sentence of ours that isolated an English name, placed in another Urdu sentence: left as it is.
    const by = `\u2068Roshni Trust\u2069 کی طرف سے`;
    expect(isolateForeign(by, "rtl")).toBe(by);
    // English outside its isolates: isolated whole, the inner isolate gone.
    expect(isolateForeign(`Roshni ${isolateLtr("6:06 PM")}`, "rtl")).toBe("\u2068Roshni 6:06 PM\u2069");
    expect(isolateForeign(`\u2068Roshni\u2069 Trust`, "rtl")).toBe("\u2068Roshni Trust\u2069");
    expect(isolateForeign(`روشنی \u2068Trust\u2069`, "ltr")).toBe("\u2068روشنی Trust\u2069");
  });

  it("holds for every sentence of ours in either language, whatever values it carries", () => {
    const values = (lang: (typeof LANGS)[number]) => {
      const t = createI18n(lang, { common: { by: lang === "ur" ? "{{name}} کی طرف سے" : "By {{name}}" } }).t;
      return [
        "Roshni Trust",
        "روشنی ٹرسٹ",
        "42",
        "https://ekchhat.pk/campaign/abc",
        urduTime,
        formatDateTime(moment, "en").text,
        isolateLtr("5 MB"),
        `Roshni ${isolateLtr("6:06 PM")}`,
        t("common:by", { name: "Roshni Trust" }),
        t("common:by", { name: "روشنی ٹرسٹ" }),
        t("common:by", { name: urduTime }),
      ];
    };
    const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
    let checked = 0;
    const nested: string[] = [];
    for (const lang of LANGS) {
      const { t } = createI18n(lang, resources[lang]);
      const by = createI18n(lang, { common: { by: lang === "ur" ? "{{name}} کی طرف سے" : "By {{name}}" } }).t;
      const walk = function* (node: unknown, path: string): Generator<[string, string]> {
        if (typeof node === "string") yield [path, node];
        else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) yield* walk(v, path ? `${path}.${k}` : k);
      };
      for (const [ns, strings] of Object.entries(resources[lang])) {
        for (const [path, text] of walk(strings, "")) {
          const names = placeholders(text);
          if (names.length === 0) continue;
          for (const value of values(lang)) {
            const out = t(`${ns}:${path}`, Object.fromEntries(names.map((n) => [n, value])));
            if (isolateDepth(out) > 1) nested.push(`${lang} ${ns}:${path} with «${value}»: «${out}»`);
            // What one sentence made may be a value of the next (a name isolated in a line, the line in a notice).
            if (isolateDepth(by("common:by", { name: out })) > 1) nested.push(`${lang} ${ns}:${path} inside another: «${out}»`);
            checked++;
          }
        }
      }
    }
    expect(nested).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });
});

describe("Urdu strings that carry Latin units", () => {
  function* texts(node: unknown, path: string): Generator<[string, string]> {
    if (typeof node === "string") yield [path, node];
    else if (node && typeof node === "object") for (const [k, v] of Object.entries(node)) yield* texts(v, path ? `${path}.${k}` : k);
  }

  it('write a size with its unit isolated left to right ("5 MB", never "MB 5" in a right-to-left line)', () => {
    const sizes = [...texts(resources.ur, "")].flatMap(([path, text]) =>
      [...text.matchAll(/(.)?(\d+(?:[.,]\d+)?\s?[KMG]B)(.)?/g)].map((m) => ({ path, isolated: m[1] === "\u2066" && m[3] === "\u2069" })),
    );
    expect(sizes.length).toBeGreaterThan(5);
    expect(sizes.filter((s) => !s.isolated)).toEqual([]);
  });
});
