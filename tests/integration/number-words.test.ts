import { describe, expect, it } from "vitest";
import { CAMPAIGN_TARGET_MAX, DONATION_AMOUNT_MAX } from "#shared/constants.ts";
import { numberInWords, URDU_NUMBER_WORDS, urduNumberWords } from "#server/domain/number-words.ts";

/**
 * Amounts in words (issue 16, item 3; decision 039): Urdu's hundred words for 0–99 and the South Asian places (ہزار،
 * لاکھ، کروڑ، ارب), checked against values written out by hand and against CLDR's spellings.
 */

/**
 * CLDR's Urdu spell-out rules for 0–99 (`common/rbnf/ur.xml`, `%spellout-cardinal`), as the file writes them: the
 * reference the table is copied from. A word changed in the table, or a letter mistyped, fails here.
 */
const CLDR_UR_SPELLOUT = `
0: صفر; 1: ایک; 2: دو; 3: تین; 4: چار; 5: پانچ; 6: چھ; 7: سات; 8: آٹھ; 9: نو;
10: دس; 11: گیارہ; 12: بارہ; 13: تیرہ; 14: چودہ; 15: پندرہ; 16: سولہ; 17: سترہ; 18: اٹھارہ; 19: انیس;
20: بیس; 21: اکیس; 22: بائیس; 23: تئیس; 24: چوبیس; 25: پچیس; 26: چھبیس; 27: ستائیس; 28: اٹھائیس; 29: انتیس;
30: تیس; 31: اکتیس; 32: بتیس; 33: تینتیس; 34: چونتیس; 35: پینتیس; 36: چھتیس; 37: سینتیس; 38: اڑتیس; 39: انتالیس;
40: چالیس; 41: اکتالیس; 42: بیالیس; 43: تینتالیس; 44: چوالیس; 45: پینتالیس; 46: چھیالیس; 47: سینتالیس; 48: اڑتالیس; 49: انچاس;
50: پچاس; 51: اکیاون; 52: باون; 53: تریپن; 54: چون; 55: پچپن; 56: چھپن; 57: ستاون; 58: اٹھاون; 59: انسٹھ;
60: ساٹھ; 61: اکسٹھ; 62: باسٹھ; 63: تریسٹھ; 64: چونسٹھ; 65: پینسٹھ; 66: چھیاسٹھ; 67: سڑسٹھ; 68: اڑسٹھ; 69: انہتر;
70: ستر; 71: اکہتر; 72: بہتر; 73: تہتر; 74: چوہتر; 75: پچہتر; 76: چھہتر; 77: ستہتر; 78: اٹھہتر; 79: انیاسی;
80: اسی; 81: اکیاسی; 82: بیاسی; 83: تراسی; 84: چوراسی; 85: پچاسی; 86: چھیاسی; 87: ستاسی; 88: اٹھاسی; 89: نواسی;
90: نوے; 91: اکیانوے; 92: بانوے; 93: ترانوے; 94: چورانوے; 95: پچانوے; 96: چھیانوے; 97: ستانوے; 98: اٹھانوے; 99: ننانوے;`;

describe("Urdu's words for 0–99", () => {
  it("are CLDR's, one for each number, in Urdu's own letters", () => {
    const cldr = [...CLDR_UR_SPELLOUT.matchAll(/(\d+): ([^;]+);/g)].map(([, n, word]) => [Number(n), word]);
    expect(cldr).toHaveLength(100);
    expect(URDU_NUMBER_WORDS).toHaveLength(100);
    for (const [n, word] of cldr) expect(URDU_NUMBER_WORDS[n as number], String(n)).toBe(word);
    expect(new Set(URDU_NUMBER_WORDS).size).toBe(100);
    // Urdu's yeh, heh and kaf (ی ہ ک), never the Arabic letters that look alike (ي ه ك), and no space inside a word.
    for (const word of URDU_NUMBER_WORDS) expect(word).toMatch(/^[آئابتدرسصفلنوٹپچڑکگھہیے]+$/);
  });

  it("follow the patterns of their tens, so a mistyped word stands out", () => {
    const words = (from: number, to: number) => URDU_NUMBER_WORDS.slice(from, to + 1);
    expect(words(21, 28).every((w) => w.endsWith("یس"))).toBe(true);
    expect(words(31, 38).every((w) => w.endsWith("تیس"))).toBe(true);
    expect(words(41, 48).every((w) => w.endsWith("الیس"))).toBe(true);
    expect(words(51, 58).every((w) => w.endsWith("ن"))).toBe(true);
    expect(words(61, 68).every((w) => w.endsWith("سٹھ"))).toBe(true);
    expect(words(71, 78).every((w) => w.endsWith("تر"))).toBe(true);
    expect(words(81, 88).every((w) => w.endsWith("اسی"))).toBe(true);
    expect(words(91, 98).every((w) => w.endsWith("انوے"))).toBe(true);
    // One short of the next ten: "un-" before the ten from 19 to 79; 89 and 99 are "nine" and "ninety-nine" of their own.
    for (const n of [19, 29, 39, 49, 59, 69, 79]) expect(URDU_NUMBER_WORDS[n], String(n)).toMatch(/^ان/);
    expect([URDU_NUMBER_WORDS[89], URDU_NUMBER_WORDS[99]]).toEqual(["نواسی", "ننانوے"]);
  });
});

