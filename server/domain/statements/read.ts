import { Readable } from "node:stream";
import { inflateRawSync } from "node:zlib";
import { CsvError, parse as parseCsv } from "csv-parse/sync";
import type ExcelJS from "exceljs";
import { DomainError, invalid } from "#server/domain/errors.ts";

/**
 * Reading an account statement file (CSV or XLSX, as Pakistani banks and the JazzCash / Easypaisa business
 * portals export them) into a grid of cell texts. Pure: no database, no files on disk. What the cells mean is
 * columns.ts's business; this file only gets the text out safely.
 *
 * Every refusal is a DomainError (`statements.*`); anything else escaping from here is a bug.
 */
export interface StatementGrid {
  format: "csv" | "xlsx";
  /** Cell texts, trimmed; row i of the array is row i + 1 of the file (of the sheet, for XLSX). Trailing empty
   *  cells of a row and trailing empty rows are dropped; an empty row in the middle is []. */
  rows: string[][];
  /** XLSX only: the name of the worksheet that was read. */
  sheet?: string;
}

/** The largest file read (10 MB, shared/constants.ts: the upload form checks it too). */
export { STATEMENT_MAX_BYTES } from "#shared/constants.ts";
import { STATEMENT_MAX_BYTES } from "#shared/constants.ts";
/** The most rows a statement may have. */
export const STATEMENT_MAX_ROWS = 100_000;
/** The most columns a row may have. */
export const STATEMENT_MAX_COLUMNS = 60;
/** The longest cell text, in characters. */
export const STATEMENT_MAX_CELL_CHARS = 1000;
/** XLSX (a zip) guards against zip bombs: everything unpacked together, ... */
export const XLSX_MAX_UNPACKED_BYTES = 64 * 1024 * 1024;
/** ... the compression ratio of any entry larger than XLSX_RATIO_MIN_BYTES, ... */
export const XLSX_MAX_RATIO = 200;
export const XLSX_RATIO_MIN_BYTES = 1024 * 1024;
/** ... and the number of entries. */
export const XLSX_MAX_ENTRIES = 2000;

export async function readStatementFile(file: { name: string; bytes: Uint8Array }): Promise<StatementGrid> {
  const { bytes } = file;
  if (bytes.length > STATEMENT_MAX_BYTES) throw invalid("statements.file_too_large", undefined, { max: "10 MB" });
  if (bytes.length === 0) throw invalid("statements.empty_file");
  if (startsWith(bytes, ZIP_SIGNATURE)) return readXlsx(bytes);
  refuseKnownBinaries(bytes);
  return readCsv(bytes);
}

// ---------------------------------------------------------------------------------------------------------
// Signatures

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const OLE2_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** Formats people may try that are certainly not a statement table: PNG, JPEG, GIF, gzip, RAR, 7z, an empty zip. */
const OTHER_BINARIES = [
  [0x89, 0x50, 0x4e, 0x47],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38],
  [0x1f, 0x8b],
  [0x52, 0x61, 0x72, 0x21],
  [0x37, 0x7a, 0xbc, 0xaf],
  [0x50, 0x4b, 0x05, 0x06],
];

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[at + i] !== signature[i]) return false;
  return true;
}

function refuseKnownBinaries(bytes: Uint8Array): void {
  // Legacy .xls, and password-protected .xlsx, are OLE2 compound files.
  if (startsWith(bytes, OLE2_SIGNATURE)) throw invalid("statements.xls_unsupported");
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  if (head.includes("%PDF-")) throw invalid("statements.pdf_unsupported");
  if (OTHER_BINARIES.some((signature) => startsWith(bytes, signature))) throw invalid("statements.not_statement");
}

// ---------------------------------------------------------------------------------------------------------
// Cells

/** Controls other than tab (line breaks among them), and unpaired surrogates. */
const CELL_CONTROL = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CELL_CONTROLS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const LINE_BREAKS = /[\r\n]+/g;

/** A column's spreadsheet letter: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let letters = "";
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/**
 * One cell's text as the grid keeps it: a line break inside the cell becomes a space, other controls are
 * removed, the ends are trimmed; a longer text than STATEMENT_MAX_CELL_CHARS is refused.
 */
