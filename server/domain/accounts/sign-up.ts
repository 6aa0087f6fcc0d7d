import { eq } from "drizzle-orm";
import type { DonorSignUp, NgoSignUp, RiderSignUp } from "#shared/forms/accounts.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { donorProfiles, ngoProfiles, riderProfiles, users } from "#server/db/schema.ts";
import type { Services } from "#server/services.ts";
import { saveImage } from "#server/domain/files/files.ts";
import { giveBack, limitAddress, takeAttempts } from "#server/domain/rate-limit.ts";
import { resolvePlace } from "#server/domain/places/resolve.ts";
import { createAccount } from "./accounts.ts";

/** `language` is the one the form was filled in; the account's emails are written in it. */
export type SignUp = ({ role: "ngo"; data: NgoSignUp } | { role: "donor"; data: DonorSignUp } | { role: "rider"; data: RiderSignUp }) & {
  language?: Lang;
};

/**
 * Creates an NGO, donor or rider account from a parsed sign-up form. NGOs and riders start pending.
 * The picture needs the new account's id (files are owned by users), so it is saved after the account;
 * a picture that fails the content check removes the account again, leaving nothing behind.
 */
export async function signUp(
  services: Pick<Services, "config" | "db" | "storage" | "geocoder">,
  clientIp: string,
  input: SignUp,
): Promise<string> {
  const { config, db } = services;
  // Counted before the password is hashed, so a flood of sign-ups cannot spend the server's CPU (decision 011).
  // Per client address, failures (a taken email, a bad picture) and accounts created are limited apart, so that
  // many people behind one address can each sign up; the count that does not apply is given back.
  const address = limitAddress(clientIp);
  const [failure, created] = await takeAttempts(
    db,
    [
      { key: `signup:ip:${address}`, limit: config.AUTH_LIMIT_PER_IP },
      { key: `signup:created:ip:${address}`, limit: config.AUTH_CREATIONS_PER_IP },
    ],
    config.AUTH_LIMIT_WINDOW_SECONDS,
  );
  let userId: string;
  try {
    userId = await createWithPicture(services, input);
  } catch (err) {
    await giveBack(db, [created!]);
    throw err;
  }
  await giveBack(db, [failure!]);
  return userId;
}

async function createWithPicture(services: Pick<Services, "db" | "storage" | "geocoder">, input: SignUp): Promise<string> {
  const { db } = services;
  const { language } = input;
  let userId: string;
  let picture: File | undefined;
  if (input.role === "ngo") {
    const { email, password, logo, ...profile } = input.data;
    userId = await createAccount(db, { role: "ngo", email, password, profile, language });
    picture = logo;
  } else if (input.role === "donor") {
    const { email, password, picture: file, ...profile } = input.data;
    userId = await createAccount(db, { role: "donor", email, password, profile, language });
    picture = file;
  } else {
    const { email, password, picture: file, area, areaLat, areaLng, ...rest } = input.data;
    // The rider's area is resolved to a place like the profile's area form does; distance to pick-ups uses its point.
    const place = await resolvePlace(
      services.geocoder,
      area,
      { lat: areaLat, lng: areaLng },
      { message: "settings:area.invalid", field: "area" },
    );
    const profile = { ...rest, areaLabel: place.label, areaLabelUr: place.labelUr, areaLat: place.lat, areaLng: place.lng };
    userId = await createAccount(db, { role: "rider", email, password, profile, language });
    picture = file;
  }

  if (picture && picture.size > 0) {
    try {
      await savePicture(services, input.role, userId, picture);
    } catch (err) {
      await db.delete(users).where(eq(users.id, userId));
      throw err;
    }
  }
  return userId;
}

async function savePicture(services: Pick<Services, "db" | "storage">, role: SignUp["role"], userId: string, file: File): Promise<void> {
  const { db } = services;
  if (role === "ngo") {
    const key = await saveImage(services, { file, kind: "logo", ownerId: userId, field: "logo" });
    await db.update(ngoProfiles).set({ logoKey: key }).where(eq(ngoProfiles.userId, userId));
  } else {
    const key = await saveImage(services, { file, kind: "avatar", ownerId: userId, field: "picture" });
    const table = role === "donor" ? donorProfiles : riderProfiles;
    await db.update(table).set({ pictureKey: key }).where(eq(table.userId, userId));
  }
}
