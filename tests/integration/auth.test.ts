import { listPending } from "#server/domain/admin/vetting.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ZodMiniType as ZodType } from "zod/mini";
import { donorSignUpSchema, ngoSignUpSchema, resetPasswordSchema, riderSignUpSchema, signInSchema } from "#shared/forms/accounts.ts";
import { auditLog, files, mailOutbox, ngoProfiles, passwordResets, riderProfiles, sessions, users } from "#server/db/schema.ts";
import type { Mail } from "#server/mail/mailer.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { isResetTokenUsable, requestPasswordReset, resetPassword } from "#server/domain/accounts/password-reset.ts";
import { findRejectedProfile, resubmit } from "#server/domain/accounts/resubmit.ts";
import { createSession, findSessionUser, hashToken } from "#server/domain/accounts/sessions.ts";
import { signIn } from "#server/domain/accounts/sign-in.ts";
import { signUp } from "#server/domain/accounts/sign-up.ts";
import { expiredSessionCookie, languageCookie, sessionCookie } from "#server/http/cookies.ts";
import { makeUser, TEST_PASSWORD } from "#tests/helpers/factories.ts";
import { createTestServices, uniqueEmail, type TestServices } from "#tests/helpers/services.ts";
import { passwordWork as work } from "#tests/helpers/password-work.ts";

// Counts the expensive password work, to show the limiters refuse before any of it happens.
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
const ip = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/** Parses an object as the browser would post it, through the same path as the route actions. */
function parse(schema: ZodType, values: Record<string, string | File>) {
  const formData = new FormData();
  for (const [k, v] of Object.entries(values)) formData.append(k, v);
  return parseWithZod(formData, { schema });
}
function fieldErrors(schema: ZodType, values: Record<string, string | File>) {
  const submission = parse(schema, values);
  expect(submission.status).toBe("error");
  return submission.reply().error as Record<string, string[]>;
}

async function png(): Promise<File> {
  const buf = await sharp({ create: { width: 20, height: 20, channels: 3, background: "#0a0" } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(buf)], "me.png", { type: "image/png" });
}
const notAnImage = () => new File(["<?php echo 1; ?>"], "logo.png", { type: "image/png" });

const ngoForm = (email = uniqueEmail("ngo")) => ({
  name: "Roshni Trust",
  address: "Saddar, Karachi",
  registrationNumber: "KR-2291",
  contactNumber: "0300-123 4567",
  email,
  password: "Roshni-trust-2024",
});
const donorForm = (email = uniqueEmail("donor")) => ({
  firstName: "Ayesha",
  lastName: "Khan",
  address: "Gulberg, Lahore",
  contactNumber: "03001234567",
  email,
  password: "Ayesha-gives-2024",
});
const riderForm = (email = uniqueEmail("rider")) => ({
  firstName: "Bilal",
  lastName: "Ahmed",
  email,
  password: "Bilal-rides-2024",
  contactNumber: "03111234567",
  cnic: "42101-1234567-1",
  area: "Lahore",
});

function parsed<T>(schema: ZodType<T>, values: Record<string, string | File>): T {
  const submission = parse(schema, values);
  if (submission.status !== "success") throw new Error(JSON.stringify(submission.reply().error));
  return submission.value as T;
}

async function userByEmail(email: string) {
  const [row] = await s.db.select().from(users).where(eq(users.email, email.toLowerCase()));
  return row;
}

