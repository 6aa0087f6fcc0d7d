import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import {
  campaignPartners,
  campaigns,
  donations,
  ngoProfiles,
  pickupEvents,
  pickups,
  users,
  volunteerApplications,
  volunteerPositions,
  zakatAttestations,
} from "#server/db/schema.ts";
import sharp from "sharp";
import type { Lang } from "#shared/i18n/i18n.ts";
import { createAccount } from "#server/domain/accounts/accounts.ts";
import { imageFingerprint } from "#server/domain/donations/fingerprint.ts";
import { saveImage } from "#server/domain/files/files.ts";
import type { Storage } from "#server/storage/storage.ts";
import { uniqueEmail } from "./services.ts";

export const TEST_PASSWORD = "Str0ng-test-pass";

/**
 * Creates an account of the given role (verified unless told otherwise; English unless told otherwise) and
 * returns its id and email.
 */
export async function makeUser(
  db: Db,
  role: "admin" | "ngo" | "donor" | "rider",
  opts: { verification?: "pending" | "verified" | "rejected"; email?: string; name?: string; language?: Lang } = {},
) {
  const email = opts.email ?? uniqueEmail(role);
  const name = opts.name ?? `Test ${role} ${email.slice(0, 12)}`;
  const base = { email, password: TEST_PASSWORD, ...(opts.language ? { language: opts.language } : {}) };
  const id =
    role === "admin"
      ? await createAccount(db, { role, ...base })
      : role === "ngo"
        ? await createAccount(db, {
            role,
            ...base,
            profile: { name, address: "Saddar, Karachi", registrationNumber: "REG-1", contactNumber: "03001234567" },
          })
        : role === "donor"
          ? await createAccount(db, {
              role,
              ...base,
              profile: { firstName: name, lastName: "Donor", address: "Gulberg, Lahore", contactNumber: "03001234567" },
            })
          : await createAccount(db, {
              role,
              ...base,
              profile: { firstName: name, lastName: "Rider", contactNumber: "03001234567", cnic: "4210112345671" },
            });
  const verification = opts.verification ?? "verified";
  await db
    .update(users)
    .set({ verification, verifiedAt: verification === "verified" ? new Date() : null })
    .where(eq(users.id, id));
  return { id, email, password: TEST_PASSWORD, role };
}

/** The payment accounts a test NGO gets unless told otherwise: a JazzCash wallet and a bank account with a valid IBAN. */
export const TEST_ACCOUNTS = {
  jazzcashNumber: "03001112222",
  bankName: "Meezan Bank",
  bankAccountTitle: "Test NGO",
  bankAccountNumber: "PK36SCBL0000001123456702",
} satisfies Partial<typeof ngoProfiles.$inferInsert>;

/** Gives an NGO payment accounts (TEST_ACCOUNTS unless told otherwise), as its settings would. */
export async function givePaymentAccounts(db: Db, ngoId: string, accounts: Partial<typeof ngoProfiles.$inferInsert> = TEST_ACCOUNTS) {
  await db.update(ngoProfiles).set(accounts).where(eq(ngoProfiles.userId, ngoId));
}

let campaignCounter = 0;

/**
 * Inserts a campaign directly (the create rules have their own tests): active, in Lahore, target Rs. 100,000,
 * unless told otherwise. Partners are added as accepted.
 */
export async function makeCampaign(db: Db, ownerId: string, opts: Partial<typeof campaigns.$inferInsert> & { partners?: string[] } = {}) {
  campaignCounter += 1;
  const { partners = [], ...values } = opts;
  const title = values.title ?? `Test campaign ${campaignCounter} ${Math.random().toString(36).slice(2, 8)}`;
  const [row] = await db
    .insert(campaigns)
    .values({
      slug: `${title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "")}-${campaignCounter}-${Math.random().toString(36).slice(2, 6)}`,
      title,
      description: "Warm meals and clean water for families in need.",
      targetAmount: 100_000,
      locationLabel: "Lahore, Lahore District, Punjab",
      lat: 31.558,
      lng: 74.35071,
      ...values,
      ownerId,
    })
    .returning();
  for (const ngoId of partners) {
    await db.insert(campaignPartners).values({ campaignId: row!.id, ngoId, direction: "invited", status: "accepted" });
  }
  // A campaign takes Zakat only with its NGO's current attestation (decision 048): the factory gives it one.
  if (row!.acceptedFunds.includes("zakat")) {
    await db.insert(zakatAttestations).values({ campaignId: row!.id, statement: "Test attestation", lang: "en", attestedBy: ownerId });
  }
  return row!;
}

/** Inserts a donation directly: cash by JazzCash unless told otherwise, paid to the campaign's owner. */
export async function makeDonation(
  db: Db,
  campaign: { id: string; ownerId: string },
  donorId: string,
  opts: Partial<typeof donations.$inferInsert> = {},
) {
  const kind = opts.kind ?? "cash";
  const [row] = await db
    .insert(donations)
    .values({
      campaignId: campaign.id,
      donorId,
      recipientNgoId: campaign.ownerId,
      kind,
      amount: kind === "cash" ? 1000 : null,
      method: kind === "cash" ? "jazzcash" : null,
      items: kind === "in_kind" ? "Blankets" : null,
      ...opts,
    })
    .returning();
  return row!;
}

