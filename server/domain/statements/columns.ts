import { invalid } from "#server/domain/errors.ts";
import { westernDigits } from "#shared/numbers.ts";
import { columnLetter, type StatementGrid } from "./read.ts";

/**
 * Turning a statement grid (read.ts) into typed lines through a column mapping: which column holds the date, the
 * amount (signed, or with a Dr/Cr column) or the credit and debit amounts, the remark, the sender, the reference
 * and the balance. `guessMapping` finds the header row and the columns by their names (English and Urdu);
 * `applyMapping` reads every transaction row, skipping what is clearly not one (empty rows, totals, opening and
 * closing balances, footers, repeated headers) and refusing any other row with a value it cannot read.
 *
 * Money is exact: amounts are parsed from their digits to whole paisa, never through floating point.
 */

/** The fields a column can be mapped to, and how dates may be ordered: shared with the column step's form. */
export { DATE_ORDERS, STATEMENT_FIELDS } from "#shared/statement-columns.ts";
import { DATE_ORDERS, STATEMENT_FIELDS } from "#shared/statement-columns.ts";
export type StatementField = (typeof STATEMENT_FIELDS)[number];
export type DateOrder = (typeof DATE_ORDERS)[number];

export interface StatementMapping {
  /** 1-based row that holds the column names; data starts after it (0: no header row, data from row 1). */
  headerRow: number;
  /** 0-based column index per field. */
  columns: Partial<Record<StatementField, number>>;
  dateOrder: DateOrder;
}

export interface StatementLine {
  /** 1-based row in the file, for messages. */
  row: number;
  /** "YYYY-MM-DD" */
  postedOn: string;
  /** "HH:MM" when the statement has a time, else null. */
  postedAt: string | null;
  direction: "credit" | "debit";
  /** Always positive; an integer number of paisa (1 rupee = 100 paisa). */
  amountPaisa: number;
  /** Remark / narration / particulars ("" if none). */
  description: string;
  /** Sender name or number as written ("" if none). */
  sender: string;
  /** A Pakistani mobile in national form 03XXXXXXXXX found in the phone column, sender or description, else null. */
  senderPhone: string | null;
  /** Transaction ID / reference / cheque number, upper-cased, spaces and dashes removed ("" if none). */
  reference: string;
  /** The balance after the line, in paisa (negative when overdrawn); null when the statement has none. */
  balancePaisa: number | null;
}

/** The largest amount accepted: Rs. 10 billion, in paisa. */
export const STATEMENT_MAX_PAISA = 10_000_000_000 * 100;
/** Rows searched for the header. */
const HEADER_SEARCH_ROWS = 30;

// ---------------------------------------------------------------------------------------------------------
// Names

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;
const ARABIC_YEH = /[\u064A\u0649]/g;
const ARABIC_KAF = /\u0643/g;

/**
 * A name as compared: lower case, Western digits, Arabic yeh and kaf as Urdu's, and only letters and digits
 * ("Cheque/Ref. No" → "chequerefno", "Amount (PKR)" → "amountpkr").
 */
export function normalizeName(text: string): string {
  return westernDigits(text).toLowerCase().replace(ARABIC_YEH, "\u06CC").replace(ARABIC_KAF, "\u06A9").replace(NOT_LETTER_OR_DIGIT, "");
}

