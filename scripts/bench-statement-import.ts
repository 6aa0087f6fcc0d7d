/**
 * What importing a large statement costs (decision 022): a 50,000-line CSV read, mapped, written (every line new),
 * matched, and then imported again (every line already there). Prints the wall time of each step and the process's
 * peak resident memory. On PostgreSQL with TEST_DB=postgres and TEST_DATABASE_URL set, else on PGlite.
 *
 *   npx tsx scripts/bench-statement-import.ts [lines]
 */
import { performance } from "node:perf_hooks";
import { importUpload, mappingStep, uploadStatement } from "#server/domain/statements/import.ts";
import { givePaymentAccounts, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices } from "#tests/helpers/services.ts";

const lines = Number(process.argv[2] ?? 50_000);
const s = await createTestServices();
try {
  const ngo = await makeUser(s.db, "ngo");
  await givePaymentAccounts(s.db, ngo.id);
  const actor = { id: ngo.id, role: "ngo" as const };
  const rows = ["Transaction Date,Narration,Cheque/Ref No,Debit,Credit,Balance"];
  let balance = 0;
  for (let i = 0; i < lines; i++) {
    const day = String((i % 28) + 1).padStart(2, "0");
    const credit = i % 5 !== 0;
    const amount = 100 + (i % 9_000);
    balance += credit ? amount : -amount;
    rows.push(`${day}/11/2026,"IBFT FROM DONOR ${i}",FT${1_000_000 + i},${credit ? "" : amount},${credit ? amount : ""},"${balance}.00"`);
  }
  const file = () => new File([rows.join("\n")], "big.csv", { type: "text/csv" });
  console.log(`file: ${lines} lines, ${(Buffer.byteLength(rows.join("\n")) / 1e6).toFixed(1)} MB, ${process.env.TEST_DB ?? "pglite"}`);

  let t = performance.now();
  const up = await uploadStatement(s, actor, { method: "bank", file: file() });
  if (up.kind !== "needsMapping") throw new Error("expected the column step");
  const { mapping } = await mappingStep(s.db, actor, up.uploadId);
  console.log(`upload and column step: ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  await importUpload(s, actor, up.uploadId, mapping!);
  console.log(`first import (every line new, then matched): ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  const again = await uploadStatement(s, actor, { method: "bank", file: file() });
  console.log(`same file again (${again.kind}, nothing new): ${(performance.now() - t).toFixed(0)} ms`);
  console.log(`peak resident memory: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
} finally {
  await s.close();
}
