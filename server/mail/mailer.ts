import nodemailer from "nodemailer";
import type { Db } from "#server/db/client.ts";
import { mailOutbox } from "#server/db/schema.ts";
import type { Logger } from "#server/log.ts";
import { MAIL_BODY_WITHHELD, MAIL_ERROR_NO_SERVER } from "#shared/constants.ts";

export interface Mail {
  to: string;
  subject: string;
  body: string;
  /** Holds a secret link: the outbox keeps only that it was sent (or not), never the body. */
  sensitive?: boolean;
}

export interface Mailer {
  /** Sends over SMTP when configured; every message is also recorded in the outbox the admin can read. */
  send(mail: Mail): Promise<void>;
}

export function createMailer(opts: { db: Db; log: Logger; smtpUrl?: string; from: string }): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  const record = (mail: Mail, status: "kept" | "sent" | "failed", error?: string) =>
    opts.db.insert(mailOutbox).values({
      toAddress: mail.to,
      subject: mail.subject,
      // The outbox is read by the administrator: a working reset link there would let them into the account.
      body: mail.sensitive ? MAIL_BODY_WITHHELD : mail.body,
      status,
      error: error ?? null,
    });
  return {
    async send(mail) {
      if (!transport) {
        // Without a mail server, ordinary mail is kept for the admin to read; a secret link reaches nobody.
        if (mail.sensitive) {
          opts.log.warn({ to: mail.to }, "a private link could not be mailed: no SMTP server is configured");
          await record(mail, "failed", MAIL_ERROR_NO_SERVER);
        } else {
          await record(mail, "kept");
        }
        return;
      }
      try {
        await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.body });
        await record(mail, "sent");
      } catch (err) {
        opts.log.error({ err: (err as Error).message, to: mail.to }, "mail delivery failed");
        await record(mail, "failed", (err as Error).message);
      }
    },
  };
}
