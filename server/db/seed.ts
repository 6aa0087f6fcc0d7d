import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { createAccount, findUserByEmail } from "../domain/accounts/accounts";
import { closeCampaign, createCampaign, parseCampaign } from "../domain/campaigns/campaigns";
import { saveImage } from "../domain/files/files";
import type { Services } from "../services";
import { campaignPartners, campaigns, donations, ngoProfiles, users } from "./schema";

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

/** Demo campaigns across the country, run by the demo NGOs (by index); one joint, one already successful. */
const DEMO_CAMPAIGNS = [
  { ngo: 0, partners: [1], title: "Flood relief for Dadu families", place: "Dadu", target: 1_500_000, items: "Tents, dry rations, water purification tablets", zakat: true, colour: "#0e7490", given: [25_000, 60_000, 15_500, 100_000] },
  { ngo: 0, partners: [], title: "Clean water wells in Tharparkar", place: "Mithi", target: 800_000, items: "", zakat: true, colour: "#0369a1", given: [12_000, 5_000] },
  { ngo: 0, partners: [], title: "Winter blankets for Quetta", place: "Quetta", target: 300_000, items: "Blankets, warm clothes", zakat: false, colour: "#4338ca", given: [] },
  { ngo: 1, partners: [], title: "School books for Lahore children", place: "Lahore", target: 250_000, items: "Notebooks, school bags", zakat: false, colour: "#b45309", given: [10_000, 7_500] },
  { ngo: 1, partners: [], title: "Ramzan ration drive Peshawar", place: "Peshawar", target: 400_000, items: "Flour, rice, lentils, ghee", zakat: true, colour: "#15803d", given: [] },
  { ngo: 2, partners: [], title: "Mobile health camp in Gilgit", place: "Gilgit", target: 600_000, items: "Medicines, first-aid kits", zakat: false, colour: "#be123c", given: [50_000] },
  { ngo: 2, partners: [], title: "Ambulance fuel fund Islamabad", place: "Islamabad", target: 120_000, items: "", zakat: false, colour: "#1d4ed8", given: [70_000, 50_000], close: true },
];

async function pictureFile(title: string, colour: string): Promise<File> {
  const words = title.split(" ");
  const lines = [words.slice(0, 2).join(" "), words.slice(2, 4).join(" "), words.slice(4).join(" ")];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colour}"/><stop offset="1" stop-color="#0f172a"/></linearGradient></defs><rect width="800" height="450" fill="url(#g)"/>${lines
    .map((l, i) => `<text x="400" y="${200 + i * 64}" font-family="sans-serif" font-size="50" font-weight="bold" fill="#fff" text-anchor="middle">${l}</text>`)
    .join("")}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return new File([new Uint8Array(png)], "campaign.png", { type: "image/png" });
}

/** Campaigns made through the same rules as the create screen, with a few approved cash gifts from the demo donor. */
async function seedDemoCampaigns(services: Services, ngoIds: string[], donorId: string): Promise<void> {
  const methods = ["jazzcash", "easypaisa", "bank"] as const;
  for (const c of DEMO_CAMPAIGNS) {
    const values = parseCampaign({
      title: c.title,
      description: `${c.title}: Ek Chhat demo campaign. Every rupee and item given here is counted openly, and partners share one target.`,
      targetAmount: String(c.target),
      otherItems: c.items || undefined,
      location: c.place,
      zakatEligible: c.zakat ? "yes" : "no",
      picture: await pictureFile(c.title, c.colour),
    });
    const campaign = await createCampaign(services, ngoIds[c.ngo]!, values);
    for (const p of c.partners) {
      await services.db.insert(campaignPartners).values({ campaignId: campaign.id, ngoId: ngoIds[p]!, direction: "invited", status: "accepted", respondedAt: new Date() });
    }
    const recipients = [c.ngo, ...c.partners];
    for (const [i, amount] of c.given.entries()) {
      const day = new Date(Date.now() - (c.given.length - i) * 3 * 24 * 3600 * 1000);
      await services.db.insert(donations).values({
        campaignId: campaign.id,
        donorId,
        recipientNgoId: ngoIds[recipients[i % recipients.length]!]!,
        kind: "cash",
        status: "approved",
        amount,
        method: methods[i % methods.length],
        decidedAt: day,
        createdAt: day,
      });
    }
    const total = c.given.reduce((a, b) => a + b, 0);
    await services.db.update(campaigns).set({ collectedAmount: sql`${total}` }).where(eq(campaigns.id, campaign.id));
    if (c.close || total >= c.target) await closeCampaign(services.db, ngoIds[c.ngo]!, campaign.id);
  }
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
  const ngoIds: string[] = [];
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
    ngoIds.push(id);
  }
  const donorId = await createAccount(db, {
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
  await seedDemoCampaigns(services, ngoIds, donorId);
  log.info("loaded the demo data");
}

export function demoAccountsText(): string {
  const rows = Object.entries(DEMO_ACCOUNTS).map(([role, email]) => `  ${role.padEnd(6)} ${email}`);
  return ["Demo accounts (password for all: " + DEMO_PASSWORD + "):", ...rows].join("\n");
}
