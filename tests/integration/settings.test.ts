import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { donorProfiles, files, ngoProfiles, riderProfiles, sessions, users } from "#server/db/schema.ts";
import { createSession, findSessionUser, type SessionUser } from "#server/domain/accounts/sessions.ts";
import { verifyPassword } from "#server/domain/accounts/passwords.ts";
import {
  changeNgoContact,
  changeNgoName,
  changePassword,
  changePersonName,
  changePicture,
  clearRiderArea,
  ngoSettings,
  findRiderArea,
  PASSWORD_CHANGE_LIMIT,
  removePicture,
  setRiderArea,
  updatePaymentAccounts,
} from "#server/domain/accounts/settings.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeUser, TEST_PASSWORD } from "#tests/helpers/factories.ts";

let s: TestServices;
beforeAll(async () => {
  s = await createTestServices();
});
afterAll(async () => s.close());

/** A real signed-in user as the HTTP layer would build it, plus that session's token. */
async function signedIn(role: "ngo" | "donor" | "rider") {
  const account = await makeUser(s.db, role);
  const { token } = await createSession(s.db, account.id);
  const actor = (await findSessionUser(s.db, token)) as SessionUser;
  return { ...account, token, actor };
}

async function png(): Promise<File> {
  const buffer = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 20, g: 120, b: 60 } } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(buffer)], "me.png", { type: "image/png" });
}

describe("an NGO's address and contact", () => {
  it("changes them as people type them (a landline with its area code), and refuses a bad number or an empty address", async () => {
    const ngo = await signedIn("ngo");
    await changeNgoContact(s.db, ngo.actor, { address: "  House 5, F-7/2, Islamabad ", contactNumber: "051-555 1234" });
    const [n] = await s.db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, ngo.id));
    expect([n!.address, n!.contactNumber]).toEqual(["House 5, F-7/2, Islamabad", "0515551234"]);
    await expect(changeNgoContact(s.db, ngo.actor, { address: "Somewhere", contactNumber: "12345" })).rejects.toMatchObject({
      kind: "invalid",
      field: "contactNumber",
    });
    await expect(changeNgoContact(s.db, ngo.actor, { address: " ", contactNumber: "03001234567" })).rejects.toMatchObject({
      kind: "invalid",
      field: "address",
    });
    const [after] = await s.db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, ngo.id));
    expect(after!.contactNumber).toBe("0515551234");
    const donor = await signedIn("donor");
    await expect(changeNgoContact(s.db, donor.actor, { address: "x", contactNumber: "03001234567" })).rejects.toMatchObject({
      kind: "forbidden",
    });
  });
});

describe("name", () => {
  it("changes an NGO's name and a donor's and rider's first and last name", async () => {
    const ngo = await signedIn("ngo");
    await changeNgoName(s.db, ngo.actor, { name: "  Roshni Trust  " });
    const [n] = await s.db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, ngo.id));
    expect(n!.name).toBe("Roshni Trust");
    expect((await findSessionUser(s.db, ngo.token))!.displayName).toBe("Roshni Trust");

    const donor = await signedIn("donor");
    await changePersonName(s.db, donor.actor, { firstName: "Ayesha", lastName: "Khan" });
    const [d] = await s.db.select().from(donorProfiles).where(eq(donorProfiles.userId, donor.id));
    expect([d!.firstName, d!.lastName]).toEqual(["Ayesha", "Khan"]);

    const rider = await signedIn("rider");
    await changePersonName(s.db, rider.actor, { firstName: "Bilal", lastName: "Ahmed" });
    const [r] = await s.db.select().from(riderProfiles).where(eq(riderProfiles.userId, rider.id));
    expect([r!.firstName, r!.lastName]).toEqual(["Bilal", "Ahmed"]);
  });

  it("refuses an empty name with the field's message and changes nothing", async () => {
    const donor = await signedIn("donor");
    await expect(changePersonName(s.db, donor.actor, { firstName: " ", lastName: "Khan" })).rejects.toMatchObject({
      kind: "invalid",
      message: "validation:firstNameRequired",
      field: "firstName",
    });
    const ngo = await signedIn("ngo");
    await expect(changeNgoName(s.db, ngo.actor, { name: "" })).rejects.toMatchObject({ message: "validation:nameRequired", field: "name" });
    const [d] = await s.db.select().from(donorProfiles).where(eq(donorProfiles.userId, donor.id));
    expect(d!.lastName).toBe("Donor");
  });

  it("only ever changes the actor's own profile", async () => {
    const donor = await signedIn("donor");
    const other = await signedIn("donor");
    const [before] = await s.db.select().from(donorProfiles).where(eq(donorProfiles.userId, other.id));
    await changePersonName(s.db, donor.actor, { firstName: "Mine", lastName: "Only" });
    const [after] = await s.db.select().from(donorProfiles).where(eq(donorProfiles.userId, other.id));
    expect(after).toEqual(before);
    // A donor cannot use the NGO functions at all.
    await expect(changeNgoName(s.db, donor.actor, { name: "Hijack" })).rejects.toMatchObject({ kind: "forbidden" });
    await expect(
      updatePaymentAccounts(s, donor.actor, { jazzcashNumber: "03001234567", currentPassword: TEST_PASSWORD }),
    ).rejects.toMatchObject({
      kind: "forbidden",
    });
  });
});