/** Known header names per field, best first (normalised as by normalizeName). */
const HEADER_NAMES: Record<StatementField, string[]> = {
  date: [
    "transactiondate",
    "transactiondatetime",
    "transactiondateandtime",
    "txndate",
    "txndatetime",
    "trxdate",
    "trxdatetime",
    "transdate",
    "trandate",
    "tranxdate",
    "postingdate",
    "postdate",
    "posteddate",
    "bookingdate",
    "bookdate",
    "date",
    "datetime",
    "dateandtime",
    "transactiontime",
    "تاریخ",
    "valuedate",
  ],
  amount: [
    "amount",
    "transactionamount",
    "txnamount",
    "trxamount",
    "tranamount",
    "amountpkr",
    "amountrs",
    "amountinpkr",
    "amountinrs",
    "رقم",
  ],
  credit: [
    "credit",
    "credits",
    "creditamount",
    "deposit",
    "deposits",
    "depositamount",
    "cr",
    "amountcredit",
    "amountcredited",
    "moneyin",
    "paidin",
    "جمع",
  ],
  debit: [
    "debit",
    "debits",
    "debitamount",
    "withdrawal",
    "withdrawals",
    "withdrawalamount",
    "dr",
    "amountdebit",
    "amountdebited",
    "moneyout",
    "paidout",
    "نکالے",
  ],
  direction: [
    "drcr",
    "crdr",
    "debitcredit",
    "creditdebit",
    "drcrindicator",
    "crdrindicator",
    "transactiontype",
    "txntype",
    "trxtype",
    "type",
  ],
  description: [
    "description",
    "narration",
    "particulars",
    "details",
    "transactiondetails",
    "transactiondescription",
    "remarks",
    "remark",
    "narrative",
    "memo",
    "purpose",
    "تفصیل",
    "تفصیلات",
  ],
  sender: [
    "sendername",
    "sender",
    "from",
    "payer",
    "payername",
    "customername",
    "remitter",
    "remittername",
    "counterparty",
    "counterpartyname",
    "sendermsisdn",
    "customermsisdn",
    "beneficiary",
    "beneficiaryname",
    "بھیجنےوالا",
    "بھیجنےوالےکانام",
    "نام",
  ],
  reference: [
    "transactionid",
    "txnid",
    "trxid",
    "tid",
    "transid",
    "reference",
    "referenceno",
    "referencenumber",
    "refno",
    "ref",
    "transactionreference",
    "transactionno",
    "rrn",
    "stan",
    "chequerefno",
    "chequeno",
    "chequenumber",
    "chqno",
    "chequeref",
    "instrumentno",
    "instrumentnumber",
    "instrument",
    "orderid",
    "حوالہ",
    "حوالہنمبر",
    "ٹرانزیکشنآئیڈی",
  ],
  balance: ["balance", "runningbalance", "availablebalance", "ledgerbalance", "bookbalance", "balancepkr", "balancers", "بیلنس"],
  phone: [
    "sendermsisdn",
    "customermsisdn",
    "msisdn",
    "sendermobile",
    "sendermobileno",
    "sendermobilenumber",
    "senderphone",
    "sendernumber",
    "mobileno",
    "mobilenumber",
    "customermobile",
    "customermobileno",
    "phone",
    "phoneno",
    "phonenumber",
    "موبائلنمبر",
    "فوننمبر",
  ],
};

/** Every header name with its fields and their rank ("sendermsisdn" is both the phone and, failing a name, the sender). */
const HEADER_INDEX = new Map<string, { field: StatementField; rank: number }[]>();
for (const field of STATEMENT_FIELDS) {
  HEADER_NAMES[field].forEach((name, rank) => {
    const list = HEADER_INDEX.get(name) ?? [];
    list.push({ field, rank });
    HEADER_INDEX.set(name, list);
  });
}

const CURRENCY_AFFIX = /^(?:pkr|rs)|(?:inpkr|inrs|pkr|rs|rupees|روپے)$/g;

function headerFields(cell: string): { field: StatementField; rank: number }[] {
  if (cell === "" || cell.length > 60) return [];
  const name = normalizeName(cell);
  return HEADER_INDEX.get(name) ?? HEADER_INDEX.get(name.replace(CURRENCY_AFFIX, "")) ?? [];
}

// ---------------------------------------------------------------------------------------------------------
// The mapping

