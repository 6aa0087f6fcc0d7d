import { readFileSync } from "node:fs";
import type { Lang } from "#shared/i18n/i18n.ts";

/**
 * PDFs the product makes (receipts, posters), in the reader's language (decision 039). pdfkit writes the file; text
 * goes through `PdfWriter.text`, which splits it into runs by the Unicode bidirectional algorithm (bidi-js) and by
 * script: Urdu (Arabic script) is shaped by HarfBuzz (harfbuzzjs) in the embedded Noto Nastaliq Urdu, everything else
 * is drawn in the standard Helvetica. pdfkit, HarfBuzz and the font load on demand, so only the paths that make a PDF
 * pay for them.
 */

/**
 * The PDF's Urdu font: Noto Nastaliq Urdu subset to the product's characters, as TrueType (HarfBuzz reads no WOFF2).
 * Made by `npm run fonts`; read beside the module that reads it (scripts/build-server.ts copies it into the builds).
 */
export const PDF_URDU_FONT = "noto-nastaliq-urdu-400.ttf";

/** How one paragraph is drawn. */
export interface TextStyle {
  size: number;
  bold?: boolean;
  /** Courier for Latin text (account numbers, addresses to type). */
  mono?: boolean;
  color?: string;
  /** Where lines sit: `start` is the left in English and the right in Urdu. */
  align?: "start" | "center" | "end";
  /** The box the paragraph wraps in; the page's margins unless given. */
  x?: number;
  width?: number;
}

/** A piece of a paragraph with its own weight ("Name: " in bold, then the name). */
export interface TextPart {
  text: string;
  bold?: boolean;
  mono?: boolean;
  /** Text the user wrote (a name, a title): kept apart from the words around it, in whichever direction it runs. */
  isolate?: boolean;
}

export interface PdfWriter {
  doc: PDFKit.PDFDocument;
  lang: Lang;
  /** Writes a paragraph at the current position, wrapped to the box, and moves below it. */
  text(parts: string | TextPart[], style: TextStyle): void;
  finished: Promise<Buffer>;
}

// The characters of the Arabic script blocks (Arabic, its supplement and presentation forms), drawn in Nastaliq.
const ARABIC_SCRIPT = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/;
// Bidi controls and joiners: they steer the algorithm or the shaping and are never drawn on their own.
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * User text inside a sentence ("Receipt no. {{number}} of {{ngo}}"), kept apart from the words around it so an Urdu
 * name in an English sentence, or an English one in Urdu, keeps its own direction (a first-strong isolate).
 */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}

// The characters the standard PDF fonts can show (WinAnsi: Latin-1 plus a few typographic marks).
const WIN_ANSI_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";

/**
 * Text as Helvetica can draw it: accents that decompose lose their mark, anything else outside WinAnsi (other
 * scripts, emoji) becomes "?", rather than the mojibake pdfkit would draw. Urdu never comes here: it is drawn in
 * Nastaliq.
 */
export function pdfText(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(ch)) {
      out += ch;
    } else if (ch === "\n" || ch === "\t") {
      out += " ";
    } else {
      const base = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += base.length > 0 && [...base].every((c) => c.codePointAt(0)! <= 0x7e) ? base : "?";
    }
  }
  return out;
}

interface Shaped {
  /** Glyph ids in drawing order (left to right), with their advances and offsets in font units. */
  glyphs: { id: number; xAdvance: number; xOffset: number; yOffset: number }[];
  width: number;
}

interface UrduFont {
  /** HarfBuzz's shaping of a run: right to left when it has letters, left to right for digits alone. */
  shape(text: string): Shaped;
  /** The font for pdfkit: one glyph per character, in the order given (see `drawUrdu`). */
  plain: object;
  outline(id: number): string;
  unitsPerEm: number;
}

let urdu: Promise<UrduFont> | undefined;

