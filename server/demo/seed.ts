import type { FundKind } from "#shared/statuses.ts";
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import * as z from "zod/mini";
import { cashProofSchema } from "#shared/forms/donations.ts";
import { goodsOfferSchema } from "#shared/forms/pickups.ts";
import { applicationSchema } from "#shared/forms/volunteering.ts";
import { PAYMENT_METHODS } from "#shared/constants.ts";
import { formatRupees } from "#shared/money.ts";
import { createAccount, findUserByEmail } from "#server/domain/accounts/accounts.ts";
import { closeCampaign, createCampaign, parseCampaign } from "#server/domain/campaigns/campaigns.ts";
import { decideCashDonation, submitCashDonation } from "#server/domain/donations/cash.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { recordCheck, type CheckValues } from "#server/domain/admin/checks.ts";
import { publishSpending, writeSpending } from "#server/domain/ledger/spending.ts";
import { saveImage } from "#server/domain/files/files.ts";
import {
  assignRider,
  confirmCollected,
  confirmReceived,
  markDelivered,
  offerGoods,
  respondToAssignment,
} from "#server/domain/pickups/pickups.ts";
import { addDropoffPoint } from "#server/domain/pickups/dropoffs.ts";
import { postUpdate, sendUpdateMails } from "#server/domain/updates/updates.ts";
import { decideWords, writeWords } from "#server/domain/updates/words.ts";
import { offlineGeocoder } from "#server/domain/places/geocoder.ts";
import { applyToPosition, decideApplication } from "#server/domain/volunteering/applications.ts";
import { closePosition, createPosition, parsePosition } from "#server/domain/volunteering/positions.ts";
import { createMailer } from "#server/mail/mailer.ts";
import type { Services } from "#server/services.ts";
import {
  auditLog,
  campaignPartners,
  campaignUpdates,
  campaigns,
  donations,
  mailOutbox,
  ngoProfiles,
  notifications,
  pickupEvents,
  pickups,
  riderProfiles,
  supportWords,
  users,
  volunteerApplications,
  volunteerPositions,
} from "#server/db/schema.ts";

/** The demo accounts, printed at start-up and listed in the README. */
export const DEMO_PASSWORD = "EkChhat-demo-2026";
export const DEMO_ACCOUNTS = {
  admin: "admin@demo.ekchhat.pk",
  ngo: "ngo@demo.ekchhat.pk",
  donor: "donor@demo.ekchhat.pk",
  rider: "rider@demo.ekchhat.pk",
} as const;

/** The demo riders, each starting from a different city (the first is the demo account). */
export const DEMO_RIDERS = [
  { email: DEMO_ACCOUNTS.rider, firstName: "Bilal", lastName: "Ahmed", phone: "03331234567", cnic: "4210112345671", area: "Karachi" },
  { email: "rider2@demo.ekchhat.pk", firstName: "Usman", lastName: "Tariq", phone: "03341234567", cnic: "3520212345673", area: "Lahore" },
  {
    email: "rider3@demo.ekchhat.pk",
    firstName: "Hamza",
    lastName: "Qureshi",
    phone: "03351234567",
    cnic: "6110112345675",
    area: "Islamabad",
  },
] as const;

/** Donors who apply to volunteer alongside the demo donor (Ayesha Khan). */
export const DEMO_VOLUNTEERS = [
  { email: "donor2@demo.ekchhat.pk", firstName: "Fatima", lastName: "Raza", address: "Johar Town, Lahore", phone: "03221234567" },
  { email: "donor3@demo.ekchhat.pk", firstName: "Hassan", lastName: "Ali", address: "G-10, Islamabad", phone: "03231234567" },
] as const;

const DEMO_NGOS = [
  {
    email: DEMO_ACCOUNTS.ngo,
    name: "Roshni Welfare Trust",
    address: "Block 5, Clifton, Karachi",
    registration: "KAR-2011-0457",
    colour: "#0f766e",
    checks: [
      { kind: "registration", authority: "sindh_charity_commission", reference: "SCC/KAR/2011/0457", checkedDaysAgo: 20, validDays: null },
      { kind: "pcp", reference: "PCP-CERT-2025-0318", checkedDaysAgo: 20, validDays: 900 },
      { kind: "tax_exemption", reference: "FBR/2(36)/KHI/2025/0457", checkedDaysAgo: 20, validDays: 1095 },
    ],
  },
  {
    email: "sahara@demo.ekchhat.pk",
    name: "Sahara Foundation",
    address: "Model Town, Lahore",
    registration: "LHR-2008-1193",
    colour: "#b45309",
    checks: [
      { kind: "registration", authority: "punjab_charity_commission", reference: "PCC/LHR/2008/1193", checkedDaysAgo: 45, validDays: 1095 },
      // Granted for three years and not renewed: expired ten days ago, so the badge no longer shows it.
      { kind: "tax_exemption", reference: "FBR/2(36)/LHR/2023/1193", checkedDaysAgo: 1105, validDays: 1095 },
    ],
  },
  {
    email: "umeed@demo.ekchhat.pk",
    name: "Umeed Relief",
    address: "F-8 Markaz, Islamabad",
    registration: "ISB-2015-0082",
    colour: "#1d4ed8",
    checks: [{ kind: "registration", authority: "secp_section_42", reference: "0093412", checkedDaysAgo: 7, validDays: null }],
  },
] satisfies {
  email: string;
  name: string;
  address: string;
  registration: string;
  colour: string;
  checks: (Pick<CheckValues, "kind" | "authority" | "reference"> & { checkedDaysAgo: number; validDays: number | null })[];
}[];

function initials(name: string) {
  return name
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0])
    .join("");
}

