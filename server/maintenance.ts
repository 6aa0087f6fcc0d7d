import { lt, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { passwordResets, rateLimits } from "#server/db/schema.ts";
import { deleteExpiredSessions } from "#server/domain/accounts/sessions.ts";
import { makeMissingCopies } from "#server/domain/files/files.ts";
import { foldMarkedMapCells } from "#server/domain/map/map.ts";
import { repairCampaignTitles } from "#server/domain/donations/campaign-titles.ts";
import { backfillPlaceLabels } from "#server/domain/places/saved-labels.ts";
import { sweepFiles, type SweepReport } from "#server/domain/files/sweep.ts";
import { removeStaleUploads } from "#server/domain/statements/import.ts";
import { remindWaitingDonors } from "#server/domain/statements/reminders.ts";
import type { Services } from "./services.ts";

/**
 * A rate-limit counter whose window started longer ago than this is over, whatever its key: every limit's window
 * is at most a day or the configured sign-in window (AUTH_LIMIT_WINDOW_SECONDS). Removing an ended window changes
 * nothing, as its next attempt would start a new one at 1. A limit with a longer window must raise this.
 */
const RATE_LIMIT_KEEP_SECONDS = 24 * 60 * 60;

/** Keys named in the log line, at most; the counts are always complete. */
const LOGGED_KEYS = 20;

export interface MaintenanceReport {
  files: SweepReport | null;
  /** Pictures stored before narrower copies existed that now have them (decision 034). */
  pictureCopies: number | null;
  /** Saved places given their Urdu label beside the English one (decision 038). */
  placeLabels: number | null;
  sessions: number | null;
  passwordResets: number | null;
  rateLimits: number | null;
  statementUploads: number | null;
  reminders: number | null;
  /** Cells of the map marked by changes and recounted now rather than by the next map request (migration 0030). */
  mapCellMarks: number | null;
  /** Donations given their campaign's new title after a rename that raced their insert (migration 0031). */
  campaignTitles: number | null;
}

type MaintenanceServices = Pick<Services, "config" | "db" | "log" | "storage" | "mailer">;

/** Reset links past their expiry, used or not: nothing reads them again. */
export async function deleteExpiredPasswordResets(db: DbOrTx): Promise<number> {
  const removed = await db
    .delete(passwordResets)
    .where(lt(passwordResets.expiresAt, sql`now()`))
    .returning({ tokenHash: passwordResets.tokenHash });
  return removed.length;
}

/** Rate-limit counters whose window has certainly ended (see RATE_LIMIT_KEEP_SECONDS). */
export async function deleteEndedRateLimits(db: DbOrTx, windowSeconds: number): Promise<number> {
  const keep = Math.max(RATE_LIMIT_KEEP_SECONDS, windowSeconds);
  const removed = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, sql`now() - make_interval(secs => ${keep})`))
    .returning({ key: rateLimits.key });
  return removed.length;
}

/**
 * One round of upkeep: the file sweep (orphan rows, orphan bytes, temp files), the copies of pictures stored before
 * copies were made, the Urdu labels of places saved with one, the map's marked cells (so the first map request after a
 * bulk change does not pay their recount), expired sessions, expired reset links and ended rate-limit windows. Each task is independent:
 * one that fails is logged and the others still run, and nothing is thrown. Every task is safe to run on several
 * servers at once (the queue runs a round on one server at a time: server/jobs/workers.ts). `now` is for tests; `signal` cuts the copies short when the server stops.
 */
export async function runMaintenance(
  services: MaintenanceServices,
  opts: { now?: Date; signal?: AbortSignal } = {},
): Promise<MaintenanceReport> {
  const { db, log } = services;
  const attempt = async <T>(task: string, run: () => Promise<T>): Promise<T | null> => {
    try {
      return await run();
    } catch (err) {
      log.error({ err, task }, "maintenance task failed; it runs again next time");
      return null;
    }
  };
  const report: MaintenanceReport = {
    files: await attempt("files", () => sweepFiles(services, { now: opts.now })),
    pictureCopies: await attempt("pictureCopies", () => makeMissingCopies(services, { signal: opts.signal })),
    placeLabels: await attempt("placeLabels", () => backfillPlaceLabels(db)),
    sessions: await attempt("sessions", () => deleteExpiredSessions(db)),
    passwordResets: await attempt("passwordResets", () => deleteExpiredPasswordResets(db)),
    rateLimits: await attempt("rateLimits", () => deleteEndedRateLimits(db, services.config.AUTH_LIMIT_WINDOW_SECONDS)),
    statementUploads: await attempt("statementUploads", () => removeStaleUploads(db)),
    reminders: await attempt("reminders", () => remindWaitingDonors(services)),
    mapCellMarks: await attempt("mapCellMarks", () => foldMarkedMapCells(db)),
    campaignTitles: await attempt("campaignTitles", () => repairCampaignTitles(db)),
  };
  const f = report.files;
  if (f && f.withheld > 0) {
    log.error(
      { withheld: f.withheld },
      "stored files without a database row were left alone: far more than crashes leave, so this server may be using another database than the files were written for; check DATABASE_URL and DATA_DIR",
    );
  }
  const removed = {
    fileRows: f?.rows.length ?? 0,
    orphanBytes: f?.bytes.length ?? 0,
    tempFiles: f?.unfinished.length ?? 0,
    sessions: report.sessions ?? 0,
    passwordResets: report.passwordResets ?? 0,
    rateLimits: report.rateLimits ?? 0,
    statementUploads: report.statementUploads ?? 0,
  };
  if (report.pictureCopies) log.info({ pictures: report.pictureCopies }, "narrower copies made of pictures stored before them");
  if (report.placeLabels) log.info({ places: report.placeLabels }, "saved places given their Urdu label beside the English one");
  if (report.campaignTitles) log.info({ donations: report.campaignTitles }, "donations given their campaign's new title");
  if (report.mapCellMarks) log.info({ marks: report.mapCellMarks }, "map cells marked by changes recounted");
  if (report.reminders) log.info({ reminders: report.reminders }, "donors reminded of gifts not yet in their NGO's statement");
  if (Object.values(removed).some((n) => n > 0)) {
    const keys = f ? [...f.rows, ...f.bytes, ...f.unfinished].slice(0, LOGGED_KEYS) : [];
    log.info({ removed, keys }, "maintenance removed what was left behind");
  } else {
    log.debug("maintenance found nothing to remove");
  }
  return report;
}