/** The Nastaliq font, made once per process: HarfBuzz for shaping, fontkit for outlines and embedding. */
function urduFont(): Promise<UrduFont> {
  urdu ??= (async () => {
    const [hb, fontkit] = await Promise.all([import("harfbuzzjs"), import("fontkit")]);
    const bytes = readFileSync(new URL(`./${PDF_URDU_FONT}`, import.meta.url));
    const hbFont = new hb.Font(new hb.Face(new hb.Blob(new Uint8Array(bytes))));
    const face = fontkit.create(bytes);
    if ("fonts" in face) throw new Error("a font collection, not one font");
    const shape = (text: string): Shaped => {
      const buffer = new hb.Buffer();
      buffer.addText(text);
      buffer.setDirection(/\p{L}/u.test(text) ? hb.Direction.RTL : hb.Direction.LTR);
      buffer.setScript("Arab");
      buffer.setLanguage("ur");
      hb.shape(hbFont, buffer);
      const positions = buffer.getGlyphPositions();
      const glyphs = buffer.getGlyphInfos().map((g, i) => ({
        id: g.codepoint,
        xAdvance: positions[i]!.xAdvance,
        xOffset: positions[i]!.xOffset,
        yOffset: positions[i]!.yOffset,
      }));
      return { glyphs, width: glyphs.reduce((sum, g) => sum + g.xAdvance, 0) };
    };
    const outlines = new Map<number, string>();
    const outline = (id: number) => {
      let path = outlines.get(id);
      if (path === undefined) outlines.set(id, (path = face.getGlyph(id).path.toSVG()));
      return path;
    };
    // pdfkit takes any font object with a `layout` method and embeds the glyphs it returns, writing each glyph's
    // characters into the font's ToUnicode map. One nominal glyph per character keeps that map exact.
    const layout = (text: string) => {
      // Plain objects: fontkit caches a glyph by id with the characters it was first asked for, none for an outline.
      const glyphs = [...text].map((c) => {
        const { id, advanceWidth } = face.glyphForCodePoint(c.codePointAt(0)!);
        return { id, advanceWidth, codePoints: [c.codePointAt(0)!] };
      });
      const positions = glyphs.map((g) => ({ xAdvance: g.advanceWidth, yAdvance: 0, xOffset: 0, yOffset: 0 }));
      return { glyphs, positions, advanceWidth: positions.reduce((sum, p) => sum + p.xAdvance, 0) };
    };
    const plain = Object.assign(face, { layout });
    return { shape, plain, outline, unitsPerEm: face.unitsPerEm };
  })();
  return urdu;
}

type LatinFont = "Helvetica" | "Helvetica-Bold" | "Courier" | "Courier-Bold";

interface Char {
  ch: string;
  font: LatinFont;
}

function latinFont(bold = false, mono = false): LatinFont {
  return mono ? (bold ? "Courier-Bold" : "Courier") : bold ? "Helvetica-Bold" : "Helvetica";
}

/** One piece of a line as it is drawn: characters of one font and one direction, in logical order. */
interface Run {
  text: string;
  urdu: boolean;
  /** The font of its Latin characters (Urdu is always Nastaliq, in one weight). */
  font: LatinFont;
  rtl: boolean;
}

