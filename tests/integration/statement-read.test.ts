import { readFile } from "node:fs/promises";
import { deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import fc from "fast-check";
import JSZip from "jszip";
import { describe, expect, it } from "vitest";
import { DomainError, ERROR_MESSAGES } from "#server/domain/errors.ts";
import {
  STATEMENT_MAX_BYTES,
  STATEMENT_MAX_CELL_CHARS,
  STATEMENT_MAX_COLUMNS,
  STATEMENT_MAX_ROWS,
  readStatementFile,
  type StatementGrid,
} from "#server/domain/statements/read.ts";
import {
  STATEMENT_FIELDS,
  applyMapping,
  guessMapping,
  guessedMapping,
  headerSignature,
  parseAmount,
  parseDate,
  type StatementLine,
  type StatementMapping,
} from "#server/domain/statements/columns.ts";
import { zip } from "#tests/helpers/zip.ts";
import { walletWorkbook } from "#tests/fixtures/statements/make-wallet-xlsx.ts";
import enStatements from "#shared/locales/en/statements.json";
import urStatements from "#shared/locales/ur/statements.json";

/**
 * Reading bank and wallet statements (CSV, XLSX) into grids, and grids into typed lines: the fixtures are shaped
 * after what Pakistani banks (a Debit / Credit / Balance table under an account block) and the JazzCash /
 * Easypaisa business portals (a signed Amount, Transaction ID, Sender MSISDN) export.
 */

const FIXTURES = new URL("../fixtures/statements/", import.meta.url);
const fixture = (name: string) => readFile(new URL(name, FIXTURES));
const read = async (name: string) => readStatementFile({ name, bytes: await fixture(name) });
const csv = (text: string, name = "statement.csv") => readStatementFile({ name, bytes: Buffer.from(text, "utf8") });

type Refusal = { code: string; field?: string; params?: Record<string, string> };

/** How a call was refused (a DomainError's code, field and params); anything else is a bug and fails the test. */
async function refusal(run: () => unknown): Promise<Refusal> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { code: err.code, ...(err.field ? { field: err.field } : {}), ...(err.params ? { params: err.params } : {}) };
  }
  throw new Error("expected a refusal, got none");
}

function line(partial: Partial<StatementLine> & Pick<StatementLine, "row" | "postedOn" | "amountPaisa">): StatementLine {
  return {
    postedAt: null,
    direction: "credit",
    description: "",
    sender: "",
    senderPhone: null,
    reference: "",
    balancePaisa: null,
    ...partial,
  };
}

describe("a bank CSV with Debit and Credit columns under an account block", () => {
  it("finds the header below the account details and maps Transaction Date over Value Date", async () => {
    const grid = await read("bank-debit-credit.csv");
    expect(grid.format).toBe("csv");
    expect(grid.rows[0]).toEqual(["Meezan Bank Limited"]);
    expect(grid.rows[7]).toEqual([]);
    expect(grid.rows.at(-1)).toEqual(["This is a computer generated statement and does not require a signature."]);
    const mapping = guessMapping(grid);
    expect(mapping).toEqual({
      headerRow: 9,
      columns: { date: 0, description: 2, reference: 3, debit: 4, credit: 5, balance: 6 },
      dateOrder: "dmy",
    });
    expect(headerSignature(grid, 9)).toBe("transactiondate|valuedate|narration|chequerefno|debit|credit|balance");
  });

  it("yields every transaction, skipping the opening balance, the repeated header, the totals and the footer", async () => {
    const grid = await read("bank-debit-credit.csv");
    expect(applyMapping(grid, guessMapping(grid)!)).toEqual([
      line({
        row: 11,
        postedOn: "2026-11-03",
        amountPaisa: 5_000_000,
        description: "IBFT FROM ALI RAZA 03211234567 HBL",
        senderPhone: "03211234567",
        reference: "FT2630712345",
        balancePaisa: 17_500_000,
      }),
      line({
        row: 12,
        postedOn: "2026-11-05",
        amountPaisa: 10_000_000,
        description: "RAAST P2P FROM SANA KHAN, KARACHI",
        reference: "RAAST66172234",
        balancePaisa: 27_500_000,
      }),
      line({
        row: 13,
        postedOn: "2026-11-07",
        direction: "debit",
        amountPaisa: 2_500_000,
        description: "CHQ PAID - RENT",
        reference: "000123",
        balancePaisa: 25_000_000,
      }),
      line({
        row: 16,
        postedOn: "2026-11-15",
        amountPaisa: 250_050,
        description: "Cash deposit by Muhammad Usman +92 300 7654321",
        senderPhone: "03007654321",
        reference: "CD998877",
        balancePaisa: 25_250_050,
      }),
      line({
        row: 17,
        postedOn: "2026-11-20",
        direction: "debit",
        amountPaisa: 4_500,
        description: "SMS ALERT CHARGES",
        balancePaisa: 25_245_550,
      }),
      line({
        row: 18,
        postedOn: "2026-11-28",
        amountPaisa: 100_000_000,
        description: "INTER BANK FUND TRANSFER FROM 0092-333-1112223",
        senderPhone: "03331112223",
        reference: "IBFT55/1",
        balancePaisa: 125_245_550,
      }),
    ]);
  });

  it("reads the same in UTF-8 with a BOM, UTF-16LE and UTF-16BE with theirs, and CRLF", async () => {
    const text = (await fixture("bank-debit-credit.csv")).toString("utf8");
    const expected = (await read("bank-debit-credit.csv")).rows;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const be = Buffer.from(le);
    be.swap16();
    for (const bytes of [Buffer.from(`\uFEFF${text}`), le, be, Buffer.from(text.replace(/\n/g, "\r\n"))]) {
      expect((await readStatementFile({ name: "x.txt", bytes })).rows).toEqual(expected);
    }
  });
});