function cellText(raw: string, row: number, column: number): string {
  let text = raw;
  if (CELL_CONTROL.test(text)) text = text.replace(LINE_BREAKS, " ").replace(CELL_CONTROLS, "");
  text = text.trim();
  if (text.length > STATEMENT_MAX_CELL_CHARS) {
    throw invalid("statements.cell_too_long", undefined, {
      row: String(row),
      column: columnLetter(column),
      max: String(STATEMENT_MAX_CELL_CHARS),
    });
  }
  return text;
}

/** Drops a row's trailing empty cells and refuses one with too many columns. Returns the same array. */
function finishRow(cells: string[], row: number): string[] {
  let length = cells.length;
  while (length > 0 && cells[length - 1] === "") length--;
  cells.length = length;
  if (length > STATEMENT_MAX_COLUMNS) {
    throw invalid("statements.too_many_columns", undefined, { row: String(row), max: String(STATEMENT_MAX_COLUMNS) });
  }
  return cells;
}

function tooManyRows(): never {
  throw invalid("statements.too_many_rows", undefined, { max: STATEMENT_MAX_ROWS.toLocaleString("en-US") });
}

/** Drops the trailing empty rows; refuses a grid with nothing in it. */
function finishGrid(rows: string[][]): string[][] {
  let length = rows.length;
  while (length > 0 && rows[length - 1].length === 0) length--;
  rows.length = length;
  if (length === 0) throw invalid("statements.empty_file");
  return rows;
}

// ---------------------------------------------------------------------------------------------------------
// CSV

const utf8 = new TextDecoder("utf-8", { fatal: true });
const utf16le = new TextDecoder("utf-16le");
const utf16be = new TextDecoder("utf-16be");
const windows1252 = new TextDecoder("windows-1252");

/**
 * Bytes 0x80–0x9F in Windows-1252 (WHATWG table). Node 20's TextDecoder("windows-1252") decodes them as Latin-1
 * C1 controls, so they are put right after decoding (a no-op where the decoder already does it).
 */
const CP1252_HIGH =
  "\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F" +
  "\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178";
const C1 = /[\u0080-\u009F]/g;

/** UTF-8 (BOM or not), UTF-16 with a BOM (or plainly UTF-16 by its zero bytes), else Windows-1252. */
function decodeText(bytes: Uint8Array): string {
  if (startsWith(bytes, [0xff, 0xfe])) return utf16le.decode(bytes);
  if (startsWith(bytes, [0xfe, 0xff])) return utf16be.decode(bytes);
  if (!startsWith(bytes, [0xef, 0xbb, 0xbf])) {
    const guess = utf16WithoutBom(bytes);
    if (guess === "le") return utf16le.decode(bytes);
    if (guess === "be") return utf16be.decode(bytes);
  }
  try {
    return utf8.decode(bytes);
  } catch {
    const start = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
    return windows1252.decode(bytes.subarray(start)).replace(C1, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]);
  }
}

/** Mostly-ASCII UTF-16 without a BOM: every other byte of the start is zero. */
function utf16WithoutBom(bytes: Uint8Array): "le" | "be" | null {
  const n = Math.min(bytes.length, 1024) & ~1;
  if (n < 8) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.6 && evenZeros < pairs * 0.05) return "le";
  if (evenZeros > pairs * 0.6 && oddZeros < pairs * 0.05) return "be";
  return null;
}

const BINARY_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;
/** An "Excel" export that is really a web page or the 2003 XML spreadsheet: Excel opens it, and can save it as XLSX. */
const MARKUP_SPREADSHEET = /^\s*<(?:!doctype\s+html|html|table|\?xml|\?mso-application)\b/i;

function refuseNonText(text: string): void {
  const sample = text.length > 4096 ? text.slice(0, 4096) : text;
  const controls = sample.match(BINARY_CONTROL)?.length ?? 0;
  if (controls >= 4 && controls > sample.length * 0.02) throw invalid("statements.not_statement");
  if (MARKUP_SPREADSHEET.test(sample)) throw invalid("statements.xls_unsupported");
}

const DELIMITERS = [",", ";", "\t", "|"] as const;

/**
 * The delimiter of the first lines (up to 40 of them, within 64 KB), counted outside quotes: the candidate that
 * appears the same number of times on the most lines (the table's rows, not an account-details block above it),
 * then the one with more columns, then the order of DELIMITERS.
 */