/** The header row's mapping, or null when none of the first 30 rows names a date and an amount column. */
export function guessMapping(grid: StatementGrid): StatementMapping | null {
  let best: { row: number; columns: Partial<Record<StatementField, number>>; score: number } | null = null;
  const last = Math.min(grid.rows.length, HEADER_SEARCH_ROWS);
  for (let r = 0; r < last; r++) {
    const chosen = new Map<StatementField, { column: number; rank: number }>();
    grid.rows[r].forEach((cell, column) => {
      for (const { field, rank } of headerFields(cell)) {
        const current = chosen.get(field);
        if (!current || rank < current.rank) chosen.set(field, { column, rank });
      }
    });
    if (!chosen.has("date") || !(chosen.has("amount") || chosen.has("credit") || chosen.has("debit"))) continue;
    const columns: Partial<Record<StatementField, number>> = {};
    for (const [field, { column }] of chosen) columns[field] = column;
    // One column, one meaning: "Sender MSISDN" is the phone when a name column is the sender.
    if (columns.phone !== undefined && columns.sender === columns.phone) {
      const named = grid.rows[r].findIndex((cell, c) => c !== columns.phone && headerFields(cell).some((f) => f.field === "sender"));
      if (named >= 0) columns.sender = named;
      else delete columns.phone;
    }
    if (columns.credit !== undefined || columns.debit !== undefined) {
      delete columns.amount;
      delete columns.direction;
    }
    const score = Object.keys(columns).length;
    if (!best || score > best.score) best = { row: r + 1, columns, score };
  }
  if (!best) return null;
  const { row, columns } = best;
  if (columns.direction !== undefined && !directionColumnReads(grid, row, columns.direction)) delete columns.direction;
  return { headerRow: row, columns, dateOrder: guessDateOrder(grid, row, columns.date!) };
}

/** The mapping guessMapping finds, or the "no header" refusal. */
export function guessedMapping(grid: StatementGrid): StatementMapping {
  const mapping = guessMapping(grid);
  if (!mapping) throw invalid("statements.no_header");
  return mapping;
}

/** A Dr/Cr or Type column is kept only when every value in its first rows reads as a direction. */
function directionColumnReads(grid: StatementGrid, headerRow: number, column: number): boolean {
  let seen = 0;
  for (let r = headerRow; r < grid.rows.length && r < headerRow + 500; r++) {
    const cell = grid.rows[r][column] ?? "";
    if (cell === "" || normalizeName(cell) === normalizeName(grid.rows[headerRow - 1][column] ?? "")) continue;
    if (!directionOf(cell)) return false;
    seen++;
  }
  return seen > 0;
}

const NUMERIC_DATE_PARTS = /^(\d{1,4})[-/.](\d{1,2})[-/.]\d{1,4}/;

/** Day first unless the data says otherwise: a first part above 12 is a day, a second part above 12 is one. */
function guessDateOrder(grid: StatementGrid, headerRow: number, column: number): DateOrder {
  let monthFirst = false;
  let yearFirst = false;
  let dayOrMonthFirst = false;
  for (let r = headerRow; r < grid.rows.length && r < headerRow + 1000; r++) {
    const match = NUMERIC_DATE_PARTS.exec(westernDigits(grid.rows[r][column] ?? ""));
    if (!match) continue;
    if (match[1].length === 4) {
      yearFirst = true;
      continue;
    }
    dayOrMonthFirst = true;
    if (Number(match[1]) > 12) return "dmy";
    if (Number(match[2]) > 12) monthFirst = true;
  }
  if (monthFirst) return "mdy";
  // Year-first dates read the same in every order; "ymd" only says that is all there is.
  return yearFirst && !dayOrMonthFirst ? "ymd" : "dmy";
}

/** The header names of a row, normalised and joined: the same export format gives the same signature. */
export function headerSignature(grid: StatementGrid, headerRow: number): string {
  const row = grid.rows[headerRow - 1];
  if (!Number.isInteger(headerRow) || !row) return "";
  return row.map(normalizeName).join("|").replace(/\|+$/, "");
}

function checkMapping(grid: StatementGrid, mapping: StatementMapping): void {
  const bad = () => invalid("statements.mapping_invalid");
  if (!mapping || typeof mapping !== "object" || !mapping.columns || typeof mapping.columns !== "object") throw bad();
  const { headerRow, columns, dateOrder } = mapping;
  if (!Number.isInteger(headerRow) || headerRow < 0 || headerRow > grid.rows.length) throw bad();
  if (!DATE_ORDERS.includes(dateOrder)) throw bad();
  let width = 0;
  for (const row of grid.rows) width = Math.max(width, row.length);
  for (const [field, column] of Object.entries(columns)) {
    if (column === undefined) continue;
    if (!(STATEMENT_FIELDS as readonly string[]).includes(field)) throw bad();
    if (!Number.isInteger(column) || column < 0 || column >= width) throw bad();
  }
  if (columns.date === undefined) throw invalid("statements.mapping_no_date", "date");
  if (columns.amount === undefined && columns.credit === undefined && columns.debit === undefined) {
    throw invalid("statements.mapping_no_amount", "amount");
  }
}