describe("a wallet business-portal export (XLSX)", () => {
  const expectedRows = [
    ["JazzCash Business - Transaction History"],
    ["Merchant: Ek Chhat Welfare Trust"],
    [],
    ["Transaction ID", "Transaction Date", "Transaction Type", "Sender MSISDN", "Sender Name", "Amount", "Remarks", "Balance"],
    ["8123456789", "05/11/2026 02:15 PM", "Money Received", "923211234567", "Ali Raza", "1500", "Donation for flood relief", "11500"],
    ["JC-2611-06 ab", "06/11/2026 11:05:09 AM", "Money Received", "03001234567", "Sana Khan", "2000.5", "Receipt 2", "13500.5"],
    ["8123456791", "2026-11-07 21:40", "Money Sent", "", "", "-500", "Utility bill payment", "13000.5"],
    ["8123456792", "12/11/2026 12:30 AM", "Money Received", "3451234567", "Muhammad Usman", "250000", "Zakat", "263000.5"],
    ["8123456793", "12/11/2026 12:45 PM", "Money Received", "0321-7654321", "Fatima", "2", "Sadqa", "263002.5"],
    [],
    ["Total Records: 5"],
  ];

  it("reads the first sheet with data: merged title once, rich text plain, formulas' cached results, dates as wall-clock", async () => {
    const grid = await read("wallet-export.xlsx");
    expect(grid).toEqual({ format: "xlsx", sheet: "Transactions", rows: expectedRows });
  });

  it("is what the fixture script makes (detected by its zip signature, whatever the name)", async () => {
    const grid = await readStatementFile({ name: "export.csv", bytes: await walletWorkbook() });
    expect(grid.rows).toEqual(expectedRows);
  });

  it("maps Sender Name as the sender and Sender MSISDN as the phone, and the signed Amount with its type", async () => {
    const grid = await read("wallet-export.xlsx");
    const mapping = guessMapping(grid)!;
    expect(mapping).toEqual({
      headerRow: 4,
      columns: { reference: 0, date: 1, direction: 2, phone: 3, sender: 4, amount: 5, description: 6, balance: 7 },
      dateOrder: "dmy",
    });
    expect(applyMapping(grid, mapping)).toEqual([
      line({
        row: 5,
        postedOn: "2026-11-05",
        postedAt: "14:15",
        amountPaisa: 150_000,
        description: "Donation for flood relief",
        sender: "Ali Raza",
        senderPhone: "03211234567",
        reference: "8123456789",
        balancePaisa: 1_150_000,
      }),
      line({
        row: 6,
        postedOn: "2026-11-06",
        postedAt: "11:05",
        amountPaisa: 200_050,
        description: "Receipt 2",
        sender: "Sana Khan",
        senderPhone: "03001234567",
        reference: "JC261106AB",
        balancePaisa: 1_350_050,
      }),
      line({
        row: 7,
        postedOn: "2026-11-07",
        postedAt: "21:40",
        direction: "debit",
        amountPaisa: 50_000,
        description: "Utility bill payment",
        reference: "8123456791",
        balancePaisa: 1_300_050,
      }),
      line({
        row: 8,
        postedOn: "2026-11-12",
        postedAt: "00:30",
        amountPaisa: 25_000_000,
        description: "Zakat",
        sender: "Muhammad Usman",
        senderPhone: "03451234567",
        reference: "8123456792",
        balancePaisa: 26_300_050,
      }),
      line({
        row: 9,
        postedOn: "2026-11-12",
        postedAt: "12:45",
        amountPaisa: 200,
        description: "Sadqa",
        sender: "Fatima",
        senderPhone: "03217654321",
        reference: "8123456793",
        balancePaisa: 26_300_250,
      }),
    ]);
  });

  it("without a name column, the MSISDN column is the sender", () => {
    const grid: StatementGrid = {
      format: "csv",
      rows: [
        ["TID", "Date", "Customer MSISDN", "Amount"],
        ["A1", "2026-11-05 09:00", "923211234567", "100"],
      ],
    };
    const mapping = guessMapping(grid)!;
    expect(mapping.columns).toEqual({ reference: 0, date: 1, sender: 2, amount: 3 });
    expect(applyMapping(grid, mapping)[0]).toMatchObject({ sender: "923211234567", senderPhone: "03211234567" });
  });
});

describe("a CSV with Urdu headers and Urdu digits", () => {
  it("maps تاریخ / تفصیل / جمع / نکالے / بیلنس and reads Urdu digits, lakh grouping and DD/MM/YYYY", async () => {
    const grid = await read("urdu-digits.csv");
    const mapping = guessMapping(grid)!;
    expect(mapping).toEqual({
      headerRow: 1,
      columns: { date: 0, description: 1, sender: 2, reference: 3, credit: 4, debit: 5, balance: 6 },
      dateOrder: "dmy",
    });
    expect(applyMapping(grid, mapping)).toEqual([
      line({
        row: 2,
        postedOn: "2026-11-02",
        amountPaisa: 1_250_000,
        description: "عطیہ برائے راشن",
        sender: "احمد علی ۰۳۲۱۱۲۳۴۵۶۷",
        senderPhone: "03211234567",
        reference: "ٹیآئیڈی7788",
        balancePaisa: 11_250_000,
      }),
      line({
        row: 3,
        postedOn: "2026-11-09",
        direction: "debit",
        amountPaisa: 320_050,
        description: "بجلی کا بل",
        reference: "991",
        balancePaisa: 10_929_950,
      }),
      line({
        row: 4,
        postedOn: "2026-11-30",
        amountPaisa: 5_000_000,
        description: "زکوٰۃ",
        sender: "فاطمہ بی بی",
        balancePaisa: 15_929_950,
      }),
    ]);
  });
});

