import { eq } from "drizzle-orm";
import sharp from "sharp";
import { createAccount, findUserByEmail } from "../domain/accounts/accounts";
import { saveImage } from "../domain/files/files";
import type { Services } from "../services";
import { ngoProfiles, users } from "./schema";

/** The demo accounts, printed at start-up and listed in the README. */
export const DEMO_PASSWORD = "EkChhat-demo-2026";
export const DEMO_ACCOUNTS = {
  admin: "admin@demo.ekchhat.pk",
  ngo: "ngo@demo.ekchhat.pk",
  donor: "donor@demo.ekchhat.pk",
  rider: "rider@demo.ekchhat.pk",
} as const;

const DEMO_NGOS = [
  { email: DEMO_ACCOUNTS.ngo, name: "Roshni Welfare Trust", address: "Block 5, Clifton, Karachi", registration: "KAR-2011-0457", colour: "#0f766e" },
  { email: "sahara@demo.ekchhat.pk", name: "Sahara Foundation", address: "Model Town, Lahore", registration: "LHR-2008-1193", colour: "#b45309" },
  { email: "umeed@demo.ekchhat.pk", name: "Umeed Relief", address: "F-8 Markaz, Islamabad", registration: "ISB-2015-0082", colour: "#1d4ed8" },
];

function initials(name: string) {
  return name
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0])
    .join("");
}

async function logoFile(name: string, colour: string): Promise<File> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" rx="40" fill="${colour}"/><text x="128" y="160" font-family="sans-serif" font-size="110" font-weight="bold" fill="#fff" text-anchor="middle">${initials(name)}</text></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return new File([new Uint8Array(png)], "logo.png", { type: "image/png" });
}

/** Loads the demo accounts once: on a database that already has them, it does nothing. */
export async function seedDemoData(services: Services): Promise<void> {
  const { db, log } = services;
  if (await findUserByEmail(db, DEMO_ACCOUNTS.admin)) return;
  await createAccount(db, { role: "admin", email: DEMO_ACCOUNTS.admin, password: DEMO_PASSWORD });
  for (const ngo of DEMO_NGOS) {
    const id = await createAccount(db, {
      role: "ngo",
      email: ngo.email,
      password: DEMO_PASSWORD,
      profile: {
        name: ngo.name,
        address: ngo.address,
        registrationNumber: ngo.registration,
        contactNumber: "03001234567",
        jazzcashNumber: "03001234567",
        easypaisaNumber: "03451234567",
        bankName: "Meezan Bank",
        bankAccountTitle: ngo.name,
        bankAccountNumber: "PK36MEZN0001230101234567",
      },
    });
    const logoKey = await saveImage(services, { file: await logoFile(ngo.name, ngo.colour), kind: "logo", ownerId: id, field: "logo" });
    await db.update(ngoProfiles).set({ logoKey }).where(eq(ngoProfiles.userId, id));
    await db.update(users).set({ verification: "verified" }).where(eq(users.id, id));
  }
  await createAccount(db, {
    role: "donor",
    email: DEMO_ACCOUNTS.donor,
    password: DEMO_PASSWORD,
    profile: { firstName: "Ayesha", lastName: "Khan", address: "Gulshan-e-Iqbal, Karachi", contactNumber: "03211234567" },
  });
  const riderId = await createAccount(db, {
    role: "rider",
    email: DEMO_ACCOUNTS.rider,
    password: DEMO_PASSWORD,
    profile: { firstName: "Bilal", lastName: "Ahmed", contactNumber: "03331234567", cnic: "4210112345671" },
  });
  await db.update(users).set({ verification: "verified" }).where(eq(users.id, riderId));
  log.info("loaded the demo data");
}

export function demoAccountsText(): string {
  const rows = Object.entries(DEMO_ACCOUNTS).map(([role, email]) => `  ${role.padEnd(6)} ${email}`);
  return ["Demo accounts (password for all: " + DEMO_PASSWORD + "):", ...rows].join("\n");
}