describe("sign-up rules, checked on the server with the forms' schemas", () => {
  it("names every missing NGO field with the specification's message", () => {
    expect(fieldErrors(ngoSignUpSchema, {})).toEqual({
      name: ["validation:ngoNameRequired"],
      address: ["validation:ngoAddressRequired"],
      registrationNumber: ["validation:registrationRequired"],
      contactNumber: ["validation:contactRequired"],
      email: ["validation:invalidEmail"],
      password: ["validation:passwordMin"],
    });
  });

  it("names every missing donor field", () => {
    expect(fieldErrors(donorSignUpSchema, { firstName: "  " })).toEqual({
      firstName: ["validation:firstNameRequired"],
      lastName: ["validation:lastNameRequired"],
      address: ["validation:addressRequired"],
      contactNumber: ["validation:contactRequired"],
      email: ["validation:invalidEmail"],
      password: ["validation:passwordMin"],
    });
  });

  it("names every missing rider field, with '* Required' for contact and CNIC", () => {
    expect(fieldErrors(riderSignUpSchema, {})).toEqual({
      firstName: ["validation:riderFirstNameRequired"],
      lastName: ["validation:riderLastNameRequired"],
      email: ["validation:invalidEmail"],
      password: ["validation:passwordMin"],
      contactNumber: ["validation:required"],
      cnic: ["validation:required"],
      area: ["settings:area.required"],
    });
  });

  it("refuses a malformed email, a short or common password, a wrong-length contact and CNIC", () => {
    const errors = fieldErrors(riderSignUpSchema, {
      ...riderForm("someone@nowhere"),
      password: "Xy7q!",
      contactNumber: "0300123456",
      cnic: "42101-1234567",
    });
    expect(errors).toEqual({
      email: ["validation:invalidEmail"],
      password: ["validation:passwordMin"],
      contactNumber: ["validation:invalidContact"],
      cnic: ["validation:invalidCnic"],
    });
    expect(fieldErrors(ngoSignUpSchema, { ...ngoForm(), password: "password1" })).toEqual({
      password: ["validation:passwordCommon"],
    });
    expect(fieldErrors(ngoSignUpSchema, { ...ngoForm(), name: "x".repeat(101) })).toEqual({ name: ["validation:tooLong"] });
  });

  it("accepts the forms' examples, ignoring spaces and dashes in numbers and the email's case", () => {
    const rider = parsed(riderSignUpSchema, { ...riderForm("Bilal@Example.PK") });
    expect(rider).toMatchObject({ email: "bilal@example.pk", contactNumber: "03111234567", cnic: "4210112345671" });
    expect(parsed(ngoSignUpSchema, ngoForm()).contactNumber).toBe("03001234567");
  });

  it("needs a password on sign-in and two equal new passwords on reset", () => {
    expect(fieldErrors(signInSchema, { email: "a@b.pk" })).toEqual({ password: ["validation:passwordRequired"] });
    expect(fieldErrors(resetPasswordSchema, { token: "t", password: "Fresh-pass-99", confirm: "Fresh-pass-98" })).toEqual({
      confirm: ["validation:passwordsDiffer"],
    });
  });
});

