/**
 * `npm run fonts`: subsets the product's two typefaces to the characters it uses (scripts/font-charset.ts) and writes
 * the WOFF2 files and their @font-face rules into app/fonts/, which is committed, so a build never needs this tool
 * (decision 030). Noto Sans and the PDF's TrueType Nastaliq are cut by `subset-font` (HarfBuzz), the web's Nastaliq
 * file by fontTools (scripts/subset-nastaliq.py, Debian's python3-fonttools), whose output is 14 KB smaller. Same
 * inputs (the pinned @fontsource packages, the locale files, the pinned tools) give the same bytes. Every OpenType
 * layout feature is kept: Nastaliq's joining and stacking (init, medi, fina, isol,
 * rlig, ccmp, curs, mark, mkmk) are what make it Urdu.
 *
 *   npm run fonts
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import * as fontkit from "fontkit";
import subsetFont from "subset-font";
import { fontCodePoints, unicodeRange } from "#scripts/font-charset.ts";
import { PDF_URDU_FONT } from "#server/domain/pdf.ts";

const require = createRequire(import.meta.url);
const OUT_DIR = path.resolve(import.meta.dirname, "../app/fonts");
const PDF_FONT = path.resolve(import.meta.dirname, "../server/domain", PDF_URDU_FONT);

/** One committed font file: where its glyphs come from, and how the page refers to it. */
export const FONT_FILES = [
  {
    file: "noto-sans-400.woff2",
    family: "Noto Sans",
    weight: 400,
    source: "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff2",
    set: "sans",
  },
  {
    file: "noto-sans-700.woff2",
    family: "Noto Sans",
    weight: 700,
    source: "@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff2",
    set: "sans",
  },
  // One Nastaliq weight: the bold file would add as many bytes again (its layout tables are most of it), so the
  // browser emboldens this one for bold text (decision 030).
  {
    file: "noto-nastaliq-urdu-400.woff2",
    family: "Noto Nastaliq Urdu",
    weight: 400,
    source: "@fontsource/noto-nastaliq-urdu/files/noto-nastaliq-urdu-arabic-400-normal.woff2",
    set: "nastaliq",
  },
] as const;

/** Python with Debian's python3-fonttools and python3-brotli, for the Nastaliq file (scripts/subset-nastaliq.py). */
const PYTHON = process.env.FONTTOOLS_PYTHON ?? "/usr/bin/python3";

/**
 * The web's Nastaliq file, made by fontTools rather than HarfBuzz: 14 KB smaller for the same glyphs (its GSUB
 * compresses better), without the Arabic, Farsi, Kashmiri and Sindhi language systems (decision 030, 2026-11-27).
 */
function subsetNastaliq(source: string, codePoints: readonly number[]): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "ekc-fonts-"));
  const out = path.join(dir, "nastaliq.woff2");
  try {
    execFileSync(
      PYTHON,
      [path.join(import.meta.dirname, "subset-nastaliq.py"), source, out, codePoints.map((cp) => cp.toString(16)).join(",")],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
  } catch (err) {
    throw new Error(
      `${PYTHON} scripts/subset-nastaliq.py failed (apt-get install python3-fonttools python3-brotli, or FONTTOOLS_PYTHON=…): ${String((err as { stderr?: Buffer }).stderr ?? err)}`,
    );
  }
  const bytes = readFileSync(out);
  rmSync(dir, { recursive: true });
  return bytes;
}

/** The code points a font file maps to glyphs. */
export function cmapOf(file: Buffer): number[] {
  const font = fontkit.create(file);
  if ("fonts" in font) throw new Error("a font collection, not one font");
  return font.characterSet;
}

export async function buildFonts(): Promise<{ file: string; before: number; after: number }[]> {
  const sets = fontCodePoints();
  const sizes: { file: string; before: number; after: number }[] = [];
  const faces: string[] = [];
  for (const font of FONT_FILES) {
    const source = await readFile(require.resolve(font.source));
    const text = String.fromCodePoint(...sets[font.set]);
    const subset =
      font.set === "nastaliq"
        ? subsetNastaliq(require.resolve(font.source), sets[font.set])
        : await subsetFont(source, text, { targetFormat: "woff2" });
    await writeFile(path.join(OUT_DIR, font.file), subset);
    sizes.push({ file: font.file, before: source.length, after: subset.length });
    // The range names what the file really has: a character the source lacks (an arrow) is not a reason to fetch it.
    const kept = new Set(cmapOf(subset));
    const covered = sets[font.set].filter((cp) => kept.has(cp));
    faces.push(
      [
        "@font-face {",
        `  font-family: "${font.family}";`,
        "  font-style: normal;",
        `  font-weight: ${font.weight};`,
        "  font-display: swap;",
        `  src: url("./${font.file}") format("woff2");`,
        `  unicode-range: ${unicodeRange(covered)};`,
        "}",
      ].join("\n"),
    );
  }
  // The PDF's Urdu font (decision 039): the same Nastaliq subset, as TrueType, which HarfBuzz and pdfkit read.
  const nastaliq = FONT_FILES.find((f) => f.set === "nastaliq")!;
  const ttf = await subsetFont(await readFile(require.resolve(nastaliq.source)), String.fromCodePoint(...sets.nastaliq), {
    targetFormat: "sfnt",
  });
  await writeFile(PDF_FONT, ttf);
  sizes.push({ file: path.relative(path.resolve(OUT_DIR, "../.."), PDF_FONT), before: 0, after: ttf.length });
  const css = `/* Made by \`npm run fonts\` (scripts/build-fonts.ts, decision 030): do not edit. */\n${faces.join("\n\n")}\n`;
  await writeFile(path.join(OUT_DIR, "fonts.css"), css);
  return sizes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { file, before, after } of await buildFonts()) console.log(`${file}: ${before} B → ${after} B`);
}
