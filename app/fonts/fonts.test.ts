import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as fontkit from "fontkit";
import * as hb from "harfbuzzjs";
import { describe, expect, test } from "vitest";
import { decompress } from "wawoff2";
import { LANGS } from "#shared/i18n/i18n.ts";
import { isArabicScript, localeStrings, unicodeRange, URDU_FIXED } from "#scripts/font-charset.ts";
import { FONT_FILES } from "#scripts/build-fonts.ts";
import { PDF_URDU_FONT } from "#server/domain/pdf.ts";
import { URDU_NUMBER_WORDS } from "#server/domain/number-words.ts";
import { allPlaces } from "#server/domain/places/gazetteer.ts";

const require = createRequire(import.meta.url);

function open(file: string): fontkit.Font {
  const font = fontkit.create(readFileSync(file));
  if ("fonts" in font) throw new Error(`${file} is a collection`);
  return font;
}
const committed = (name: string) => open(path.join(import.meta.dirname, name));

const sans = FONT_FILES.filter((f) => f.set === "sans").map((f) => ({ name: f.file, font: committed(f.file) }));
const nastaliq = committed("noto-nastaliq-urdu-400.woff2");

/** No font of ours draws these; the phone's own fonts do (Noto Sans's Latin set has no arrows). */
const DRAWN_BY_SYSTEM_FONTS = new Set([..."←→"].map((c) => c.codePointAt(0)!));

