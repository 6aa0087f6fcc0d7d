import type { Storage } from "./storage.ts";

export interface CopyReport {
  /** Objects written to the target. */
  copied: number;
  /** Objects the target already held at the same size. */
  skipped: number;
  /** Objects that could not be copied, with why; a later run tries them again. */
  failed: { key: string; message: string }[];
}

/** Objects copied at once: a bucket across a network answers each put in tens of milliseconds. */
const CONCURRENCY = 8;

/**
 * Copies every object of `from` into `to` (local files into a bucket, `npm run storage:copy`). An object the target
 * already holds at the same size is skipped, so running it again after an interruption finishes the work, and a
 * run over a finished copy writes nothing. Each put is whole or nothing on either driver, so an interrupted run
 * leaves no half object behind. A failed object is reported and the rest go on.
 */
export async function copyObjects(from: Storage, to: Storage, onProgress?: (looked: number) => void): Promise<CopyReport> {
  const present = new Map<string, number>();
  for await (const object of to.list()) present.set(object.key, object.size);
  const pending: string[] = [];
  const report: CopyReport = { copied: 0, skipped: 0, failed: [] };
  for await (const object of from.list()) {
    if (present.get(object.key) === object.size) report.skipped += 1;
    else pending.push(object.key);
  }
  let looked = report.skipped;
  const worker = async () => {
    for (let key = pending.pop(); key !== undefined; key = pending.pop()) {
      try {
        const body = await from.get(key);
        // Gone since it was listed (a sweep, a deleted picture): nothing to copy.
        if (body) {
          await to.put(key, body);
          report.copied += 1;
        }
      } catch (err) {
        report.failed.push({ key, message: err instanceof Error ? err.message.split("\n")[0]! : String(err) });
      }
      looked += 1;
      if (looked % 1000 === 0) onProgress?.(looked);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return report;
}