describe("sign-up", () => {
  it("creates a pending NGO with its profile and logo", async () => {
    const form = { ...ngoForm(), logo: await png() };
    const id = await signUp(s, ip(), { role: "ngo", data: parsed(ngoSignUpSchema, form) });
    const user = await userByEmail(form.email);
    expect(user).toMatchObject({ id, role: "ngo", verification: "pending" });
    expect(user!.passwordHash).not.toContain(form.password);
    const [profile] = await s.db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, id));
    expect(profile).toMatchObject({ name: "Roshni Trust", registrationNumber: "KR-2291", contactNumber: "03001234567" });
    expect(profile!.logoKey).toMatch(/^logo\/.+\.webp$/);
    const [file] = await s.db.select().from(files).where(eq(files.key, profile!.logoKey!));
    expect(file).toMatchObject({ kind: "logo", ownerId: id, contentType: "image/webp" });
    expect(await s.storage.get(profile!.logoKey!)).not.toBeNull();
  });

  it("creates a donor who may sign in at once, and a pending rider", async () => {
    const donor = donorForm();
    await signUp(s, ip(), { role: "donor", data: parsed(donorSignUpSchema, donor) });
    expect(await userByEmail(donor.email)).toMatchObject({ role: "donor", verification: "verified", language: "en" });
    const rider = riderForm();
    const riderId = await signUp(s, ip(), { role: "rider", data: parsed(riderSignUpSchema, { ...rider, picture: await png() }) });
    expect(await userByEmail(rider.email)).toMatchObject({ role: "rider", verification: "pending" });
    const [profile] = await s.db.select().from(riderProfiles).where(eq(riderProfiles.userId, riderId));
    expect(profile).toMatchObject({ cnic: "4210112345671", contactNumber: "03111234567" });
    expect(profile!.pictureKey).toMatch(/^avatar\//);
    // The area given at sign-up is the point the NGOs' "nearest riders" measures from.
    expect(profile).toMatchObject({ areaLabel: "Lahore, Lahore District, Punjab", areaLat: 31.558, areaLng: 74.3507 });
    // A point moved on the map (inside Pakistan) wins over the place's own.
    const moved = riderForm();
    const movedId = await signUp(s, ip(), {
      role: "rider",
      data: parsed(riderSignUpSchema, { ...moved, areaLat: "31.6", areaLng: "74.3" }),
    });
    const [movedProfile] = await s.db.select().from(riderProfiles).where(eq(riderProfiles.userId, movedId));
    expect(movedProfile).toMatchObject({ areaLabel: "Lahore, Lahore District, Punjab", areaLat: 31.6, areaLng: 74.3 });
  });

  it("refuses a rider's area that names no place, and leaves no account behind", async () => {
    const rider = { ...riderForm(), area: "Atlantis under the sea" };
    await expect(signUp(s, ip(), { role: "rider", data: parsed(riderSignUpSchema, rider) })).rejects.toMatchObject({
      kind: "invalid",
      message: "settings:area.invalid",
      field: "area",
    });
    expect(await userByEmail(rider.email)).toBeUndefined();
  });

  it("keeps the language the form was filled in, for the account's emails", async () => {
    const donor = donorForm();
    await signUp(s, ip(), { role: "donor", data: parsed(donorSignUpSchema, donor), language: "ur" });
    expect(await userByEmail(donor.email)).toMatchObject({ role: "donor", language: "ur" });
    const ngo = ngoForm();
    await signUp(s, ip(), { role: "ngo", data: parsed(ngoSignUpSchema, ngo), language: "en" });
    expect(await userByEmail(ngo.email)).toMatchObject({ role: "ngo", language: "en" });
  });

  it("refuses an email that is taken, in any case and by any role", async () => {
    const donor = donorForm();
    await signUp(s, ip(), { role: "donor", data: parsed(donorSignUpSchema, donor) });
    await expect(signUp(s, ip(), { role: "ngo", data: parsed(ngoSignUpSchema, ngoForm(donor.email.toUpperCase())) })).rejects.toMatchObject(
      { kind: "conflict", message: "validation:emailTaken", field: "email" },
    );
    const rows = await s.db.select().from(users).where(eq(users.email, donor.email));
    expect(rows).toHaveLength(1);
  });

  it("leaves no account behind when the picture is not an image", async () => {
    const rider = riderForm();
    await expect(
      signUp(s, ip(), { role: "rider", data: parsed(riderSignUpSchema, { ...rider, picture: notAnImage() }) }),
    ).rejects.toMatchObject({ kind: "invalid", message: "validation:imageInvalid", field: "picture" });
    expect(await userByEmail(rider.email)).toBeUndefined();
    const ngo = ngoForm();
    await expect(signUp(s, ip(), { role: "ngo", data: parsed(ngoSignUpSchema, { ...ngo, logo: notAnImage() }) })).rejects.toMatchObject({
      field: "logo",
    });
    expect(await userByEmail(ngo.email)).toBeUndefined();
  });

  it("refuses accounts over the per-address creation limit before hashing anything", async () => {
    const limited = { ...s, config: { ...s.config, AUTH_CREATIONS_PER_IP: 2 } };
    const from = ip();
    await signUp(limited, from, { role: "donor", data: parsed(donorSignUpSchema, donorForm()) });
    await signUp(limited, from, { role: "donor", data: parsed(donorSignUpSchema, donorForm()) });
    const hashes = work.hash;
    const third = donorForm();
    await expect(signUp(limited, from, { role: "donor", data: parsed(donorSignUpSchema, third) })).rejects.toMatchObject({
      kind: "rate_limited",
      message: "errors:rateLimited",
    });
    expect(work.hash).toBe(hashes);
    expect(await userByEmail(third.email)).toBeUndefined();
    // Another address is not affected.
    await signUp(limited, ip(), { role: "donor", data: parsed(donorSignUpSchema, third) });
  });
});