/** Demo campaigns across the country, run by the demo NGOs (by index); one joint, one already successful. */
const DEMO_CAMPAIGNS = [
  {
    ngo: 0,
    partners: [1],
    title: "Flood relief for Dadu families",
    cause: "relief" as const,
    place: "Dadu",
    target: 1_500_000,
    items: "Tents, dry rations, water purification tablets",
    zakat: true,
    colour: "#0e7490",
    given: [25_000, 60_000, 15_500, 100_000],
  },
  {
    ngo: 0,
    partners: [],
    title: "Clean water wells in Tharparkar",
    cause: "water" as const,
    place: "Mithi",
    target: 800_000,
    items: "",
    zakat: true,
    colour: "#0369a1",
    given: [12_000, 5_000],
  },
  {
    ngo: 0,
    partners: [],
    title: "Winter blankets for Quetta",
    cause: "shelter" as const,
    place: "Quetta",
    target: 300_000,
    items: "Blankets, warm clothes",
    zakat: false,
    colour: "#4338ca",
    given: [],
  },
  {
    ngo: 1,
    partners: [],
    title: "School books for Lahore children",
    cause: "education" as const,
    place: "Lahore",
    target: 250_000,
    items: "Notebooks, school bags",
    zakat: false,
    colour: "#b45309",
    given: [10_000, 7_500],
  },
  {
    ngo: 1,
    partners: [],
    title: "Ramzan ration drive Peshawar",
    cause: "food" as const,
    place: "Peshawar",
    target: 400_000,
    items: "Flour, rice, lentils, ghee",
    zakat: true,
    colour: "#15803d",
    given: [],
  },
  {
    ngo: 2,
    partners: [],
    title: "Mobile health camp in Gilgit",
    cause: "health" as const,
    place: "Gilgit",
    target: 600_000,
    items: "Medicines, first-aid kits",
    zakat: false,
    colour: "#be123c",
    given: [50_000],
  },
  {
    ngo: 2,
    partners: [],
    title: "Ambulance fuel fund Islamabad",
    cause: "health" as const,
    place: "Islamabad",
    target: 120_000,
    items: "",
    zakat: false,
    colour: "#1d4ed8",
    given: [70_000, 50_000],
    close: true,
  },
];

async function pictureFile(title: string, colour: string): Promise<File> {
  const words = title.split(" ");
  const lines = [words.slice(0, 2).join(" "), words.slice(2, 4).join(" "), words.slice(4).join(" ")];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colour}"/><stop offset="1" stop-color="#0f172a"/></linearGradient></defs><rect width="800" height="450" fill="url(#g)"/>${lines
    .map(
      (l, i) =>
        `<text x="400" y="${200 + i * 64}" font-family="sans-serif" font-size="50" font-weight="bold" fill="#fff" text-anchor="middle">${l}</text>`,
    )
    .join("")}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return new File([new Uint8Array(png)], "campaign.png", { type: "image/png" });
}

type Method = (typeof PAYMENT_METHODS)[number];

/** How each way of paying looks on a donor's phone after the transfer. */
const WALLETS: Record<Method, { app: string; colour: string; idLabel: string }> = {
  jazzcash: { app: "JazzCash", colour: "#c8102e", idLabel: "TID" },
  easypaisa: { app: "easypaisa", colour: "#1f9d55", idLabel: "Transaction ID" },
  bank: { app: "Meezan Bank", colour: "#5b2a86", idLabel: "Reference No." },
};

const screenshotTime = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Asia/Karachi",
});

const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * A stand-in for a donor's payment screenshot: the wallet's "Transaction successful" screen with the method,
 * the amount, the receiver, the transaction ID and the time, as a PNG.
 */
