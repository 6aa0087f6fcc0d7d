import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, desc, eq } from "drizzle-orm";
import { auditLog, mailOutbox, ngoProfiles, notifications } from "#server/db/schema.ts";
import type { Logger } from "#server/log.ts";
import { createSession, findSessionUser, type SessionUser } from "#server/domain/accounts/sessions.ts";
import { changePassword, ngoSettings, PASSWORD_CHANGE_LIMIT, updatePaymentAccounts } from "#server/domain/accounts/settings.ts";
import { PAYMENT_CHANGE_AUDIT_ACTION, PAYMENT_CHANGE_NOTICE_HOURS, paymentChanges } from "#server/domain/accounts/payment-guard.ts";
import { donationTarget } from "#server/domain/donations/cash.ts";
import type { PaymentInput } from "#shared/forms/settings.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeCampaign, makeUser, TEST_PASSWORD } from "#tests/helpers/factories.ts";
import { failure } from "#tests/helpers/failure.ts";
import { makeOlder } from "#tests/helpers/time.ts";

let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s.close());

const HOUR = 60 * 60;

/** Whether donors paying this NGO for a campaign of its own are warned that its accounts changed (/donate3). */
async function warnsDonors(ngoId: string): Promise<boolean> {
  const campaign = await makeCampaign(s.db, ngoId);
  const target = await donationTarget(s.db, campaign.slug);
  return target.ngos.find((n) => n.id === ngoId)!.accountsChangedRecently;
}

async function signedInNgo(opts: { language?: Lang; name?: string } = {}) {
  const account = await makeUser(s.db, "ngo", opts);
  const { token } = await createSession(s.db, account.id);
  const actor = (await findSessionUser(s.db, token)) as SessionUser;
  return { ...account, token, actor };
}

const ACCOUNTS = {
  jazzcashNumber: "0300-1234567",
  easypaisaNumber: "",
  bankName: "Meezan Bank",
  bankAccountTitle: "Roshni Trust",
  bankAccountNumber: "PK36 SCBL 0000 0011 2345 6702",
};

/** Everything the guard writes for one NGO: its accounts, the change time, audit entries, notices and mail. */
async function trail(ngo: { id: string; email: string; actor: SessionUser }) {
  const [profile] = await s.db.select({ changedAt: ngoProfiles.paymentChangedAt }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngo.id));
  return {
    accounts: await ngoSettings(s.db, ngo.actor),
    changedAt: profile!.changedAt,
    audit: await s.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetUserId, ngo.id), eq(auditLog.action, PAYMENT_CHANGE_AUDIT_ACTION)))
      .orderBy(desc(auditLog.id)),
    notices: await s.db.select().from(notifications).where(eq(notifications.userId, ngo.id)),
    mail: await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, ngo.email)),
  };
}

describe("the current password", () => {
  it("is required: missing or wrong, the save is refused under the field and nothing changes", async () => {
    const ngo = await signedInNgo();
    await updatePaymentAccounts(s, ngo.actor, { ...ACCOUNTS, currentPassword: TEST_PASSWORD });
    await makeOlder(s.db, ngoProfiles, ngoProfiles.paymentChangedAt, eq(ngoProfiles.userId, ngo.id), 2 * HOUR);
    const before = await trail(ngo);

    const hijack = { ...ACCOUNTS, jazzcashNumber: "0333 7654321" };
    expect(await failure(updatePaymentAccounts(s, ngo.actor, hijack as PaymentInput))).toEqual({
      kind: "invalid",
      message: "validation:currentPasswordRequired",
      field: "currentPassword",
    });
    expect(await failure(updatePaymentAccounts(s, ngo.actor, { ...hijack, currentPassword: "" }))).toEqual({
      kind: "invalid",
      message: "validation:currentPasswordRequired",
      field: "currentPassword",
    });
    expect(await failure(updatePaymentAccounts(s, ngo.actor, { ...hijack, currentPassword: "not-the-password" }))).toEqual({
      kind: "invalid",
      message: "validation:currentPasswordWrong",
      field: "currentPassword",
    });
    expect(await trail(ngo)).toEqual(before);
  });

  it("is rate limited like the password change, and the two forms share one budget of guesses", async () => {
    const ngo = await signedInNgo();
    const attempt = (currentPassword: string) =>
      updatePaymentAccounts(s, ngo.actor, { ...ACCOUNTS, jazzcashNumber: "03337654321", currentPassword });
    for (let i = 0; i < PASSWORD_CHANGE_LIMIT - 1; i++) {
      expect(await failure(attempt("wrong-password"))).toMatchObject({ message: "validation:currentPasswordWrong" });
    }
    // The last guess of the window, taken on the other form.
    expect(
      await failure(
        changePassword(s.db, ngo.actor, { currentPassword: "wrong-password", newPassword: "Brand-new-pass1", keepSessionToken: null }),
      ),
    ).toMatchObject({ message: "validation:currentPasswordWrong" });
    // Even the right password is refused now, and nothing changed.
    expect(await failure(attempt(TEST_PASSWORD))).toMatchObject({ kind: "rate_limited" });
    const after = await trail(ngo);
    expect(after.accounts.jazzcashNumber).toBeNull();
    expect(after.changedAt).toBeNull();
    expect(after.audit).toHaveLength(0);
    expect(after.notices).toHaveLength(0);
  });
});

