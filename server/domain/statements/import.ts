import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { PaymentMethod } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { statementFormats, statementImports, statementLines, statementUploads } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { ngoPaymentMethods } from "#server/domain/donations/cash.ts";
import { invalid, notFound } from "#server/domain/errors.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { applyMapping, guessMapping, headerSignature, type StatementLine, type StatementMapping } from "./columns.ts";
import { lockAccount } from "./matching.ts";
import { uploadScope } from "./policy.ts";
import { readStatementFile, type StatementGrid } from "./read.ts";

/** Lines written per INSERT, as one JSON parameter (a parameter per value costs more than the insert itself). */
const INSERT_BATCH = 5_000;
/** The most files one NGO may have waiting at the column step (10 MB each at most). */
export const UPLOADS_KEPT_PER_NGO = 5;
/** A file waiting for its columns is kept this long (the hourly upkeep removes older ones). */
export const UPLOAD_KEEP_HOURS = 24;

export type ImportOutcome = { kind: "imported"; importId: string } | { kind: "needsMapping"; uploadId: string };

/** The NGO's own accounts, as methods; a statement can be imported only for one of them. */
export const statementAccounts = ngoPaymentMethods;

async function requireAccount(db: DbOrTx, actor: Actor, method: PaymentMethod): Promise<string> {
  const ngoId = idAs(actor, "ngo");
  if (!(await statementAccounts(db, actor)).includes(method)) throw invalid("statements.no_such_account", "account");
  return ngoId;
}

/**
 * An uploaded statement file. When the NGO imported this account's statements before and the file has the same
 * layout (the same header row), it is imported at once with the saved columns; otherwise it is kept for the
 * column step. A file that cannot be read is refused with what is wrong, and nothing is kept.
 */
export async function uploadStatement(
  services: Pick<Services, "db" | "jobs">,
  actor: Actor,
  input: { method: PaymentMethod; file: File },
): Promise<ImportOutcome> {
  const { db } = services;
  const ngoId = await requireAccount(db, actor, input.method);
  const bytes = new Uint8Array(await input.file.arrayBuffer());
  const fileName = cleanFileName(input.file.name);
  const grid = await readStatementFile({ name: fileName, bytes });
  const saved = await savedFormat(db, ngoId, input.method);
  if (saved && headerSignature(grid, saved.mapping.headerRow) === saved.headerSignature) {
    const lines = applyMapping(grid, saved.mapping);
    return {
      kind: "imported",
      importId: await importLines(services, actor, { method: input.method, fileName, grid, lines, mapping: saved.mapping }),
    };
  }
  const [row] = await db
    .insert(statementUploads)
    .values({ ngoId, method: input.method, fileName, content: bytes })
    .returning({ id: statementUploads.id });
  // Files waiting at the column step are bounded per NGO: the oldest beyond the newest few are dropped.
  await db.execute(sql`
    delete from ${statementUploads} where ngo_id = ${ngoId} and id not in (
      select id from ${statementUploads} where ngo_id = ${ngoId} order by created_at desc, id desc limit ${UPLOADS_KEPT_PER_NGO}
    )`);
  return { kind: "needsMapping", uploadId: row!.id };
}

function cleanFileName(name: string): string {
  // Kept only to name the import in the NGO's list: no path, no control characters, short.
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 120);
  return clean || "statement";
}

async function savedFormat(db: DbOrTx, ngoId: string, method: PaymentMethod) {
  const [row] = await db
    .select()
    .from(statementFormats)
    .where(and(eq(statementFormats.ngoId, ngoId), eq(statementFormats.method, method)))
    .limit(1);
  return row ? { headerSignature: row.headerSignature, mapping: row.mapping as unknown as StatementMapping } : null;
}

export interface MappingStep {
  uploadId: string;
  method: PaymentMethod;
  fileName: string;
  /** The first rows of the file, as read, for the NGO to see which column is which. */
  preview: string[][];
  columnCount: number;
  /** The columns saved for this account, else a guess from the header names, else nothing chosen. */
  mapping: StatementMapping | null;
}

