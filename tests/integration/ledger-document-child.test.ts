import { readdirSync, readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { files } from "#server/db/schema.ts";
import { saveSpendingDocument } from "#server/domain/ledger/document.ts";
import { childEnvironment, REMAKE_PDF_CHILD } from "#server/domain/ledger/remake-pdf.ts";
import { makePdf, makeUser } from "#tests/helpers/factories.ts";
import { failure } from "#tests/helpers/failure.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/**
 * Where a spending PDF is re-made (decision 049): in a child process that exits, never in the server's own. This file
 * imports nothing of pdf.js itself (ledger.test.ts reads PDFs with it), so what the process holds afterwards is what
 * the product loaded.
 */
let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s?.close());

/** The native libraries this process has loaded (Node's diagnostic report lists them, `.node` addons included). */
const loadedLibraries = () => (process.report.getReport() as { sharedObjects: string[] }).sharedObjects;

/**
 * This process's re-making children, alive or not yet reaped (Linux: each thread's `children`, by command line; the
 * others, such as esbuild's service, are not ours to count).
 */
const childPids = () =>
  readdirSync("/proc/self/task")
    .flatMap((tid) => readFileSync(`/proc/self/task/${tid}/children`, "utf8").split(" ").filter(Boolean))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(REMAKE_PDF_CHILD);
      } catch {
        return false; // gone between the two reads
      }
    });

const pdfFile = () => new File([new Uint8Array(makePdf("Invoice 77"))], "invoice.pdf");

describe("re-making a spending PDF", () => {
  it("gives the child none of the server's secrets, only what runs Node", () => {
    const env = childEnvironment({
      PATH: "/usr/bin",
      NODE_ENV: "production",
      MALLOC_ARENA_MAX: "2",
      DATABASE_URL: "postgres://app:secret@db/ekc",
      SESSION_SECRET: "s3cret",
      SMTP_URL: "smtp://user:pass@mail",
      S3_SECRET_ACCESS_KEY: "key",
    });
    expect(env).toEqual({ PATH: "/usr/bin", NODE_ENV: "production", MALLOC_ARENA_MAX: "2" });
  });

  it("happens in a child process that exits: the server never loads pdf.js or the canvas", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const before = childPids();
    const key = await saveSpendingDocument(s, { file: pdfFile(), ownerId: ngo.id, field: "document" });
    expect(key).toMatch(/^spending\/[0-9a-f-]+\.pdf$/);
    const stored = await s.storage.get(key);
    expect(stored?.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(stored?.toString("latin1")).toContain("/Subtype /Image");

    const libraries = loadedLibraries();
    // The report does list native addons (sharp's, loaded by the image pipeline here), so the next line can fail.
    expect(libraries.some((l) => l.endsWith("sharp-linux-x64.node") || /sharp-[a-z0-9-]+\.node$/.test(l))).toBe(true);
    expect(libraries.filter((l) => l.includes("@napi-rs/canvas"))).toEqual([]);
    // pdf.js's legacy build sets this global when it is imported.
    expect("pdfjsLib" in globalThis).toBe(false);
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
  });

  it("is refused with its own message when it takes too long, the child is killed and nothing is stored", async () => {
    const ngo = await makeUser(s.db, "ngo");
    const before = childPids();
    const started = performance.now();
    expect(await failure(saveSpendingDocument(s, { file: pdfFile(), ownerId: ngo.id, field: "document" }, { pdfTimeoutMs: 30 }))).toEqual({
      kind: "invalid",
      message: "ledger:errors.documentTooSlow",
      field: "document",
    });
    // Refused at the limit, not after the child finished on its own (starting it and loading pdf.js take longer).
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
    expect(await s.db.select().from(files).where(eq(files.ownerId, ngo.id))).toEqual([]);
  });
});
