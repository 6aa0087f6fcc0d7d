import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import { desc, eq } from "drizzle-orm";
import type { AddressInfo } from "node:net";
import { MAIL_BODY_WITHHELD, MAIL_ERROR_NO_SERVER } from "#shared/constants.ts";
import { mailOutbox } from "#server/db/schema.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

describe("mailer", () => {
  let s: TestServices;
  let smtp: SMTPServer;
  let port = 0;
  const received: { to: string; raw: string }[] = [];

  beforeAll(async () => {
    s = await createTestServices();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        let raw = "";
        stream.on("data", (c: Buffer) => (raw += c.toString()));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await s.close();
  });

  it("keeps mail in the outbox when no SMTP server is configured", async () => {
    const to = `outbox-${Date.now()}@test.ekchhat.pk`;
    await s.mailer.send({ to, subject: "Hello", body: "Body text" });
    const [row] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
    expect(row).toMatchObject({ subject: "Hello", body: "Body text", status: "kept" });
  });

  it("never keeps a private link in the outbox without SMTP: the mail is marked as not delivered", async () => {
    const to = `reset-${Date.now()}@test.ekchhat.pk`;
    await s.mailer.send({ to, subject: "Reset your password", body: "Open https://x/reset_password?token=SECRET", sensitive: true });
    const [row] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
    expect(row).toMatchObject({ subject: "Reset your password", status: "failed", error: MAIL_ERROR_NO_SERVER, body: MAIL_BODY_WITHHELD });
    expect(JSON.stringify(await s.db.select().from(mailOutbox))).not.toContain("SECRET");
  });

  it("never keeps a private link when SMTP fails either", async () => {
    const mailer = createMailer({ db: s.db, log: s.log, smtpUrl: "smtp://127.0.0.1:1?ignoreTLS=true", from: "x@ekchhat.pk" });
    const to = `reset-fail-${Date.now()}@test.ekchhat.pk`;
    await mailer.send({ to, subject: "Reset", body: "Open https://x/reset_password?token=SECRET2", sensitive: true });
    const [row] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
    expect(row).toMatchObject({ status: "failed", body: MAIL_BODY_WITHHELD });
    expect(row!.error).toBeTruthy();
  });

  it("delivers over SMTP and records it, without keeping the body of a private link", async () => {
    const mailer = createMailer({
      db: s.db,
      log: s.log,
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      from: "Ek Chhat <no-reply@ekchhat.pk>",
    });
    const to = `smtp-${Date.now()}@test.ekchhat.pk`;
    await mailer.send({ to, subject: "Reset your password", body: "Open https://x/reset?token=SECRET", sensitive: true });
    expect(received.find((m) => m.to === to)?.raw).toContain("token=SECRET");
    const [row] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
    expect(row!.status).toBe("sent");
    expect(row!.body).not.toContain("SECRET");
  });

  it("records a failed delivery instead of failing the request", async () => {
    const mailer = createMailer({ db: s.db, log: s.log, smtpUrl: "smtp://127.0.0.1:1?ignoreTLS=true", from: "x@ekchhat.pk" });
    const to = `fail-${Date.now()}@test.ekchhat.pk`;
    await expect(mailer.send({ to, subject: "S", body: "B" })).resolves.toBeUndefined();
    const [row] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(desc(mailOutbox.createdAt));
    expect(row!.status).toBe("failed");
    expect(row!.error).toBeTruthy();
  });
});