export async function walletScreenshot(p: {
  method: Method;
  amount: number;
  transactionId: string;
  at: Date;
  to: string;
  from: string;
}): Promise<Buffer> {
  const w = WALLETS[p.method];
  const row = (y: number, label: string, value: string) =>
    `<text x="36" y="${y}" font-family="sans-serif" font-size="15" fill="#6b7280">${xml(label)}</text>` +
    `<text x="36" y="${y + 24}" font-family="sans-serif" font-size="18" fill="#111827">${xml(value)}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="720">
<rect width="360" height="720" fill="#f3f4f6"/>
<rect width="360" height="110" fill="${w.colour}"/>
<text x="24" y="66" font-family="sans-serif" font-size="28" font-weight="bold" fill="#fff">${xml(w.app)}</text>
<circle cx="180" cy="190" r="44" fill="#16a34a"/>
<path d="M158 190 l15 15 l30 -32" stroke="#fff" stroke-width="9" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
<text x="180" y="275" font-family="sans-serif" font-size="22" font-weight="bold" fill="#111827" text-anchor="middle">Transaction successful</text>
<text x="180" y="330" font-family="sans-serif" font-size="38" font-weight="bold" fill="#111827" text-anchor="middle">${xml(formatRupees(p.amount))}</text>
<rect x="20" y="360" width="320" height="300" rx="14" fill="#fff"/>
${row(396, "Sent to", p.to)}
${row(452, "From", p.from)}
${row(508, w.idLabel, p.transactionId)}
${row(564, "Date and time", screenshotTime.format(p.at))}
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const DEMO_DONOR_PHONE = "03211234567";
const DAY = 24 * 3600 * 1000;

interface DemoGift {
  campaign: { id: string; slug: string; ownerId: string };
  ngoId: string;
  ngoName: string;
  method: Method;
  amount: number;
  at: Date;
  transactionId: string;
  screenshot?: Buffer;
  /** The fund, whether the donor is named in public, and in whose name (decision 048); general and anonymous if not said. */
  fund?: FundKind;
  showName?: boolean;
  inNameOf?: string;
}

/**
 * A cash donation from the demo donor made the way the proof form makes one (a screenshot, the form's values,
 * submitCashDonation), dated `at`. Returns its id, transaction ID and screenshot.
 */
async function giveAsDemoDonor(services: Services, donorId: string, gift: DemoGift) {
  const { db } = services;
  const { transactionId } = gift;
  const screenshot =
    gift.screenshot ??
    (await walletScreenshot({
      method: gift.method,
      amount: gift.amount,
      transactionId,
      at: gift.at,
      to: gift.ngoName,
      from: "Ayesha Khan",
    }));
  const values = z.parse(cashProofSchema, {
    campaign: gift.campaign.slug,
    ngo: gift.ngoId,
    method: gift.method,
    idempotencyKey: randomUUID(),
    phone: DEMO_DONOR_PHONE,
    amount: String(gift.amount),
    transactionId,
    screenshot: new File([new Uint8Array(screenshot)], "Screenshot.png", { type: "image/png" }),
    fund: gift.fund ?? "general",
    ...(gift.showName ? { showName: "yes" } : {}),
    ...(gift.inNameOf ? { inNameOf: gift.inNameOf } : {}),
  });
  const mark = await dbClock(db);
  const { id } = await submitCashDonation(services, { id: donorId, role: "donor" }, values);
  await db.update(donations).set({ createdAt: gift.at, updatedAt: gift.at }).where(eq(donations.id, id));
  await backdateMessages(db, mark, gift.at);
  return { id, transactionId, screenshot };
}

/** The NGO approves or disapproves a demo donation through the real decision, dated `at`. */
async function decideAsDemoNgo(services: Services, ngoId: string, donationId: string, at: Date, reason?: string) {
  const { db } = services;
  const mark = await dbClock(db);
  const outcome = await decideCashDonation(
    services,
    { id: ngoId, role: "ngo" },
    reason === undefined ? { donationId, approve: true } : { donationId, approve: false, reason },
  );
  await db.update(donations).set({ decidedAt: at, updatedAt: at }).where(eq(donations.id, donationId));
  await db
    .update(auditLog)
    .set({ createdAt: at })
    .where(sql`${auditLog.createdAt} >= ${mark}::timestamptz`);
  await backdateMessages(db, mark, at);
  return outcome;
}

async function dbClock(db: Services["db"]): Promise<string> {
  const [row] = await db.select({ now: sql<string>`clock_timestamp()::text` }).from(sql`(select 1) as clock`);
  return row!.now;
}

/** Notices and mail written since `mark` are dated `at`; old ones read, so the demo starts with only fresh ones unread. */
async function backdateMessages(db: Services["db"], mark: string, at: Date) {
  const old = Date.now() - at.getTime() > 3 * DAY;
  await db
    .update(notifications)
    .set({ createdAt: at, readAt: old ? at : null })
    .where(sql`${notifications.createdAt} >= ${mark}::timestamptz`);
  await db
    .update(mailOutbox)
    .set({ createdAt: at })
    .where(sql`${mailOutbox.createdAt} >= ${mark}::timestamptz`);
}

/**
 * Campaigns made through the same rules as the create screen, and the demo donor's cash gifts made through the
 * proof form's and the review queue's own functions: receipts, totals, audit entries, notices and completion are
 * the real ones. Roshni Welfare Trust also has three donations waiting for review (two share a transaction ID and
 * a screenshot, so the duplicate flags show) and one it disapproved.
 */
async function seedDemoCampaigns(
  live: Services,
  ngoIds: string[],
  ngoNames: string[],
  donorId: string,
): Promise<{ dadu: DemoCampaign; quetta: DemoCampaign; thar: DemoCampaign }> {
  // The demo's mail stays in the outbox, even when SMTP is configured: its addresses are made up.
  const services = { ...live, mailer: createMailer({ log: live.log }) };
  const { db } = services;
  const now = Date.now();
  // Eleven digits, different for every transfer, like a wallet's transaction IDs.
  let transfers = 0;
  const transactionId = () => String(30_417_000_000 + ++transfers * 7_919_113);
  const made: { id: string; slug: string; ownerId: string }[] = [];
  const gifts: DemoGift[] = [];
  for (const c of DEMO_CAMPAIGNS) {
    const values = parseCampaign({
      title: c.title,
      description: `${c.title}: Ek Chhat demo campaign. Every rupee and item given here is counted openly, and partners share one target.`,
      targetAmount: String(c.target),
      otherItems: c.items || undefined,
      location: c.place,
      ...(c.zakat ? { funds: ["zakat", "sadaqah"], zakatAttest: "yes" as const } : { funds: ["sadaqah"] }),
      cause: c.cause,
      picture: await pictureFile(c.title, c.colour),
    });
    const campaign = await createCampaign(services, { id: ngoIds[c.ngo]!, role: "ngo" }, values);
    made.push(campaign);
    for (const p of c.partners) {
      await db
        .insert(campaignPartners)
        .values({ campaignId: campaign.id, ngoId: ngoIds[p]!, direction: "invited", status: "accepted", respondedAt: new Date() });
    }
    const recipients = [c.ngo, ...c.partners];
    for (const [i, amount] of c.given.entries()) {
      const ngo = recipients[i % recipients.length]!;
      const at = new Date(now - (c.given.length - i) * 3 * DAY - (gifts.length % 5) * 3600 * 1000);
      const method = PAYMENT_METHODS[i % PAYMENT_METHODS.length]!;
      // Some gifts per fund the campaign takes, some named in public and some anonymous, one given in a late father's name.
      const funds: FundKind[] = c.zakat ? ["zakat", "sadaqah", "general"] : ["sadaqah", "general"];
      gifts.push({
        campaign,
        ngoId: ngoIds[ngo]!,
        ngoName: ngoNames[ngo]!,
        method,
        amount,
        at,
        transactionId: transactionId(),
        fund: funds[i % funds.length]!,
        showName: i % 2 === 1,
        ...(i % 4 === 0 ? { inNameOf: "Late Haji Abdul Rehman" } : {}),
      });
    }
    // The campaign began a little before its first gift (or the donations waiting for review).
    const start = new Date(now - Math.max(c.given.length * 3 + 2, 6) * DAY);
    await db.update(campaigns).set({ createdAt: start, updatedAt: start }).where(eq(campaigns.id, campaign.id));
  }

  // In the order they were given, so each NGO's receipt numbers follow the dates.
  gifts.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const gift of gifts) {
    const { id } = await giveAsDemoDonor(services, donorId, gift);
    const decidedAt = new Date(gift.at.getTime() + 5 * 3600 * 1000);
    const outcome = await decideAsDemoNgo(services, gift.ngoId, id, decidedAt);
    if (outcome.campaignCompleted) {
      await db.update(campaigns).set({ completedAt: decidedAt, updatedAt: decidedAt }).where(eq(campaigns.id, gift.campaign.id));
    }
  }
  for (const [i, c] of DEMO_CAMPAIGNS.entries()) {
    const [row] = await db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, made[i]!.id));
    if (c.close && row?.status === "active") await closeCampaign(db, { id: ngoIds[c.ngo]!, role: "ngo" }, made[i]!.id);
  }

  // Roshni Welfare Trust's review queue and its disapproved gift.
  const roshni = { ngoId: ngoIds[0]!, ngoName: ngoNames[0]! };
  const byTitle = (title: string) => made[DEMO_CAMPAIGNS.findIndex((c) => c.title === title)]!;
  const dadu = byTitle("Flood relief for Dadu families");
  const thar = byTitle("Clean water wells in Tharparkar");
  const quetta = byTitle("Winter blankets for Quetta");
  const refused = await giveAsDemoDonor(services, donorId, {
    ...roshni,
    campaign: dadu,
    method: "easypaisa",
    amount: 20_000,
    at: new Date(now - 5 * DAY),
    transactionId: transactionId(),
  });
  await decideAsDemoNgo(
    services,
    roshni.ngoId,
    refused.id,
    new Date(now - 4 * DAY),
    "No payment with this transaction ID reached our Easypaisa account. Please check the ID on your payment message and send the proof again.",
  );
  const blankets = await giveAsDemoDonor(services, donorId, {
    ...roshni,
    campaign: quetta,
    method: "jazzcash",
    amount: 8_000,
    at: new Date(now - 2 * DAY),
    transactionId: transactionId(),
  });
  await giveAsDemoDonor(services, donorId, {
    ...roshni,
    campaign: thar,
    method: "bank",
    amount: 3_500,
    at: new Date(now - DAY),
    transactionId: transactionId(),
  });
  // The same transfer's screenshot and transaction ID sent again for a second donation.
  await giveAsDemoDonor(services, donorId, {
    ...roshni,
    campaign: quetta,
    method: "jazzcash",
    amount: 8_000,
    at: new Date(now - 5 * 3600 * 1000),
    transactionId: blankets.transactionId,
    screenshot: blankets.screenshot,
  });
  return { dadu, quetta, thar };
}

type DemoCampaign = { id: string; slug: string; ownerId: string };

/**
 * Runs one step of a demo pick-up through its real domain function and dates what it wrote (the steps, audit
 * entries, notices and mail since the step began, and the pick-up's last change) at `at`.
 */
async function stepAt<T>(db: Services["db"], donationId: string | null, at: Date, step: () => Promise<T>): Promise<T> {
  const mark = await dbClock(db);
  const out = await step();
  const since = (column: typeof pickupEvents.createdAt | typeof auditLog.createdAt) => sql`${column} >= ${mark}::timestamptz`;
  await db.update(pickupEvents).set({ createdAt: at }).where(since(pickupEvents.createdAt));
  await db.update(auditLog).set({ createdAt: at }).where(since(auditLog.createdAt));
  if (donationId) await db.update(pickups).set({ updatedAt: at }).where(eq(pickups.donationId, donationId));
  await backdateMessages(db, mark, at);
  return out;
}

/**
 * The demo donor's goods for Roshni Welfare Trust, offered through the goods form's schema and taken through the
 * real steps, so every pick-up screen has something to show: one waiting for a rider (after another rider
 * declined it), one waiting for Bilal's answer, one Bilal accepted and is to collect, and one received.
 */
/** The demo NGO's drop-off points in Karachi (places the offline gazetteer knows). */
const DEMO_DROPOFFS = [
  { name: "Clifton collection point", address: "Shop 3, Block 5, Clifton", place: "Karachi South District" },
  { name: "Gulshan warehouse", address: "Plot 22, Block 13-D, Gulshan-e-Iqbal", place: "Karachi East District" },
];

async function seedDemoPickups(
  live: Services,
  demo: { ngoId: string; donorId: string; riderIds: string[]; campaigns: { dadu: DemoCampaign; quetta: DemoCampaign } },
): Promise<void> {
  // Outbox mail (the addresses are made up) and the offline gazetteer (no network while seeding).
  const services = {
    ...live,
    mailer: createMailer({ log: live.log }),
    geocoder: offlineGeocoder,
  };
  const { db } = services;
  const { ngoId, donorId } = demo;
  const [bilal, usman] = demo.riderIds as [string, string, string];
  const now = Date.now();
  const hoursAgo = (h: number) => new Date(now - h * 3600 * 1000);

  // Two drop-off points, so each pick-up goes to the nearer one rather than to the office.
  for (const point of DEMO_DROPOFFS) await addDropoffPoint(services, { id: ngoId, role: "ngo" }, point);

  async function offer(p: { campaign: DemoCampaign; items: string; address: string; at: Date; daysAhead: number; slot: string }) {
    const day = pakistanToday(p.at);
    const windowDate = new Date(Date.parse(`${day}T00:00:00Z`) + p.daysAhead * DAY).toISOString().slice(0, 10);
    const values = z.parse(goodsOfferSchema, {
      campaign: p.campaign.slug,
      ngo: ngoId,
      idempotencyKey: randomUUID(),
      phone: DEMO_DONOR_PHONE,
      items: p.items,
      address: p.address,
      area: "Karachi",
      windowDate,
      windowSlot: p.slot,
    });
    const { id } = await stepAt(db, null, p.at, () => offerGoods(services, { id: donorId, role: "donor" }, values, p.at));
    await db.update(donations).set({ createdAt: p.at, updatedAt: p.at }).where(eq(donations.id, id));
    await db.update(pickups).set({ createdAt: p.at, updatedAt: p.at }).where(eq(pickups.donationId, id));
    return id;
  }
  const assign = (id: string, riderId: string, at: Date) =>
    stepAt(db, id, at, () => assignRider(services, { id: ngoId, role: "ngo" as const }, { donationId: id, riderId, reassign: false }));
  const accept = (id: string, at: Date) =>
    stepAt(db, id, at, () => respondToAssignment(services, { id: bilal, role: "rider" as const }, { donationId: id, accept: true }));

  // Received: offered a week ago, collected the next day, confirmed with a note.
  const received = await offer({
    campaign: demo.campaigns.quetta,
    items: "Ten blankets and four warm shawls",
    address: "House B-17, Block 13-D, Gulshan-e-Iqbal",
    at: hoursAgo(8 * 24),
    daysAhead: 1,
    slot: "morning",
  });
  await assign(received, bilal, hoursAgo(8 * 24 - 2));
  await accept(received, hoursAgo(8 * 24 - 3));
  const [{ code }] = (await db.select({ code: pickups.code }).from(pickups).where(eq(pickups.donationId, received))) as [{ code: string }];
  await stepAt(db, received, hoursAgo(7 * 24 - 1), () =>
    confirmCollected(services, { id: bilal, role: "rider" as const }, { donationId: received, code }),
  );
  await stepAt(db, received, hoursAgo(7 * 24 - 3), () =>
    markDelivered(services, { id: bilal, role: "rider" as const }, { donationId: received }),
  );
  await stepAt(db, received, hoursAgo(7 * 24 - 5), () =>
    confirmReceived(
      services,
      { id: ngoId, role: "ngo" as const },
      { donationId: received, note: "Ten blankets and three shawls arrived in good condition." },
    ),
  );
  await db
    .update(donations)
    .set({ decidedAt: hoursAgo(7 * 24 - 5), updatedAt: hoursAgo(7 * 24 - 5) })
    .where(eq(donations.id, received));

  // Accepted by Bilal: to collect today.
  const toCollect = await offer({
    campaign: demo.campaigns.dadu,
    items: "Five boxes of water purification tablets and a large tarpaulin",
    address: "House B-17, Block 13-D, Gulshan-e-Iqbal",
    at: hoursAgo(2 * 24),
    daysAhead: 2,
    slot: "evening",
  });
  await assign(toCollect, bilal, hoursAgo(2 * 24 - 3));
  await accept(toCollect, hoursAgo(2 * 24 - 4));

  // Assigned to Bilal: waiting for his answer.
  const waiting = await offer({
    campaign: demo.campaigns.dadu,
    items: "Two family tents and 20 kg of flour",
    address: "Flat 4, Sunset Apartments, Block 7, Gulshan-e-Iqbal",
    at: hoursAgo(26),
    daysAhead: 2,
    slot: "morning",
  });
  await assign(waiting, bilal, hoursAgo(5));

  // New: Usman (in Lahore) declined it, so it waits for another rider.
  const fresh = await offer({
    campaign: demo.campaigns.quetta,
    items: "Six blankets and two children's jackets",
    address: "House B-17, Block 13-D, Gulshan-e-Iqbal",
    at: hoursAgo(20),
    daysAhead: 3,
    slot: "afternoon",
  });
  await assign(fresh, usman, hoursAgo(18));
  await stepAt(db, fresh, hoursAgo(16), () =>
    respondToAssignment(
      services,
      { id: usman, role: "rider" as const },
      {
        donationId: fresh,
        accept: false,
        reason: "I am in Lahore this week; a rider in Karachi should take it.",
      },
    ),
  );
}

/** Roshni Welfare Trust's volunteer positions: three open in different cities, one it closed. */
const DEMO_POSITIONS = [
  {
    key: "tutor",
    title: "Weekend tutor for flood-affected children",
    description: "Help children from families displaced by the floods catch up on reading and arithmetic at our weekend learning centre.",
    responsibilities: "Prepare short lessons; teach groups of six to eight children; keep a simple attendance and progress sheet.",
    workingHours: "4 hours a day",
    duration: "3 months",
    timings: "Saturdays and Sundays, 10 am to 2 pm",
    city: "Karachi",
    needed: 3,
    closesInDays: 30,
    colour: "#0f766e",
    daysAgo: 6,
  },
  {
    key: "ration",
    title: "Ration packing volunteer",
    description: "Pack monthly ration bags of flour, rice, lentils and ghee for families on our list before they are collected.",
    responsibilities: "Weigh and pack rations; check each bag against the list; keep the store tidy.",
    workingHours: "3 hours a day",
    duration: "Every month, first week",
    timings: "Weekdays, 4 pm to 7 pm",
    city: "Lahore",
    needed: 5,
    colour: "#b45309",
    daysAgo: 5,
  },
  {
    key: "camp",
    title: "Medical camp registration desk",
    description: "Register patients at our free medical camp, guide them to the right doctor and keep the queue moving.",
    responsibilities: "Write down each patient's name, age and complaint; hand out token numbers; help elderly patients.",
    workingHours: "6 hours on the day",
    duration: "One day",
    timings: "Sunday, 9 am to 3 pm",
    city: "Islamabad",
    needed: 2,
    colour: "#be123c",
    daysAgo: 4,
  },
  {
    key: "blankets",
    title: "Winter blanket distribution team",
    description: "Hand out blankets and warm clothes to families in Quetta's outskirts with our field team.",
    responsibilities: "Load the van; check names against the list; hand over one bundle per family.",
    workingHours: "5 hours a day",
    duration: "2 weeks",
    timings: "Daily, 10 am to 3 pm",
    city: "Quetta",
    needed: 4,
    colour: "#4338ca",
    daysAgo: 12,
    close: true,
  },
] as const;

/** An invoice as a PDF, like the ones suppliers give NGOs: the ledger re-makes it as pictures of its pages. */
async function invoicePdf(supplier: string, lines: [string, number][]): Promise<File> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ size: "A5", margin: 40, info: { Title: `${supplier}: invoice`, Creator: "Ek Chhat demo" } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("Helvetica-Bold").fontSize(18).text(supplier);
  doc.font("Helvetica").fontSize(10).text("Invoice (demo)").moveDown();
  for (const [item, amount] of lines) doc.fontSize(11).text(`${item}  ${formatRupees(amount)}`);
  doc
    .moveDown()
    .font("Helvetica-Bold")
    .text(`Total ${formatRupees(lines.reduce((sum, [, a]) => sum + a, 0))}`);
  doc.end();
  const bytes = await done;
  return new File([new Uint8Array(bytes)], "invoice.pdf", { type: "application/pdf" });
}

/** A shop's till receipt as a phone photo would show it. */
async function receiptPhoto(shop: string, lines: [string, number][]): Promise<File> {
  const rows = lines.map(
    ([item, amount], i) =>
      `<text x="30" y="${130 + i * 36}" font-family="monospace" font-size="22">${item}  ${formatRupees(amount)}</text>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="${200 + lines.length * 36}"><rect width="100%" height="100%" fill="#fdfcf7"/><text x="240" y="70" font-family="sans-serif" font-size="30" font-weight="bold" text-anchor="middle">${shop}</text>${rows.join("")}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return new File([new Uint8Array(png)], "receipt.png", { type: "image/png" });
}

