import { openQueue, type JobQueue, type QueueOptions } from "#server/jobs/queue.ts";
import type { TestServices } from "./services.ts";

/** Short waits, so a test sees retries, expiries and the dead letter in seconds. */
export const TEST_QUEUE: QueueOptions = {
  mailAttempts: 3,
  mailRetrySeconds: 1,
  mailExpireSeconds: 2,
  matchRetrySeconds: 1,
  pollSeconds: 0.5,
  superviseSeconds: 1,
};

export function openTestQueue(s: Pick<TestServices, "executeSql" | "log">, opts: Partial<QueueOptions> = {}): Promise<JobQueue> {
  return openQueue(s, s.log, { ...TEST_QUEUE, ...opts });
}

/** Reads until `done` holds of the value (every 100 ms, at most `timeoutMs`), and returns it. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`still not done after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
