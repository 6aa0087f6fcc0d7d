import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { changedTables, databaseFingerprint, signIn, withWholeApp, type TestApp } from "#tests/helpers/app.ts";
import { givePaymentAccounts, makeUser } from "#tests/helpers/factories.ts";
import type { TestServices } from "#tests/helpers/services.ts";
import { zip } from "#tests/helpers/zip.ts";

/**
 * Hostile statement files through the real upload route (/statements): each gets a clear message, nothing is
 * kept or imported, and the server never answers 5xx. The reader's own cases are in statement-read.test.ts.
 */
let s: TestServices;
let t: TestApp;
let cookie: string;

withWholeApp(async (app) => {
  ({ s, t } = app);
  const ngo = await makeUser(s.db, "ngo");
  await givePaymentAccounts(s.db, ngo.id);
  cookie = await signIn(s.db, ngo.id);
});

const bigCsv = (lines: number) =>
  ["Date,Amount,Description", ...Array.from({ length: lines }, (_, i) => `0${(i % 9) + 1}/11/2026,${(i % 500) + 1},x`)].join("\n");

const HOSTILE: [string, Uint8Array<ArrayBuffer> | string, RegExp][] = [
  ["a broken quote", 'Date,Amount,Description\n01/11/2026,500,"never closed\n02/11/2026,600,x', /quote/i],
  ["a legacy .xls", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]), /CSV or XLSX/],
  ["a PDF", "%PDF-1.7\n1 0 obj <<>> endobj", /CSV or XLSX/],
  ["random bytes", new Uint8Array(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), /./],
  ["an empty file", "   \n\n", /./],
  [
    "a zip bomb as XLSX",
    new Uint8Array(
      zip([
        {
          name: "xl/worksheets/sheet1.xml",
          deflated: deflateRawSync(Buffer.alloc(80 * 1024 * 1024), { level: 9 }),
          size: 80 * 1024 * 1024,
        },
      ]),
    ),
    /./,
  ],
  ["too many rows", bigCsv(100_001), /100,000|100000/],
];

describe("the statement upload refuses hostile files with a message and keeps nothing", () => {
  for (const [name, content, message] of HOSTILE) {
    it(name, async () => {
      const before = await databaseFingerprint(s.db, { exclude: ["sessions", "rate_limits"] });
      const form = new FormData();
      form.set("account", "bank");
      form.set("file", new File([content], "statement.csv", { type: "text/csv" }));
      const res = await t.request("/statements.data", { method: "POST", body: form, cookie });
      expect(res.status, name).toBeLessThan(500);
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      // The page's answer carries the refusal's text key; the screen fills in the row and column from its params.
      const body = await res.text();
      expect(body).toMatch(/statements:errors\.\w+/);
      const html = await (await t.request("/statements", { method: "POST", body: form, cookie, headers: { accept: "text/html" } })).text();
      expect(html).toMatch(message);
      expect(changedTables(before, await databaseFingerprint(s.db, { exclude: ["sessions", "rate_limits"] }))).toEqual([]);
    });
  }

  it("a formula in a cell stays text and is never evaluated", async () => {
    const form = new FormData();
    form.set("account", "bank");
    form.set("file", new File(['Date,Amount,Description\n01/11/2026,500,"=HYPERLINK(""http://x"",""y"")"'], "f.csv", { type: "text/csv" }));
    const res = await t.request("/statements", { method: "POST", body: form, cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/statements\/columns\?upload=/);
    const page = await (await t.request(res.headers.get("location")!, { cookie })).text();
    expect(page).toContain("=HYPERLINK(&quot;http://x&quot;,&quot;y&quot;)");
  });
});

describe("the reconciliation queue answers bad input with a message and changes nothing", () => {
  const post = (fields: Record<string, string>, as = cookie) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return t.request("/reconcile", { method: "POST", body: form, cookie: as, headers: { accept: "text/html" } });
  };

  it("refuses an empty confirmation, a set-aside without a reason and a line that is not the NGO's, each with its words", async () => {
    const before = await databaseFingerprint(s.db, { exclude: ["sessions", "rate_limits"] });
    const cases: [Record<string, string>, number, string][] = [
      [{ intent: "confirm" }, 400, "Please tick at least one match."],
      [{ intent: "ignore", line: crypto.randomUUID() }, 400, "Please say why this line is set aside."],
      [{ intent: "match", line: crypto.randomUUID(), donation: crypto.randomUUID() }, 404, "We could not find that page."],
      [{ intent: "restore", line: "not-an-id" }, 400, "We could not find that page."],
      [{ intent: "steal" }, 400, ""],
    ];
    for (const [fields, status, words] of cases) {
      const res = await post(fields);
      expect(res.status, JSON.stringify(fields)).toBe(status);
      if (words) expect(await res.text(), JSON.stringify(fields)).toContain(words);
    }
    expect(changedTables(before, await databaseFingerprint(s.db, { exclude: ["sessions", "rate_limits"] }))).toEqual([]);
  });

  it("is the NGO's only: a donor is sent away before the action runs, and the administrator's switch takes only on or off", async () => {
    const donor = await signIn(s.db, (await makeUser(s.db, "donor")).id);
    const res = await post({ intent: "confirm", line: crypto.randomUUID() }, donor);
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(400);
    const admin = await signIn(s.db, (await makeUser(s.db, "admin")).id);
    const form = new FormData();
    form.set("raastQr", "maybe");
    const refused = await t.request("/admin/settings", { method: "POST", body: form, cookie: admin });
    expect(refused.status).toBe(400);
    // An NGO posting to the administrator's switch is sent home, and the switch stays as it was.
    const ngoTry = await t.request("/admin/settings", { method: "POST", body: form, cookie });
    expect(ngoTry.headers.get("location")).toBe("/ngo_home?notice=wrongRole");
  });
});