/**
 * The public ledger's spending (decision 049), written and published through the spending screen's own functions:
 * the joint Dadu campaign's purchases by both its NGOs (an invoice PDF and a receipt photo), a well pump in
 * Tharparkar, and one draft Roshni Welfare Trust has not published yet.
 */
async function seedDemoLedger(services: Services, demo: { ngoIds: string[]; campaigns: { dadu: DemoCampaign; thar: DemoCampaign } }) {
  const today = pakistanToday();
  const entries = [
    {
      ngo: 0,
      campaign: demo.campaigns.dadu,
      amount: 84_000,
      daysAgo: 6,
      purpose: "12 family tents from Sukkur Canvas House",
      document: await invoicePdf("Sukkur Canvas House", [["Family tent (4 x 4 m) x 12", 84_000]]),
      publish: true,
    },
    {
      ngo: 1,
      campaign: demo.campaigns.dadu,
      amount: 36_500,
      daysAgo: 4,
      purpose: "Dry ration bags (flour, rice, lentils, oil) for 50 families",
      document: await receiptPhoto("Madina Kiryana Store", [
        ["Flour 10 kg x 50", 24_000],
        ["Rice and lentils x 50", 9_500],
        ["Cooking oil x 50", 3_000],
      ]),
      publish: true,
    },
    {
      ngo: 0,
      campaign: demo.campaigns.thar,
      amount: 14_000,
      daysAgo: 2,
      purpose: "Hand pump and pipes for the first well",
      document: await invoicePdf("Mithi Hardware", [
        ["Hand pump", 9_500],
        ["PVC pipe 20 ft x 6", 4_500],
      ]),
      publish: true,
    },
    {
      ngo: 0,
      campaign: demo.campaigns.dadu,
      amount: 18_000,
      daysAgo: 1,
      purpose: "Water purification tablets (draft: the invoice is being checked)",
      document: await invoicePdf("Hyderabad Medical Supplies", [["Purification tablets, 3,600", 18_000]]),
      publish: false,
    },
  ];
  for (const e of entries) {
    const actor = { id: demo.ngoIds[e.ngo]!, role: "ngo" as const };
    const { id } = await writeSpending(services, actor, e.campaign.id, {
      intent: "write",
      fund: "general",
      amount: e.amount,
      spentOn: addDays(today, -e.daysAgo),
      purpose: e.purpose,
      document: e.document,
      correctsId: undefined,
    });
    if (e.publish) await publishSpending(services.db, actor, id);
  }
}