const PREVIEW_ROWS = 12;

/** The column step of a kept file of this NGO; not found for anyone else's. */
export async function mappingStep(db: DbOrTx, actor: Actor, uploadId: string): Promise<MappingStep> {
  const upload = await ownUpload(db, actor, uploadId);
  const grid = await readStatementFile({ name: upload.fileName, bytes: upload.content });
  const saved = await savedFormat(db, upload.ngoId, upload.method);
  const mapping = guessMapping(grid) ?? saved?.mapping ?? null;
  const start = Math.max(0, (mapping?.headerRow ?? 1) - 1);
  return {
    uploadId: upload.id,
    method: upload.method,
    fileName: upload.fileName,
    preview: grid.rows.slice(start, start + PREVIEW_ROWS),
    columnCount: Math.max(0, ...grid.rows.slice(0, 50).map((r) => r.length)),
    mapping,
  };
}

async function ownUpload(db: DbOrTx, actor: Actor, uploadId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(uploadId)) throw notFound();
  const [upload] = await db
    .select()
    .from(statementUploads)
    .where(and(eq(statementUploads.id, uploadId), uploadScope(actor)))
    .limit(1);
  if (!upload) throw notFound();
  return upload;
}

/**
 * Imports a kept file with the columns the NGO chose: a refused row names its row and column and imports nothing
 * (the file stays for another try); an accepted one saves the columns for this account's next statement.
 */
export async function importUpload(
  services: Pick<Services, "db" | "jobs">,
  actor: Actor,
  uploadId: string,
  mapping: StatementMapping,
): Promise<string> {
  const { db } = services;
  const upload = await ownUpload(db, actor, uploadId);
  const grid = await readStatementFile({ name: upload.fileName, bytes: upload.content });
  const lines = applyMapping(grid, mapping);
  return importLines(services, actor, { method: upload.method, fileName: upload.fileName, grid, lines, mapping, uploadId: upload.id });
}

/** A line's identity: the same transfer in two exports (or an overlapping one) has the same fingerprint. */
export function lineFingerprint(l: StatementLine): string {
  const parts = [
    l.postedOn,
    l.postedAt ?? "",
    l.amountPaisa,
    l.reference,
    l.description.replace(/\s+/g, " ").toUpperCase(),
    l.sender,
    l.balancePaisa ?? "",
  ];
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/**
 * Writes a statement's credit lines in one transaction: every line new to this account is added, a line already
 * there (the same statement again, or an overlap) is skipped by its fingerprint and occurrence, and a failure adds
 * nothing. Identical lines within one file (two equal transfers on a day, without a balance or reference to tell
 * them apart) are told apart by their occurrence, so both are kept, and both are recognised next time.
 */
async function importLines(
  services: Pick<Services, "db" | "jobs">,
  actor: Actor,
  input: {
    method: PaymentMethod;
    fileName: string;
    grid: StatementGrid;
    lines: StatementLine[];
    mapping: StatementMapping;
    uploadId?: string;
  },
): Promise<string> {
  const { db } = services;
  const ngoId = await requireAccount(db, actor, input.method);
  const credits = input.lines.filter((l) => l.direction === "credit");
  const seen = new Map<string, number>();
  const rows = credits.map((l) => {
    const fingerprint = lineFingerprint(l);
    const occurrence = (seen.get(fingerprint) ?? 0) + 1;
    seen.set(fingerprint, occurrence);
    return {
      ngoId,
      method: input.method,
      fingerprint,
      occurrence,
      fileRow: l.row,
      postedOn: l.postedOn,
      postedAt: l.postedAt,
      amountPaisa: l.amountPaisa,
      description: l.description,
      sender: l.sender,
      senderPhone: l.senderPhone,
      reference: l.reference,
      balancePaisa: l.balancePaisa,
    };
  });
  const days = input.lines.map((l) => l.postedOn).sort();
  const importId = await db.transaction(async (tx) => {
    await lockAccount(tx, ngoId, input.method);
    const [imp] = await tx
      .insert(statementImports)
      .values({
        ngoId,
        method: input.method,
        fileName: input.fileName,
        importedBy: actor.id,
        creditLines: credits.length,
        debitLines: input.lines.length - credits.length,
        newLines: 0,
        firstDay: days[0] ?? null,
        lastDay: days.at(-1) ?? null,
      })
      .returning({ id: statementImports.id });
    let added = 0;
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      added += await insertLines(tx, imp!.id, rows.slice(i, i + INSERT_BATCH));
    }
    await tx.update(statementImports).set({ newLines: added }).where(eq(statementImports.id, imp!.id));
    await tx
      .insert(statementFormats)
      .values({
        ngoId,
        method: input.method,
        headerSignature: headerSignature(input.grid, input.mapping.headerRow),
        mapping: { ...input.mapping },
      })
      .onConflictDoUpdate({
        target: [statementFormats.ngoId, statementFormats.method],
        set: { headerSignature: sql`excluded.header_signature`, mapping: sql`excluded.mapping`, updatedAt: sql`now()` },
      });
    if (input.uploadId) await tx.delete(statementUploads).where(eq(statementUploads.id, input.uploadId));
    // The matching round is a job of the queue, queued with the lines (decision 042): the worker runs it after the
    // commit, retried with backoff; the import's page shows it running until it is done. Named by the import's id.
    await services.jobs.send(tx, "statement-match", { importId: imp!.id, ngoId, method: input.method }, { id: imp!.id });
    await recordAudit(tx, {
      actorId: actor.id,
      action: "statement.imported",
      targetUserId: ngoId,
      details: {
        importId: imp!.id,
        method: input.method,
        creditLines: credits.length,
        newLines: added,
        firstDay: days[0] ?? null,
        lastDay: days.at(-1) ?? null,
      },
    });
    return imp!.id;
  });
  return importId;
}