function detectDelimiter(text: string): string {
  const end = Math.min(text.length, 64 * 1024);
  const lines: number[][] = [];
  let counts = [0, 0, 0, 0];
  let quoted = false;
  let fieldStart = true;
  let lineHasText = false;
  for (let i = 0; i < end && lines.length < 40; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      }
      continue;
    }
    if (c === "\n" || c === "\r") {
      if (lineHasText) lines.push(counts);
      counts = [0, 0, 0, 0];
      fieldStart = true;
      lineHasText = false;
      continue;
    }
    const d = DELIMITERS.indexOf(c as (typeof DELIMITERS)[number]);
    if (d >= 0) {
      counts[d]++;
      fieldStart = true;
      lineHasText = true;
      continue;
    }
    if (c === '"' && fieldStart) quoted = true;
    else if (c !== " ") fieldStart = false;
    lineHasText = true;
  }
  if (lineHasText && lines.length < 40) lines.push(counts);

  let best = 0;
  let bestLines = 0;
  let bestMode = 0;
  for (let d = 0; d < DELIMITERS.length; d++) {
    const frequency = new Map<number, number>();
    for (const line of lines) if (line[d] > 0) frequency.set(line[d], (frequency.get(line[d]) ?? 0) + 1);
    for (const [count, onLines] of frequency) {
      if (onLines > bestLines || (onLines === bestLines && count > bestMode)) {
        best = d;
        bestLines = onLines;
        bestMode = count;
      }
    }
  }
  return DELIMITERS[best];
}

function readCsv(bytes: Uint8Array): StatementGrid {
  const text = decodeText(bytes);
  refuseNonText(text);
  if (text.trim() === "") throw invalid("statements.empty_file");
  const rows: string[][] = [];
  let lastLine = 0;
  try {
    parseCsv(text, {
      delimiter: detectDelimiter(text),
      quote: '"',
      escape: '"',
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: false,
      trim: true,
      on_record: (record: string[], context) => {
        const row = rows.length + 1;
        lastLine = context.lines;
        if (row > STATEMENT_MAX_ROWS) {
          if (record.some((cell) => cell !== "")) tooManyRows();
          return null;
        }
        for (let c = 0; c < record.length; c++) if (record[c] !== "") record[c] = cellText(record[c], row, c);
        rows.push(finishRow(record, row));
        return null;
      },
    });
  } catch (err) {
    if (err instanceof CsvError && /QUOTE/.test(err.code)) {
      const line = err.code === "CSV_QUOTE_NOT_CLOSED" ? lastLine + 1 : Number(err.lines ?? lastLine + 1);
      throw invalid("statements.csv_broken_quote", undefined, { line: String(line) });
    }
    if (err instanceof CsvError) throw invalid("statements.not_statement");
    throw err;
  }
  return { format: "csv", rows: finishGrid(rows) };
}

// ---------------------------------------------------------------------------------------------------------
// XLSX

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const unreadable = () => invalid("statements.xlsx_unreadable");
const unpacksTooLarge = () => invalid("statements.xlsx_too_large");

/**
 * The zip's entries as its central directory lists them, refused before anything is unpacked when they declare
 * too much (the total, one entry's compression ratio, the number of entries). Only a plain zip is accepted: one
 * disk, the central directory just before its end record, no encryption, stored or deflated entries.
 */