/** A one-page resume as a PDF, like the ones applicants upload. */
async function resumePdf(name: string, lines: string[]): Promise<File> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({ size: "A4", margin: 56, info: { Title: `${name}: resume`, Author: name, Creator: "Ek Chhat demo" } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("Helvetica-Bold").fontSize(20).text(name);
  doc.moveDown();
  doc.font("Helvetica").fontSize(11);
  for (const line of lines) doc.text(line).moveDown(0.5);
  doc.end();
  const bytes = await done;
  return new File([new Uint8Array(bytes)], `${name.replace(/\s+/g, "-")}-resume.pdf`, { type: "application/pdf" });
}

/** Runs one volunteering step through its real function and dates what it wrote (audit entries, notices, mail) at `at`. */
async function volunteerStepAt<T>(db: Services["db"], at: Date, step: () => Promise<T>): Promise<T> {
  const mark = await dbClock(db);
  const out = await step();
  await db
    .update(auditLog)
    .set({ createdAt: at })
    .where(sql`${auditLog.createdAt} >= ${mark}::timestamptz`);
  await backdateMessages(db, mark, at);
  return out;
}

/**
 * Roshni Welfare Trust's volunteer positions, posted, applied to and decided through the real functions, so every
 * volunteering screen has something to show: the demo donor's /dvh2 has one application in each state (live with
 * a resume, approved, declined with a message, and one whose position was closed), and the NGO's /vol2 has
 * applications waiting from two more donors.
 */
async function seedDemoVolunteering(live: Services, demo: { ngoId: string; donorId: string; volunteerIds: string[] }): Promise<void> {
  // Outbox mail (the addresses are made up) and the offline gazetteer (no network while seeding).
  const services = {
    ...live,
    mailer: createMailer({ log: live.log }),
    geocoder: offlineGeocoder,
  };
  const { db } = services;
  const { ngoId, donorId } = demo;
  const [fatima, hassan] = demo.volunteerIds as [string, string];
  const now = Date.now();
  const hoursAgo = (h: number) => new Date(now - h * 3600 * 1000);
  const today = pakistanToday(new Date(now));

  const ids: Record<string, string> = {};
  for (const p of DEMO_POSITIONS) {
    const at = hoursAgo(p.daysAgo * 24);
    const values = parsePosition({
      title: p.title,
      description: p.description,
      responsibilities: p.responsibilities,
      workingHours: p.workingHours,
      duration: p.duration,
      timings: p.timings,
      city: p.city,
      volunteersNeeded: String(p.needed),
      closesOn:
        "closesInDays" in p ? new Date(Date.parse(`${today}T00:00:00Z`) + p.closesInDays * DAY).toISOString().slice(0, 10) : undefined,
      poster: await pictureFile(p.title, p.colour),
    });
    const row = await volunteerStepAt(db, at, () => createPosition(services, { id: ngoId, role: "ngo" }, values));
    await db.update(volunteerPositions).set({ createdAt: at, updatedAt: at }).where(eq(volunteerPositions.id, row.id));
    ids[p.key] = row.id;
  }

  async function apply(positionKey: string, applicant: string, at: Date, text: { motivation: string; experience?: string; resume?: File }) {
    const values = z.parse(applicationSchema, {
      positionId: ids[positionKey]!,
      idempotencyKey: randomUUID(),
      motivation: text.motivation,
      experience: text.experience,
      resume: text.resume,
    });
    const { id } = await volunteerStepAt(db, at, () => applyToPosition(services, { id: applicant, role: "donor" }, values));
    await db.update(volunteerApplications).set({ createdAt: at, updatedAt: at }).where(eq(volunteerApplications.id, id));
    return id;
  }
  async function decide(applicationId: string, at: Date, message?: string) {
    await volunteerStepAt(db, at, () =>
      decideApplication(
        services,
        { id: ngoId, role: "ngo" },
        message === undefined ? { applicationId, approve: true } : { applicationId, approve: false, message },
      ),
    );
    await db.update(volunteerApplications).set({ decidedAt: at, updatedAt: at }).where(eq(volunteerApplications.id, applicationId));
  }

  // The demo donor: one application in each state.
  await apply("blankets", donorId, hoursAgo(10 * 24), {
    motivation: "I have family in Quetta and can give two weeks of my winter holidays.",
  });
  const ration = await apply("ration", donorId, hoursAgo(4 * 24), {
    motivation: "I live nearby in the evenings and would like to help every month.",
    experience: "Packed rations with my mosque's committee during Ramzan.",
  });
  await decide(ration, hoursAgo(3 * 24));
  const camp = await apply("camp", donorId, hoursAgo(3 * 24 + 6), {
    motivation: "I am good with people and can keep a queue calm.",
  });
  await decide(
    camp,
    hoursAgo(2 * 24),
    "Thank you, Ayesha. This camp needs volunteers who can be in Islamabad for the whole day; we will tell you about our next camp in Karachi.",
  );
  await apply("tutor", donorId, hoursAgo(30), {
    motivation: "I teach my younger cousins every weekend and would love to help children who missed school because of the floods.",
    experience: "Two years as a volunteer tutor at my university's literacy society.",
    resume: await resumePdf("Ayesha Khan", [
      "Gulshan-e-Iqbal, Karachi · 0321 1234567",
      "Education: BS Education, University of Karachi (final year).",
      "Volunteering: literacy society tutor, two years; weekend reading circle for children.",
      "Languages: Urdu, English, Sindhi.",
    ]),
  });
  // The blanket team is complete: Roshni closed the position with Ayesha's application still waiting.
  await volunteerStepAt(db, hoursAgo(8 * 24), () => closePosition(db, { id: ngoId, role: "ngo" }, ids.blankets!));
  await db
    .update(volunteerPositions)
    .set({ closedAt: hoursAgo(8 * 24), updatedAt: hoursAgo(8 * 24) })
    .where(eq(volunteerPositions.id, ids.blankets!));

  // Two more donors waiting for an answer.
  await apply("tutor", fatima, hoursAgo(20), {
    motivation: "I am a school teacher and free on weekends.",
    experience: "Five years teaching class 3 at a government school in Lahore; I visit Karachi often.",
  });
  await apply("tutor", hassan, hoursAgo(9), { motivation: "I want to give back to my community on weekends." });
  await apply("ration", fatima, hoursAgo(6), { motivation: "The store is close to my home in Johar Town." });
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
  const adminId = await createAccount(db, { role: "admin", email: DEMO_ACCOUNTS.admin, password: DEMO_PASSWORD });
  const ngoIds: string[] = [];
  const ngoNames: string[] = [];
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
        // A valid IBAN (its check digits agree), so the payment screen and posters show the Raast QR.
        bankAccountNumber: "PK96MEZN0001230101234567",
      },
    });
    const logoKey = await saveImage(services, { file: await logoFile(ngo.name, ngo.colour), kind: "logo", ownerId: id, field: "logo" });
    await db.update(ngoProfiles).set({ logoKey }).where(eq(ngoProfiles.userId, id));
    await db.update(users).set({ verification: "verified", verifiedAt: new Date() }).where(eq(users.id, id));
    ngoIds.push(id);
    ngoNames.push(ngo.name);
    // What the vetting checked, as the administrator records it (decision 051); one of Sahara's has expired.
    const today = pakistanToday();
    for (const check of ngo.checks) {
      await recordCheck(
        services,
        { id: adminId, role: "admin" },
        {
          ngoId: id,
          ...check,
          checkedOn: addDays(today, -check.checkedDaysAgo),
          expiresOn: check.validDays === null ? undefined : addDays(today, check.validDays - check.checkedDaysAgo),
        },
      );
    }
  }
  const donorId = await createAccount(db, {
    role: "donor",
    email: DEMO_ACCOUNTS.donor,
    password: DEMO_PASSWORD,
    profile: { firstName: "Ayesha", lastName: "Khan", address: "Gulshan-e-Iqbal, Karachi", contactNumber: "03211234567" },
  });
  const riderIds: string[] = [];
  for (const r of DEMO_RIDERS) {
    const id = await createAccount(db, {
      role: "rider",
      email: r.email,
      password: DEMO_PASSWORD,
      profile: { firstName: r.firstName, lastName: r.lastName, contactNumber: r.phone, cnic: r.cnic },
    });
    await db.update(users).set({ verification: "verified", verifiedAt: new Date() }).where(eq(users.id, id));
    const place = await offlineGeocoder.resolve(r.area);
    if (place)
      await db
        .update(riderProfiles)
        .set({ areaLabel: place.label, areaLabelUr: place.labelUr ?? null, areaLat: place.lat, areaLng: place.lng })
        .where(eq(riderProfiles.userId, id));
    riderIds.push(id);
  }
  const volunteerIds: string[] = [];
  for (const v of DEMO_VOLUNTEERS) {
    volunteerIds.push(
      await createAccount(db, {
        role: "donor",
        email: v.email,
        password: DEMO_PASSWORD,
        profile: { firstName: v.firstName, lastName: v.lastName, address: v.address, contactNumber: v.phone },
      }),
    );
  }
  const roshniCampaigns = await seedDemoCampaigns(services, ngoIds, ngoNames, donorId);
  await seedDemoPickups(services, { ngoId: ngoIds[0]!, donorId, riderIds, campaigns: roshniCampaigns });
  await seedDemoVolunteering(services, { ngoId: ngoIds[0]!, donorId, volunteerIds });
  await seedDemoLedger(services, { ngoIds, campaigns: roshniCampaigns });
  await seedDemoUpdates(services, { ngoId: ngoIds[0]!, partnerId: ngoIds[1]!, donorId, campaigns: roshniCampaigns });
  await numberAuditByDate(db);
  log.info("loaded the demo data");
}