describe("password", () => {
  it("requires the right current password, stores a new argon2id hash and ends only the other sessions", async () => {
    const donor = await signedIn("donor");
    const other = await createSession(s.db, donor.id);
    const [original] = await s.db.select().from(users).where(eq(users.id, donor.id));
    const oldHash = original!.passwordHash;

    await expect(
      changePassword(s.db, donor.actor, {
        currentPassword: "wrong-password",
        newPassword: "Brand-new-pass1",
        keepSessionToken: donor.token,
      }),
    ).rejects.toMatchObject({ kind: "invalid", message: "validation:currentPasswordWrong", field: "currentPassword" });
    const [unchanged] = await s.db.select().from(users).where(eq(users.id, donor.id));
    expect(unchanged!.passwordHash).toBe(oldHash);
    expect(await findSessionUser(s.db, other.token)).not.toBeNull();

    await changePassword(s.db, donor.actor, {
      currentPassword: TEST_PASSWORD,
      newPassword: "Brand-new-pass1",
      keepSessionToken: donor.token,
    });
    const [row] = await s.db.select().from(users).where(eq(users.id, donor.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain("Brand-new-pass1");
    expect(await verifyPassword(row!.passwordHash, "Brand-new-pass1")).toBe(true);
    expect(await verifyPassword(row!.passwordHash, TEST_PASSWORD)).toBe(false);

    expect(await findSessionUser(s.db, donor.token)).not.toBeNull();
    expect(await findSessionUser(s.db, other.token)).toBeNull();
    expect(await s.db.select().from(sessions).where(eq(sessions.userId, donor.id))).toHaveLength(1);
  });

  it("refuses a too-short or common new password", async () => {
    const donor = await signedIn("donor");
    const base = { currentPassword: TEST_PASSWORD, keepSessionToken: donor.token };
    await expect(changePassword(s.db, donor.actor, { ...base, newPassword: "abc" })).rejects.toMatchObject({
      message: "validation:passwordMin",
      field: "newPassword",
    });
    await expect(changePassword(s.db, donor.actor, { ...base, newPassword: "password" })).rejects.toMatchObject({
      message: "validation:passwordCommon",
    });
  });

  it("limits attempts per account, before looking at the password", async () => {
    const rider = await signedIn("rider");
    const attempt = (currentPassword: string) =>
      changePassword(s.db, rider.actor, { currentPassword, newPassword: "Brand-new-pass1", keepSessionToken: rider.token });
    for (let i = 0; i < PASSWORD_CHANGE_LIMIT; i++) {
      await expect(attempt("wrong-password")).rejects.toMatchObject({ message: "validation:currentPasswordWrong" });
    }
    // Even the right password is refused now.
    await expect(attempt(TEST_PASSWORD)).rejects.toMatchObject({ kind: "rate_limited" });
    const [row] = await s.db.select().from(users).where(eq(users.id, rider.id));
    expect(await verifyPassword(row!.passwordHash, TEST_PASSWORD)).toBe(true);
  });
});

describe("payment accounts", () => {
  it("stores the NGO's accounts, normalised", async () => {
    const ngo = await signedIn("ngo");
    await updatePaymentAccounts(s, ngo.actor, {
      currentPassword: TEST_PASSWORD,
      jazzcashNumber: "0300-1234567",
      easypaisaNumber: "0345 1234567",
      bankName: "Meezan Bank",
      bankAccountTitle: "Roshni Trust",
      bankAccountNumber: "pk36 scbl 0000 0011 2345 6702",
    });
    const stored = await ngoSettings(s.db, ngo.actor);
    expect(stored).toMatchObject({
      jazzcashNumber: "03001234567",
      easypaisaNumber: "03451234567",
      bankName: "Meezan Bank",
      bankAccountTitle: "Roshni Trust",
      bankAccountNumber: "PK36SCBL0000001123456702",
    });
    // Empty fields clear an account.
    await updatePaymentAccounts(s, ngo.actor, { jazzcashNumber: "", easypaisaNumber: "03451234567", currentPassword: TEST_PASSWORD });
    expect(await ngoSettings(s.db, ngo.actor)).toMatchObject({ jazzcashNumber: null, bankName: null, bankAccountNumber: null });
  });

  it("refuses bad numbers and incomplete bank accounts, changing nothing", async () => {
    const ngo = await signedIn("ngo");
    await updatePaymentAccounts(s, ngo.actor, { jazzcashNumber: "03001234567", currentPassword: TEST_PASSWORD });
    const before = await ngoSettings(s.db, ngo.actor);
    const cases: [Record<string, string>, string, string][] = [
      [{ jazzcashNumber: "0300123" }, "jazzcashNumber", "settings:payment.walletInvalid"],
      [{ easypaisaNumber: "0300123456x" }, "easypaisaNumber", "settings:payment.walletInvalid"],
      [{ bankName: "HBL" }, "bankAccountTitle", "settings:payment.bankAccountTitleRequired"],
      [
        { bankName: "HBL", bankAccountTitle: "Trust", bankAccountNumber: "12-34" },
        "bankAccountNumber",
        "settings:payment.accountNumberInvalid",
      ],
      [
        { bankName: "HBL", bankAccountTitle: "Trust", bankAccountNumber: "A".repeat(35) },
        "bankAccountNumber",
        "settings:payment.accountNumberInvalid",
      ],
    ];
    for (const [input, field, message] of cases) {
      await expect(
        updatePaymentAccounts(s, ngo.actor, { ...input, currentPassword: TEST_PASSWORD }),
        JSON.stringify(input),
      ).rejects.toMatchObject({
        kind: "invalid",
        field,
        message,
      });
    }
    expect(await ngoSettings(s.db, ngo.actor)).toEqual(before);
  });
});

describe("picture", () => {
  it("replaces the old picture and deletes its file, and removing falls back to the default", async () => {
    const donor = await signedIn("donor");
    const first = await changePicture(s, donor.actor, { picture: await png() });
    expect(first).toMatch(/^avatar\/.+\.webp$/);
    expect(await s.storage.get(first)).not.toBeNull();

    const second = await changePicture(s, donor.actor, { picture: await png() });
    expect(second).not.toBe(first);
    const [d] = await s.db.select().from(donorProfiles).where(eq(donorProfiles.userId, donor.id));
    expect(d!.pictureKey).toBe(second);
    expect(await s.storage.get(first)).toBeNull();
    expect(await s.db.select().from(files).where(eq(files.key, first))).toHaveLength(0);

    await removePicture(s, donor.actor);
    const [cleared] = await s.db.select().from(donorProfiles).where(eq(donorProfiles.userId, donor.id));
    expect(cleared!.pictureKey).toBeNull();
    expect(await s.storage.get(second)).toBeNull();
  });

  it("stores an NGO's picture as its logo", async () => {
    const ngo = await signedIn("ngo");
    const key = await changePicture(s, ngo.actor, { picture: await png() });
    expect(key).toMatch(/^logo\//);
    expect((await ngoSettings(s.db, ngo.actor)).logoKey).toBe(key);
  });

  it("refuses a file that is not an image, whatever its name, and keeps the old picture", async () => {
    const rider = await signedIn("rider");
    const kept = await changePicture(s, rider.actor, { picture: await png() });
    const html = new File(["<html><script>alert(1)</script></html>"], "picture.png", { type: "image/png" });
    await expect(changePicture(s, rider.actor, { picture: html })).rejects.toMatchObject({
      kind: "invalid",
      message: "validation:imageInvalid",
      field: "picture",
    });
    const [r] = await s.db.select().from(riderProfiles).where(eq(riderProfiles.userId, rider.id));
    expect(r!.pictureKey).toBe(kept);
    expect(await s.storage.get(kept)).not.toBeNull();
  });
});

describe("rider's area", () => {
  async function areaOf(id: string) {
    const [r] = await s.db
      .select({ label: riderProfiles.areaLabel, lat: riderProfiles.areaLat, lng: riderProfiles.areaLng })
      .from(riderProfiles)
      .where(eq(riderProfiles.userId, id));
    return r!;
  }

  it("resolves a typed place to its label and point, and clears it", async () => {
    const rider = await signedIn("rider");
    expect(await findRiderArea(s.db, rider.actor)).toBeNull();
    const place = await setRiderArea(s, rider.actor, { area: "Lahore" });
    expect(place.label).toMatch(/^Lahore/);
    const stored = await areaOf(rider.id);
    expect(stored.label).toBe(place.label);
    expect(stored.lat).toBeCloseTo(31.5, 0);
    expect(stored.lng).toBeCloseTo(74.3, 0);
    expect(await findRiderArea(s.db, rider.actor)).toEqual({
      label: place.label,
      labelUr: "لاہور، ضلع لاہور، پنجاب",
      lat: stored.lat,
      lng: stored.lng,
    });

    await clearRiderArea(s.db, rider.actor);
    expect(await areaOf(rider.id)).toEqual({ label: null, lat: null, lng: null });
    expect(await findRiderArea(s.db, rider.actor)).toBeNull();
  });

  it("keeps a point adjusted on the map inside Pakistan, and ignores one outside it", async () => {
    const rider = await signedIn("rider");
    await setRiderArea(s, rider.actor, { area: "Karachi", areaLat: "24.9", areaLng: "67.1" });
    expect(await areaOf(rider.id)).toMatchObject({ lat: 24.9, lng: 67.1 });
    await setRiderArea(s, rider.actor, { area: "Karachi", areaLat: "51.5", areaLng: "-0.1" });
    const stored = await areaOf(rider.id);
    expect(stored.label).toMatch(/^Karachi/);
    expect(stored.lat).toBeCloseTo(24.9, 0);
    expect(stored.lng).toBeCloseTo(67.0, 0);
  });

  it("refuses an unknown or empty place with the field's message and keeps the old area", async () => {
    const rider = await signedIn("rider");
    await setRiderArea(s, rider.actor, { area: "Lahore" });
    const before = await areaOf(rider.id);
    await expect(setRiderArea(s, rider.actor, { area: "Qwxzzy Nowhere Town" })).rejects.toMatchObject({
      kind: "invalid",
      message: "settings:area.invalid",
      field: "area",
    });
    await expect(setRiderArea(s, rider.actor, { area: "   " })).rejects.toMatchObject({
      kind: "invalid",
      message: "settings:area.required",
      field: "area",
    });
    expect(await areaOf(rider.id)).toEqual(before);
  });

  it("is only for riders, and changes only the actor's own profile", async () => {
    const rider = await signedIn("rider");
    const other = await signedIn("rider");
    await setRiderArea(s, other.actor, { area: "Multan" });
    const before = await areaOf(other.id);
    await setRiderArea(s, rider.actor, { area: "Lahore" });
    await clearRiderArea(s.db, rider.actor);
    expect(await areaOf(other.id)).toEqual(before);

    const donor = await signedIn("donor");
    const ngo = await signedIn("ngo");
    for (const actor of [donor.actor, ngo.actor]) {
      await expect(setRiderArea(s, actor, { area: "Lahore" })).rejects.toMatchObject({ kind: "forbidden" });
      await expect(clearRiderArea(s.db, actor)).rejects.toMatchObject({ kind: "forbidden" });
      await expect(findRiderArea(s.db, actor)).rejects.toMatchObject({ kind: "forbidden" });
    }
  });
});
