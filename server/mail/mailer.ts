import nodemailer from "nodemailer";
import type { Db } from "../db/client";
import { mailOutbox } from "../db/schema";
import type { Logger } from "../log";

export interface Mail {
  to: string;
  subject: string;
  body: string;
  /** Holds a secret link: once delivered over SMTP the outbox keeps only that it was sent, not the body. */
  sensitive?: boolean;
}

export interface Mailer {
  /** Sends over SMTP when configured; every message is also kept in the outbox the admin can read. */
  send(mail: Mail): Promise<void>;
}

export function createMailer(opts: { db: Db; log: Logger; smtpUrl?: string; from: string }): Mailer {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  return {
    async send(mail) {
      if (!transport) {
        await opts.db.insert(mailOutbox).values({ toAddress: mail.to, subject: mail.subject, body: mail.body, status: "kept" });
        return;
      }
      try {
        await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.body });
        const body = mail.sensitive ? "[not kept: contained a private link]" : mail.body;
        await opts.db.insert(mailOutbox).values({ toAddress: mail.to, subject: mail.subject, body, status: "sent" });
      } catch (err) {
        opts.log.error({ err: (err as Error).message, to: mail.to }, "mail delivery failed");
        await opts.db
          .insert(mailOutbox)
          .values({ toAddress: mail.to, subject: mail.subject, body: mail.body, status: "failed", error: (err as Error).message });
      }
    },
  };
}
