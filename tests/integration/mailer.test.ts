import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { MAIL_BODY_WITHHELD, MAIL_ERROR_NO_SERVER } from "#shared/constants.ts";
import { mailOutbox } from "#server/db/schema.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

/** Without a mail server (no SMTP_URL); delivery through the queue is tests/integration/jobs.test.ts. */
describe("mailer without a mail server", () => {
  let s: TestServices;

  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => {
    await s.close();
  });

  it("keeps mail in the outbox when no SMTP server is configured", async () => {
    const to = `outbox-${Date.now()}@test.ekchhat.pk`;
    await s.mailer.send(s.db, { to, subject: "Hello", body: "Body text" });
    const [row] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
    expect(row).toMatchObject({ subject: "Hello", body: "Body text", status: "kept" });
  });

  it("never keeps a private link in the outbox without SMTP: the mail is marked as not delivered", async () => {
    const to = `reset-${Date.now()}@test.ekchhat.pk`;
    await s.mailer.send(s.db, { to, subject: "Reset your password", body: "Open https://x/reset_password?token=SECRET", sensitive: true });
    const [row] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
    expect(row).toMatchObject({ subject: "Reset your password", status: "failed", error: MAIL_ERROR_NO_SERVER, body: MAIL_BODY_WITHHELD });
    expect(JSON.stringify(await s.db.select().from(mailOutbox))).not.toContain("SECRET");
  });
});