describe("a semicolon-separated Windows-1252 export with an Amount and a Dr/Cr column", () => {
  it("decodes Windows-1252 (curly quotes, é, en dash), finds the semicolon and reads CR/DR", async () => {
    const grid = await read("semicolon-1252.csv");
    expect(grid.rows[4][1]).toBe("Funds received \u201cCaf\u00e9 Lahore\u201d \u2013 donation");
    const mapping = guessMapping(grid)!;
    expect(mapping).toEqual({
      headerRow: 4,
      columns: { date: 0, description: 1, reference: 2, amount: 3, direction: 4, balance: 5 },
      dateOrder: "dmy",
    });
    expect(applyMapping(grid, mapping)).toEqual([
      line({
        row: 5,
        postedOn: "2026-11-05",
        amountPaisa: 100_000,
        description: "Funds received \u201cCaf\u00e9 Lahore\u201d \u2013 donation",
        reference: "UBL778899",
        balancePaisa: 2_600_000,
      }),
      line({
        row: 6,
        postedOn: "2026-11-06",
        direction: "debit",
        amountPaisa: 500_000,
        description: "ATM withdrawal",
        reference: "ATM1122",
        balancePaisa: 2_100_000,
      }),
      line({
        row: 7,
        postedOn: "2026-11-07",
        amountPaisa: 250_000,
        description: "IBFT from Ayesha 0300-1234567",
        senderPhone: "03001234567",
        reference: "IB/2026/0007",
        balancePaisa: 2_350_000,
      }),
    ]);
  });
});

describe("reading CSV", () => {
  it("detects comma, semicolon, tab and pipe, outside quotes and past an account block", async () => {
    const table = [
      ["Date", "Description", "Amount"],
      ["05/11/2026", "Gift, with a comma; and a semicolon | and a pipe", "1,000.00"],
      ["06/11/2026", "Second", "-20"],
    ];
    for (const d of [",", ";", "\t", "|"]) {
      const body = table.map((r) => r.map((c) => (/[,;|\t]/.test(c) ? `"${c}"` : c)).join(d)).join("\n");
      const grid = await csv(`Account${d}EK CHHAT${d}\n\n${body}\n`);
      expect(grid.rows.slice(2), JSON.stringify(d)).toEqual(table);
    }
    // Amounts with unquoted commas in a semicolon file: the semicolon is the one that is the same on every line.
    expect((await csv("Date;Amount;Balance\n05/11/2026;1,000.00;1,25,000.00\n06/11/2026;5.00;1,24,995.00\n")).rows[1]).toEqual([
      "05/11/2026",
      "1,000.00",
      "1,25,000.00",
    ]);
  });

  it("keeps quoted fields, CRLF, ragged rows and blank lines in place; drops trailing empties", async () => {
    const grid = await csv('a,"b, ""quoted""",c\r\n\r\n1,2\r\n"x\r\ny",,,,\r\n\r\n\r\n');
    expect(grid.rows).toEqual([["a", 'b, "quoted"', "c"], [], ["1", "2"], ["x y"]]);
  });

  it("removes control characters other than tab, trims cells and keeps formulas as text", async () => {
    const grid = await csv('Date,Narration\n05/11/2026, a\u0000b\u0007c\td\u001b \n=1+1,"=HYPERLINK(""http://x.example"",""click"")"\n');
    expect(grid.rows).toEqual([
      ["Date", "Narration"],
      ["05/11/2026", "abc\td"],
      ["=1+1", '=HYPERLINK("http://x.example","click")'],
    ]);
  });

  it("refuses a broken quote, naming the line it starts on", async () => {
    expect(await refusal(() => csv('Date,Amount\n05/11/2026,100\n06/11/2026,"200\n07/11/2026,300\n'))).toEqual({
      code: "statements.csv_broken_quote",
      params: { line: "3" },
    });
    expect(await refusal(() => csv('Date,Amount\n05/11/2026,"100"x\n'))).toEqual({
      code: "statements.csv_broken_quote",
      params: { line: "2" },
    });
  });
});

