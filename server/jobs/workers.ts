import type { JobQueue } from "#server/jobs/queue.ts";
import type { MailDelivery } from "#server/mail/mailer.ts";
import { runMaintenance } from "#server/maintenance.ts";
import { matchAccount, matchImported } from "#server/domain/statements/matching.ts";
import { sendUpdateMails } from "#server/domain/updates/updates.ts";
import type { Services } from "#server/services.ts";

/** The upkeep round's schedule: at the start of every hour (UTC), besides once at each start. */
export const MAINTENANCE_CRON = "0 * * * *";

/**
 * Makes this server one of the queue's workers: it delivers queued mail (when a mail server is configured: `mail`),
 * gives up on mail whose every try failed, matches imported statements and runs the upkeep round when its turn comes. `stop` cuts a round's picture copies short, then waits for the
 * jobs in hand (before the database closes).
 */
export async function startWorkers(services: Services, queue: JobQueue, mail: MailDelivery | null): Promise<{ stop(): Promise<void> }> {
  const stopping = new AbortController();
  if (mail) {
    await queue.work("mail", (job) => mail.deliver(services.db, job));
    await queue.work("mail-dead", (job) => mail.giveUp(services.db, job.data.outboxId));
  }
  await workStatementMatching(services, queue);
  await workUpdateMails(services, queue);
  await queue.work("maintenance", async () => {
    // Each task's failure is logged inside and the round never throws: a failed task runs again next round.
    await runMaintenance(services, { signal: stopping.signal });
  });
  await queue.schedule("maintenance", MAINTENANCE_CRON);
  await queue.send(services.db, "maintenance", {});
  return {
    async stop() {
      stopping.abort();
      await queue.stop();
    },
  };
}

/**
 * The matching round after a statement import (decision 022), and after a proof that a waiting line may hold, as jobs: one round under the account's lock, its ties
 * and the import's count in one transaction, so a round run twice (a retry after its server died) ties nothing twice.
 * A throw is a failed try, retried with backoff (queue.ts).
 */
export async function workStatementMatching(services: Pick<Services, "db">, queue: JobQueue): Promise<void> {
  await queue.work("statement-match", async (job) => {
    await matchImported(services.db, job.data);
  });
  await queue.work("account-match", async (job) => {
    await matchAccount(services.db, job.data.ngoId, job.data.method);
  });
}

/**
 * The mails of a published campaign update (decision 050), as a job: batches that each write their outbox rows and
 * mark them sent in one transaction, so a retry after a crash writes none twice. A throw is a failed try, retried.
 */
export async function workUpdateMails(services: Pick<Services, "db" | "mailer" | "config">, queue: JobQueue): Promise<void> {
  await queue.work("update-mail", async (job) => {
    await sendUpdateMails(services, job.data.updateId);
  });
}
