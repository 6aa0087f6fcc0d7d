import { and, inArray, lt, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "#server/db/client.ts";
import {
  ngoChecks,
  campaignUpdatePhotos,
  campaigns,
  donationReplies,
  donations,
  donorProfiles,
  files,
  ngoProfiles,
  riderProfiles,
  spendingRecords,
  volunteerApplications,
  volunteerPositions,
} from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import type { FileKind } from "#shared/statuses.ts";
import { pictureVariantOf } from "#shared/pictures.ts";
import { storedKeys } from "./files.ts";

/**
 * How old a file row, stored bytes or a temp file must be before the sweep may remove them. An upload stores its
 * bytes, then its `files` row, then the row that owns it, within one request: seconds, never an hour.
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/** Stored keys looked up in the database at once. */
const KEY_BATCH = 500;

/**
 * Every column that holds a file's key, by the kind of file it holds: a file whose key none of them holds has no
 * owner. The type lists every kind of the `file_kind` enum, so a new kind does not compile until its columns are
 * here; tests/integration/sweep.test.ts also fails when a column of the schema that holds keys is missing.
 */
export const FILE_REFERENCES: { readonly [K in FileKind]: readonly AnyPgColumn[] } = {
  logo: [ngoProfiles.logoKey],
  avatar: [donorProfiles.pictureKey, riderProfiles.pictureKey],
  campaign: [campaigns.pictureKey],
  poster: [volunteerPositions.posterKey],
  proof: [donations.proofKey, donationReplies.previousProofKey],
  resume: [volunteerApplications.resumeKey],
  check: [ngoChecks.documentKey],
  spending: [spendingRecords.documentKey],
  update: [campaignUpdatePhotos.key],
};

const referencingColumns = (): AnyPgColumn[] => [...new Set(Object.values(FILE_REFERENCES).flat())];

export interface SweepReport {
  /** Keys of `files` rows that nothing referenced (their bytes went too). */
  rows: string[];
  /** Keys of stored bytes that had no `files` row. */
  bytes: string[];
  /** What unfinished writes left behind (temp files). */
  unfinished: string[];
  /**
   * Stored bytes without a row that were left alone because there were too many of them to be a crash's leftovers
   * (see `looksLikeAnotherDatabase`): an operator should look.
   */
  withheld: number;
}

/** At most this many orphan objects, or this share of all stored objects, are taken as what crashes left. */
const ORPHANS_TRUSTED = 50;
const ORPHANS_TRUSTED_SHARE = 0.2;

/**
 * Far more stored bytes without a row than crashes leave means the server is looking at another database than
 * the files were written for (a mistyped DATABASE_URL, files restored before the data, a fresh database on old
 * storage). Deleting them then would destroy every proof and resume; they are left for an operator instead.
 */
function looksLikeAnotherDatabase(orphans: number, stored: number): boolean {
  return orphans > ORPHANS_TRUSTED && orphans > stored * ORPHANS_TRUSTED_SHARE;
}

/**
 * Removes what an upload or a delete cut short by a crash or a database outage left behind, once it is older than
 * the grace period: `files` rows that no row references, with their bytes and copies; stored bytes with no `files`
 * row (a picture's narrower copy belongs to its picture's row: it goes when that row is gone); and temp files of
 * writes that never finished.
 *
 * Safe to repeat and to run on several servers at once without a lock: each row is removed by one conditional
 * `DELETE ... WHERE NOT EXISTS ... RETURNING` (of two sweeps, only one gets a given row back), and removing bytes
 * or a temp file that is already gone is not an error. A row goes before its bytes here because a crash between
 * the two leaves bytes without a row, which the next sweep removes by the second rule; the bytes are as old as the
 * row, so the grace period does not hold them back.
 *
 * A key held by any referencing column keeps its file, whatever the kind: a mistake here must keep a file, never
 * remove one that is in use.
 */
export async function sweepFiles(
  services: Pick<Services, "db" | "storage">,
  opts: { now?: Date; graceMs?: number } = {},
): Promise<SweepReport> {
  const { db, storage } = services;
  const cutoff = new Date((opts.now ?? new Date()).getTime() - (opts.graceMs ?? SWEEP_GRACE_MS));

  const unreferenced = referencingColumns().map((column) => sql`not exists (select 1 from ${column.table} where ${column} = ${files.key})`);
  const removedRows = await db
    .delete(files)
    .where(and(lt(files.createdAt, cutoff), ...unreferenced))
    .returning({ key: files.key });
  const rows = removedRows.map((r) => r.key);
  for (const key of rows) for (const stored of storedKeys(key)) await storage.delete(stored);

  const orphans: string[] = [];
  let stored = 0;
  let batch: string[] = [];
  const flush = async () => {
    orphans.push(...(await bytesWithoutRow(db, batch)));
    batch = [];
  };
  for await (const object of storage.list()) {
    stored += 1;
    if (object.modifiedAt >= cutoff) continue;
    batch.push(object.key);
    if (batch.length >= KEY_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  const withhold = looksLikeAnotherDatabase(orphans.length, stored);
  if (!withhold) for (const key of orphans) await storage.delete(key);

  const unfinished = await storage.removeUnfinished(cutoff);
  return { rows, bytes: withhold ? [] : orphans, unfinished, withheld: withhold ? orphans.length : 0 };
}

async function bytesWithoutRow(db: DbOrTx, keys: string[]): Promise<string[]> {
  const rowKey = (key: string) => pictureVariantOf(key)?.original ?? key;
  const rows = await db
    .select({ key: files.key })
    .from(files)
    .where(inArray(files.key, [...new Set(keys.map(rowKey))]));
  const known = new Set(rows.map((r) => r.key));
  return keys.filter((key) => !known.has(rowKey(key)));
}