function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = bytes.length;
  let eocd = -1;
  for (let i = size - 22; i >= Math.max(0, size - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw unreadable();
  if (view.getUint16(eocd + 4, true) !== 0 || view.getUint16(eocd + 6, true) !== 0) throw unreadable();
  let count = view.getUint16(eocd + 10, true);
  let directorySize = view.getUint32(eocd + 12, true);
  let directoryOffset = view.getUint32(eocd + 16, true);
  let directoryEnd = eocd;
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    // Zip64: the locator just before the end record points at the zip64 end record.
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== 0x07064b50) throw unreadable();
    const record = safeNumber(view.getBigUint64(locator + 8, true));
    if (record + 56 > locator || view.getUint32(record, true) !== 0x06064b50) throw unreadable();
    count = safeNumber(view.getBigUint64(record + 32, true));
    directorySize = safeNumber(view.getBigUint64(record + 40, true));
    directoryOffset = safeNumber(view.getBigUint64(record + 48, true));
    directoryEnd = record;
  }
  if (count > XLSX_MAX_ENTRIES) throw unpacksTooLarge();
  if (directoryOffset + directorySize > directoryEnd) throw unreadable();

  const entries: ZipEntry[] = [];
  let total = 0;
  let at = directoryOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > directoryEnd || view.getUint32(at, true) !== 0x02014b50) throw unreadable();
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    let compressedSize = view.getUint32(at + 20, true);
    let entrySize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let localOffset = view.getUint32(at + 42, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > directoryEnd) throw unreadable();
    if (entrySize === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      // Zip64 extra field (0x0001): the 64-bit values, in this order, of those that are 0xFFFFFFFF above.
      let extra = at + 46 + nameLength;
      const extraEnd = extra + extraLength;
      let found = false;
      while (extra + 4 <= extraEnd) {
        const id = view.getUint16(extra, true);
        const length = view.getUint16(extra + 2, true);
        if (id === 0x0001) {
          let field = extra + 4;
          const read = () => {
            if (field + 8 > extra + 4 + length) throw unreadable();
            const value = safeNumber(view.getBigUint64(field, true));
            field += 8;
            return value;
          };
          if (entrySize === 0xffffffff) entrySize = read();
          if (compressedSize === 0xffffffff) compressedSize = read();
          if (localOffset === 0xffffffff) localOffset = read();
          found = true;
          break;
        }
        extra += 4 + length;
      }
      if (!found) throw unreadable();
    }
    if (flags & 0x0001) throw unreadable(); // encrypted
    if (method !== 0 && method !== 8) throw unreadable();
    if (method === 0 && compressedSize !== entrySize) throw unreadable();
    total += entrySize;
    if (total > XLSX_MAX_UNPACKED_BYTES) throw unpacksTooLarge();
    if (entrySize > XLSX_RATIO_MIN_BYTES && entrySize > XLSX_MAX_RATIO * Math.max(compressedSize, 1)) {
      throw unpacksTooLarge();
    }
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + at + 46, nameLength).toString("utf8");
    entries.push({ name, method, compressedSize, size: entrySize, localOffset });
    at = next;
  }
  return entries;
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw unreadable();
  return Number(value);
}

/** The parts of a workbook the reader needs; the rest (themes, pictures, drawings, printer settings) is only checked. */
const WORKBOOK = "xl/workbook.xml";
const WORKBOOK_RELS = "xl/_rels/workbook.xml.rels";
const STYLES = "xl/styles.xml";
const SHARED_STRINGS = "xl/sharedStrings.xml";
const WORKSHEET_PATH = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * Unpacks every entry once, never past the size its central directory declares, so a zip that lies about its sizes
 * is refused here with bounded memory. Returns the unpacked parts the reader needs, by name.
 */
function unpackZip(bytes: Uint8Array, entries: ZipEntry[]): Map<string, Buffer> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts = new Map<string, Buffer>();
  for (const entry of entries) {
    const at = entry.localOffset;
    if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) throw unreadable();
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (end > bytes.length) throw unreadable();
    const packed = Buffer.from(bytes.buffer, bytes.byteOffset + start, entry.compressedSize);
    let unpacked: Buffer;
    if (entry.method === 0) unpacked = packed;
    else {
      try {
        unpacked = inflateRawSync(packed, { maxOutputLength: Math.max(entry.size, 1) });
      } catch (err) {
        if (err instanceof RangeError) throw unpacksTooLarge();
        throw unreadable();
      }
    }
    if (unpacked.length !== entry.size) throw unreadable();
    const name = entry.name.replace(/^\//, "");
    if (name === WORKBOOK || name === WORKBOOK_RELS || name === STYLES || name === SHARED_STRINGS || WORKSHEET_PATH.test(name)) {
      parts.set(name, unpacked);
    }
  }
  return parts;
}

const XML_TAG = (name: string) => new RegExp(`<(?:[\\w.-]+:)?${name}\\b([^>]*)>`, "g");
const SHEET_TAG = XML_TAG("sheet");
const RELATIONSHIP_TAG = XML_TAG("Relationship");
const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