describe("reading XLSX", () => {
  async function xlsx(build: (workbook: ExcelJS.Workbook) => void): Promise<StatementGrid> {
    const workbook = new ExcelJS.Workbook();
    build(workbook);
    return readStatementFile({ name: "s.xlsx", bytes: Buffer.from(await workbook.xlsx.writeBuffer()) });
  }

  it("writes numbers plainly, dates by their format, and never evaluates a formula", async () => {
    const grid = await xlsx((workbook) => {
      const hidden = workbook.addWorksheet("Lookup");
      hidden.state = "hidden";
      hidden.getCell("A1").value = "not this one";
      const sheet = workbook.addWorksheet("Data");
      sheet.getRow(1).values = [
        1234.5600000000002,
        1e-7,
        1e21,
        -0.5,
        true,
        { error: "#N/A" },
        { formula: "1+1" },
        { formula: "NOW()", result: new Date(Date.UTC(2026, 10, 5, 9, 5, 59, 999)) },
      ];
      sheet.getCell("H1").numFmt = "dd/mm/yyyy hh:mm";
      sheet.getCell("I1").value = new Date(Date.UTC(2026, 1, 28));
      sheet.getCell("I1").numFmt = "dd-mmm-yyyy";
      sheet.getCell("J1").value = new Date(Date.UTC(2026, 1, 28, 23, 59, 30));
      sheet.getCell("J1").numFmt = "yyyy-mm-dd hh:mm:ss";
      sheet.getCell("K1").value = { text: "Receipt", hyperlink: "https://example.com" };
      sheet.getCell("L1").value = "  spaced\u0001 ";
    });
    expect(grid.sheet).toBe("Data");
    expect(grid.rows).toEqual([
      [
        "1234.56",
        "0.0000001",
        "1000000000000000000000",
        "-0.5",
        "TRUE",
        "#N/A",
        "",
        "2026-11-05 09:06",
        "2026-02-28",
        "2026-02-28 23:59",
        "Receipt",
        "spaced",
      ],
    ]);
  });

  it("keeps the sheet's row and column positions (rows and letters match Excel's)", async () => {
    const grid = await xlsx((workbook) => {
      const sheet = workbook.addWorksheet("S");
      sheet.getCell("C3").value = "Date";
      sheet.getCell("D5").value = 7;
    });
    expect(grid.rows).toEqual([[], [], ["", "", "Date"], [], ["", "", "", "7"]]);
  });

  it("reads a sheet whose merged range, data validation and column range cover the whole sheet, quickly", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("S");
    sheet.getRow(1).values = ["Date", "Amount"];
    sheet.getRow(2).values = ["05/11/2026", 100];
    const zipped = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    const xml = await zipped.file("xl/worksheets/sheet1.xml")!.async("string");
    const hostile = xml
      .replace(/<cols>.*?<\/cols>|(?=<sheetData)/, '<cols><col min="1" max="16384" width="9"/></cols>')
      .replace(
        "</sheetData>",
        '</sheetData><mergeCells count="1"><mergeCell ref="A3:XFD1048576"/></mergeCells>' +
          '<dataValidations count="1"><dataValidation type="whole" sqref="A1:XFD1048576"><formula1>0</formula1></dataValidation></dataValidations>',
      );
    zipped.file("xl/worksheets/sheet1.xml", hostile);
    const bytes = await zipped.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
    const started = performance.now();
    const grid = await readStatementFile({ name: "s.xlsx", bytes });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(grid.rows).toEqual([
      ["Date", "Amount"],
      ["05/11/2026", "100"],
    ]);
  });

  it("finds sheets by the workbook's relations, whatever their part names, in tab order", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("First").getCell("A1").value = "first";
    workbook.addWorksheet("Second").getCell("A1").value = "second";
    const zipped = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    // Swap the tabs' order in workbook.xml and give the parts names exceljs would not look for.
    const book = await zipped.file("xl/workbook.xml")!.async("string");
    const tabs = book.match(/<sheet [^>]*\/>/g)!;
    zipped.file("xl/workbook.xml", book.replace(tabs.join(""), [tabs[1], tabs[0]].join("")));
    const rels = await zipped.file("xl/_rels/workbook.xml.rels")!.async("string");
    zipped.file("xl/_rels/workbook.xml.rels", rels.replace(/worksheets\/sheet(\d)\.xml/g, "/xl/worksheets/Data_$1.xml"));
    for (const n of [1, 2]) {
      zipped.file(`xl/worksheets/Data_${n}.xml`, await zipped.file(`xl/worksheets/sheet${n}.xml`)!.async("nodebuffer"));
      zipped.remove(`xl/worksheets/sheet${n}.xml`);
    }
    const grid = await readStatementFile({ name: "s.xlsx", bytes: await zipped.generateAsync({ type: "nodebuffer" }) });
    expect(grid).toMatchObject({ sheet: "Second", rows: [["second"]] });
  });

  it("refuses a workbook with no data, and a zip that is not a workbook", async () => {
    expect(await refusal(() => xlsx((workbook) => workbook.addWorksheet("Empty")))).toEqual({ code: "statements.empty_file" });
    expect(
      await refusal(() => readStatementFile({ name: "a.xlsx", bytes: zip([{ name: "hello.txt", data: Buffer.from("hi") }]) })),
    ).toEqual({
      code: "statements.xlsx_unreadable",
    });
    expect(await refusal(() => readStatementFile({ name: "a.xlsx", bytes: Buffer.from("PK\u0003\u0004 and then nothing") }))).toEqual({
      code: "statements.xlsx_unreadable",
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Zip bombs: zips made by hand, so their headers can declare what they like.

describe("zip bombs are refused before anything is unpacked", () => {
  async function refusedQuickly(bytes: Buffer): Promise<Refusal> {
    const started = performance.now();
    const result = await refusal(() => readStatementFile({ name: "statement.xlsx", bytes }));
    expect(performance.now() - started).toBeLessThan(1000);
    return result;
  }
  const zeros = (mb: number) => deflateRawSync(Buffer.alloc(mb * 1024 * 1024), { level: 9 });

  it("refuses an entry that unpacks to 80 MB (more than 64 MB in all)", async () => {
    const bomb = zip([{ name: "xl/worksheets/sheet1.xml", deflated: zeros(80), size: 80 * 1024 * 1024 }]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(await refusedQuickly(bomb)).toEqual({ code: "statements.xlsx_too_large" });
  });

  it("refuses many entries that together declare more than 64 MB", async () => {
    const part = zeros(1);
    const entries = Array.from({ length: 70 }, (_, i) => ({ name: `xl/media/image${i}.bin`, deflated: part, size: 1024 * 1024 }));
    expect(await refusedQuickly(zip(entries))).toEqual({ code: "statements.xlsx_too_large" });
  });

  it("refuses an entry above 1 MB packed more than 200:1", async () => {
    expect(await refusedQuickly(zip([{ name: "xl/sharedStrings.xml", deflated: zeros(5), size: 5 * 1024 * 1024 }]))).toEqual({
      code: "statements.xlsx_too_large",
    });
  });

  it("refuses an entry that unpacks to more than it declares, without unpacking the rest", async () => {
    const liar = zip([{ name: "xl/worksheets/sheet1.xml", deflated: deflateRawSync(Buffer.alloc(50 * 1024 * 1024)), declaredSize: 1000 }]);
    expect(await refusedQuickly(liar)).toEqual({ code: "statements.xlsx_too_large" });
  });

  it("refuses more than 2,000 entries", async () => {
    const entries = Array.from({ length: 2001 }, (_, i) => ({ name: `x/${i}`, data: Buffer.from("x") }));
    expect(await refusedQuickly(zip(entries))).toEqual({ code: "statements.xlsx_too_large" });
  });
});

describe("files that are not statements", () => {
  const bytes = (...parts: (number[] | string)[]) =>
    Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

  it("refuses legacy .xls, PDF, HTML saved as .xls, images and binary data", async () => {
    const ole2 = bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], new Array(600).fill(0));
    expect(await refusal(() => readStatementFile({ name: "statement.xls", bytes: ole2 }))).toEqual({ code: "statements.xls_unsupported" });
    expect(await refusal(() => readStatementFile({ name: "statement.csv", bytes: bytes("%PDF-1.7\n%\u00e2\u00e3\n1 0 obj") }))).toEqual({
      code: "statements.pdf_unsupported",
    });
    const html = bytes("<html><body><table><tr><td>Date</td><td>Amount</td></tr></table></body></html>");
    expect(await refusal(() => readStatementFile({ name: "statement.xls", bytes: html }))).toEqual({ code: "statements.xls_unsupported" });
    const png = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], new Array(100).fill(7));
    expect(await refusal(() => readStatementFile({ name: "statement.png", bytes: png }))).toEqual({ code: "statements.not_statement" });
    const binary = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919) % 256));
    expect(await refusal(() => readStatementFile({ name: "x.bin", bytes: binary }))).toEqual({ code: "statements.not_statement" });
  });

  it("refuses an empty file", async () => {
    for (const text of ["", "\uFEFF", "  \r\n\r\n ,,, \n"]) {
      expect(await refusal(() => csv(text)), JSON.stringify(text)).toEqual({ code: "statements.empty_file" });
    }
  });
});