describe("a change", () => {
  it("writes the accounts, the change time and exactly one audit entry with masked numbers, and tells the NGO", async () => {
    const ngo = await signedInNgo({ name: "Roshni Trust" });
    const result = await updatePaymentAccounts(s, ngo.actor, { ...ACCOUNTS, currentPassword: TEST_PASSWORD });
    expect(result.changed).toBe(true);

    const first = await trail(ngo);
    expect(first.accounts).toMatchObject({ jazzcashNumber: "03001234567", bankAccountNumber: "PK36SCBL0000001123456702" });
    expect(first.changedAt).toBeInstanceOf(Date);
    expect(Math.abs(first.changedAt!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(first.audit).toHaveLength(1);
    expect(first.audit[0]).toMatchObject({ actorId: ngo.id, targetUserId: ngo.id });
    expect(first.audit[0]!.details).toEqual({ jazzcash: "added", jazzcashAfter: "…4567", bank: "added", bankAfter: "…6702" });

    expect(first.notices).toHaveLength(1);
    expect(first.notices[0]).toMatchObject({ type: "paymentAccountsChanged", link: "/settingsNGO" });
    expect(first.mail).toHaveLength(1);
    const mail = first.mail[0]!;
    expect(mail.subject).toBe("The payment accounts of Roshni Trust on Ek Chhat were changed");
    expect(mail.body).toContain("JazzCash: added\nEasypaisa: not changed\nBank account: added");
    expect(mail.body).toContain("If this was not you, change your password at once and tell the platform administrator.");
    expect(mail.body).toContain(`For the next ${PAYMENT_CHANGE_NOTICE_HOURS} hours`);
    expect(mail.body).toMatch(/changed on .*2\d{3}.* \(Pakistan time\)/);
    expect(mail.body).toContain("/settingsNGO");

    // Changed, removed and added at once; the whole numbers are never written down.
    await updatePaymentAccounts(s, ngo.actor, {
      jazzcashNumber: "+92 333 7654321",
      easypaisaNumber: "03451112222",
      currentPassword: TEST_PASSWORD,
    });
    const second = await trail(ngo);
    expect(second.audit).toHaveLength(2);
    expect(second.audit[0]!.details).toEqual({
      jazzcash: "changed",
      jazzcashBefore: "…4567",
      jazzcashAfter: "…4321",
      easypaisa: "added",
      easypaisaAfter: "…2222",
      bank: "removed",
      bankBefore: "…6702",
    });
    const written = JSON.stringify([second.audit, second.notices]);
    for (const whole of ["03001234567", "03337654321", "03451112222", "PK36SCBL0000001123456702", "1234567", "7654321"]) {
      expect(written).not.toContain(whole);
    }
    expect(second.mail).toHaveLength(2);
    expect(second.mail.map((m) => m.body).find((b) => b.includes("removed"))).toContain(
      "JazzCash: changed\nEasypaisa: added\nBank account: removed",
    );
  });

  it("counts a bank account whose title alone changed, with the same ending before and after", async () => {
    const ngo = await signedInNgo();
    await updatePaymentAccounts(s, ngo.actor, { ...ACCOUNTS, currentPassword: TEST_PASSWORD });
    await updatePaymentAccounts(s, ngo.actor, { ...ACCOUNTS, bankAccountTitle: "Someone Else", currentPassword: TEST_PASSWORD });
    const { audit } = await trail(ngo);
    expect(audit[0]!.details).toEqual({ bank: "changed", bankBefore: "…6702", bankAfter: "…6702" });
  });

  it("mails an NGO that uses Urdu in Urdu", async () => {
    const ngo = await signedInNgo({ language: "ur" });
    await updatePaymentAccounts(s, ngo.actor, { ...ACCOUNTS, currentPassword: TEST_PASSWORD });
    const { mail } = await trail(ngo);
    expect(mail[0]!.body).toContain("JazzCash: شامل کیا گیا");
    expect(mail[0]!.body).toContain("اگر یہ آپ نے نہیں کیا");
  });

  it("still stands when the notice cannot be sent; the failure is logged", async () => {
    const ngo = await signedInNgo();
    const error = vi.fn();
    const log = { error, warn: vi.fn(), info: vi.fn(), debug: vi.fn() } as unknown as Logger;
    const mailer = { send: () => Promise.reject(new Error("the mail server is down")) };
    const result = await updatePaymentAccounts({ ...s, log, mailer }, ngo.actor, { ...ACCOUNTS, currentPassword: TEST_PASSWORD });
    expect(result.changed).toBe(true);
    const after = await trail(ngo);
    expect(after.accounts.jazzcashNumber).toBe("03001234567");
    expect(after.changedAt).not.toBeNull();
    expect(after.audit).toHaveLength(1);
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ userId: ngo.id, type: "paymentAccountsChanged" }),
      expect.stringContaining("the change stands without it"),
    );
  });
});

