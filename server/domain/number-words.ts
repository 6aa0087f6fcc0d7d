import { ToWords } from "to-words/en-IN";
import type { Lang } from "#shared/i18n/i18n.ts";

/**
 * Whole numbers in words, in the South Asian system both languages count money in: thousand, lakh (1,00,000), crore
 * (1,00,00,000), arab (1,00,00,00,000). What a receipt writes as its amount in words (decision 039).
 */

// en-IN counts in lakh and crore, as Pakistani receipts do. Its own entry, not the package's every locale (decision 032).
const toWords = new ToWords({ localeCode: "en-IN" });

/**
 * Urdu's words for 0 to 99, by value. Each is its own word (21 is اکیس, not "twenty-one"), so they are a table, not a
 * rule. The spellings are CLDR's (Unicode's locale data, `common/rbnf/ur.xml`, the `%spellout-cardinal` rules), which
 * Urdu-speaking contributors review and ICU's number formatting writes; where Urdu has two spellings of a number, this
 * is the one other software writes too (decision 039). Ten to a line, by tens.
 */
// prettier-ignore
export const URDU_NUMBER_WORDS: readonly string[] = [
  // 0–9
  "صفر", "ایک", "دو", "تین", "چار", "پانچ", "چھ", "سات", "آٹھ", "نو",
  // 10–19
  "دس", "گیارہ", "بارہ", "تیرہ", "چودہ", "پندرہ", "سولہ", "سترہ", "اٹھارہ", "انیس",
  // 20–29
  "بیس", "اکیس", "بائیس", "تئیس", "چوبیس", "پچیس", "چھبیس", "ستائیس", "اٹھائیس", "انتیس",
  // 30–39
  "تیس", "اکتیس", "بتیس", "تینتیس", "چونتیس", "پینتیس", "چھتیس", "سینتیس", "اڑتیس", "انتالیس",
  // 40–49
  "چالیس", "اکتالیس", "بیالیس", "تینتالیس", "چوالیس", "پینتالیس", "چھیالیس", "سینتالیس", "اڑتالیس", "انچاس",
  // 50–59
  "پچاس", "اکیاون", "باون", "تریپن", "چون", "پچپن", "چھپن", "ستاون", "اٹھاون", "انسٹھ",
  // 60–69
  "ساٹھ", "اکسٹھ", "باسٹھ", "تریسٹھ", "چونسٹھ", "پینسٹھ", "چھیاسٹھ", "سڑسٹھ", "اڑسٹھ", "انہتر",
  // 70–79
  "ستر", "اکہتر", "بہتر", "تہتر", "چوہتر", "پچہتر", "چھہتر", "ستہتر", "اٹھہتر", "انیاسی",
  // 80–89
  "اسی", "اکیاسی", "بیاسی", "تراسی", "چوراسی", "پچاسی", "چھیاسی", "ستاسی", "اٹھاسی", "نواسی",
  // 90–99
  "نوے", "اکیانوے", "بانوے", "ترانوے", "چورانوے", "پچانوے", "چھیانوے", "ستانوے", "اٹھانوے", "ننانوے",
];

/**
 * The places of the South Asian system, largest first: a number is the count of its largest place, that place's word,
 * then what is left ("12,34,567" is بارہ لاکھ چونتیس ہزار پانچ سو سڑسٹھ). The count of the largest place may itself be
 * above 99 (a hundred kharab is ایک سو کھرب), as CLDR's rules write it.
 */
const URDU_PLACES: readonly (readonly [value: number, word: string])[] = [
  [100_000_000_000, "کھرب"],
  [1_000_000_000, "ارب"],
  [10_000_000, "کروڑ"],
  [100_000, "لاکھ"],
  [1_000, "ہزار"],
  [100, "سو"],
];

/** A whole number from 0 up to Number.MAX_SAFE_INTEGER in Urdu words: 50,000 is "پچاس ہزار". */
export function urduNumberWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a whole number of 0 or more: ${n}`);
  if (n < 100) return URDU_NUMBER_WORDS[n]!;
  const [place, word] = URDU_PLACES.find(([value]) => n >= value)!;
  const rest = n % place;
  const head = `${urduNumberWords(Math.floor(n / place))} ${word}`;
  return rest === 0 ? head : `${head} ${urduNumberWords(rest)}`;
}

/** A whole number in the reader's language's words: "Fifty Thousand", "پچاس ہزار". */
export function numberInWords(n: number, lang: Lang): string {
  if (lang === "ur") return urduNumberWords(n);
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a whole number of 0 or more: ${n}`);
  return toWords.convert(n);
}