/** Direction marks and isolates (decision 040): they steer the layout and are never drawn, so no font needs them. */
const NEVER_DRAWN = /[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/u;

const show = (cps: number[]) => cps.map((cp) => `${String.fromCodePoint(cp)} U+${cp.toString(16).toUpperCase()}`).join(", ");

describe("the subset fonts cover what the product writes", () => {
  for (const lang of LANGS) {
    test(`every character of every ${lang} string has a glyph in the font its script uses`, () => {
      const missing = new Set<number>();
      for (const s of localeStrings(lang)) {
        for (const ch of s) {
          const cp = ch.codePointAt(0)!;
          if (cp < 0x20 || DRAWN_BY_SYSTEM_FONTS.has(cp) || NEVER_DRAWN.test(ch)) continue;
          const fonts = isArabicScript(cp) ? [nastaliq] : sans.map((f) => f.font);
          if (!fonts.every((f) => f.hasGlyphForCodePoint(cp))) missing.add(cp);
        }
      }
      expect(show([...missing]), "characters the subset lost: run `npm run fonts`").toBe("");
    });
  }

  test("Nastaliq keeps the whole Urdu alphabet, its marks, digits and punctuation, not only what our strings use", () => {
    const alphabet = [..."ءآأؤإئابپتٹثجچحخدڈذرڑزژسشصضطظعغفقکكگلمنںوہۂۃھیيىےۓ"].map((c) => c.codePointAt(0)!);
    const marks = [..."\u064B\u064C\u064D\u064E\u064F\u0650\u0651\u0652\u0653\u0654\u0670"].map((c) => c.codePointAt(0)!);
    const digitsAndPunctuation = [..."۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩،؛؟۔٪"].map((c) => c.codePointAt(0)!);
    const joiners = [0x200c, 0x200d];
    for (const cp of [...alphabet, ...marks, ...digitsAndPunctuation, ...joiners]) {
      expect(URDU_FIXED, show([cp])).toContain(cp);
      expect(nastaliq.hasGlyphForCodePoint(cp), show([cp])).toBe(true);
    }
  });

  test("every character of the gazetteer's places, as an Urdu reader is shown them, has a glyph (decision 038)", () => {
    const missing = new Set<number>();
    for (const p of allPlaces()) {
      for (const ch of `${p.nameUr ?? ""}${p.labelUr ?? p.label}`) {
        const cp = ch.codePointAt(0)!;
        if (NEVER_DRAWN.test(ch)) continue;
        if (
          isArabicScript(cp)
            ? !URDU_FIXED.includes(cp) || !nastaliq.hasGlyphForCodePoint(cp)
            : !sans.every((f) => f.font.hasGlyphForCodePoint(cp))
        ) {
          missing.add(cp);
        }
      }
    }
    expect(show([...missing]), "place names the subset cannot draw").toBe("");
  });

  test("Noto Sans keeps ASCII, Latin-1 and the typographic punctuation in both weights", () => {
    const wanted = [..."Rs. 1,234 — “quoted” ‘it’s’ – … · • © × é ñ ü"].map((c) => c.codePointAt(0)!);
    for (let cp = 0x20; cp <= 0x7e; cp++) wanted.push(cp);
    for (const { name, font } of sans) {
      const lost = wanted.filter((cp) => !font.hasGlyphForCodePoint(cp));
      expect(show(lost), name).toBe("");
    }
  });

  test("subsetting kept every layout feature of the source fonts (Nastaliq's joining and mark placement)", () => {
    for (const f of FONT_FILES) {
      const source = open(require.resolve(f.source));
      const subset = committed(f.file);
      expect(new Set(subset.availableFeatures), f.file).toEqual(new Set(source.availableFeatures));
    }
    for (const feature of ["init", "medi", "fina", "isol", "rlig", "ccmp", "curs", "mark", "mkmk"]) {
      expect(nastaliq.availableFeatures).toContain(feature);
    }
  });

  test("the PDFs' TrueType Nastaliq has the site's characters and layout features (decision 039)", () => {
    const pdf = open(path.join(import.meta.dirname, "../../server/domain", PDF_URDU_FONT));
    expect(new Set(pdf.characterSet), "run `npm run fonts`").toEqual(new Set(nastaliq.characterSet));
    expect(new Set(pdf.availableFeatures)).toEqual(new Set(nastaliq.availableFeatures));
    // The receipt's amount in words: every letter of Urdu's number words, which no locale file holds.
    const lost = [...new Set(URDU_NUMBER_WORDS.join(""))].filter((ch) => !pdf.hasGlyphForCodePoint(ch.codePointAt(0)!));
    expect(lost.join(" "), "run `npm run fonts`").toBe("");
  });

  test("each @font-face names exactly the characters its file has, so a page fetches only the file it draws with", () => {
    const css = readFileSync(path.join(import.meta.dirname, "fonts.css"), "utf8");
    for (const f of FONT_FILES) {
      const face = css.split("@font-face").find((block) => block.includes(`url("./${f.file}")`));
      expect(face, f.file).toBeDefined();
      const cmap = new Set(committed(f.file).characterSet);
      const range = face!.match(/unicode-range: ([^;]+);/)![1];
      const listed = range.split(", ").flatMap((part) => {
        const [from, to] = part
          .slice(2)
          .split("-")
          .map((h) => parseInt(h, 16));
        return Array.from({ length: (to ?? from) - from + 1 }, (_, i) => from + i);
      });
      expect(
        listed.every((cp) => cmap.has(cp)),
        f.file,
      ).toBe(true);
      expect(unicodeRange(listed)).toBe(range);
      expect(face).toContain("font-display: swap;");
    }
    // The Urdu font's range holds no Latin letter or digit: an English page has no reason to fetch it.
    const urduFace = css.split("@font-face").find((block) => block.includes("Noto Nastaliq Urdu"))!;
    expect(urduFace).not.toMatch(/U\+00(2[1-9A-F]|[3-7][0-9A-F])/);
  });
});

describe("the web's Nastaliq draws Urdu exactly as the whole font does", () => {
  /** HarfBuzz, the browser's shaper, on a WOFF2 file; each glyph told by its outline (the files number them apart). */
  async function shaper(woff2: Buffer) {
    const font = new hb.Font(new hb.Face(new hb.Blob(await decompress(woff2))));
    const outlines = new Map<number, string>();
    const outline = (id: number) => outlines.get(id) ?? outlines.set(id, font.glyphToPath(id)).get(id)!;
    return (text: string): string[] => {
      const buffer = new hb.Buffer();
      buffer.addText(text);
      buffer.guessSegmentProperties();
      buffer.setLanguage("ur");
      hb.shape(font, buffer);
      const at = buffer.getGlyphPositions();
      return buffer
        .getGlyphInfos()
        .map((g, i) => `${g.cluster} ${at[i]!.xAdvance},${at[i]!.xOffset},${at[i]!.yOffset} ${outline(g.codepoint)}`);
    };
  }

  test("every Urdu word of our strings and every pair of Urdu letters: the same glyphs at the same places", async () => {
    const whole = await shaper(readFileSync(require.resolve(FONT_FILES.find((f) => f.set === "nastaliq")!.source)));
    const subset = await shaper(readFileSync(path.join(import.meta.dirname, "noto-nastaliq-urdu-400.woff2")));
    const words = new Set(localeStrings("ur").flatMap((s) => s.match(/[\u0600-\u06ff\u200c\u200d]+/gu) ?? []));
    const letters = URDU_FIXED.filter((cp) => (cp >= 0x0621 && cp <= 0x064a) || (cp >= 0x0679 && cp <= 0x06d3)).map((cp) =>
      String.fromCodePoint(cp),
    );
    const pairs = letters.flatMap((a) => letters.map((b) => a + b + a));
    // Lines of a hundred words, so that HarfBuzz is called a few hundred times, not tens of thousands.
    const all = [...words, ...pairs];
    const lines = Array.from({ length: Math.ceil(all.length / 100) }, (_, i) => all.slice(i * 100, i * 100 + 100).join(" "));
    expect(words.size).toBeGreaterThan(500);
    for (const line of lines) expect(subset(line), line).toEqual(whole(line));
  }, 60_000);
});
