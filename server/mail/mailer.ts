import nodemailer from "nodemailer";
import { and, eq, notInArray } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { mailOutbox } from "#server/db/schema.ts";
import type { JobQueue, JobTry } from "#server/jobs/queue.ts";
import type { Logger } from "#server/log.ts";
import { MAIL_BODY_WITHHELD, MAIL_ERROR_NO_SERVER } from "#shared/constants.ts";
import type { MailStatus } from "#shared/statuses.ts";

export interface Mail {
  to: string;
  subject: string;
  body: string;
  /** Holds a secret link: the outbox keeps only that it was sent (or not), never the body. */
  sensitive?: boolean;
}

export interface Mailer {
  /**
   * Records the mail in the outbox and, with a mail server, queues its delivery: on `db`, so in the transaction of
   * the change that causes it when given one (the mail goes out only if that change commits).
   */
  send(db: DbOrTx, mail: Mail): Promise<void>;
}

/** The worker's side (server/jobs/workers.ts): what the `mail` and `mail-dead` jobs do. */
export interface MailDelivery {
  /** One try of a queued mail: hands it to the mail server and marks its row. */
  deliver(db: DbOrTx, job: JobTry<"mail">): Promise<void>;
  /** Every try failed or expired: the row is failed and a private link's body is dropped. */
  giveUp(db: DbOrTx, outboxId: string): Promise<void>;
}

/**
 * Time limits of one delivery, kept under the mail job's expiry (queue.ts, MAIL_EXPIRE_SECONDS): a try that hangs
 * fails here first, so a second server never sends a mail whose first try is still under way.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/** A mail in these states is done with: no try sends it again. */
const DONE: MailStatus[] = ["sent", "failed"];

/**
 * `queue` is given when a mail server is configured (SMTP_URL): each mail is then a row of the outbox and a `mail`
 * job (decision 042). Without it, mail is kept in the outbox for the administrator to read and a private link
 * reaches nobody.
 */
export function createMailer(opts: { log: Logger; queue?: JobQueue }): Mailer {
  const { log, queue } = opts;
  const row = (mail: Mail) => ({
    toAddress: mail.to,
    subject: mail.subject,
    // The outbox is read by the administrator: a working reset link there would let them into the account.
    body: mail.sensitive ? MAIL_BODY_WITHHELD : mail.body,
  });
  return {
    async send(db, mail) {
      if (!queue) {
        if (mail.sensitive) {
          log.warn({ to: mail.to }, "a private link could not be mailed: no SMTP server is configured");
          await db.insert(mailOutbox).values({ ...row(mail), status: "failed", error: MAIL_ERROR_NO_SERVER });
        } else {
          await db.insert(mailOutbox).values({ ...row(mail), status: "kept" });
        }
        return;
      }
      await db.transaction(async (tx) => {
        const [queued] = await tx
          .insert(mailOutbox)
          .values({ ...row(mail), status: "queued", secretBody: mail.sensitive ? mail.body : null })
          .returning({ id: mailOutbox.id });
        await queue.send(tx, "mail", { outboxId: queued!.id });
      });
    },
  };
}

/** Delivery over SMTP for the `mail` jobs; a try that fails is marked retrying, or failed when it was the last. */
export function createMailDelivery(opts: { log: Logger; from: string; smtpUrl: string }): MailDelivery {
  const { log } = opts;
  const transport = nodemailer.createTransport(opts.smtpUrl, SMTP_TIMEOUTS);
  // The receiving server sees one Message-ID however often a mail is handed over (decision 042).
  const domain = /@([^>\s]+)/.exec(opts.from)?.[1] ?? "ekchhat.pk";
  return {
    async deliver(db, { data, attempt, last }) {
      const [mail] = await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.id, data.outboxId), notInArray(mailOutbox.status, DONE)));
      // Sent (or given up) by an earlier try whose job was not marked done: nothing to do.
      if (!mail) return;
      try {
        await transport.sendMail({
          from: opts.from,
          to: mail.toAddress,
          subject: mail.subject,
          text: mail.secretBody ?? mail.body,
          messageId: `<${mail.id}@${domain}>`,
        });
      } catch (err) {
        const error = (err as Error).message;
        log.error(
          { err: error, to: mail.toAddress, attempt, last },
          last ? "mail delivery failed; given up" : "mail delivery failed; it is tried again",
        );
        await db
          .update(mailOutbox)
          .set({ status: last ? "failed" : "retrying", attempts: attempt, error, ...(last ? { secretBody: null } : {}) })
          .where(eq(mailOutbox.id, mail.id));
        throw err;
      }
      await db
        .update(mailOutbox)
        .set({ status: "sent", attempts: attempt, error: null, secretBody: null })
        .where(eq(mailOutbox.id, mail.id));
    },

    async giveUp(db, outboxId) {
      await db
        .update(mailOutbox)
        .set({ status: "failed", secretBody: null })
        .where(and(eq(mailOutbox.id, outboxId), notInArray(mailOutbox.status, DONE)));
    },
  };
}