describe("the limits", () => {
  it("refuses a file over 10 MB", async () => {
    const big = Buffer.alloc(STATEMENT_MAX_BYTES + 1, 0x41);
    expect(await refusal(() => readStatementFile({ name: "big.csv", bytes: big }))).toEqual({
      code: "statements.file_too_large",
      params: { max: "10 MB" },
    });
  });

  it("reads 100,000 rows (and blank lines after them) and refuses 100,001", async () => {
    const rows = "1\n".repeat(STATEMENT_MAX_ROWS);
    expect((await csv(`${rows}\n\n\n`)).rows).toHaveLength(STATEMENT_MAX_ROWS);
    expect(await refusal(() => csv(`${rows}1\n`))).toEqual({ code: "statements.too_many_rows", params: { max: "100,000" } });
  });

  it("refuses a row with more than 60 columns, and a cell over 1,000 characters, naming row and column", async () => {
    const wide = Array.from({ length: STATEMENT_MAX_COLUMNS + 1 }, (_, i) => String(i)).join(",");
    expect(await refusal(() => csv(`a,b\n${wide}\n`))).toEqual({ code: "statements.too_many_columns", params: { row: "2", max: "60" } });
    // Trailing empty cells do not count.
    expect((await csv(`a,b${",".repeat(200)}\n`)).rows).toEqual([["a", "b"]]);
    const long = "x".repeat(STATEMENT_MAX_CELL_CHARS + 1);
    expect(await refusal(() => csv(`a,b\n1,2\n3,${long}\n`))).toEqual({
      code: "statements.cell_too_long",
      params: { row: "3", column: "B", max: "1000" },
    });
    expect((await csv(`a,${"x".repeat(STATEMENT_MAX_CELL_CHARS)}\n`)).rows[0][1]).toHaveLength(STATEMENT_MAX_CELL_CHARS);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Values

describe("amounts", () => {
  it.each([
    ["1,000.00", 100_000, false, null],
    ["1,00,000", 10_000_000, false, null],
    ["10,00,000.50", 100_000_050, false, null],
    ["1,000,000", 100_000_000, false, null],
    ["Rs. 1,000", 100_000, false, null],
    ["Rs.1000/-", 100_000, false, null],
    ["PKR 1,000", 100_000, false, null],
    ["1,000 PKR", 100_000, false, null],
    ["(1,000.00)", 100_000, true, null],
    ["-1,000", 100_000, true, null],
    ["Rs. -1,000", 100_000, true, null],
    ["\u22121,000", 100_000, true, null],
    ["1,000.00-", 100_000, true, null],
    ["1,000.00 CR", 100_000, false, "credit"],
    ["1,000 Dr.", 100_000, false, "debit"],
    ["1000DR", 100_000, false, "debit"],
    ["۱۲,۵۰۰", 1_250_000, false, null],
    ["۳٬۲۰۰٫۵۰", 320_050, false, null],
    ["0.5", 50, false, null],
    [".75", 75, false, null],
    ["1,000.5", 100_050, false, null],
    ["0.00", 0, false, null],
    ["0.07", 7, false, null],
    ["10,000,000,000.00", 1_000_000_000_000, false, null],
  ])("%s", (text, paisa, negative, side) => {
    expect(parseAmount(text)).toEqual({ paisa, negative, side });
  });

  it("treats empty and dashes as no amount, refuses the rest exactly", () => {
    for (const empty of ["", " ", "-", "–", "—"]) expect(parseAmount(empty), empty).toBeNull();
    for (const bad of ["1,000.123", "12abc", "abc", "1,000 500", "1,0,0", "1.000,00", "--5", "(5", "(-5)", "12 CR DR", "1e5", "Rs.", "."]) {
      expect(parseAmount(bad), bad).toBe("bad");
    }
    expect(parseAmount("10,000,000,000.01")).toBe("too_large");
    expect(parseAmount("123456789012345678901234567890")).toBe("too_large");
  });

  it("parses any amount written with grouping exactly, never through floating point", () => {
    const lakh = (digits: string) => {
      if (digits.length <= 3) return digits;
      const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ",");
      return `${head},${digits.slice(-3)}`;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000_000 }), fc.boolean(), (paisa, indian) => {
        const rupees = String(Math.floor(paisa / 100));
        const grouped = indian ? lakh(rupees) : rupees.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
        const text = `${grouped}.${String(paisa % 100).padStart(2, "0")}`;
        expect(parseAmount(text)).toEqual({ paisa, negative: false, side: null });
      }),
      { numRuns: 500 },
    );
  });
});

