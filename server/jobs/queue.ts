import PgBoss from "pg-boss";
import { sql, type SQL } from "drizzle-orm";
import type { Database, DbOrTx, ExecuteSql } from "#server/db/client.ts";
import type { Logger } from "#server/log.ts";
import type { PaymentMethod } from "#shared/constants.ts";

/**
 * The work done outside requests, on pg-boss over the app's own database: PostgreSQL, or the embedded PGlite (the
 * same SQL, the same interface; decision 042). A job is queued in the caller's transaction, so it exists exactly
 * when the change that causes it commits.
 *
 * mail: hand one outbox row to the mail server (`{ outboxId }`), retried with backoff, then dead-lettered to
 * mail-dead, whose job marks the row failed. maintenance: one round of upkeep (server/maintenance.ts), hourly on
 * every server's schedule and once at each start, run by one server at a time. statement-match: the matching round
 * after a statement import (server/domain/statements/matching.ts), queued in the import's transaction with the
 * import's id as the job's, retried with backoff. account-match: the same round for one account when a gift's proof
 * arrives (or is corrected) while a statement line waits on it, queued in the gift's transaction; at most one waiting
 * and one running per account (a "stately" queue keyed by the account), so a burst of proofs makes one round. update-mail: the mails of a published campaign update to its donors
 * (server/domain/updates/updates.ts), queued in the publishing transaction with the update's id as the job's, written
 * in batches, retried with backoff (decision 050).
 */
export const JOBS = ["mail", "mail-dead", "maintenance", "statement-match", "account-match", "update-mail"] as const;
export type JobName = (typeof JOBS)[number];

export interface JobData {
  mail: { outboxId: string };
  "mail-dead": { outboxId: string };
  maintenance: Record<string, never>;
  "statement-match": { importId: string; ngoId: string; method: PaymentMethod };
  "account-match": { ngoId: string; method: PaymentMethod };
  "update-mail": { updateId: string };
}

/** Where a job stands (pg-boss's states); a job no longer kept (a week after it finished) is `null`. */
export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

/** One try of a job: the data, and which try of how many it is (1-based; a last try that fails is given up). */
export interface JobTry<N extends JobName> {
  data: JobData[N];
  attempt: number;
  last: boolean;
}

/**
 * The states of a job the metrics count (pg-boss's own): waiting for its first try, waiting for a retry, being tried,
 * and failed after its last try (kept in the job table until pg-boss archives it, 12 hours after it finished). A
 * queue with a dead letter (mail → mail-dead) hands such jobs on: that queue's jobs are its dead letters.
 */
export const COUNTED_STATES = ["created", "retry", "active", "failed"] as const;
export type CountedState = (typeof COUNTED_STATES)[number];
export interface QueueCount {
  queue: JobName;
  state: CountedState;
  jobs: number;
}

export interface QueueOptions {
  /** Tries of a mail before it is given up (the first and its retries). */
  mailAttempts: number;
  /** Seconds before the first retry; each later one waits about twice as long (with jitter). */
  mailRetrySeconds: number;
  /**
   * A try not finished in this time counts as failed (its server died) and is tried again. Longer than the mail
   * transport's own time limits, so a slow send is never tried twice at once.
   */
  mailExpireSeconds?: number;
  /** Seconds before a failed matching round is tried again (doubling, with jitter); MATCH_RETRY_SECONDS by default. */
  matchRetrySeconds?: number;
  /** How often a worker looks for work, and how often expired tries are found (one server does it each time). */
  pollSeconds?: number;
  superviseSeconds?: number;
}

