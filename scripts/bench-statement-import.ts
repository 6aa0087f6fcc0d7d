/**
 * What importing a large statement costs (decision 022): a 50,000-line CSV read, mapped, written (every line new),
 * matched (the `statement-match` job's round, run here directly), and then imported again (every line already there).
 * Prints the wall time of each step and the process's
 * peak resident memory. On PostgreSQL with TEST_DB=postgres and TEST_DATABASE_URL set, else on PGlite.
 *
 *   npx tsx scripts/bench-statement-import.ts [lines]
 */
import { performance } from "node:perf_hooks";
import { importUpload, mappingStep, uploadStatement } from "#server/domain/statements/import.ts";
import { matchImported } from "#server/domain/statements/matching.ts";
import { givePaymentAccounts, makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices } from "#tests/helpers/services.ts";

const lines = Number(process.argv[2] ?? 50_000);
/** Pending bank gifts waiting for their line: one in ten of the statement's lines, up to the round's limit of gifts. */
const gifts = Math.min(Math.floor(lines / 10), 5_000);
const s = await createTestServices();
try {
  const ngo = await makeUser(s.db, "ngo");
  await givePaymentAccounts(s.db, ngo.id);
  const actor = { id: ngo.id, role: "ngo" as const };
  // The queue opens on first use; the import queues its round inside its transaction, which on PGlite's one
  // connection would wait for the queue's own start-up forever (a server opens it at start, main.ts).
  await s.jobs.depth();
  const campaign = await makeCampaign(s.db, ngo.id);
  const donor = await makeUser(s.db, "donor");
  // Gift i names line 10·i's transfer (its ID and amount), so the round has that many ties to find among the lines.
  for (let g = 0; g < gifts; g++) {
    const i = g * 10 + 1;
    await makeDonation(s.db, campaign, donor.id, { method: "bank", amount: 100 + (i % 9_000), transactionId: `FT${1_000_000 + i}` });
  }
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
  console.log(
    `${gifts} pending gifts; file: ${lines} lines, ${(Buffer.byteLength(rows.join("\n")) / 1e6).toFixed(1)} MB, ${process.env.TEST_DB ?? "pglite"}`,
  );

  let t = performance.now();
  const up = await uploadStatement(s, actor, { method: "bank", file: file() });
  if (up.kind !== "needsMapping") throw new Error("expected the column step");
  const { mapping } = await mappingStep(s.db, actor, up.uploadId);
  console.log(`upload and column step: ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  const importId = await importUpload(s, actor, up.uploadId, mapping!);
  console.log(`first import (every line new; its matching round queued): ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  // The round the worker runs after the import (decision 042); nothing else works the queue in this script.
  const tied = await matchImported(s.db, { importId, ngoId: ngo.id, method: "bank" });
  console.log(`matching round (${tied} tied): ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  const again = await uploadStatement(s, actor, { method: "bank", file: file() });
  console.log(`same file again (${again.kind}, nothing new): ${(performance.now() - t).toFixed(0)} ms`);
  console.log(`peak resident memory: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
} finally {
  await s.close();
}
