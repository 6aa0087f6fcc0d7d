import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { MAIL_BODY_WITHHELD } from "#shared/constants.ts";
import { mailOutbox, sessions } from "#server/db/schema.ts";
import { listOutbox } from "#server/domain/admin/outbox.ts";
import type { JobQueue } from "#server/jobs/queue.ts";
import { startWorkers } from "#server/jobs/workers.ts";
import { createMailDelivery, createMailer, type MailDelivery, type Mailer } from "#server/mail/mailer.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { openTestQueue, TEST_QUEUE, until } from "#tests/helpers/queue.ts";
import { createTestServices, uniqueEmail, type TestServices } from "#tests/helpers/services.ts";
import { startTestSmtp, type TestSmtp } from "#tests/helpers/smtp.ts";

/** Mail and upkeep as jobs of the queue on this database (PGlite or PostgreSQL), with a real SMTP server. */
describe("jobs", () => {
  let s: TestServices;
  let smtp: TestSmtp;
  let queue: JobQueue;
  let mailer: Mailer;
  let workers: { stop(): Promise<void> };
  let delivery: MailDelivery;
  const admin = { role: "admin" as const };

  beforeAll(async () => {
    s = await createTestServices();
    smtp = await startTestSmtp();
    queue = await openTestQueue(s);
    mailer = createMailer({ log: s.log, queue });
    delivery = createMailDelivery({ log: s.log, from: s.config.MAIL_FROM, smtpUrl: smtp.url });
    workers = await startWorkers({ ...s, mailer }, queue, delivery);
  });
  afterAll(async () => {
    await workers.stop();
    await smtp.close();
    await s.close();
  });

  const rowTo = async (to: string) => (await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)))[0];
  const mailJobs = async () => {
    const result = (await s.db.execute(sql`select count(*)::int as n from pgboss.job where name = 'mail'`)) as unknown as {
      rows: { n: number }[];
    };
    return result.rows[0]!.n;
  };

  it("queues a mail in the caller's transaction: a change rolled back mails nothing", async () => {
    const to = uniqueEmail("rolled-back");
    const before = await mailJobs();
    await expect(
      s.db.transaction(async (tx) => {
        await mailer.send(tx, { to, subject: "Accepted", body: "You are in" });
        throw new Error("the change fails after the mail was queued");
      }),
    ).rejects.toThrow("the change fails");
    expect(await rowTo(to)).toBeUndefined();
    expect(await mailJobs()).toBe(before);

    await s.db.transaction((tx) => mailer.send(tx, { to, subject: "Accepted", body: "You are in" }));
    expect(await mailJobs()).toBe(before + 1);
    const sent = await until(
      () => rowTo(to),
      (row) => row?.status === "sent",
    );
    expect(sent).toMatchObject({ attempts: 1, error: null, body: "You are in" });
    expect(smtp.received.filter((m) => m.to === to)).toHaveLength(1);
  });

  it("delivers a private link once, with the row's Message-ID, and keeps its body only until it is sent", async () => {
    const to = uniqueEmail("reset");
    smtp.hold.add(to);
    const held = new Promise<void>((resolve) => (smtp.onHeld = (m) => m.to === to && resolve()));
    await mailer.send(s.db, { to, subject: "Reset your password", body: "Open https://x/reset?token=SECRET-1", sensitive: true });
    await held;
    // Being handed over: the body waits in the row for the mail server, and the admin's outbox does not show it.
    expect(await rowTo(to)).toMatchObject({
      status: "queued",
      body: MAIL_BODY_WITHHELD,
      secretBody: "Open https://x/reset?token=SECRET-1",
    });
    expect(JSON.stringify(await listOutbox(s.db, admin, 1, { q: to }))).not.toContain("SECRET-1");
    smtp.release();

    const row = await until(
      () => rowTo(to),
      (r) => r?.status === "sent",
    );
    expect(row).toMatchObject({ attempts: 1, body: MAIL_BODY_WITHHELD, secretBody: null });
    const received = smtp.received.filter((m) => m.to === to);
    expect(received).toHaveLength(1);
    expect(received[0]!.raw).toContain("token=SECRET-1");
    expect(received[0]!.raw).toMatch(new RegExp(`Message-ID: <${row!.id}@ekchhat\\.pk>`, "i"));
  });

  it("sends nothing when a mail's job is tried again after its row was marked sent (a worker died in between)", async () => {
    const to = uniqueEmail("again");
    await mailer.send(s.db, { to, subject: "Receipt", body: "Thank you" });
    const row = await until(
      () => rowTo(to),
      (r) => r?.status === "sent",
    );
    await delivery.deliver(s.db, { data: { outboxId: row!.id }, attempt: 2, last: false });
    expect(smtp.received.filter((m) => m.to === to)).toHaveLength(1);
    expect(await rowTo(to)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("retries a refused mail with backoff, showing retrying, its tries and the server's answer, then sends it", async () => {
    const to = uniqueEmail("retry");
    smtp.refuse.add(to);
    await mailer.send(s.db, { to, subject: "Pick-up assigned", body: "A rider is coming" });
    const retrying = await until(
      () => rowTo(to),
      (r) => r?.status === "retrying",
    );
    expect(retrying).toMatchObject({ attempts: 1 });
    expect(retrying!.error).toContain("451");
    expect((await listOutbox(s.db, admin, 1, { q: to })).rows[0]).toMatchObject({ status: "retrying", attempts: 1 });
    smtp.refuse.delete(to);

    const sent = await until(
      () => rowTo(to),
      (r) => r?.status === "sent",
    );
    expect(sent).toMatchObject({ attempts: 2, error: null });
    expect(smtp.received.filter((m) => m.to === to)).toHaveLength(1);
  });

  it("gives a mail up after its last try: failed, with its tries and last error, and a private link's body gone", async () => {
    const to = uniqueEmail("dead");
    smtp.refuse.add(to);
    await mailer.send(s.db, { to, subject: "Reset your password", body: "Open https://x/reset?token=SECRET-2", sensitive: true });
    const failed = await until(
      () => rowTo(to),
      (r) => r?.status === "failed",
      30_000,
    );
    expect(failed).toMatchObject({ attempts: TEST_QUEUE.mailAttempts, secretBody: null, body: MAIL_BODY_WITHHELD });
    expect(failed!.error).toContain("451");
    expect(smtp.received.filter((m) => m.to === to)).toHaveLength(0);
    expect(JSON.stringify(await s.db.select().from(mailOutbox))).not.toContain("SECRET-2");
  });

  it("runs the upkeep round as a job when the workers start: an expired session is gone", async () => {
    const user = await makeUser(s.db, "donor");
    const id = `expired-${randomUUID()}`;
    await s.db.insert(sessions).values({ id, userId: user.id, expiresAt: new Date(Date.now() - 60_000) });
    // Another server starting: it queues a round too, which the queue's workers run.
    await queue.send(s.db, "maintenance", {});
    await until(
      () => s.db.select().from(sessions).where(eq(sessions.id, id)),
      (rows) => rows.length === 0,
    );
    expect((await queue.depth()).maintenance).toBe(0);
  });
});