const ATTRIBUTES = new Map(
  ["Id", "Target", "id", "name", "state"].map((name) => [name, new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*("([^"]*)"|'([^']*)')`)]),
);

/** One attribute of a tag's attribute text (with or without a namespace prefix, as r:id has one). */
function attribute(attributes: string, name: "Id" | "Target" | "id" | "name" | "state"): string | undefined {
  const match = ATTRIBUTES.get(name)!.exec(attributes);
  const raw = match ? (match[2] ?? match[3]) : undefined;
  return raw?.replace(/&(amp|lt|gt|quot|apos);/g, (_, entity: string) => XML_ENTITIES[entity]);
}

/**
 * The workbook's worksheets in tab order, visible ones first (a hidden sheet is read only when no visible one
 * has data): their names and the zip parts that hold them.
 */
function worksheetsInOrder(parts: Map<string, Buffer>): { name: string; part: string }[] {
  const workbook = parts.get(WORKBOOK)?.toString("utf8");
  const rels = parts.get(WORKBOOK_RELS)?.toString("utf8");
  if (!workbook || !rels) throw unreadable();
  const targets = new Map<string, string>();
  for (const [, attributes] of rels.matchAll(RELATIONSHIP_TAG)) {
    const id = attribute(attributes, "Id");
    const target = attribute(attributes, "Target");
    if (!id || !target) continue;
    targets.set(id, target.startsWith("/") ? target.slice(1) : `xl/${target.replace(/^\.\//, "")}`);
  }
  const visible: { name: string; part: string }[] = [];
  const hidden: { name: string; part: string }[] = [];
  for (const [, attributes] of workbook.matchAll(SHEET_TAG)) {
    const part = targets.get(attribute(attributes, "id") ?? "");
    if (!part || !parts.has(part)) continue; // a chart sheet, or a sheet whose part is missing
    const state = attribute(attributes, "state");
    (state === "hidden" || state === "veryHidden" ? hidden : visible).push({ name: attribute(attributes, "name") ?? "", part });
  }
  return [...visible, ...hidden];
}

/** A zip of stored (not deflated) entries, for exceljs's streaming reader to read from memory, in pieces. */
function storedZip(files: [string, Buffer][]): Buffer[] {
  const chunks: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [fileName, data] of files) {
    const name = Buffer.from(fileName);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    chunks.push(local, name, data);
    directory.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directorySize = directory.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  // In 64 KB pieces (views, not copies): unzipper reads a stored entry handed over whole several times slower.
  const pieces: Buffer[] = [];
  for (const chunk of [...chunks, ...directory, end]) {
    for (let at = 0; at < chunk.length; at += 65_536) pieces.push(chunk.subarray(at, at + 65_536));
  }
  return pieces;
}

const EMPTY_SHARED_STRINGS = Buffer.from('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>');

/**
 * XLSX: the zip is checked and unpacked here (bounded), then exceljs's streaming reader reads a zip rebuilt from
 * the parts it needs, in the order that lets it stream (relations, workbook, styles, shared strings, then the
 * sheets in tab order): a row at a time, so memory follows the rows kept, not the whole workbook model, and
 * nothing exceljs would expand cell by cell (merged ranges, column ranges, data validations) is expanded. exceljs is
 * loaded on the first XLSX, so a server that never reads one does not pay for it (decision 032).
 */
async function readXlsx(bytes: Uint8Array): Promise<StatementGrid> {
  const parts = unpackZip(bytes, zipEntries(bytes));
  const sheets = worksheetsInOrder(parts);
  if (sheets.length === 0) throw unreadable();
  const files: [string, Buffer][] = [
    [WORKBOOK_RELS, parts.get(WORKBOOK_RELS)!],
    [WORKBOOK, parts.get(WORKBOOK)!],
    ...(parts.has(STYLES) ? [[STYLES, parts.get(STYLES)!] as [string, Buffer]] : []),
    [SHARED_STRINGS, parts.get(SHARED_STRINGS) ?? EMPTY_SHARED_STRINGS],
    ...sheets.map((sheet, i): [string, Buffer] => [`xl/worksheets/sheet${i + 1}.xml`, parts.get(sheet.part)!]),
  ];
  parts.clear();
  const { default: Excel } = await import("exceljs");
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from(storedZip(files)), {
    worksheets: "emit",
    sharedStrings: "cache",
    styles: "cache",
    hyperlinks: "ignore",
    entries: "ignore",
  });
  let index = 0;
  try {
    for await (const worksheet of reader) {
      const rows = await sheetRows(worksheet);
      if (rows.length > 0) return { format: "xlsx", rows, sheet: sheets[index].name };
      index++;
    }
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw unreadable();
  }
  throw invalid("statements.empty_file");
}