// ---------------------------------------------------------------------------------------------------------
// Applying it

/** Rows that are a statement's summary, not a transaction, wherever they are (normalised whole cells). */
const SUMMARY_CELLS = new Set([
  "total",
  "totals",
  "grandtotal",
  "subtotal",
  "totalcredit",
  "totalcredits",
  "totaldebit",
  "totaldebits",
  "totaldeposits",
  "totalwithdrawals",
  "totalamount",
  "totaltransactions",
  "openingbalance",
  "closingbalance",
  "openingbal",
  "closingbal",
  "beginningbalance",
  "endingbalance",
  "availablebalance",
  "balancebf",
  "balancecf",
  "bf",
  "cf",
  "broughtforward",
  "carriedforward",
  "balancebroughtforward",
  "balancecarriedforward",
  "کل",
  "کلرقم",
  "ابتدائیبیلنس",
  "اختتامیبیلنس",
]);
const SUMMARY_PREFIX = /^(?:openingbalance|closingbalance|balanceasof|balanceason)/;
const TOTAL_PREFIX = /^(?:grand|sub)?totals?/;
const HAS_DIGIT = /\d/;

export function applyMapping(grid: StatementGrid, mapping: StatementMapping): StatementLine[] {
  checkMapping(grid, mapping);
  const { headerRow, columns, dateOrder } = mapping;
  const header = headerRow > 0 ? grid.rows[headerRow - 1] : [];
  const headerNames = header.map(normalizeName);
  const columnName = (column: number) => header[column] || columnLetter(column);
  // A page break's repeated header: the same names in every mapped column that has one.
  const named = Object.values(columns).filter((c): c is number => c !== undefined && headerNames[c] !== "");
  const repeatsHeader = (row: string[]) => named.length > 0 && named.every((c) => normalizeName(row[c] ?? "") === headerNames[c]);
  const sides = columns.credit !== undefined || columns.debit !== undefined;
  const bothSides = columns.credit !== undefined && columns.debit !== undefined;
  const excel = grid.format === "xlsx";

  const lines: StatementLine[] = [];
  for (let r = headerRow; r < grid.rows.length; r++) {
    const row = grid.rows[r];
    if (!row.some((cell) => cell !== "")) continue;
    if (repeatsHeader(row)) continue;
    const cell = (column: number | undefined) => (column === undefined ? "" : (row[column] ?? ""));
    const rowNumber = r + 1;
    const refuse = (code: Parameters<typeof invalid>[0], column: number, value = cell(column)) =>
      invalid(code, undefined, { row: String(rowNumber), column: columnName(column), value: cut(value) });

    const dateCell = cell(columns.date);
    const amountCells = sides ? [cell(columns.credit), cell(columns.debit)] : [cell(columns.amount)];
    const hasAmount = amountCells.some((c) => !EMPTY_AMOUNT.test(c));
    if (isSummaryRow(row, dateCell)) continue;
    const when = parseDate(dateCell, dateOrder, excel);
    if (!when && !hasAmount) continue; // a footer, a page number or a note: not a transaction
    if (!when) throw refuse("statements.bad_date", columns.date!);

    let direction: "credit" | "debit";
    let amountPaisa: number;
    if (sides) {
      const credit = columns.credit === undefined ? null : sideAmount(cell(columns.credit), "credit", columns.credit, refuse);
      const debit = columns.debit === undefined ? null : sideAmount(cell(columns.debit), "debit", columns.debit, refuse);
      if (credit && debit) throw refuse("statements.both_sides", columns.credit!, `${cell(columns.credit)} / ${cell(columns.debit)}`);
      if (!credit && !debit) {
        if (!bothSides) continue; // only one side is mapped: the other side's lines are not wanted
        throw refuse("statements.no_amount", columns.credit!, "");
      }
      direction = credit ? "credit" : "debit";
      amountPaisa = (credit ?? debit)!;
    } else {
      const column = columns.amount!;
      const parsed = parseAmount(cell(column));
      if (parsed === "bad") throw refuse("statements.bad_amount", column);
      if (parsed === "too_large") throw refuse("statements.amount_too_large", column);
      if (!parsed || parsed.paisa === 0) throw refuse("statements.no_amount", column);
      let side: "credit" | "debit" | null = parsed.side;
      if (parsed.negative) {
        if (side === "credit") throw refuse("statements.direction_conflict", column);
        side = "debit";
      }
      const typeCell = cell(columns.direction);
      if (columns.direction !== undefined && typeCell !== "") {
        const stated = directionOf(typeCell);
        if (!stated) throw refuse("statements.bad_direction", columns.direction);
        if (side && side !== stated) throw refuse("statements.direction_conflict", columns.direction, `${cell(column)} ${typeCell}`);
        side = stated;
      }
      direction = side ?? "credit";
      amountPaisa = parsed.paisa;
    }

    let balancePaisa: number | null = null;
    if (columns.balance !== undefined) {
      const parsed = parseAmount(cell(columns.balance));
      if (parsed === "bad") throw refuse("statements.bad_amount", columns.balance);
      if (parsed === "too_large") throw refuse("statements.amount_too_large", columns.balance);
      if (parsed) balancePaisa = parsed.negative || parsed.side === "debit" ? -parsed.paisa : parsed.paisa;
    }

    const description = cell(columns.description);
    const sender = cell(columns.sender);
    lines.push({
      row: rowNumber,
      postedOn: when.date,
      postedAt: when.time,
      direction,
      amountPaisa,
      description,
      sender,
      senderPhone: mobileIn(cell(columns.phone), true) ?? mobileIn(sender, true) ?? mobileIn(description, false),
      reference: westernDigits(cell(columns.reference)).toUpperCase().replace(REFERENCE_SEPARATORS, ""),
      balancePaisa,
    });
  }
  return lines;
}

