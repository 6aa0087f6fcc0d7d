import type { JobQueue } from "#server/jobs/queue.ts";
import type { MailDelivery } from "#server/mail/mailer.ts";
import { runMaintenance } from "#server/maintenance.ts";
import type { Services } from "#server/services.ts";

/** The upkeep round's schedule: at the start of every hour (UTC), besides once at each start. */
export const MAINTENANCE_CRON = "0 * * * *";

/**
 * Makes this server one of the queue's workers: it delivers queued mail (when a mail server is configured: `mail`),
 * gives up on mail whose every try failed and runs the upkeep round when its turn comes. `stop` cuts a round's picture copies short, then waits for the
 * jobs in hand (before the database closes).
 */
export async function startWorkers(services: Services, queue: JobQueue, mail: MailDelivery | null): Promise<{ stop(): Promise<void> }> {
  const stopping = new AbortController();
  if (mail) {
    await queue.work("mail", (job) => mail.deliver(services.db, job));
    await queue.work("mail-dead", (job) => mail.giveUp(services.db, job.data.outboxId));
  }
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