/**
 * A payment screenshot stand-in: a PNG of random grey blocks, so each call makes an image with its own
 * fingerprint unless `seed` repeats. Real enough for sharp, file-type and the reviewer's dialog.
 */
export async function makeProofPng(seed?: number): Promise<Buffer> {
  let state = seed ?? Math.floor(Math.random() * 2 ** 31);
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % 256;
  };
  const raw = Buffer.from(Array.from({ length: 9 * 16 }, next));
  return sharp(raw, { raw: { width: 9, height: 16, channels: 1 } })
    .resize(360, 640, { kernel: "nearest" })
    .png()
    .toBuffer();
}

/**
 * Inserts a pending (or given-state) cash donation with a stored proof screenshot, as the proof form would
 * leave it, without going through the form. Approved ones here do not touch the campaign's total: use
 * decideCashDonation for that.
 */
export async function makeCashDonation(
  services: { db: Db; storage: Storage },
  campaign: { id: string; ownerId: string },
  donorId: string,
  opts: Partial<typeof donations.$inferInsert> & { proof?: Buffer } = {},
) {
  const { proof, ...values } = opts;
  const png = proof ?? (await makeProofPng());
  const file = new File([new Uint8Array(png)], "proof.png", { type: "image/png" });
  const proofKey = await saveImage(services, { file, kind: "proof", ownerId: donorId, field: "screenshot" });
  return makeDonation(services.db, campaign, donorId, {
    amount: 1000,
    method: "jazzcash",
    phone: "03001234567",
    transactionId: `TX${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
    proofKey,
    proofFingerprint: await imageFingerprint(png),
    ...values,
  });
}

/**
 * Inserts an in-kind donation with its pick-up request directly (the goods form has its own tests): status
 * `new` in Lahore for today, code 1234, unless told otherwise. Also records the "requested" step.
 */
export async function makePickup(
  db: Db,
  campaign: { id: string; ownerId: string },
  donorId: string,
  opts: Partial<typeof pickups.$inferInsert> & { items?: string; recipientNgoId?: string } = {},
) {
  const { items = "Blankets and warm clothes", recipientNgoId, ...pickup } = opts;
  const donation = await makeDonation(db, campaign, donorId, {
    kind: "in_kind",
    items,
    phone: "03001234567",
    ...(recipientNgoId ? { recipientNgoId } : {}),
  });
  const [row] = await db
    .insert(pickups)
    .values({
      donationId: donation.id,
      address: "House 12, Street 4",
      areaLabel: "Lahore, Lahore District, Punjab",
      lat: 31.558,
      lng: 74.35071,
      windowDate: new Date(Date.now() + 5 * 3600 * 1000).toISOString().slice(0, 10),
      windowSlot: "morning",
      code: "1234",
      ...pickup,
    })
    .returning();
  await db.insert(pickupEvents).values({ donationId: donation.id, type: "requested", actorId: donorId });
  return { donation, pickup: row! };
}

let positionCounter = 0;

/**
 * Inserts a volunteer position directly (the create rules have their own tests): active, in Lahore, 2 volunteers
 * needed and no closing day, unless told otherwise.
 */
export async function makePosition(db: Db, ngoId: string, opts: Partial<typeof volunteerPositions.$inferInsert> = {}) {
  positionCounter += 1;
  const [row] = await db
    .insert(volunteerPositions)
    .values({
      ngoId,
      title: `Test position ${positionCounter} ${Math.random().toString(36).slice(2, 8)}`,
      description: "Teach children to read at our weekend school.",
      responsibilities: "Prepare lessons; keep attendance.",
      workingHours: "4 hours a day",
      duration: "3 months",
      timings: "Saturdays and Sundays, 10 am to 2 pm",
      cityLabel: "Lahore, Lahore District, Punjab",
      cityLat: 31.558,
      cityLng: 74.35071,
      volunteersNeeded: 2,
      ...opts,
    })
    .returning();
  return row!;
}

/** Inserts an application directly: waiting, without a resume, unless told otherwise. */
export async function makeApplication(
  db: Db,
  positionId: string,
  donorId: string,
  opts: Partial<typeof volunteerApplications.$inferInsert> = {},
) {
  const [row] = await db
    .insert(volunteerApplications)
    .values({
      positionId,
      donorId,
      motivation: "I want to help children learn.",
      experience: "Two years of tutoring.",
      idempotencyKey: crypto.randomUUID(),
      ...opts,
    })
    .returning();
  return row!;
}

/** A small, valid one-page PDF (what a resume upload sends). */
export function makePdf(text = "Resume"): Buffer {
  return pdfOfObjects("1.4", [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${`BT /F1 12 Tf 20 100 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 12 Tf 20 100 Td (${text}) Tj ET\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ]);
}

/** A PDF file of these objects (numbered from 1, the first the catalog), with its cross-reference table. */
export function pdfOfObjects(version: string, objects: readonly string[]): Buffer {
  let body = `%PDF-${version}\n`;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** A made user as the session would present them to the domain: verified, with a display name. */
export function asSessionUser(u: { id: string; email: string }, role: SessionUser["role"]): SessionUser {
  return { id: u.id, email: u.email, role, verification: "verified", displayName: "Test", pictureKey: null, unreadNotifications: 0 };
}