/**
 * Updates on two of Roshni's campaigns (one from its partner, one in Urdu, with photos) and the demo donor's words of
 * support, through the product's own functions (decision 050): the Dadu words approved and on the public page, the
 * Tharparkar words waiting in the NGO's moderation screen. Each update is dated back a few days; its mails go to the
 * outbox (the demo's addresses are made up).
 */
async function seedDemoUpdates(
  live: Services,
  demo: { ngoId: string; partnerId: string; donorId: string; campaigns: { dadu: DemoCampaign; thar: DemoCampaign } },
): Promise<void> {
  const services = { ...live, mailer: createMailer({ log: live.log }) };
  const ngo = { id: demo.ngoId, role: "ngo" as const };
  const donor = { id: demo.donorId, role: "donor" as const };
  const { dadu, thar } = demo.campaigns;
  const posts = [
    {
      by: { id: demo.partnerId, role: "ngo" as const },
      campaign: dadu,
      daysAgo: 4,
      body: "The first 120 families in Johi received tents and two weeks of dry rations. Water purification tablets went out with every bag; the next round reaches Khairpur Nathan Shah.",
      photos: ["Tents in Johi", "Ration bags packed"],
    },
    {
      by: ngo,
      campaign: dadu,
      daysAgo: 1,
      body: "آج خیرپور ناتھن شاہ میں مزید 80 خاندانوں تک راشن پہنچا۔ آپ کے تعاون کا شکریہ۔",
      photos: [],
    },
    {
      by: ngo,
      campaign: thar,
      daysAgo: 2,
      body: "Drilling of the second well near Mithi is finished; the hand pump goes in next week.",
      photos: ["Second well drilled"],
    },
  ];
  for (const post of posts) {
    const photos = [];
    for (const title of post.photos) photos.push({ file: await pictureFile(title, "#0e7490"), showsPeople: false, consent: false });
    const { id } = await postUpdate(services, post.by, post.campaign.id, { body: post.body, photos, publish: true });
    await sendUpdateMails(services, id);
    const at = new Date(Date.now() - post.daysAgo * DAY);
    await services.db.update(campaignUpdates).set({ createdAt: at, publishedAt: at, updatedAt: at }).where(eq(campaignUpdates.id, id));
  }
  await writeWords(services, donor, dadu.slug, "May Allah reward everyone helping the families of Dadu. اللہ آپ سب کو جزائے خیر دے۔");
  const [words] = await services.db.select({ id: supportWords.id }).from(supportWords).where(eq(supportWords.campaignId, dadu.id));
  await decideWords(services, ngo, words!.id, "approve");
  await writeWords(services, donor, thar.slug, "Clean water changes everything. Thank you for the updates.");
}