async function sheetRows(worksheet: AsyncIterable<ExcelJS.Row>): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of worksheet) {
    const rowNumber = row.number;
    if (!Number.isInteger(rowNumber) || rowNumber < 1) throw unreadable();
    const cells: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, columnNumber) => {
      const text = cellText(valueText(cell.value, cell.numFmt), rowNumber, columnNumber - 1);
      if (text === "") return;
      if (columnNumber > STATEMENT_MAX_COLUMNS) {
        throw invalid("statements.too_many_columns", undefined, {
          row: String(rowNumber),
          max: String(STATEMENT_MAX_COLUMNS),
        });
      }
      while (cells.length < columnNumber - 1) cells.push("");
      cells[columnNumber - 1] = text;
    });
    if (cells.length === 0) continue;
    if (rowNumber > STATEMENT_MAX_ROWS) tooManyRows();
    while (rows.length < rowNumber - 1) rows.push([]);
    rows[rowNumber - 1] = cells;
  }
  return rows;
}

/** Fifteen significant digits, as Excel shows them (a computed 1234.5600000000002 is 1234.56), never an exponent. */
const plainDecimal = new Intl.NumberFormat("en-US", { useGrouping: false, maximumFractionDigits: 20 });

function numberText(value: number): string {
  if (!Number.isFinite(value)) return "";
  const rounded = Number(value.toPrecision(15));
  const text = String(rounded);
  return text.includes("e") ? plainDecimal.format(rounded) : text;
}

/** Quoted literals, escaped characters and [bracketed] parts of a number format, which say nothing of time. */
const FORMAT_LITERALS = /"[^"]*"|\\.|\[[^\]]*\]/g;
const FORMAT_HAS_TIME = /[hs]|am\/pm|a\/p/i;

/**
 * A date cell as wall-clock text: exceljs gives the serial date as that instant in UTC, so the UTC fields are
 * the clock's. "YYYY-MM-DD HH:MM" when the cell's format shows a time (or, with no format, when there is one),
 * else "YYYY-MM-DD".
 */
function dateText(date: Date, numFmt: string | undefined): string {
  const time = date.getTime();
  if (!Number.isFinite(time)) return "";
  const d = new Date(Math.round(time / 1000) * 1000);
  const day = `${String(d.getUTCFullYear()).padStart(4, "0")}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const midnight = d.getUTCHours() === 0 && d.getUTCMinutes() === 0;
  const showsTime = numFmt ? FORMAT_HAS_TIME.test(numFmt.replace(FORMAT_LITERALS, "")) : !midnight;
  return showsTime ? `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` : day;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A number format that shows a date or a time (d, m, y, h or s outside literals; not General). */
function isDateFormat(numFmt: string | undefined): boolean {
  if (!numFmt) return false;
  const format = numFmt.replace(FORMAT_LITERALS, "").replace(FORMAT_PADDING, "");
  return !/general/i.test(format) && /[dmyhs]/i.test(format);
}
const FORMAT_PADDING = /[_*]./g;

/** An Excel serial date (1900 system) as that wall-clock time in UTC, as exceljs gives date cells. */
function serialDate(serial: number): Date {
  return new Date(Date.UTC(1899, 11, 30) + Math.round(serial * 86_400_000));
}

/** The text of an exceljs cell value: a formula's cached result (never evaluated), rich text as plain text. */
function valueText(value: ExcelJS.CellValue | undefined, numFmt: string | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return numberText(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return dateText(value, numFmt);
  if (typeof value !== "object") return "";
  if ("richText" in value && Array.isArray(value.richText)) {
    return value.richText.map((run) => (typeof run?.text === "string" ? run.text : "")).join("");
  }
  if ("formula" in value || "sharedFormula" in value) {
    const result = (value as { result?: unknown }).result;
    if (result !== null && typeof result === "object" && !(result instanceof Date) && "error" in result) {
      return String((result as { error: unknown }).error);
    }
    // The streaming reader leaves a formula's date result as its serial number.
    if (typeof result === "number" && isDateFormat(numFmt)) return dateText(serialDate(result), numFmt);
    return valueText(result as ExcelJS.CellValue | undefined, numFmt);
  }
  if ("hyperlink" in value) return valueText((value as { text?: ExcelJS.CellValue }).text, numFmt);
  if ("error" in value) return String(value.error);
  return "";
}