describe("amounts in Urdu words, in thousands, lakhs, crores and arabs", () => {
  const cases: [number, string][] = [
    [0, "صفر"],
    [1, "ایک"],
    [9, "نو"],
    [11, "گیارہ"],
    [19, "انیس"],
    [21, "اکیس"],
    [35, "پینتیس"],
    [46, "چھیالیس"],
    [51, "اکیاون"],
    [99, "ننانوے"],
    [100, "ایک سو"],
    [101, "ایک سو ایک"],
    [110, "ایک سو دس"],
    [250, "دو سو پچاس"],
    [999, "نو سو ننانوے"],
    [1_000, "ایک ہزار"],
    [1_001, "ایک ہزار ایک"],
    [1_100, "ایک ہزار ایک سو"],
    [2_500, "دو ہزار پانچ سو"],
    [10_000, "دس ہزار"],
    [50_000, "پچاس ہزار"],
    [99_999, "ننانوے ہزار نو سو ننانوے"],
    [1_00_000, "ایک لاکھ"],
    [1_00_001, "ایک لاکھ ایک"],
    [2_00_050, "دو لاکھ پچاس"],
    [10_00_100, "دس لاکھ ایک سو"],
    [12_50_000, "بارہ لاکھ پچاس ہزار"],
    [12_34_567, "بارہ لاکھ چونتیس ہزار پانچ سو سڑسٹھ"],
    [1_00_00_000, "ایک کروڑ"],
    [5_00_00_005, "پانچ کروڑ پانچ"],
    [99_99_99_999, "ننانوے کروڑ ننانوے لاکھ ننانوے ہزار نو سو ننانوے"],
    [1_00_00_00_000, "ایک ارب"],
    [1_01_00_10_001, "ایک ارب ایک کروڑ دس ہزار ایک"],
    [1_00_00_00_00_000, "ایک کھرب"],
    [1_00_00_00_00_00_000, "ایک سو کھرب"],
  ];
  it.each(cases)("%i is «%s»", (n, words) => {
    expect(urduNumberWords(n)).toBe(words);
    expect(numberInWords(n, "ur")).toBe(words);
  });

  it("reaches the product's largest amounts: a donation of a crore, a campaign target of an arab", () => {
    expect(DONATION_AMOUNT_MAX).toBe(1_00_00_000);
    expect(urduNumberWords(DONATION_AMOUNT_MAX)).toBe("ایک کروڑ");
    expect(urduNumberWords(DONATION_AMOUNT_MAX - 1)).toBe("ننانوے لاکھ ننانوے ہزار نو سو ننانوے");
    expect(CAMPAIGN_TARGET_MAX).toBe(1_00_00_00_000);
    expect(urduNumberWords(CAMPAIGN_TARGET_MAX)).toBe("ایک ارب");
  });

  it("counts the same places in English (to-words, en-IN)", () => {
    expect(numberInWords(12_34_567, "en")).toBe("Twelve Lakh Thirty Four Thousand Five Hundred Sixty Seven");
    expect(numberInWords(DONATION_AMOUNT_MAX, "en")).toBe("One Crore");
  });

  it("refuses what is not a whole number of 0 or more, in both languages", () => {
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => urduNumberWords(n), String(n)).toThrow(RangeError);
      expect(() => numberInWords(n, "en"), String(n)).toThrow(RangeError);
    }
  });
});
