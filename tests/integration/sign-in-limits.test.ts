import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { donorSignUpSchema } from "#shared/forms/accounts.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { users } from "#server/db/schema.ts";
import { requestPasswordReset, resetPassword } from "#server/domain/accounts/password-reset.ts";
import { signIn } from "#server/domain/accounts/sign-in.ts";
import { signUp } from "#server/domain/accounts/sign-up.ts";
import type { Mail } from "#server/mail/mailer.ts";
import { makeUser, TEST_PASSWORD } from "#tests/helpers/factories.ts";
import { createTestServices, uniqueEmail, type TestServices } from "#tests/helpers/services.ts";
import { passwordWork as work } from "#tests/helpers/password-work.ts";

// Counts the expensive password work, to show what the limiters let through to it.
vi.mock("#server/domain/accounts/passwords.ts", async (importOriginal) =>
  (await import("#tests/helpers/password-work.ts")).countingPasswords(importOriginal),
);

let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s.close());

let ipCounter = 0;
/** A fresh client address per call, so tests never share a per-address limiter. */
const ip = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const WRONG = "Wrong-password-1";
type Services = Pick<TestServices, "config" | "db">;
const withConfig = (over: Partial<TestServices["config"]>): TestServices => ({ ...s, config: { ...s.config, ...over } });
const attempt = (email: string, password: string, from: string, services: Services = s) =>
  signIn(services, { role: "donor", email, password, clientIp: from });