describe("sign-in", () => {
  const attempt = (role: "admin" | "ngo" | "donor" | "rider", email: string, password = TEST_PASSWORD, from = ip()) =>
    signIn(s, { role, email, password, clientIp: from });

  it("signs a verified account in with a new session, whatever the email's case", async () => {
    const donor = await makeUser(s.db, "donor");
    const result = await attempt("donor", `  ${donor.email.toUpperCase()} `);
    expect(result).toMatchObject({ userId: donor.id, rejected: false });
    expect(await findSessionUser(s.db, result.token)).toMatchObject({ id: donor.id, role: "donor" });
    const [row] = await s.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, hashToken(result.token)));
    expect(row).toBeDefined();
  });

  it("says no account of that role exists, and still spends the time of a hash", async () => {
    const donor = await makeUser(s.db, "donor");
    const verifies = work.verify;
    await expect(attempt("ngo", donor.email)).rejects.toMatchObject({ message: "auth:signIn.noAccount.ngo" });
    await expect(attempt("admin", uniqueEmail("nobody"))).rejects.toMatchObject({ message: "auth:signIn.noAccount.admin" });
    expect(work.verify).toBe(verifies + 2);
  });

  it("refuses a wrong password without telling the account's state", async () => {
    const donor = await makeUser(s.db, "donor");
    await expect(attempt("donor", donor.email, "Wrong-password-1")).rejects.toMatchObject({
      message: "auth:signIn.wrongPassword",
    });
    const pending = await makeUser(s.db, "ngo", { verification: "pending" });
    await expect(attempt("ngo", pending.email, "Wrong-password-1")).rejects.toMatchObject({
      message: "auth:signIn.wrongPassword",
    });
  });

  it("keeps pending NGOs and riders out", async () => {
    for (const role of ["ngo", "rider"] as const) {
      const u = await makeUser(s.db, role, { verification: "pending" });
      await expect(attempt(role, u.email)).rejects.toMatchObject({ kind: "forbidden", message: "auth:signIn.notVerified" });
      expect(await s.db.select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(0);
    }
  });

  it("keeps suspended accounts out", async () => {
    const ngo = await makeUser(s.db, "ngo");
    await s.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, ngo.id));
    await expect(attempt("ngo", ngo.email)).rejects.toMatchObject({ message: "auth:signIn.suspended" });
  });

  it("lets a rejected account in only to re-submit", async () => {
    const rider = await makeUser(s.db, "rider", { verification: "rejected" });
    const result = await attempt("rider", rider.email);
    expect(result.rejected).toBe(true);
    expect(await findSessionUser(s.db, result.token)).toMatchObject({ id: rider.id, verification: "rejected" });
  });

  it("refuses even the right password from an address over an account's limit, before any hashing", async () => {
    const donor = await makeUser(s.db, "donor");
    const limit = s.config.AUTH_LIMIT_PER_ACCOUNT;
    const from = ip();
    for (let i = 0; i < limit; i++) {
      await expect(attempt("donor", donor.email, "Wrong-password-1", from)).rejects.toMatchObject({
        message: "auth:signIn.wrongPassword",
      });
    }
    const verifies = work.verify;
    await expect(attempt("donor", donor.email, TEST_PASSWORD, from)).rejects.toMatchObject({
      kind: "rate_limited",
      message: "errors:rateLimited",
    });
    await expect(attempt("donor", donor.email.toUpperCase(), TEST_PASSWORD, from)).rejects.toMatchObject({
      message: "errors:rateLimited",
    });
    expect(work.verify).toBe(verifies);
  });

  it("refuses a client address over its limit before any hashing", async () => {
    const limited = { ...s, config: { ...s.config, AUTH_LIMIT_PER_IP: 2 } };
    const donor = await makeUser(s.db, "donor");
    const from = ip();
    await expect(signIn(limited, { role: "ngo", email: donor.email, password: "x", clientIp: from })).rejects.toBeDefined();
    await expect(signIn(limited, { role: "ngo", email: donor.email, password: "x", clientIp: from })).rejects.toBeDefined();
    const verifies = work.verify;
    await expect(signIn(limited, { role: "donor", email: donor.email, password: TEST_PASSWORD, clientIp: from })).rejects.toMatchObject({
      message: "errors:rateLimited",
    });
    expect(work.verify).toBe(verifies);
  });

  it("forgets an address's failed attempts on an account after a successful sign-in from it", async () => {
    const limited = { ...s, config: { ...s.config, AUTH_LIMIT_PER_ACCOUNT: 3 } };
    const donor = await makeUser(s.db, "donor");
    const from = ip();
    const go = (password: string) => signIn(limited, { role: "donor", email: donor.email, password, clientIp: from });
    await expect(go("Wrong-password-1")).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    await expect(go("Wrong-password-1")).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    await go(TEST_PASSWORD);
    for (let i = 0; i < 3; i++) await expect(go("Wrong-password-1")).rejects.toMatchObject({ message: "auth:signIn.wrongPassword" });
    await expect(go("Wrong-password-1")).rejects.toMatchObject({ message: "errors:rateLimited" });
  });

  it("builds the cookies in one place: httpOnly, Lax, the session for 30 days, Secure over https", () => {
    expect(sessionCookie(false, "tok")).toBe("ekc_session=tok; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax");
    expect(sessionCookie(true, "tok")).toMatch(/; Secure$/);
    expect(expiredSessionCookie(false)).toMatch(/^ekc_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
    expect(expiredSessionCookie(true)).toMatch(/; Secure$/);
    expect(languageCookie(false, "ur")).toBe("ekc_lang=ur; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax");
    expect(languageCookie(true, "ur")).toMatch(/; Secure$/);
  });
});