/**
 * The demo's steps run now and are dated afterwards, so their audit entries were written in another order than
 * their dates say. The audit log lists entries in the order they were written (decision 012): number them by
 * date, so that the list reads as the story the demo tells.
 */
async function numberAuditByDate(db: Services["db"]) {
  await db.transaction(async (tx) => {
    // Negative first, so that no new number meets an old one.
    await tx.execute(sql`UPDATE audit_log SET id = -id`);
    await tx.execute(sql`
      UPDATE audit_log SET id = ordered.n
      FROM (SELECT id, row_number() OVER (ORDER BY created_at, id DESC) AS n FROM audit_log) AS ordered
      WHERE audit_log.id = ordered.id`);
    await tx.execute(sql`SELECT setval(pg_get_serial_sequence('audit_log', 'id'), max(id)) FROM audit_log`);
  });
}

export function demoAccountsText(): string {
  const rows = Object.entries(DEMO_ACCOUNTS).map(([role, email]) => `  ${role.padEnd(6)} ${email}`);
  const riders = DEMO_RIDERS.slice(1).map((r) => `  ${"rider".padEnd(6)} ${r.email}`);
  const donors = DEMO_VOLUNTEERS.map((d) => `  ${"donor".padEnd(6)} ${d.email}`);
  return ["Demo accounts (password for all: " + DEMO_PASSWORD + "):", ...rows, ...donors, ...riders].join("\n");
}