/** Starts a document in `lang` and collects its bytes. */
export async function pdfDocument(options: PDFKit.PDFDocumentOptions, lang: Lang): Promise<PdfWriter> {
  const { default: PDFDocument } = await import("pdfkit");
  const { default: bidiFactory } = await import("bidi-js");
  const bidi = bidiFactory();
  const doc = new PDFDocument({ ...options, lang: lang === "ur" ? "ur-PK" : "en-PK" });
  const nastaliq = await urduFont();
  // pdfkit takes a font object with a `layout` method (PDFFontFactory.open); its types name only files and bytes.
  doc.registerFont("Nastaliq", nastaliq.plain as PDFKit.Mixins.PDFFontSource);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const useFont = (run: Run, size: number) => doc.font(run.font).fontSize(size);
  // Helvetica's right-to-left runs (neutral characters between Urdu words) are reversed and mirrored here.
  const latinText = (run: Run) => {
    const chars = [...pdfText(run.text)];
    return run.rtl
      ? chars
          .map((c) => bidi.getMirroredCharacter(c) ?? c)
          .reverse()
          .join("")
      : chars.join("");
  };
  // Line breaking measures a run many times: its shaping is kept for the document (not longer, names differ).
  const shapes = new Map<string, Shaped>();
  const shape = (text: string) => {
    let shaped = shapes.get(text);
    if (!shaped) shapes.set(text, (shaped = nastaliq.shape(text)));
    return shaped;
  };
  const urduScale = (size: number) => (size * NASTALIQ_SCALE) / nastaliq.unitsPerEm;
  const widthOf = (run: Run, size: number) =>
    run.urdu ? shape(run.text).width * urduScale(size) : useFont(run, size).widthOfString(latinText(run));

  /**
   * An Urdu run: HarfBuzz's glyphs drawn as outlines, and under them the same words as invisible text, one glyph per
   * character in the order they appear on the line (right to left), stretched to the run's width. Text extraction,
   * search and copying read that layer (as they read any right-to-left PDF); a shaped glyph alone cannot say which
   * letters it stands for, since Nastaliq draws several letters with one shape and separate dots.
   */
  const drawUrdu = (run: Run, x: number, baseline: number, size: number) => {
    const shaped = shape(run.text);
    const scale = urduScale(size);
    let pen = x;
    for (const g of shaped.glyphs) {
      const path = nastaliq.outline(g.id);
      if (path) {
        doc.save();
        doc.translate(pen + g.xOffset * scale, baseline - g.yOffset * scale).scale(scale, -scale);
        doc.path(path).fill();
        doc.restore();
      }
      pen += g.xAdvance * scale;
    }
    const visual = run.rtl ? [...run.text].reverse().join("") : run.text;
    doc.font("Nastaliq").fontSize(size * NASTALIQ_SCALE);
    const natural = doc.widthOfString(visual);
    // Text render mode 3 draws nothing (pdfkit has no option for it); restore() ends it with the graphics state.
    doc.save().addContent("3 Tr");
    // horizontalScaling (Tz) is pdfkit's, missing from its types.
    const options: PDFKit.Mixins.TextOptions & { horizontalScaling: number } = {
      lineBreak: false,
      baseline: "alphabetic",
      horizontalScaling: natural > 0 ? (shaped.width * scale * 100) / natural : 100,
    };
    doc.text(visual, x, baseline, options);
    doc.restore();
  };

  const text = (parts: string | TextPart[], style: TextStyle) => {
    const list = typeof parts === "string" ? [{ text: parts }] : parts;
    const chars: Char[] = [];
    for (const part of list) {
      const value = part.isolate ? isolate(part.text) : part.text;
      const font = latinFont(part.bold ?? style.bold, part.mono ?? style.mono);
      // UTF-16 code units, as the bidi algorithm counts them: a character outside the BMP (never Urdu) is two, kept in
      // order within its run.
      for (const unit of value.replace(/[\n\t]/g, " ").split("")) chars.push({ ch: unit, font });
    }
    const all = chars.map((c) => c.ch).join("");
    const levels = bidi.getEmbeddingLevels(all, lang === "ur" ? "rtl" : "ltr");
    const x0 = style.x ?? doc.page.margins.left;
    const width = style.width ?? doc.page.width - doc.page.margins.left - doc.page.margins.right;

    // The runs of characters [from, to), in the order they are drawn from left to right.
    const runsOf = (from: number, to: number): Run[] => {
      const runs: Run[] = [];
      let last: (Run & { at: number }) | undefined;
      // bidi-js answers with the whole text's indices, the line's reordered among them.
      for (const i of bidi.getReorderedIndices(all, levels, from, to - 1).filter((i) => i >= from && i < to)) {
        const { ch, font } = chars[i]!;
        if (INVISIBLE.test(ch)) continue;
        const rtl = (levels.levels[i]! & 1) === 1;
        // A space or mark belongs to the run it sits in; a space between Urdu words stays Urdu.
        const urduChar = ARABIC_SCRIPT.test(ch) || (ch === " " && last?.urdu === true);
        const follows = last && last.rtl === rtl && last.urdu === urduChar && last.font === font && i === last.at + (rtl ? -1 : 1);
        if (follows && last) {
          last.text = rtl ? ch + last.text : last.text + ch;
          last.at = i;
        } else {
          last = { text: ch, urdu: urduChar, font, rtl, at: i };
          runs.push(last);
        }
      }
      return runs.map(({ text: t, urdu: u, font: f, rtl: r }) => ({ text: t, urdu: u, font: f, rtl: r }));
    };
    const lineWidth = (runs: Run[]) => runs.reduce((sum, r) => sum + widthOf(r, style.size), 0);

    // Greedy line breaking at spaces, measuring each candidate line as it would be drawn.
    const lines: [number, number][] = [];
    let start = 0;
    while (start < all.length) {
      let end = all.length;
      if (lineWidth(runsOf(start, end)) > width) {
        let fit = -1;
        for (let i = start + 1; i < all.length; i++) {
          if (all[i] !== " ") continue;
          if (lineWidth(runsOf(start, i)) > width) break;
          fit = i;
        }
        end = fit > start ? fit : all.indexOf(" ", start + 1) > 0 ? all.indexOf(" ", start + 1) : all.length;
      }
      lines.push([start, end]);
      start = end;
      while (all[start] === " ") start++;
    }

    doc.fillColor(style.color ?? "#000000");
    const align = style.align ?? "start";
    let y = doc.y;
    for (const [from, to] of lines) {
      let end = to;
      while (end > from && all[end - 1] === " ") end--;
      const runs = runsOf(from, end);
      const used = lineWidth(runs);
      // Nastaliq climbs and descends further than Latin letters: a line with Urdu needs more room.
      const hasUrdu = runs.some((r) => r.urdu);
      const lineHeight = style.size * (hasUrdu ? URDU_LINE_HEIGHT : 1.25);
      if (y + lineHeight > doc.page.height - doc.page.margins.bottom) {
        doc.addPage();
        y = doc.page.margins.top;
      }
      const baseline = y + lineHeight * (hasUrdu ? 0.6 : 0.8);
      const right = (align === "start") === (lang === "ur");
      let x = align === "center" ? x0 + (width - used) / 2 : right ? x0 + width - used : x0;
      for (const run of runs) {
        const w = widthOf(run, style.size);
        if (run.urdu) drawUrdu(run, x, baseline, style.size);
        else useFont(run, style.size).text(latinText(run), x, baseline, { lineBreak: false, baseline: "alphabetic" });
        x += w;
      }
      y += lineHeight;
    }
    doc.x = x0;
    doc.y = y;
    // pdfkit's own spacing (moveDown) measures the current font: leave it at the paragraph's Latin size.
    doc.font("Helvetica").fontSize(style.size);
  };

  return { doc, lang, text, finished };
}

// Nastaliq's letters are small for their point size beside Latin ones: this brings them to a like reading size.
export const NASTALIQ_SCALE = 1.15;
// A line with Urdu, in its point size: Nastaliq's stacked letters reach well above and below Latin ones.
const URDU_LINE_HEIGHT = 1.9;