describe("password reset", () => {
  // What the mail server received: the outbox never keeps a reset link (the admin reads the outbox).
  const inbox: Mail[] = [];
  const mailing = () => ({ ...s, mailer: { send: async (db: DbOrTx, m: Mail) => (inbox.push(m), s.mailer.send(db, m)) } });
  async function resetMail(email: string) {
    return inbox.filter((m) => m.to === email);
  }
  const tokenOf = (body: string) => /reset_password\?token=([\w-]+)/.exec(body)![1]!;

  it("carries where the person was going into the link, a local path only", async () => {
    const donor = await makeUser(s.db, "donor");
    await requestPasswordReset(mailing(), { email: donor.email, clientIp: ip(), returnTo: "/donate1?campaign=roti-bank" });
    const crafted = await makeUser(s.db, "donor");
    await requestPasswordReset(mailing(), { email: crafted.email, clientIp: ip(), returnTo: "//evil.example/x" });
    const [kept] = await resetMail(donor.email);
    expect(kept!.body).toMatch(/reset_password\?token=[\w-]+&redirectTo=%2Fdonate1%3Fcampaign%3Droti-bank/);
    const [refused] = await resetMail(crafted.email);
    expect(refused!.body).not.toContain("redirectTo");
  });

  it("mails a single-use link that ends every session and sets the new password", async () => {
    const ngo = await makeUser(s.db, "ngo");
    await createSession(s.db, ngo.id);
    await createSession(s.db, ngo.id);
    await requestPasswordReset(mailing(), { email: ngo.email.toUpperCase(), clientIp: ip() });
    const [mail] = await resetMail(ngo.email);
    expect(mail!.subject).toBe("Reset your Ek Chhat password");
    expect(mail!.body).toContain(`${s.config.APP_URL}/reset_password?token=`);
    const token = tokenOf(mail!.body);
    const [kept] = await s.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, ngo.email));
    expect(kept!.body).not.toContain(token);
    // Only the token's hash is kept.
    const [stored] = await s.db.select().from(passwordResets).where(eq(passwordResets.userId, ngo.id));
    expect(stored!.tokenHash).toBe(hashToken(token));
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
    expect(await isResetTokenUsable(s.db, token)).toBe(true);

    expect(await resetPassword(s, { token, password: "Brand-new-pass-7", clientIp: ip() })).toBe("ngo");
    expect(await s.db.select().from(sessions).where(eq(sessions.userId, ngo.id))).toHaveLength(0);
    await expect(signIn(s, { role: "ngo", email: ngo.email, password: TEST_PASSWORD, clientIp: ip() })).rejects.toMatchObject({
      message: "auth:signIn.wrongPassword",
    });
    await signIn(s, { role: "ngo", email: ngo.email, password: "Brand-new-pass-7", clientIp: ip() });

    expect(await isResetTokenUsable(s.db, token)).toBe(false);
    await expect(resetPassword(s, { token, password: "Another-pass-8", clientIp: ip() })).rejects.toMatchObject({
      message: "auth:reset.invalidToken",
    });
  });

  it("lets only one of two simultaneous uses of a link through", async () => {
    const donor = await makeUser(s.db, "donor");
    await requestPasswordReset(mailing(), { email: donor.email, clientIp: ip() });
    const token = tokenOf((await resetMail(donor.email))[0]!.body);
    const results = await Promise.allSettled([
      resetPassword(s, { token, password: "First-pass-111", clientIp: ip() }),
      resetPassword(s, { token, password: "Second-pass-222", clientIp: ip() }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("refuses an expired link and an unknown one", async () => {
    const donor = await makeUser(s.db, "donor");
    await requestPasswordReset(mailing(), { email: donor.email, clientIp: ip() });
    const token = tokenOf((await resetMail(donor.email))[0]!.body);
    await s.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, donor.id));
    expect(await isResetTokenUsable(s.db, token)).toBe(false);
    await expect(resetPassword(s, { token, password: "Brand-new-pass-7", clientIp: ip() })).rejects.toMatchObject({
      message: "auth:reset.invalidToken",
    });
    await expect(resetPassword(s, { token: "made-up", password: "Brand-new-pass-7", clientIp: ip() })).rejects.toMatchObject({
      message: "auth:reset.invalidToken",
    });
    await signIn(s, { role: "donor", email: donor.email, password: TEST_PASSWORD, clientIp: ip() });
  });

  it("answers the same for an unknown email and sends nothing", async () => {
    const email = uniqueEmail("ghost");
    await expect(requestPasswordReset(mailing(), { email, clientIp: ip() })).resolves.toBeUndefined();
    expect(await resetMail(email)).toHaveLength(0);
  });

  it("writes the mail in the account's language, whoever asks", async () => {
    const rider = await makeUser(s.db, "rider", { language: "ur" });
    await requestPasswordReset(mailing(), { email: rider.email, clientIp: ip() });
    const [mail] = await resetMail(rider.email);
    expect(mail!.subject).toBe("اپنا ایک چھت پاس ورڈ ری سیٹ کریں");
    expect(mail!.body).toContain("/reset_password?token=");
    expect(mail!.body).toContain("60");
  });

  it("limits requests per email", async () => {
    const limited = { ...mailing(), config: { ...s.config, AUTH_LIMIT_PER_ACCOUNT: 2 } };
    const donor = await makeUser(s.db, "donor");
    await requestPasswordReset(limited, { email: donor.email, clientIp: ip() });
    await requestPasswordReset(limited, { email: donor.email, clientIp: ip() });
    await expect(requestPasswordReset(limited, { email: donor.email, clientIp: ip() })).rejects.toMatchObject({
      message: "errors:rateLimited",
    });
    expect(await resetMail(donor.email)).toHaveLength(2);
  });
});

describe("re-submission after a rejection", () => {
  async function rejected(role: "ngo" | "rider", reason: string) {
    const u = await makeUser(s.db, role, { verification: "rejected" });
    await s.db.update(users).set({ rejectionReason: reason }).where(eq(users.id, u.id));
    return u;
  }

  it("shows the reason and the details as sent, and sends corrected ones back to pending", async () => {
    const ngo = await rejected("ngo", "The registration number does not match our records.");
    await createSession(s.db, ngo.id);
    const before = await findRejectedProfile(s.db, { id: ngo.id, role: "ngo" });
    expect(before).toMatchObject({
      role: "ngo",
      reason: "The registration number does not match our records.",
      values: { address: "Saddar, Karachi", registrationNumber: "REG-1", contactNumber: "03001234567" },
    });
    const logo = await png();
    await resubmit(
      s,
      { id: ngo.id, role: "ngo" },
      {
        role: "ngo",
        data: { name: "Roshni Trust", address: "Clifton, Karachi", registrationNumber: "KR-2291", contactNumber: "03001234567", logo },
      },
    );
    const user = await userByEmail(ngo.email);
    expect(user).toMatchObject({ verification: "pending", rejectionReason: null });
    // The administrator's queue marks it as re-submitted.
    expect(user!.resubmittedAt).toBeInstanceOf(Date);
    const queue = await listPending(s.db, { id: crypto.randomUUID(), role: "admin" }, "ngo", 1);
    expect(queue.rows.find((r) => r.id === ngo.id)?.resubmittedAt).toBeInstanceOf(Date);
    const [profile] = await s.db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, ngo.id));
    expect(profile).toMatchObject({ name: "Roshni Trust", address: "Clifton, Karachi", registrationNumber: "KR-2291" });
    expect(profile!.logoKey).toMatch(/^logo\//);
    expect(await s.db.select().from(sessions).where(eq(sessions.userId, ngo.id))).toHaveLength(0);
    const audit = await s.db.select().from(auditLog).where(eq(auditLog.targetUserId, ngo.id));
    expect(audit).toMatchObject([{ action: "account.resubmitted", actorId: ngo.id }]);
    expect(await findRejectedProfile(s.db, { id: ngo.id, role: "ngo" })).toBeNull();
    await expect(signIn(s, { role: "ngo", email: ngo.email, password: TEST_PASSWORD, clientIp: ip() })).rejects.toMatchObject({
      message: "auth:signIn.notVerified",
    });
  });

  it("applies once only: a second re-submission changes nothing", async () => {
    const rider = await rejected("rider", "CNIC unreadable");
    const data = { firstName: "Bilal", lastName: "Ahmed", contactNumber: "03111234567", cnic: "4210112345671" };
    await resubmit(s, { id: rider.id, role: "rider" }, { role: "rider", data });
    await expect(
      resubmit(s, { id: rider.id, role: "rider" }, { role: "rider", data: { ...data, firstName: "Changed" } }),
    ).rejects.toMatchObject({ kind: "conflict", message: "auth:resubmit.notRejected" });
    const [profile] = await s.db.select().from(riderProfiles).where(eq(riderProfiles.userId, rider.id));
    expect(profile!.firstName).toBe("Bilal");
    expect(await s.db.select().from(auditLog).where(eq(auditLog.targetUserId, rider.id))).toHaveLength(1);
  });

  it("changes nothing when the new picture is not an image", async () => {
    const rider = await rejected("rider", "Picture missing");
    const data = { firstName: "Bilal", lastName: "Ahmed", contactNumber: "03111234567", cnic: "4210112345671", picture: notAnImage() };
    await expect(resubmit(s, { id: rider.id, role: "rider" }, { role: "rider", data })).rejects.toMatchObject({
      message: "validation:imageInvalid",
      field: "picture",
    });
    expect(await userByEmail(rider.email)).toMatchObject({ verification: "rejected", rejectionReason: "Picture missing" });
  });

  it("is not open to accounts that were not rejected", async () => {
    const ngo = await makeUser(s.db, "ngo", { verification: "pending" });
    expect(await findRejectedProfile(s.db, { id: ngo.id, role: "ngo" })).toBeNull();
    await expect(
      resubmit(
        s,
        { id: ngo.id, role: "ngo" },
        {
          role: "ngo",
          data: { name: "X", address: "Y", registrationNumber: "Z", contactNumber: "03001234567" },
        },
      ),
    ).rejects.toMatchObject({ message: "auth:resubmit.notRejected" });
  });
});
