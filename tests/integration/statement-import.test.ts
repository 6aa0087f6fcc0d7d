import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ngoProfiles, statementFormats, statementImports, statementLines, statementUploads } from "#server/db/schema.ts";
import { importUpload, mappingStep, removeStaleUploads, uploadStatement, UPLOADS_KEPT_PER_NGO } from "#server/domain/statements/import.ts";
import { importSummary, matchedLines, matchingUnderway, recentImports } from "#server/domain/statements/reconcile.ts";
import { matchImported } from "#server/domain/statements/matching.ts";
import { submitCashDonation } from "#server/domain/donations/cash.ts";
import { workStatementMatching } from "#server/jobs/workers.ts";
import { until } from "#tests/helpers/queue.ts";
import { asDonor, asNgo } from "#tests/helpers/actors.ts";
import { givePaymentAccounts, makeCampaign, makeCashDonation, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { failure } from "#tests/helpers/failure.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeOlder } from "#tests/helpers/time.ts";

/** A bank export: account details above the table, debit and credit columns, lakh grouping, a closing line. */
function bankCsv(rows: [date: string, narration: string, ref: string, debit: string, credit: string, balance: string][]): string {
  return [
    "Account Statement,,,,,,",
    "Account Title:,ROSHNI WELFARE TRUST,,,,,",
    ",,,,,,",
    "Transaction Date,Value Date,Narration,Cheque/Ref No,Debit,Credit,Balance",
    ...rows.map(([d, n, r, de, cr, b]) => `${d},${d},"${n}",${r},"${de}","${cr}","${b}"`),
    ",,Closing Balance,,,,",
  ].join("\r\n");
}
const csvFile = (text: string, name = "statement.csv") => new File([text], name, { type: "text/csv" });

describe("importing statements", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
    // This server is one of the queue's workers for the matching rounds (on PGlite, in this process).
    await workStatementMatching(s, s.jobs);
  });
  afterAll(async () => s.close());

  async function setUp() {
    const ngo = await makeUser(s.db, "ngo");
    await givePaymentAccounts(s.db, ngo.id);
    return { ngo, actor: asNgo(ngo.id) };
  }
  const linesOf = async (ngoId: string) =>
    (await s.db.select({ n: count() }).from(statementLines).where(eq(statementLines.ngoId, ngoId)))[0]!.n;

  const first = bankCsv([
    ["01/11/2026", "IBFT FROM ALI KHAN", "FT100001", "", "5,000.00", "1,05,000.00"],
    ["02/11/2026", "ATM WITHDRAWAL", "", "2,000.00", "", "1,03,000.00"],
    ["03/11/2026", "RAAST P2P EK-7KQ-4M9", "FT100002", "", "1,500.00", "1,04,500.00"],
  ]);
  const overlapping = bankCsv([
    ["03/11/2026", "RAAST P2P EK-7KQ-4M9", "FT100002", "", "1,500.00", "1,04,500.00"],
    ["04/11/2026", "IBFT FROM SARA", "FT100003", "", "10,000.00", "1,14,500.00"],
  ]);

  it("asks for the columns the first time, then imports the same layout in one step, and never adds a line twice", async () => {
    const { ngo, actor } = await setUp();
    const up = await uploadStatement(s, actor, { method: "bank", file: csvFile(first) });
    expect(up.kind).toBe("needsMapping");
    if (up.kind !== "needsMapping") return;
    const step = await mappingStep(s.db, actor, up.uploadId);
    expect(step.mapping).toMatchObject({
      headerRow: 4,
      dateOrder: "dmy",
      columns: { date: 0, description: 2, reference: 3, debit: 4, credit: 5, balance: 6 },
    });
    const importId = await importUpload(s, actor, up.uploadId, step.mapping!);
    expect(await importSummary(s, actor, importId)).toMatchObject({
      creditLines: 2,
      debitLines: 1,
      newLines: 2,
      firstDay: "2026-11-01",
      lastDay: "2026-11-03",
    });
    expect(await s.db.select().from(statementUploads).where(eq(statementUploads.ngoId, ngo.id))).toHaveLength(0);
    const lines = await s.db.select().from(statementLines).where(eq(statementLines.ngoId, ngo.id));
    expect(lines.map((l) => [l.postedOn, l.amountPaisa, l.reference]).sort()).toEqual([
      ["2026-11-01", 500_000, "FT100001"],
      ["2026-11-03", 150_000, "FT100002"],
    ]);

    // The same file again: one step (the saved columns), nothing new.
    const again = await uploadStatement(s, actor, { method: "bank", file: csvFile(first) });
    expect(again.kind).toBe("imported");
    if (again.kind === "imported") expect(await importSummary(s, actor, again.importId)).toMatchObject({ creditLines: 2, newLines: 0 });
    // An overlapping statement: only its new line.
    const next = await uploadStatement(s, actor, { method: "bank", file: csvFile(overlapping, "nov-2.csv") });
    expect(next.kind).toBe("imported");
    if (next.kind === "imported") expect(await importSummary(s, actor, next.importId)).toMatchObject({ creditLines: 2, newLines: 1 });
    expect(await linesOf(ngo.id)).toBe(3);
  });

  it("adds each line once when the same statement is imported twice at the same moment", async () => {
    const { ngo, actor } = await setUp();
    await s.db.insert(statementFormats).values({ ngoId: ngo.id, method: "bank", headerSignature: "x", mapping: {} });
    const up = await uploadStatement(s, actor, { method: "bank", file: csvFile(first) });
    if (up.kind !== "needsMapping") throw new Error("expected the column step");
    const { mapping } = await mappingStep(s.db, actor, up.uploadId);
    const twice = await Promise.all([
      uploadStatement(s, actor, { method: "bank", file: csvFile(first) }),
      uploadStatement(s, actor, { method: "bank", file: csvFile(first) }),
    ]);
    // Both stopped at the column step (the saved format is another layout); import all three at once.
    await Promise.all([up, ...twice].map((u) => (u.kind === "needsMapping" ? importUpload(s, actor, u.uploadId, mapping!) : null)));
    expect(await linesOf(ngo.id)).toBe(2);
  });

  it("keeps two identical transfers of one day, and still adds nothing when the file comes again", async () => {
    const { ngo, actor } = await setUp();
    const wallet = ["Date,Amount,Description", "05/11/2026,500,Transfer", "05/11/2026,500,Transfer", "05/11/2026,-200,Fee"].join("\n");
    const up = await uploadStatement(s, actor, { method: "jazzcash", file: csvFile(wallet) });
    if (up.kind !== "needsMapping") throw new Error("expected the column step");
    const { mapping } = await mappingStep(s.db, actor, up.uploadId);
    await importUpload(s, actor, up.uploadId, mapping!);
    await uploadStatement(s, actor, { method: "jazzcash", file: csvFile(wallet) });
    expect(await linesOf(ngo.id)).toBe(2);
  });

  it("refuses a bad file naming the row and column, and imports nothing", async () => {
    const { ngo, actor } = await setUp();
    const bad = bankCsv([
      ["01/11/2026", "OK", "FT1", "", "5,000.00", "5,000.00"],
      ["31/02/2026", "NOT A DAY", "FT2", "", "1,000.00", "6,000.00"],
    ]);
    const up = await uploadStatement(s, actor, { method: "bank", file: csvFile(bad) });
    if (up.kind !== "needsMapping") throw new Error("expected the column step");
    const { mapping } = await mappingStep(s.db, actor, up.uploadId);
    const refused = await failure(importUpload(s, actor, up.uploadId, mapping!));
    expect(refused).toMatchObject({ kind: "invalid", params: { row: "6", value: "31/02/2026" } });
    expect(await linesOf(ngo.id)).toBe(0);
    expect(await s.db.select().from(statementImports).where(eq(statementImports.ngoId, ngo.id))).toHaveLength(0);
    // The file stays for another try with other columns.
    expect(await s.db.select().from(statementUploads).where(eq(statementUploads.id, up.uploadId))).toHaveLength(1);
    for (const junk of [new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1, 2, 3]), new Uint8Array(0), new TextEncoder().encode("%PDF-1.4 ...")]) {
      expect(await failure(uploadStatement(s, actor, { method: "bank", file: new File([junk], "x.xls") }))).toMatchObject({
        kind: "invalid",
      });
    }
    expect(await s.db.select().from(statementUploads).where(eq(statementUploads.ngoId, ngo.id))).toHaveLength(1);
  });

  it("takes statements only for the NGO's own accounts, and shows another NGO's file to nobody else", async () => {
    const a = await setUp();
    const b = await setUp();
    await s.db.update(ngoProfiles).set({ easypaisaNumber: null }).where(eq(ngoProfiles.userId, a.ngo.id));
    expect(await failure(uploadStatement(s, a.actor, { method: "easypaisa", file: csvFile(first) }))).toMatchObject({
      kind: "invalid",
      field: "account",
    });
    const up = await uploadStatement(s, a.actor, { method: "bank", file: csvFile(first) });
    if (up.kind !== "needsMapping") throw new Error("expected the column step");
    expect(await failure(mappingStep(s.db, b.actor, up.uploadId))).toMatchObject({ kind: "not_found" });
    expect(
      await failure(importUpload(s, b.actor, up.uploadId, { headerRow: 4, dateOrder: "dmy", columns: { date: 0, credit: 5 } })),
    ).toMatchObject({ kind: "not_found" });
    const donor = await makeUser(s.db, "donor");
    expect(await failure(uploadStatement(s, asDonor(donor.id), { method: "bank", file: csvFile(first) }))).toMatchObject({
      kind: "not_found",
    });
    const importId = await importUpload(s, a.actor, up.uploadId, (await mappingStep(s.db, a.actor, up.uploadId)).mapping!);
    expect(await failure(importSummary(s, b.actor, importId))).toMatchObject({ kind: "not_found" });
    // Another NGO's lines never match its gifts, even with the same transaction ID.
    const campaign = await makeCampaign(s.db, b.ngo.id);
    await makeCashDonation(s, campaign, donor.id, { method: "bank", amount: 5000, transactionId: "FT100001" });
    expect((await matchedLines(s.db, b.actor, 1)).total).toBe(0);
    expect((await matchedLines(s.db, a.actor, 1)).total).toBe(0);
  });

  it("matches a pending gift by its transaction ID when the statement arrives, and a later gift when its proof arrives", async () => {
    const { ngo, actor } = await setUp();
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    const early = await makeCashDonation(s, campaign, donor.id, { method: "bank", amount: 5000, transactionId: "FT100001" });
    const up = await uploadStatement(s, actor, { method: "bank", file: csvFile(first) });
    if (up.kind !== "needsMapping") throw new Error("expected the column step");
    const importId = await importUpload(s, actor, up.uploadId, (await mappingStep(s.db, actor, up.uploadId)).mapping!);
    // The round is a job, queued with the import: the page shows it running until the worker has done it.
    const done = await until(
      () => importSummary(s, actor, importId),
      (r) => r.matching === "done",
    );
    expect(done).toMatchObject({ matchedLines: 1 });
    expect((await matchedLines(s.db, actor, 1)).rows.map((r) => r.donation.id)).toEqual([early.id]);
    // The job run again (a retry after its server died with the round committed) ties nothing twice, counts nothing twice.
    expect(await matchImported(s.db, { importId, ngoId: ngo.id, method: "bank" })).toBe(0);
    expect(await importSummary(s, actor, importId)).toMatchObject({ matchedLines: 1 });
  });

  it("matches a proof that a waiting line holds by a round queued in the gift's transaction, and queues none where no line waits", async () => {
    const { ngo, actor } = await setUp();
    const up = await uploadStatement(s, actor, { method: "bank", file: csvFile(first) });
    if (up.kind !== "needsMapping") throw new Error("expected the column step");
    const importId = await importUpload(s, actor, up.uploadId, (await mappingStep(s.db, actor, up.uploadId)).mapping!);
    await until(
      () => importSummary(s, actor, importId),
      (r) => r.matching === "done",
    );
    const campaign = await makeCampaign(s.db, ngo.id);
    const donor = await makeUser(s.db, "donor");
    const proof = async (to: { slug: string; ngo: string }, transactionId: string, amount: number) =>
      submitCashDonation(s, asDonor(donor.id), {
        campaign: to.slug,
        ngo: to.ngo,
        method: "bank",
        fund: "general",
        idempotencyKey: randomUUID(),
        phone: "03001234567",
        amount,
        screenshot: new File([new Uint8Array(await makeProofPng())], "p.png", { type: "image/png" }),
        transactionId,
      });
    const roundsFor = async (ngoId: string) =>
      Number(
        (
          (await s.db.execute(
            sql`select count(*)::int as n from pgboss.job where name = 'account-match' and singleton_key = ${`${ngoId}:bank`}`,
          )) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0]!.n,
      );
    const gift = await proof({ slug: campaign.slug, ngo: ngo.id }, "FT100001", 5000);
    expect(await roundsFor(ngo.id)).toBeGreaterThanOrEqual(1);
    await until(
      async () => (await matchedLines(s.db, actor, 1)).rows.map((r) => r.donation.id),
      (ids) => ids.includes(gift.id),
    );
    // An NGO without a statement: its proofs cost one look and queue nothing.
    const other = await setUp();
    const elsewhere = await makeCampaign(s.db, other.ngo.id);
    await proof({ slug: elsewhere.slug, ngo: other.ngo.id }, "FT100001", 5000);
    expect(await roundsFor(other.ngo.id)).toBe(0);
  });

  it("shows the matching round running while its job fails and is retried with backoff, then its result", async () => {
    const { ngo, actor } = await setUp();
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    await makeCashDonation(s, campaign, donor.id, { method: "bank", amount: 5000, transactionId: "FT100001" });
    // The database refuses to tie any line of this NGO for now: each try of the round fails and rolls back.
    await s.db.execute(sql`create table if not exists refuse_ties_of (ngo_id uuid primary key)`);
    await s.db.execute(sql`
      create or replace function refuse_ties() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from refuse_ties_of where ngo_id = new.ngo_id) then raise exception 'not now'; end if;
        return new;
      end $$`);
    await s.db.execute(sql`drop trigger if exists refuse_ties on statement_lines`);
    await s.db.execute(sql`create trigger refuse_ties before update on statement_lines for each row execute function refuse_ties()`);
    await s.db.execute(sql`insert into refuse_ties_of values (${ngo.id})`);

    const up = await uploadStatement(s, actor, { method: "bank", file: csvFile(first) });
    if (up.kind !== "needsMapping") throw new Error("expected the column step");
    const importId = await importUpload(s, actor, up.uploadId, (await mappingStep(s.db, actor, up.uploadId)).mapping!);
    // Tried and failed at least once: waiting for its retry, and the pages say matching is still running.
    await until(
      () => s.jobs.states("statement-match", [importId]),
      (states) => states.get(importId) === "retry",
    );
    expect(await importSummary(s, actor, importId)).toMatchObject({ matching: "running", matchedLines: 0 });
    expect(await matchingUnderway(s, actor)).toBe(true);
    expect((await recentImports(s, actor))[0]).toMatchObject({ id: importId, matching: "running" });
    // Ten later imports whose rounds are over push it off the statements page's list, not out of the queue's banner.
    for (let i = 0; i < 10; i++) {
      await s.db.insert(statementImports).values({
        ngoId: ngo.id,
        method: "bank",
        fileName: `later-${i}.csv`,
        creditLines: 0,
        debitLines: 0,
        newLines: 0,
        createdAt: new Date(Date.now() + (i + 1) * 1000),
      });
    }
    expect((await recentImports(s, actor)).map((r) => r.id)).not.toContain(importId);
    expect(await matchingUnderway(s, actor)).toBe(true);
    // Past the queue's 14 days a round is over whatever its job says: the banner stops asking about it.
    await makeOlder(s.db, statementImports, statementImports.createdAt, eq(statementImports.id, importId), 15 * 24 * 3600);
    expect(await matchingUnderway(s, actor)).toBe(false);

    await s.db.execute(sql`delete from refuse_ties_of where ngo_id = ${ngo.id}`);
    const done = await until(
      () => importSummary(s, actor, importId),
      (r) => r.matching === "done",
    );
    expect(done).toMatchObject({ matchedLines: 1 });
    expect(await matchingUnderway(s, actor)).toBe(false);
    expect((await matchedLines(s.db, actor, 1)).total).toBe(1);
  });

  it("removes files left at the column step for more than a day", async () => {
    const { actor } = await setUp();
    const up = await uploadStatement(s, actor, { method: "bank", file: csvFile(first) });
    if (up.kind !== "needsMapping") throw new Error("expected the column step");
    await makeOlder(s.db, statementUploads, statementUploads.createdAt, and(eq(statementUploads.id, up.uploadId))!, 25 * 3600);
    expect(await removeStaleUploads(s.db)).toBeGreaterThanOrEqual(1);
    expect(await failure(mappingStep(s.db, actor, up.uploadId))).toMatchObject({ kind: "not_found" });
  });

  it("keeps at most a few files per NGO waiting at the column step", async () => {
    const { ngo, actor } = await setUp();
    const ids: string[] = [];
    for (let i = 0; i < UPLOADS_KEPT_PER_NGO + 3; i++) {
      const up = await uploadStatement(s, actor, { method: "bank", file: csvFile(first) });
      if (up.kind === "needsMapping") ids.push(up.uploadId);
    }
    const kept = await s.db.select({ id: statementUploads.id }).from(statementUploads).where(eq(statementUploads.ngoId, ngo.id));
    expect(kept).toHaveLength(UPLOADS_KEPT_PER_NGO);
    // The newest stay: the last upload can still be imported.
    expect(kept.map((k) => k.id)).toContain(ids.at(-1));
  });
});
