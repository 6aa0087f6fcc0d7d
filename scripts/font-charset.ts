/**
 * The characters the product's fonts keep (decision 030): everything the locale files use, plus fixed sets so that
 * what users type in either script renders too (a donor's name in Urdu may use any letter of the alphabet, not only
 * those our strings happen to contain). `npm run fonts` subsets with these; the font tests check the result.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { LANGS, type Lang } from "#shared/i18n/i18n.ts";
import { URDU_NUMBER_WORDS } from "#server/domain/number-words.ts";

const LOCALES_DIR = path.resolve(import.meta.dirname, "../shared/locales");

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const chars = (s: string) => [...s].map((c) => c.codePointAt(0)!);

/**
 * The Urdu alphabet with the Arabic letters that appear beside it (in names, religious phrases, text pasted from
 * Arabic sources: ة ك ي ى أ إ), the marks (zabar, zer, pesh, tanween, tashdeed, jazm, madd, hamza, khari zabar,
 * noon ghunna), both sets of digits, Urdu punctuation, and the joiners and direction marks written inside Urdu text.
 */
export const URDU_FIXED: readonly number[] = [
  ...range(0x0621, 0x063a), // ء … غ (includes آ أ ؤ إ ئ ا ب ة ت ث ج ح خ د ذ ر ز س ش ص ض ط ظ ع غ)
  ...range(0x0640, 0x064a), // tatweel, ف ق ك ل م ن ه و ى ي
  ...range(0x064b, 0x0658), // tanween, zabar, pesh, zer, tashdeed, jazm, madd, hamza above and below, noon ghunna
  0x0670, // khari zabar
  ...chars("ٹپچڈڑژکگںھۀہۂۃیےۓ"),
  ...range(0x0660, 0x0669), // Arabic-Indic digits
  ...range(0x06f0, 0x06f9), // Urdu digits ۰ … ۹
  ...chars("،؛؟۔٪٫٬"),
  0x061c, // Arabic letter mark
  0x200c, // zero-width non-joiner
  0x200d, // zero-width joiner
  0x200e, // left-to-right mark
  0x200f, // right-to-left mark
  0x0020, // space and no-break space: Urdu's word spacing stays the font's own
  0x00a0,
];

/** Latin text: ASCII, Latin-1 (accented names, © ×), and the typographic punctuation our copy and users write. */
export const LATIN_FIXED: readonly number[] = [
  ...range(0x0020, 0x007e),
  ...range(0x00a0, 0x00ff),
  ...chars("‘’‚“”„–—…•′″‹›€™−"),
  0x2009, // thin space
  ...range(0x0300, 0x036f), // combining accents, for a name typed decomposed (e + ◌́): the font keeps those it has
];

/** Arabic-script characters (and the joiners used inside Arabic-script words) belong to the Nastaliq font. */
export function isArabicScript(cp: number): boolean {
  return (
    (cp >= 0x0600 && cp <= 0x06ff) ||
    (cp >= 0x0750 && cp <= 0x077f) ||
    (cp >= 0x08a0 && cp <= 0x08ff) ||
    (cp >= 0xfb50 && cp <= 0xfdff) ||
    (cp >= 0xfe70 && cp <= 0xfeff) ||
    cp === 0x061c ||
    (cp >= 0x200c && cp <= 0x200f)
  );
}

/** Every string of one language's locale files, in file order. */
export function localeStrings(lang: Lang): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  const dir = path.join(LOCALES_DIR, lang);
  for (const file of readdirSync(dir).sort()) if (file.endsWith(".json")) walk(JSON.parse(readFileSync(path.join(dir, file), "utf8")));
  return out;
}

/** The code points the locale files use, all languages, control characters (newlines) left out. */
export function localeCodePoints(): Set<number> {
  const out = new Set<number>();
  for (const lang of LANGS) for (const s of localeStrings(lang)) for (const cp of chars(s)) if (cp >= 0x20) out.add(cp);
  return out;
}

/**
 * What each font keeps, sorted: Nastaliq the Arabic script, Noto Sans everything else. The PDFs' words that are not in
 * the locale files (Urdu's numbers, written by server/domain/number-words.ts) are kept too.
 */
export function fontCodePoints(): { nastaliq: number[]; sans: number[] } {
  const nastaliq = new Set(URDU_FIXED);
  const sans = new Set(LATIN_FIXED);
  for (const cp of localeCodePoints()) (isArabicScript(cp) ? nastaliq : sans).add(cp);
  for (const cp of chars(URDU_NUMBER_WORDS.join(" "))) nastaliq.add(cp);
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return { nastaliq: sorted(nastaliq), sans: sorted(sans) };
}

/** A CSS `unicode-range` value for a sorted list of code points. */
export function unicodeRange(codePoints: readonly number[]): string {
  const parts: string[] = [];
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");
  for (let i = 0; i < codePoints.length;) {
    let j = i;
    while (j + 1 < codePoints.length && codePoints[j + 1] === codePoints[j] + 1) j++;
    parts.push(i === j ? `U+${hex(codePoints[i])}` : `U+${hex(codePoints[i])}-${hex(codePoints[j])}`);
    i = j + 1;
  }
  return parts.join(", ");
}