describe("sign-in limits count failures, per address, per account and address, and per account", () => {
  it("lets 35 people behind one carrier NAT sign in to their own accounts", async () => {
    const nat = ip();
    expect(s.config.AUTH_LIMIT_PER_IP).toBeLessThan(35);
    const donors = [];
    for (let i = 0; i < 35; i++) donors.push(await makeUser(s.db, "donor"));
    for (const d of donors) await expect(attempt(d.email, TEST_PASSWORD, nat)).resolves.toMatchObject({ userId: d.id });
  });

  it("keeps the owner able to sign in from elsewhere while a guesser's address stays locked", async () => {
    const donor = await makeUser(s.db, "donor");
    const attacker = ip();
    for (let i = 0; i < s.config.AUTH_LIMIT_PER_ACCOUNT; i++) {
      await expect(attempt(donor.email, WRONG, attacker)).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    }
    for (let i = 0; i < 3; i++) {
      await expect(attempt(donor.email, WRONG, attacker)).rejects.toMatchObject({ kind: "rate_limited" });
    }
    // The owner, from their own address, with the right password.
    await expect(attempt(donor.email, TEST_PASSWORD, ip())).resolves.toMatchObject({ userId: donor.id });
    // The guesser's address is still refused on this account, even with the right password, and without a hash.
    const verifies = work.verify;
    await expect(attempt(donor.email, TEST_PASSWORD, attacker)).rejects.toMatchObject({ kind: "rate_limited" });
    expect(work.verify).toBe(verifies);
  });

  it("limits one address's failures across accounts, not its successes", async () => {
    const limited = withConfig({ AUTH_LIMIT_PER_IP: 3 });
    const from = ip();
    const donors = [];
    for (let i = 0; i < 5; i++) donors.push(await makeUser(s.db, "donor"));
    // Successes give their count back.
    for (const d of donors) await attempt(d.email, TEST_PASSWORD, from, limited);
    for (let i = 0; i < 3; i++) {
      await expect(attempt(uniqueEmail("nobody"), WRONG, from, limited)).rejects.toMatchObject({
        message: "auth:signIn.noAccount.donor",
      });
    }
    const verifies = work.verify;
    await expect(attempt(donors[0]!.email, TEST_PASSWORD, from, limited)).rejects.toMatchObject({ kind: "rate_limited" });
    expect(work.verify).toBe(verifies);
  });

  it("bounds guessing from many addresses with the per-account limit over all of them, yet lets the owner in from a clean address; a reset lifts it", async () => {
    const limited = withConfig({ AUTH_LIMIT_PER_ACCOUNT_ALL_ADDRESSES: 5 });
    const donor = await makeUser(s.db, "donor");
    const guessers = [ip(), ip(), ip()];
    for (let i = 0; i < 5; i++) {
      await expect(attempt(donor.email, WRONG, guessers[i % 3]!, limited)).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    }
    // The account's allowance is used up: an address that has failed on it is refused unhashed, even with the right password.
    const verifies = work.verify;
    await expect(attempt(donor.email, TEST_PASSWORD, guessers[0]!, limited)).rejects.toMatchObject({ kind: "rate_limited" });
    await expect(attempt(donor.email, WRONG, guessers[1]!, limited)).rejects.toMatchObject({ kind: "rate_limited" });
    expect(work.verify).toBe(verifies);
    // The owner, from an address with no failure on the account, gets in.
    await expect(attempt(donor.email, TEST_PASSWORD, ip(), limited)).resolves.toMatchObject({ userId: donor.id });
    // A fresh address gets one try; after a wrong one it is refused too.
    const fresh = ip();
    await expect(attempt(donor.email, WRONG, fresh, limited)).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    await expect(attempt(donor.email, TEST_PASSWORD, fresh, limited)).rejects.toMatchObject({ kind: "rate_limited" });
    // Fresh addresses are not a way around the limit either: they get twice the allowance, then no more.
    for (let i = 0; i < 4; i++) {
      await expect(attempt(donor.email, WRONG, ip(), limited)).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    }
    await expect(attempt(donor.email, TEST_PASSWORD, ip(), limited)).rejects.toMatchObject({ kind: "rate_limited" });

    const inbox: Mail[] = [];
    await requestPasswordReset(
      { ...limited, mailer: { send: async (_db: unknown, m: Mail) => void inbox.push(m) } },
      { email: donor.email, clientIp: ip() },
    );
    const token = /reset_password\?token=([\w-]+)/.exec(inbox[0]!.body)![1]!;
    await resetPassword(limited, { token, password: "Brand-new-pass-7", clientIp: ip() });
    // A reset clears the account's counters: even an address that had failed on it may sign in again.
    await expect(attempt(donor.email, "Brand-new-pass-7", guessers[0]!, limited)).resolves.toMatchObject({ userId: donor.id });
  });

  it("lets the owner who locked their own address out sign in from it after a password reset", async () => {
    const donor = await makeUser(s.db, "donor");
    const home = ip();
    for (let i = 0; i < s.config.AUTH_LIMIT_PER_ACCOUNT; i++) await expect(attempt(donor.email, WRONG, home)).rejects.toBeDefined();
    await expect(attempt(donor.email, TEST_PASSWORD, home)).rejects.toMatchObject({ kind: "rate_limited" });
    const inbox: Mail[] = [];
    await requestPasswordReset(
      { ...s, mailer: { send: async (_db: unknown, m: Mail) => void inbox.push(m) } },
      { email: donor.email, clientIp: home },
    );
    const token = /reset_password\?token=([\w-]+)/.exec(inbox[0]!.body)![1]!;
    await resetPassword(s, { token, password: "Brand-new-pass-7", clientIp: home });
    await expect(attempt(donor.email, "Brand-new-pass-7", home)).resolves.toMatchObject({ userId: donor.id });
  });

  it("counts an IPv6 /64 as one address", async () => {
    const donor = await makeUser(s.db, "donor");
    const limited = withConfig({ AUTH_LIMIT_PER_ACCOUNT: 2 });
    await expect(attempt(donor.email, WRONG, "2001:db8:77:1::1", limited)).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    await expect(attempt(donor.email, WRONG, "2001:db8:77:1::2", limited)).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    await expect(attempt(donor.email, TEST_PASSWORD, "2001:db8:77:1:abcd::9", limited)).rejects.toMatchObject({ kind: "rate_limited" });
    await expect(attempt(donor.email, TEST_PASSWORD, "2001:db8:77:2::1", limited)).resolves.toMatchObject({ userId: donor.id });
  });

  it("does not count a right password for an account that may not sign in yet", async () => {
    const limited = withConfig({ AUTH_LIMIT_PER_IP: 2 });
    const from = ip();
    for (let i = 0; i < 3; i++) {
      const pending = await makeUser(s.db, "ngo", { verification: "pending" });
      await expect(signIn(limited, { role: "ngo", email: pending.email, password: TEST_PASSWORD, clientIp: from })).rejects.toMatchObject({
        message: "auth:signIn.notVerified",
      });
    }
  });
});

describe("under concurrency", () => {
  it("hashes no more wrong passwords for an account from one address than its limit, however many arrive at once", async () => {
    const donor = await makeUser(s.db, "donor");
    const from = ip();
    const verifies = work.verify;
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => attempt(donor.email, WRONG, from)));
    const reasons = results.map((r) => (r.status === "rejected" ? (r.reason as { message: string }).message : "signed in"));
    const wrong = reasons.filter((m) => m === "auth:signIn.wrongPassword").length;
    expect(wrong).toBeGreaterThan(0);
    expect(wrong).toBeLessThanOrEqual(s.config.AUTH_LIMIT_PER_ACCOUNT);
    expect(reasons.filter((m) => m === "errors:rateLimited").length).toBe(30 - wrong);
    expect(work.verify - verifies).toBe(wrong);
    // Whatever the interleaving, the address is now locked on this account.
    await expect(attempt(donor.email, TEST_PASSWORD, from)).rejects.toMatchObject({ kind: "rate_limited" });
  });

  it("hashes no more failures from one address than its limit, across accounts at once", async () => {
    const limited = withConfig({ AUTH_LIMIT_PER_IP: 6 });
    const from = ip();
    const verifies = work.verify;
    const results = await Promise.allSettled(Array.from({ length: 25 }, () => attempt(uniqueEmail("nobody"), WRONG, from, limited)));
    const failed = results.filter((r) => r.status === "rejected" && (r.reason as { message: string }).message !== "errors:rateLimited");
    expect(failed.length).toBeLessThanOrEqual(6);
    expect(work.verify - verifies).toBe(failed.length);
  });
});