describe("dates", () => {
  it.each([
    ["05/11/2026", "dmy", "2026-11-05", null],
    ["05-11-2026", "dmy", "2026-11-05", null],
    ["05.11.2026", "dmy", "2026-11-05", null],
    ["5/1/26", "dmy", "2026-01-05", null],
    ["11/05/2026", "mdy", "2026-11-05", null],
    ["26/11/05", "ymd", "2026-11-05", null],
    ["05-Nov-2026", "dmy", "2026-11-05", null],
    ["05 Nov 2026", "dmy", "2026-11-05", null],
    ["5-NOV-26", "dmy", "2026-11-05", null],
    ["05 November 2026", "dmy", "2026-11-05", null],
    ["Nov 05, 2026", "dmy", "2026-11-05", null],
    ["November 5 2026", "dmy", "2026-11-05", null],
    ["2026-11-05", "dmy", "2026-11-05", null],
    ["2026/11/05", "mdy", "2026-11-05", null],
    ["2026-11-05 14:30", "dmy", "2026-11-05", "14:30"],
    ["2026-11-05T14:30:15", "dmy", "2026-11-05", "14:30"],
    ["05/11/2026 14:30:59", "dmy", "2026-11-05", "14:30"],
    ["05/11/2026 02:15 PM", "dmy", "2026-11-05", "14:15"],
    ["05/11/2026 2:15 pm", "dmy", "2026-11-05", "14:15"],
    ["05/11/2026 12:05 AM", "dmy", "2026-11-05", "00:05"],
    ["05/11/2026 12:05 PM", "dmy", "2026-11-05", "12:05"],
    ["05-Nov-2026 11:05:09 AM", "dmy", "2026-11-05", "11:05"],
    ["Nov 05, 2026 09:07:00 p.m.", "dmy", "2026-11-05", "21:07"],
    ["۰۵/۱۱/۲۰۲۶", "dmy", "2026-11-05", null],
    ["۰۵ نومبر ۲۰۲۶", "dmy", "2026-11-05", null],
    ["29/02/2028", "dmy", "2028-02-29", null],
  ] as const)("%s (%s)", (text, order, date, time) => {
    expect(parseDate(text, order)).toEqual({ date, time });
  });

  it("refuses impossible dates and times", () => {
    for (const bad of [
      "31/02/2026",
      "29/02/2026",
      "00/11/2026",
      "05/13/2026",
      "32-Oct-2026",
      "05-Foo-2026",
      "05/11/2026 24:00",
      "05/11/2026 13:00 AM",
      "05/11/2026 10:60",
      "05/11/2026 soon",
      "2026-11-05-01",
      "14:30",
      "46331",
      "",
    ]) {
      expect(parseDate(bad, "dmy"), bad).toBeNull();
    }
  });

  it("reads an Excel serial number in an XLSX date column", () => {
    expect(parseDate("46331", "dmy", true)).toEqual({ date: "2026-11-05", time: null });
    expect(parseDate("46331.604166666664", "dmy", true)).toEqual({ date: "2026-11-05", time: "14:30" });
  });

  it("guesses the day-month order from the data", () => {
    const grid = (...dates: string[]): StatementGrid => ({ format: "csv", rows: [["Date", "Amount"], ...dates.map((d) => [d, "1"])] });
    expect(guessMapping(grid("01/02/2026", "13/02/2026"))!.dateOrder).toBe("dmy");
    expect(guessMapping(grid("01/02/2026", "02/13/2026"))!.dateOrder).toBe("mdy");
    expect(guessMapping(grid("01/02/2026", "02/03/2026"))!.dateOrder).toBe("dmy");
    expect(guessMapping(grid("2026-02-01", "2026-02-13"))!.dateOrder).toBe("ymd");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Mapping refusals

describe("applying a mapping", () => {
  const header = ["Date", "Description", "Debit", "Credit", "Balance"];
  const grid = (...data: string[][]): StatementGrid => ({ format: "csv", rows: [header, ...data] });
  const sides: StatementMapping = { headerRow: 1, columns: { date: 0, description: 1, debit: 2, credit: 3, balance: 4 }, dateOrder: "dmy" };
  const apply = (g: StatementGrid, m: StatementMapping = sides) => refusal(() => applyMapping(g, m));

  it("refuses a bad date, naming row, column and value", async () => {
    expect(await apply(grid(["05/11/2026", "ok", "", "1"], ["31/02/2026", "x", "", "100"]))).toEqual({
      code: "statements.bad_date",
      params: { row: "3", column: "Date", value: "31/02/2026" },
    });
    // A date missing where there is an amount.
    expect(await apply(grid(["", "no date", "", "100"]))).toEqual({
      code: "statements.bad_date",
      params: { row: "2", column: "Date", value: "" },
    });
  });

  it("refuses bad amounts and amounts above Rs. 10 billion", async () => {
    for (const bad of ["1,000.123", "12abc", "1,000 500"]) {
      expect(await apply(grid(["05/11/2026", "x", "", bad])), bad).toEqual({
        code: "statements.bad_amount",
        params: { row: "2", column: "Credit", value: bad },
      });
    }
    expect(await apply(grid(["05/11/2026", "x", "", "-100"]))).toMatchObject({ code: "statements.bad_amount" });
    expect(await apply(grid(["05/11/2026", "x", "100 CR", ""]))).toMatchObject({ code: "statements.bad_amount" });
    expect(await apply(grid(["05/11/2026", "x", "", "10", "1,2,3"]))).toEqual({
      code: "statements.bad_amount",
      params: { row: "2", column: "Balance", value: "1,2,3" },
    });
    expect(await apply(grid(["05/11/2026", "x", "", "10,000,000,000.01"]))).toEqual({
      code: "statements.amount_too_large",
      params: { row: "2", column: "Credit", value: "10,000,000,000.01" },
    });
    expect(applyMapping(grid(["05/11/2026", "x", "", "10,000,000,000.00"]), sides)[0].amountPaisa).toBe(1_000_000_000_000);
  });

  it("refuses a line with both a credit and a debit, and one with neither", async () => {
    expect(await apply(grid(["05/11/2026", "x", "5", "10"]))).toEqual({
      code: "statements.both_sides",
      params: { row: "2", column: "Credit", value: "10 / 5" },
    });
    expect(await apply(grid(["05/11/2026", "x", "0.00", "-", "100"]))).toEqual({
      code: "statements.no_amount",
      params: { row: "2", column: "Credit", value: "" },
    });
  });

  it("names a column by its letter when there is no header row, and cuts long values", async () => {
    const headerless: StatementGrid = { format: "csv", rows: [["05/11/2026", `${"9".repeat(50)}x`]] };
    expect(await apply(headerless, { headerRow: 0, columns: { date: 0, amount: 1 }, dateOrder: "dmy" })).toEqual({
      code: "statements.bad_amount",
      params: { row: "1", column: "B", value: `${"9".repeat(39)}…` },
    });
  });

  it("reads a signed amount with a Dr/Cr column, and refuses what contradicts or is not a direction", async () => {
    const signed: StatementGrid = {
      format: "csv",
      rows: [
        ["Date", "Amount", "Dr/Cr"],
        ["05/11/2026", "-100", ""],
        ["05/11/2026", "100", "جمع"],
        ["05/11/2026", "100", "نکالے"],
        ["05/11/2026", "100 DR", ""],
        ["05/11/2026", "100", ""],
      ],
    };
    const mapping: StatementMapping = { headerRow: 1, columns: { date: 0, amount: 1, direction: 2 }, dateOrder: "dmy" };
    expect(applyMapping(signed, mapping).map((l) => l.direction)).toEqual(["debit", "credit", "debit", "debit", "credit"]);
    const withRow = (...row: string[]): StatementGrid => ({ format: "csv", rows: [signed.rows[0], row] });
    expect(await apply(withRow("05/11/2026", "-100", "CR"), mapping)).toEqual({
      code: "statements.direction_conflict",
      params: { row: "2", column: "Dr/Cr", value: "-100 CR" },
    });
    expect(await apply(withRow("05/11/2026", "100", "Maybe"), mapping)).toEqual({
      code: "statements.bad_direction",
      params: { row: "2", column: "Dr/Cr", value: "Maybe" },
    });
    expect(await apply(withRow("05/11/2026", "0.00", ""), mapping)).toMatchObject({ code: "statements.no_amount" });
  });

  it("skips empty rows, totals, balances, footers and repeated headers", () => {
    const lines = applyMapping(
      grid(
        ["", "Opening Balance", "", "", "1,000"],
        ["05/11/2026", "TOTAL PARCO fuel", "100", "", "900"],
        [],
        ["", "", "", "", ""],
        header,
        ["06/11/2026", "Gift", "", "50", "950"],
        ["", "Brought Forward", "", "", "950"],
        ["Page 2 of 3"],
        ["", "continued narration", "", ""],
        ["Total", "", "100", "50"],
        ["Closing Balance as on 30/11/2026", "", "", "", "950"],
      ),
      sides,
    );
    expect(lines.map((l) => [l.row, l.description])).toEqual([
      [3, "TOTAL PARCO fuel"],
      [7, "Gift"],
    ]);
  });

  it("does not take data rows for repeated headers when the header row's mapped cells are empty", () => {
    const blankHeader: StatementGrid = {
      format: "csv",
      rows: [
        ["", "", "Statement"],
        ["05/11/2026", "100"],
      ],
    };
    const mapping: StatementMapping = { headerRow: 1, columns: { date: 0, amount: 1 }, dateOrder: "dmy" };
    expect(applyMapping(blankHeader, mapping)).toEqual([line({ row: 2, postedOn: "2026-11-05", amountPaisa: 10_000 })]);
  });

  it("with only a credit column, takes the credit lines and passes over the rest", () => {
    const only: StatementMapping = { headerRow: 1, columns: { date: 0, credit: 3 }, dateOrder: "dmy" };
    expect(applyMapping(grid(["05/11/2026", "x", "100", ""], ["06/11/2026", "y", "", "7"]), only).map((l) => l.row)).toEqual([3]);
  });

  it("checks the mapping itself", async () => {
    const g = grid(["05/11/2026", "x", "", "1"]);
    const m = (changes: Partial<StatementMapping>) => ({ ...sides, ...changes }) as StatementMapping;
    expect(await apply(g, m({ columns: { credit: 3 } }))).toEqual({ code: "statements.mapping_no_date", field: "date" });
    expect(await apply(g, m({ columns: { date: 0, description: 1 } }))).toEqual({ code: "statements.mapping_no_amount", field: "amount" });
    for (const bad of [
      m({ columns: { date: 0, credit: 5 } }),
      m({ columns: { date: 0, credit: -1 } }),
      m({ columns: { date: 0, credit: 1.5 } }),
      m({ columns: { date: 0, credit: 3, colour: 2 } as never }),
      m({ headerRow: 3 }),
      m({ headerRow: -1 }),
      m({ dateOrder: "ydm" as never }),
    ]) {
      expect(await apply(g, bad), JSON.stringify(bad)).toEqual({ code: "statements.mapping_invalid" });
    }
  });

  it("answers no header when none of the first 30 rows names the columns", async () => {
    const nameless: StatementGrid = {
      format: "csv",
      rows: [
        ["05/11/2026", "100"],
        ["Date", "Narration"],
      ],
    };
    expect(guessMapping(nameless)).toBeNull();
    expect(await refusal(() => guessedMapping(nameless))).toEqual({ code: "statements.no_header" });
    const late: StatementGrid = { format: "csv", rows: [...Array.from({ length: 30 }, () => ["x"]), ["Date", "Amount"]] };
    expect(guessMapping(late)).toBeNull();
  });
});

describe("messages", () => {
  it("every statements code has its text in English and Urdu, with the same placeholders", () => {
    const codes = Object.entries(ERROR_MESSAGES).filter(([, key]) => key.startsWith("statements:errors."));
    expect(codes.length).toBeGreaterThanOrEqual(20);
    const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [, key] of codes) {
      const name = key.replace("statements:errors.", "") as keyof typeof enStatements.errors;
      expect(enStatements.errors[name], key).toBeTypeOf("string");
      expect(placeholders(urStatements.errors[name]), key).toEqual(placeholders(enStatements.errors[name]));
    }
    expect(Object.keys(enStatements)).toEqual(["errors"]);
    expect(Object.keys(urStatements.errors).sort()).toEqual(Object.keys(enStatements.errors).sort());
  });
});

// ---------------------------------------------------------------------------------------------------------
// Nothing but refusals

describe("whatever arrives, the only failure is a refusal", () => {
  const onlyRefusals = async (run: () => unknown) => {
    try {
      await run();
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
  };
  const fullPipeline = async (bytes: Uint8Array) => {
    const grid = await readStatementFile({ name: "fuzz", bytes });
    for (const row of grid.rows) {
      expect(row.length).toBeLessThanOrEqual(STATEMENT_MAX_COLUMNS);
      for (const cell of row) {
        expect(cell.length).toBeLessThanOrEqual(STATEMENT_MAX_CELL_CHARS);
        expect(cell).not.toMatch(/[\u0000-\u0008\u000A-\u001F\u007F]/);
      }
    }
    const mapping = guessMapping(grid);
    if (mapping) applyMapping(grid, mapping);
  };

  it("random bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), (bytes) => onlyRefusals(() => fullPipeline(bytes))),
      { numRuns: 300 },
    );
  });

  it("random text, and random CSV-like tables under a real header", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 2000 }), (text) => onlyRefusals(() => fullPipeline(Buffer.from(text)))),
      { numRuns: 300 },
    );
    const token = fc.oneof(
      fc.constantFrom("05/11/2026", "31/02/2026", "1,000.00", "(5)", "-", "CR", "DR", "Total", '"', '""', "\r\n", "03211234567", "۱۲۳"),
      fc.string({ maxLength: 12 }),
    );
    const table = fc.array(fc.array(token, { maxLength: 8 }), { maxLength: 20 });
    await fc.assert(
      fc.asyncProperty(table, fc.constantFrom(",", ";", "\t", "|"), (rows, d) => {
        const text = ["Date,Description,Debit,Credit,Balance,Amount,Dr/Cr", ...rows.map((r) => r.join(d))].join("\n");
        return onlyRefusals(() => fullPipeline(Buffer.from(text)));
      }),
      { numRuns: 300 },
    );
  });

  it("random zips, and zips of workbook parts with random contents", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), (rest) =>
        onlyRefusals(() => fullPipeline(Buffer.concat([Buffer.from("PK\u0003\u0004"), rest]))),
      ),
      { numRuns: 200 },
    );
    const parts = [
      "[Content_Types].xml",
      "_rels/.rels",
      "xl/workbook.xml",
      "xl/_rels/workbook.xml.rels",
      "xl/worksheets/sheet1.xml",
      "xl/sharedStrings.xml",
      "xl/styles.xml",
    ];
    const xmlish = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
      fc
        .string({ maxLength: 300 })
        .map((s) =>
          Buffer.from(
            `<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="s"><v>${s}</v></c></row></sheetData></worksheet>`,
          ),
        ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...parts), xmlish), { maxLength: 7 }), (entries) =>
        onlyRefusals(() => fullPipeline(zip(entries.map(([name, data]) => ({ name, data }))))),
      ),
      { numRuns: 100 },
    );
  });

  it("random mappings over random grids", () => {
    const cell = fc.oneof(fc.constantFrom("", "05/11/2026", "1,000", "-5", "CR", "x", "Total"), fc.string({ maxLength: 8 }));
    const grid = fc.array(fc.array(cell, { maxLength: 6 }), { maxLength: 10 });
    const columns = fc.dictionary(fc.constantFrom(...STATEMENT_FIELDS, "other"), fc.integer({ min: -2, max: 8 }));
    fc.assert(
      fc.property(
        grid,
        columns,
        fc.integer({ min: -1, max: 12 }),
        fc.constantFrom("dmy", "mdy", "ymd", "x"),
        (rows, cols, headerRow, order) => {
          try {
            applyMapping({ format: "csv", rows }, { headerRow, columns: cols, dateOrder: order } as StatementMapping);
          } catch (err) {
            if (!(err instanceof DomainError)) throw err;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("speed", () => {
  it("reads and maps a 50,000-line CSV in seconds", async () => {
    const narrations = ["IBFT FROM ALI RAZA 03211234567", "RAAST P2P, LAHORE", "ATM WDL 0012", "CHQ DEP 000123"];
    const lines = ["Transaction Date,Value Date,Narration,Cheque/Ref No,Debit,Credit,Balance"];
    for (let i = 0; i < 50_000; i++) {
      const day = String((i % 28) + 1).padStart(2, "0");
      const rupees = ((i * 37) % 99_999) + 1;
      const amount = `"${rupees.toLocaleString("en-IN")}.${String(i % 100).padStart(2, "0")}"`;
      const side = i % 3 === 0 ? `${amount},` : `,${amount}`;
      lines.push(`${day}/11/2026,${day}/11/2026,"${narrations[i % 4]} ${i}",FT${i},${side},"1,00,000.00"`);
    }
    const bytes = Buffer.from(lines.join("\r\n"));
    const started = performance.now();
    const grid = await readStatementFile({ name: "big.csv", bytes });
    const mapping = guessMapping(grid)!;
    const result = applyMapping(grid, mapping);
    const ms = performance.now() - started;
    console.log(`50,000 lines (${(bytes.length / 1024 / 1024).toFixed(1)} MB) read and mapped in ${ms.toFixed(0)} ms`);
    expect(result).toHaveLength(50_000);
    expect(result[3]).toMatchObject({ row: 5, postedOn: "2026-11-04", direction: "debit", amountPaisa: 11_203, reference: "FT3" });
    expect(ms).toBeLessThan(10_000);
  });
});