const REFERENCE_SEPARATORS = /[\s\-\u2010-\u2015]+/g;

function cut(value: string): string {
  return value.length > 40 ? `${value.slice(0, 39)}…` : value;
}

function isSummaryRow(row: string[], dateCell: string): boolean {
  const dateBlank = !HAS_DIGIT.test(dateCell);
  for (const cell of row) {
    if (cell === "" || cell.length > 60) continue;
    const name = normalizeName(cell);
    if (SUMMARY_CELLS.has(name) || SUMMARY_PREFIX.test(name)) return true;
    if (dateBlank && TOTAL_PREFIX.test(name)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------
// Directions

const CREDIT_WORDS = new Set([
  "cr",
  "c",
  "credit",
  "credited",
  "deposit",
  "received",
  "moneyreceived",
  "paymentreceived",
  "moneyin",
  "in",
  "incoming",
  "inward",
  "جمع",
]);
const DEBIT_WORDS = new Set([
  "dr",
  "d",
  "debit",
  "debited",
  "withdrawal",
  "sent",
  "moneysent",
  "paymentsent",
  "moneyout",
  "out",
  "outgoing",
  "outward",
  "نکالے",
]);

function directionOf(text: string): "credit" | "debit" | null {
  const name = normalizeName(text);
  if (CREDIT_WORDS.has(name)) return "credit";
  if (DEBIT_WORDS.has(name)) return "debit";
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Amounts

/** "-", "–", "—" and nothing: no amount on this side. */
const EMPTY_AMOUNT = /^[-\u2013\u2014\s]*$/;
/**
 * An amount as written: a sign, parentheses, a currency before or after (Rs., PKR, روپے), "/-", a CR or DR
 * suffix, around one number (checked by NUMBER).
 */
const AMOUNT =
  /^([-+])?\s*(\()?\s*([-+])?\s*(?:(?:rs\.?|pkr|روپے)\s*)?([-+])?\s*([\d.,]+)\s*(?:(?:rs\.?|pkr|روپے|\/-)\s*)?(\))?\s*(-)?\s*(?:(cr|dr)\.?)?\s*$/;
/** Digits, Western (1,000,000) or South Asian (10,00,000) grouping, at most... any decimals (refused above 2). */
const NUMBER = /^(?:(\d+|\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})+,\d{3})(?:\.(\d*))?|\.(\d+))$/;

interface Amount {
  paisa: number;
  negative: boolean;
  side: "credit" | "debit" | null;
}

function normalizeAmountText(text: string): string {
  return westernDigits(text)
    .replace(/\u066B/g, ".")
    .replace(/\u066C/g, ",")
    .replace(/\u2212/g, "-")
    .toLowerCase()
    .trim();
}

/** null for an empty cell; "bad" for text that is not one amount; "too_large" above Rs. 10 billion. */
export function parseAmount(text: string): Amount | null | "bad" | "too_large" {
  if (EMPTY_AMOUNT.test(text)) return null;
  const match = AMOUNT.exec(normalizeAmountText(text));
  if (!match) return "bad";
  const [, sign1, open, sign2, sign3, digits, close, trailing, suffix] = match;
  if (Boolean(open) !== Boolean(close)) return "bad";
  const signs = [sign1, sign2, sign3, trailing].filter(Boolean);
  if (signs.length > 1) return "bad";
  const negative = Boolean(open) || signs[0] === "-";
  if (open && signs.length > 0) return "bad";
  const number = NUMBER.exec(digits);
  if (!number) return "bad";
  const whole = (number[1] ?? "0").replace(/,/g, "").replace(/^0+(?=\d)/, "");
  const fraction = number[2] ?? number[3] ?? "";
  if (fraction.length > 2) return "bad";
  if (whole.length > 11) return "too_large";
  const paisa = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  if (paisa > STATEMENT_MAX_PAISA) return "too_large";
  const side = suffix === "cr" ? "credit" : suffix === "dr" ? "debit" : null;
  return { paisa, negative, side };
}

/** A credit or debit column's amount in paisa; null when this line is not on that side (empty, "-", 0.00). */
function sideAmount(
  text: string,
  side: "credit" | "debit",
  column: number,
  refuse: (code: "statements.bad_amount" | "statements.amount_too_large", column: number) => Error,
): number | null {
  const parsed = parseAmount(text);
  if (parsed === "bad") throw refuse("statements.bad_amount", column);
  if (parsed === "too_large") throw refuse("statements.amount_too_large", column);
  if (!parsed || parsed.paisa === 0) return null;
  // A debit column may show its amounts as negative; a credit column may not, and neither may say the other side.
  if ((parsed.negative && side === "credit") || (parsed.side && parsed.side !== side)) {
    throw refuse("statements.bad_amount", column);
  }
  return parsed.paisa;
}

// ---------------------------------------------------------------------------------------------------------
// Dates

const NUMERIC_DATE = /^(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,4})(?:(?:\s*,\s*|\s+|t)(.+))?$/;
const DAY_MONTH_NAME = /^(\d{1,2})(?:st|nd|rd|th)?[-\s/.]*(\p{L}{3,9})\.?[-\s/.,]*(\d{4}|\d{2})(?:(?:\s*,\s*|\s+|t)(.+))?$/u;
const MONTH_NAME_DAY = /^(\p{L}{3,9})\.?[-\s/.]*(\d{1,2})(?:st|nd|rd|th)?\s*,?[-\s/.]*(\d{4})(?:(?:\s*,\s*|\s+|t)(.+))?$/u;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(?:([ap])\.?\s*m\.?)?$/;
const EXCEL_SERIAL = /^(\d{5})(?:\.(\d+))?$/;
const SPACES = /\s+/g;

const MONTHS = new Map<string, number>();
[
  ["jan", "january", "جنوری"],
  ["feb", "february", "فروری"],
  ["mar", "march", "مارچ"],
  ["apr", "april", "اپریل"],
  ["may", "مئی"],
  ["jun", "june", "جون"],
  ["jul", "july", "جولائی"],
  ["aug", "august", "اگست"],
  ["sep", "sept", "september", "ستمبر"],
  ["oct", "october", "اکتوبر"],
  ["nov", "november", "نومبر"],
  ["dec", "december", "دسمبر"],
].forEach((names, i) => names.forEach((name) => MONTHS.set(name, i + 1)));

/** A date as statements write it, with an optional time; null when it is not one (or is impossible). */
export function parseDate(text: string, order: DateOrder, excelSerials = false): { date: string; time: string | null } | null {
  const value = westernDigits(text).trim().replace(SPACES, " ").toLowerCase();
  let year: number;
  let month: number;
  let day: number;
  let rest: string | undefined;
  let match: RegExpExecArray | null;
  if ((match = NUMERIC_DATE.exec(value))) {
    const [, a, b, c] = match;
    rest = match[4];
    if (a.length === 4) {
      [year, month, day] = [Number(a), Number(b), Number(c)];
      if (c.length > 2) return null;
    } else if (c.length === 4 || c.length === 2) {
      if (a.length > 2) return null;
      if (order === "ymd" && c.length === 2) [year, month, day] = [Number(a), Number(b), Number(c)];
      else if (order === "mdy") [month, day, year] = [Number(a), Number(b), Number(c)];
      else [day, month, year] = [Number(a), Number(b), Number(c)];
      if (order === "ymd" && c.length === 2 && a.length !== 2) return null;
    } else return null;
  } else if ((match = DAY_MONTH_NAME.exec(value))) {
    day = Number(match[1]);
    month = MONTHS.get(match[2]) ?? 0;
    year = Number(match[3]);
    rest = match[4];
  } else if ((match = MONTH_NAME_DAY.exec(value))) {
    month = MONTHS.get(match[1]) ?? 0;
    day = Number(match[2]);
    year = Number(match[3]);
    rest = match[4];
  } else if (excelSerials && (match = EXCEL_SERIAL.exec(value))) {
    return excelSerialDate(Number(match[1]), match[2]);
  } else return null;

  if (year < 100) year += 2000;
  if (year < 1900 || year > 2100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const date = `${year}-${pad(month)}-${pad(day)}`;
  if (rest === undefined) return { date, time: null };
  const time = parseTime(rest.trim());
  return time ? { date, time } : null;
}

function parseTime(text: string): string | null {
  const match = TIME.exec(text);
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  const meridiem = match[4];
  if (minutes > 59 || seconds > 59) return null;
  if (meridiem) {
    if (hours > 12) {
      if (meridiem === "a" || hours > 23) return null;
    } else if (meridiem === "a") {
      if (hours === 12) hours = 0;
    } else if (hours !== 12) hours += 12;
  } else if (hours > 23) return null;
  return `${pad(hours)}:${pad(minutes)}`;
}

/** A date cell an XLSX kept as its serial number (days since 1899-12-30), between 1970 and 2099. */
function excelSerialDate(days: number, fraction: string | undefined): { date: string; time: string | null } | null {
  if (days < 25569 || days > 73050) return null;
  const date = new Date(Date.UTC(1899, 11, 30) + days * 86_400_000);
  const text = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  if (!fraction || Number(fraction) === 0) return { date: text, time: null };
  const minutes = Math.min(Math.floor(Math.round(Number(`0.${fraction}`) * 86_400) / 60), 24 * 60 - 1);
  return { date: text, time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (n: number) => String(n).padStart(2, "0");

// ---------------------------------------------------------------------------------------------------------
// Phones

/** A Pakistani mobile inside a text: +92 / 0092 / 92 / 0, then 3XX and seven digits, not inside a longer number. */
const MOBILE_IN_TEXT = /(?<![\d+])(?:\+92|0092|92|0)[\s-]?(3\d{2})[\s-]?(\d{7})(?!\d)/;
/** A whole cell that is the ten digits without the 0 (an MSISDN column kept as a number). */
const BARE_MOBILE = /^(3\d{2})[\s-]?(\d{7})$/;

function mobileIn(text: string, wholeCellMayBeBare: boolean): string | null {
  if (text === "") return null;
  const digits = westernDigits(text);
  const match = MOBILE_IN_TEXT.exec(digits) ?? (wholeCellMayBeBare ? BARE_MOBILE.exec(digits.trim()) : null);
  return match ? `0${match[1]}${match[2]}` : null;
}