describe("sign-up and password reset behind one address", () => {
  const form = () => ({
    firstName: "Ayesha",
    lastName: "Khan",
    address: "Gulberg, Lahore",
    contactNumber: "03001234567",
    email: uniqueEmail("donor"),
    password: "Ayesha-gives-2024",
  });
  function donorData(values: Record<string, string>) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(values)) fd.append(k, v);
    const submission = parseWithZod(fd, { schema: donorSignUpSchema });
    if (submission.status !== "success") throw new Error("bad form");
    return submission.value;
  }

  it("counts failed sign-ups against the per-address limit, and accounts created against their own", async () => {
    const limited = withConfig({ AUTH_LIMIT_PER_IP: 2, AUTH_CREATIONS_PER_IP: 4 });
    const from = ip();
    // Three people behind the address sign up: more than the failure limit, fine.
    for (let i = 0; i < 3; i++) await signUp(limited, from, { role: "donor", data: donorData(form()) });
    // Two tries with a taken email (probing for accounts) use up the failures.
    const taken = form();
    await signUp(limited, ip(), { role: "donor", data: donorData(taken) });
    for (let i = 0; i < 2; i++) {
      await expect(signUp(limited, from, { role: "donor", data: donorData(taken) })).rejects.toMatchObject({ kind: "conflict" });
    }
    const hashes = work.hash;
    const next = form();
    await expect(signUp(limited, from, { role: "donor", data: donorData(next) })).rejects.toMatchObject({ kind: "rate_limited" });
    expect(work.hash).toBe(hashes);
    expect(await s.db.select().from(users).where(eq(users.email, next.email))).toHaveLength(0);

    // The creation limit, from a fresh address.
    const other = ip();
    for (let i = 0; i < 4; i++) await signUp(limited, other, { role: "donor", data: donorData(form()) });
    await expect(signUp(limited, other, { role: "donor", data: donorData(form()) })).rejects.toMatchObject({ kind: "rate_limited" });
  });

  it("lets many people behind one address ask for reset links; unknown emails and links mailed are limited apart", async () => {
    const limited = withConfig({ AUTH_LIMIT_PER_IP: 2, AUTH_CREATIONS_PER_IP: 5 });
    const sent: Mail[] = [];
    const mailing = { ...limited, mailer: { send: async (_db: unknown, m: Mail) => void sent.push(m) } };
    const from = ip();
    const donors = [];
    for (let i = 0; i < 4; i++) donors.push(await makeUser(s.db, "donor"));
    for (const d of donors) await requestPasswordReset(mailing, { email: d.email, clientIp: from });
    expect(sent).toHaveLength(4);
    await requestPasswordReset(mailing, { email: uniqueEmail("ghost"), clientIp: from });
    await requestPasswordReset(mailing, { email: uniqueEmail("ghost"), clientIp: from });
    // Over the failure limit: refused whether or not the next email has an account.
    await expect(requestPasswordReset(mailing, { email: uniqueEmail("ghost"), clientIp: from })).rejects.toMatchObject({
      kind: "rate_limited",
    });
    const another = await makeUser(s.db, "donor");
    await expect(requestPasswordReset(mailing, { email: another.email, clientIp: from })).rejects.toMatchObject({ kind: "rate_limited" });
    expect(sent).toHaveLength(4);
  });

  it("counts made-up reset links, not used ones", async () => {
    const limited = withConfig({ AUTH_LIMIT_PER_IP: 2 });
    const sent: Mail[] = [];
    const mailing = { ...s, mailer: { send: async (_db: unknown, m: Mail) => void sent.push(m) } };
    const from = ip();
    for (let i = 0; i < 3; i++) {
      const d = await makeUser(s.db, "donor");
      await requestPasswordReset(mailing, { email: d.email, clientIp: ip() });
      const token = /reset_password\?token=([\w-]+)/.exec(sent.at(-1)!.body)![1]!;
      await resetPassword(limited, { token, password: "Brand-new-pass-7", clientIp: from });
    }
    for (let i = 0; i < 2; i++) {
      await expect(resetPassword(limited, { token: `made-up-${i}`, password: "Brand-new-pass-7", clientIp: from })).rejects.toMatchObject({
        message: "auth:reset.invalidToken",
      });
    }
    await expect(resetPassword(limited, { token: "made-up", password: "Brand-new-pass-7", clientIp: from })).rejects.toMatchObject({
      kind: "rate_limited",
    });
  });
});