export interface JobQueue {
  /**
   * Queues a job on `db`: pass the transaction of the change that causes it. `id` (a UUID) names the job, so its
   * state can be read back (`states`), and a second job of that name and id is not queued. `key`, on a "stately"
   * queue (account-match), allows one job of that key waiting and one running: a second send while one waits is dropped.
   */
  send<N extends JobName>(db: DbOrTx, name: N, data: JobData[N], opts?: { id?: string; key?: string }): Promise<void>;
  /** Where the jobs of `name` with these ids stand, including finished ones still kept (a week); others are left out. */
  states(name: JobName, ids: string[]): Promise<Map<string, JobState>>;
  /** Runs `handle` for each job of `name`, one at a time on this server; a throw is a failed try. */
  work<N extends JobName>(name: N, handle: (job: JobTry<N>) => Promise<void>): Promise<void>;
  /** Also queues `name` at each minute `cron` names (UTC); several servers make one job of each. */
  schedule(name: JobName, cron: string): Promise<void>;
  /** Jobs waiting to run (queued or due for a retry), per queue. */
  depth(): Promise<Record<JobName, number>>;
  /** Every queue's jobs in each counted state (zeros included), in one read: for the metrics. */
  counts(): Promise<QueueCount[]>;
  /** Stops taking work and waits for the jobs in hand (at most `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
}

const SCHEMA = "pgboss";
const MAIL_EXPIRE_SECONDS = 5 * 60;
/** A matching round's tries: the first and four more, 10 s, ~20 s, ~40 s, ~80 s apart. */
export const MATCH_ATTEMPTS = 5;
export const MATCH_RETRY_SECONDS = 10;
/** A round is bounded (decision 022: seconds on 40,000 lines); one not done in this time died with its server. */
const MATCH_EXPIRE_SECONDS = 10 * 60;
/** An update's mails: batches that each commit, so a retry (after the same waits as matching) goes on where it stopped. */
export const UPDATE_MAIL_ATTEMPTS = 5;

/** A statement with $1, $2 … as Drizzle SQL, so pg-boss's own statements run on any handle: a transaction too. */
function positional(text: string, values: unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`)));
}

function executorOf(db: DbOrTx): { executeSql: ExecuteSql } {
  return {
    executeSql: async (text, values) => {
      const result = (await db.execute(positional(text, values))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

/** Opens the queue on the database (creating pg-boss's tables the first time) and its queues. */
export async function openQueue(database: Pick<Database, "executeSql">, log: Logger, opts: QueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: database.executeSql },
    schema: SCHEMA,
    ...(opts.superviseSeconds ? { maintenanceIntervalSeconds: opts.superviseSeconds } : {}),
  });
  boss.on("error", (err) => log.error({ err }, "job queue error"));
  await boss.start();
  await boss.createQueue("mail-dead");
  await boss.createQueue("mail", {
    name: "mail",
    retryLimit: opts.mailAttempts - 1,
    retryDelay: opts.mailRetrySeconds,
    retryBackoff: true,
    expireInSeconds: opts.mailExpireSeconds ?? MAIL_EXPIRE_SECONDS,
    deadLetter: "mail-dead",
  });
  await boss.createQueue("statement-match", {
    name: "statement-match",
    retryLimit: MATCH_ATTEMPTS - 1,
    retryDelay: opts.matchRetrySeconds ?? MATCH_RETRY_SECONDS,
    retryBackoff: true,
    expireInSeconds: MATCH_EXPIRE_SECONDS,
  });
  await boss.createQueue("account-match", {
    name: "account-match",
    policy: "stately",
    retryLimit: MATCH_ATTEMPTS - 1,
    retryDelay: opts.matchRetrySeconds ?? MATCH_RETRY_SECONDS,
    retryBackoff: true,
    expireInSeconds: MATCH_EXPIRE_SECONDS,
  });
  await boss.createQueue("update-mail", {
    name: "update-mail",
    retryLimit: UPDATE_MAIL_ATTEMPTS - 1,
    retryDelay: opts.matchRetrySeconds ?? MATCH_RETRY_SECONDS,
    retryBackoff: true,
    expireInSeconds: MATCH_EXPIRE_SECONDS,
  });
  // "stately": at most one round waiting and one running, so servers starting together queue one round.
  await boss.createQueue("maintenance", { name: "maintenance", policy: "stately", expireInSeconds: 60 * 60 });
  const polling = opts.pollSeconds ? { pollingIntervalSeconds: opts.pollSeconds } : {};

  return {
    async send(db, name, data, sendOpts = {}) {
      await boss.send(name, data, {
        db: executorOf(db),
        ...(sendOpts.id ? { id: sendOpts.id } : {}),
        ...(sendOpts.key ? { singletonKey: sendOpts.key } : {}),
      });
    },
    async states(name, ids) {
      if (ids.length === 0) return new Map();
      const { rows } = (await database.executeSql(
        `select id::text as id, state::text as state from ${SCHEMA}.job where name = $1 and id = any($2::uuid[])
         union all select id::text, state::text from ${SCHEMA}.archive where name = $1 and id = any($2::uuid[])`,
        [name, ids],
      )) as { rows: { id: string; state: JobState }[] };
      return new Map(rows.map((r) => [r.id, r.state]));
    },
    async work(name, handle) {
      await boss.work<JobData[typeof name]>(name, { ...polling, batchSize: 1, includeMetadata: true }, async (jobs) => {
        for (const job of jobs) {
          await handle({ data: job.data, attempt: job.retryCount + 1, last: job.retryCount >= job.retryLimit });
        }
      });
    },
    async schedule(name, cron) {
      await boss.schedule(name, cron, {});
    },
    async depth() {
      const sizes = await Promise.all(JOBS.map((name) => boss.getQueueSize(name)));
      return Object.fromEntries(JOBS.map((name, i) => [name, sizes[i]!])) as Record<JobName, number>;
    },
    async counts() {
      // The states as literals (constants): PGlite sends no array of an enum it does not know as a parameter.
      const states = COUNTED_STATES.map((state) => `'${state}'`).join(", ");
      const { rows } = (await database.executeSql(
        `select name, state::text as state, count(*)::int as n from ${SCHEMA}.job where state in (${states}) group by name, state`,
      )) as { rows: { name: string; state: CountedState; n: number }[] };
      const found = new Map(rows.map((r) => [`${r.name} ${r.state}`, Number(r.n)]));
      return JOBS.flatMap((queue) => COUNTED_STATES.map((state) => ({ queue, state, jobs: found.get(`${queue} ${state}`) ?? 0 })));
    },
    async stop(timeoutMs = 30_000) {
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
    },
  };
}