describe("an unchanged save", () => {
  it("writes nothing and announces nothing, even when the same accounts are typed another way", async () => {
    const ngo = await signedInNgo();
    await updatePaymentAccounts(s, ngo.actor, { ...ACCOUNTS, currentPassword: TEST_PASSWORD });
    await makeOlder(s.db, ngoProfiles, ngoProfiles.paymentChangedAt, eq(ngoProfiles.userId, ngo.id), 30 * HOUR);
    const before = await trail(ngo);

    const result = await updatePaymentAccounts(s, ngo.actor, {
      jazzcashNumber: "+92 300 123 4567",
      easypaisaNumber: "  ",
      bankName: "  Meezan Bank ",
      bankAccountTitle: "Roshni Trust",
      bankAccountNumber: "pk36scbl0000001123456702",
      currentPassword: TEST_PASSWORD,
    });
    expect(result).toEqual({ changed: false, changes: [] });
    expect(await trail(ngo)).toEqual(before);
    expect(await warnsDonors(ngo.id)).toBe(false);
  });

  it("is what paymentChanges reports for equal accounts", () => {
    const stored = {
      jazzcashNumber: "03001234567",
      easypaisaNumber: null,
      bankName: "HBL",
      bankAccountTitle: "Trust",
      bankAccountNumber: "PK36SCBL0000001123456702",
    };
    expect(paymentChanges(stored, { ...stored, jazzcashNumber: "0300 1234567", bankAccountNumber: "PK36 scbl 0000001123456702" })).toEqual(
      [],
    );
  });
});

describe("the donors' warning", () => {
  it("shows on an NGO's payment screen for 24 hours after its accounts changed, and never for one that did not change them", async () => {
    const changed = await signedInNgo();
    const never = await signedInNgo();
    await updatePaymentAccounts(s, changed.actor, { ...ACCOUNTS, currentPassword: TEST_PASSWORD });
    await s.db.update(ngoProfiles).set({ jazzcashNumber: "03001234567" }).where(eq(ngoProfiles.userId, never.id));
    expect(await warnsDonors(changed.id)).toBe(true);
    expect(await warnsDonors(never.id)).toBe(false);

    // 23 hours later it still shows; past 24 hours it does not.
    await makeOlder(s.db, ngoProfiles, ngoProfiles.paymentChangedAt, eq(ngoProfiles.userId, changed.id), 23 * HOUR);
    expect(await warnsDonors(changed.id)).toBe(true);
    await makeOlder(s.db, ngoProfiles, ngoProfiles.paymentChangedAt, eq(ngoProfiles.userId, changed.id), 1 * HOUR + 60);
    expect(await warnsDonors(changed.id)).toBe(false);
  });
});

describe("the admin's audit page", () => {
  it("has words for the action, its details and their values in English and Urdu", async () => {
    for (const lang of ["en", "ur"] as const) {
      const { t } = serverI18n(lang);
      const fresh = (key: string) => {
        const text = t(key, { defaultValue: "" });
        expect(text, `${lang} ${key}`).not.toBe("");
        return text;
      };
      fresh(`admin:actions.${PAYMENT_CHANGE_AUDIT_ACTION}`);
      for (const method of ["jazzcash", "easypaisa", "bank"]) {
        for (const key of [method, `${method}Before`, `${method}After`]) fresh(`admin:audit.detailKeys.${key}`);
        for (const change of ["added", "changed", "removed"]) fresh(`admin:audit.detailValues.${method}.${change}`);
      }
      fresh("notifications:paymentAccountsChanged");
    }
  });
});