type LineRow = Omit<typeof statementLines.$inferInsert, "importId">;

/** Inserts a batch of lines, skipping any the account has already (same fingerprint and occurrence); returns how many were new. */
async function insertLines(tx: DbOrTx, importId: string, batch: LineRow[]): Promise<number> {
  const json = JSON.stringify(
    batch.map((r) => ({
      ngo_id: r.ngoId,
      method: r.method,
      fingerprint: r.fingerprint,
      occurrence: r.occurrence,
      file_row: r.fileRow,
      posted_on: r.postedOn,
      posted_at: r.postedAt,
      amount_paisa: r.amountPaisa,
      description: r.description,
      sender: r.sender,
      sender_phone: r.senderPhone,
      reference: r.reference,
      balance_paisa: r.balancePaisa,
    })),
  );
  const result = await tx.execute(sql`
    insert into ${statementLines} (ngo_id, method, import_id, fingerprint, occurrence, file_row, posted_on, posted_at,
      amount_paisa, description, sender, sender_phone, reference, balance_paisa)
    select x.ngo_id, x.method, ${importId}::uuid, x.fingerprint, x.occurrence, x.file_row, x.posted_on, x.posted_at,
      x.amount_paisa, x.description, x.sender, x.sender_phone, x.reference, x.balance_paisa
    from jsonb_to_recordset(${json}::jsonb) as x(ngo_id uuid, method payment_method, fingerprint text, occurrence int,
      file_row int, posted_on text, posted_at text, amount_paisa bigint, description text, sender text, sender_phone text,
      reference text, balance_paisa bigint)
    on conflict do nothing
    returning 1`);
  return (result as unknown as { rows: unknown[] }).rows.length;
}

/** Files left at the column step for more than a day (the hourly upkeep). */
export async function removeStaleUploads(db: DbOrTx): Promise<number> {
  const gone = await db
    .delete(statementUploads)
    .where(lt(statementUploads.createdAt, sql`now() - make_interval(hours => ${UPLOAD_KEEP_HOURS})`))
    .returning({ id: statementUploads.id });
  return gone.length;
}
