import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { auditLog, campaigns, donationReplies, donations, ngoProfiles, notifications } from "#server/db/schema.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { makeCampaign, makeCashDonation, makeProofPng } from "#tests/helpers/factories.ts";
import { e2ePort } from "./env.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

/** The server under test keeps its files here (see playwright.config.ts), so proofs made here load in its pages. */
const storage = () => createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

async function withAccounts(db: Db, ngoId: string) {
  await db
    .update(ngoProfiles)
    .set({
      jazzcashNumber: "03001112223",
      easypaisaNumber: "03004445556",
      bankName: "HBL",
      bankAccountTitle: "Test NGO",
      bankAccountNumber: "PK36SCBL0000001123456702",
    })
    .where(eq(ngoProfiles.userId, ngoId));
}

async function donationRow(db: Db, id: string) {
  const [row] = await db.select().from(donations).where(eq(donations.id, id));
  return row!;
}

async function collected(db: Db, campaignId: string) {
  const [row] = await db
    .select({ n: campaigns.collectedAmount, status: campaigns.status })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  return row!;
}

async function auditCount(db: Db, donationId: string, action: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(and(eq(auditLog.action, action), sql`${auditLog.details}->>'donationId' = ${donationId}`));
  return row!.n;
}

async function notificationCount(db: Db, userId: string, type: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
  return row!.n;
}

/** A plain form POST as a browser without this page's JavaScript would send it (the Origin check wants the site's own). */
function postDecision(page: Page, form: Record<string, string>) {
  return page.request.post("/apps", { form, headers: { Origin: baseUrl() }, maxRedirects: 0 });
}

const imageLoaded = (page: Page) =>
  page
    .getByRole("dialog")
    .getByRole("img")
    .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));

test("the NGO reviews its own queue: oldest first, filter, the proof in a dialog, approve and disapprove", async ({
  page,
  db,
  login,
  account,
}) => {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo", name: `Roshni ${tag}` });
  await withAccounts(db, ngo.id);
  const donor = await account({ role: "donor", name: `Ayesha ${tag}` });
  const donorName = `Ayesha ${tag} Donor`;
  const water = await makeCampaign(db, ngo.id, { title: `Clean water ${tag}` });
  const books = await makeCampaign(db, ngo.id, { title: `School books ${tag}` });
  const services = { db, storage: storage() };
  const first = await makeCashDonation(services, water, donor.id, {
    amount: 1500,
    method: "jazzcash",
    transactionId: `TXA${tag}`.toUpperCase(),
    createdAt: minutesAgo(30),
  });
  const second = await makeCashDonation(services, books, donor.id, {
    amount: 2500,
    method: "easypaisa",
    transactionId: `TXB${tag}`.toUpperCase(),
    createdAt: minutesAgo(20),
  });
  await makeCashDonation(services, water, donor.id, {
    amount: 700,
    method: "bank",
    transactionId: `TXC${tag}`.toUpperCase(),
    createdAt: minutesAgo(10),
  });
  // Paid to another NGO: never on this NGO's queue.
  const otherNgo = await account({ role: "ngo", name: `Other ${tag}` });
  const otherCampaign = await makeCampaign(db, otherNgo.id, { title: `Elsewhere ${tag}` });
  const otherDonor = await account({ role: "donor", name: `Zainab ${tag}` });
  await makeCashDonation(services, otherCampaign, otherDonor.id, { amount: 999, createdAt: minutesAgo(40) });

  await page.goto("/apps");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Donations to review");
  const list = page.getByRole("list", { name: "Donations waiting for review" });
  const cards = list.getByRole("article");
  await expect(cards).toHaveCount(3);
  await expect(cards.nth(0)).toContainText("Rs. 1,500");
  await expect(cards.nth(0)).toContainText("JazzCash");
  await expect(cards.nth(0)).toContainText(`Clean water ${tag}`);
  await expect(cards.nth(0)).toContainText(donorName);
  await expect(cards.nth(0).locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expect(cards.nth(1)).toContainText("Rs. 2,500");
  await expect(cards.nth(1)).toContainText("Easypaisa");
  await expect(cards.nth(2)).toContainText("Rs. 700");
  await expect(cards.nth(2)).toContainText("Bank Transfer");
  await expect(page.getByText(`Zainab ${tag}`)).toHaveCount(0);
  await expect(page.getByText("Rs. 999")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Waiting for review: 3" })).toBeVisible();
  await expectAccessible(page);

  // Filter by campaign (a GET form).
  await page.getByLabel("Campaign").selectOption({ label: `School books ${tag}` });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`campaign=${books.id}`));
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("Rs. 2,500");
  await page.getByLabel("Campaign").selectOption({ label: "All campaigns" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(cards).toHaveCount(3);

  // View opens the dialog with the proof and every detail; focus moves into it.
  const viewFirst = page.getByRole("link", { name: `View the donation of Rs. 1,500 from ${donorName}` });
  await viewFirst.click();
  await expect(page).toHaveURL(new RegExp(`view=${first.id}`));
  const dialog = page.getByRole("dialog", { name: `Donation from ${donorName}` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog).toBeFocused();
  await expect.poll(() => imageLoaded(page)).toBeGreaterThan(0);
  await expect(dialog.getByRole("img")).toHaveAttribute("src", `/files/${first.proofKey}`);
  await expect(dialog).toContainText("03001234567");
  await expect(dialog).toContainText("Rs. 1,500");
  await expect(dialog).toContainText("JazzCash");
  await expect(dialog).toContainText(first.transactionId!);
  await expect(dialog).toContainText(donor.email);
  await expect(dialog).toContainText(`Clean water ${tag}`);
  await expect(dialog.getByRole("link", { name: /Open full size/ })).toHaveAttribute("href", `/files/${first.proofKey}`);
  await expectAccessible(page);
  // Zoom toggles a larger view.
  await dialog.getByRole("button", { name: "Zoom in" }).click();
  await expect(dialog.locator("[data-zoomed]")).toHaveAttribute("data-zoomed", "true");
  await dialog.getByRole("button", { name: "Zoom out" }).click();
  await expect(dialog.locator("[data-zoomed]")).toHaveAttribute("data-zoomed", "false");

  // Escape closes it and focus returns to the View link; a reload keeps an open dialog open.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(page).not.toHaveURL(/view=/);
  await expect(viewFirst).toBeFocused();
  await viewFirst.click();
  await expect(dialog).toBeVisible();
  await page.reload();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("link", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
  await viewFirst.click();

  // Approve: counted once, audited, the donor told.
  const before = (await collected(db, water.id)).n;
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText("The donation was approved and added to the campaign. The donor was told.");
  await expect(dialog).toHaveCount(0);
  await expect(cards).toHaveCount(2);
  const approved = await donationRow(db, first.id);
  expect(approved.status).toBe("approved");
  expect(approved.decidedBy).toBe(ngo.id);
  expect(approved.receiptNumber).not.toBeNull();
  expect((await collected(db, water.id)).n).toBe(before + 1500);
  expect(await auditCount(db, first.id, "donation.approved")).toBe(1);
  expect(await notificationCount(db, donor.id, "donationApproved")).toBe(1);

  // Disapprove asks for a reason first; an empty one changes nothing.
  await page.getByRole("link", { name: `View the donation of Rs. 2,500 from ${donorName}` }).click();
  const secondDialog = page.getByRole("dialog", { name: `Donation from ${donorName}` });
  await secondDialog.getByText("Disapprove", { exact: true }).click();
  await secondDialog.getByRole("button", { name: "Disapprove with this reason" }).click();
  await expect(secondDialog.getByText("Please give a reason for the donor.")).toBeVisible();
  const reasonField = secondDialog.getByLabel("Reason for disapproving (the donor will see it)");
  await expect(reasonField).toHaveAttribute("aria-invalid", "true");
  expect((await donationRow(db, second.id)).status).toBe("pending");
  await expectAccessible(page);
  const reason = `No payment of Rs. 2,500 reached our Easypaisa account ${tag}`;
  await reasonField.fill(reason);
  await secondDialog.getByRole("button", { name: "Disapprove with this reason" }).click();
  await expect(page.getByRole("status")).toHaveText("The donation was disapproved and the donor was told the reason.");
  await expect(cards).toHaveCount(1);
  const rejected = await donationRow(db, second.id);
  expect(rejected.status).toBe("rejected");
  expect(rejected.rejectionReason).toBe(reason);
  expect(await auditCount(db, second.id, "donation.rejected")).toBe(1);
  expect(await notificationCount(db, donor.id, "donationRejected")).toBe(1);
  expect((await collected(db, books.id)).n).toBe(0);

  // A decided donation opened by its link shows its state instead of the buttons.
  await page.goto(`/apps?view=${second.id}`);
  await expect(page.getByRole("dialog")).toContainText("This donation was already decided: Rejected.");
  await expect(page.getByRole("dialog")).toContainText(reason);
  await expect(page.getByRole("dialog").getByRole("button", { name: "Approve" })).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});

test("an approval that reaches the target moves the campaign to Successful", async ({ page, db, login, account }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor", name: `Hamza ${tag}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Roof repair ${tag}`, targetAmount: 5000, collectedAmount: 3000 });
  const donation = await makeCashDonation({ db, storage: storage() }, campaign, donor.id, { amount: 2000 });

  await page.goto(`/apps?view=${donation.id}`);
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText("The donation was approved. The campaign reached its target and moved to Successful.");
  expect(await collected(db, campaign.id)).toEqual({ n: 5000, status: "completed" });

  await page.goto("/comp_camp");
  await expect(page.getByRole("heading", { name: `Roof repair ${tag}` })).toBeVisible();
  await page.goto("/campaigns");
  await expect(page.getByRole("heading", { name: `Roof repair ${tag}` })).toHaveCount(0);
});

test("a dialog scrolled to its Approve button before the page hydrated stays where the reader put it", async ({
  page,
  db,
  login,
  account,
}) => {
  // On a slow phone the reader scrolls to Approve and taps while the JavaScript still starts; the dialog's focus on
  // hydration used to scroll it back to the top, so the tap landed beside the button and nothing happened.
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor" });
  const campaign = await makeCampaign(db, ngo.id, { targetAmount: 100_000 });
  const donation = await makeCashDonation({ db, storage: storage() }, campaign, donor.id, { amount: 700 });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/apps?view=${donation.id}`, { waitUntil: "domcontentloaded" });
  const dialog = page.getByRole("dialog");
  const approve = dialog.getByRole("button", { name: "Approve" });
  await approve.scrollIntoViewIfNeeded();
  const before = (await approve.boundingBox())!;
  expect(await dialog.locator("xpath=..").evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  release();
  // Hydrated: the dialog's effect has moved focus into it, and the button is still under the finger.
  await expect(dialog).toBeFocused();
  const after = (await approve.boundingBox())!;
  expect(Math.abs(after.y - before.y)).toBeLessThan(2);
  await approve.click();
  await expect(page.getByRole("status")).toHaveText("The donation was approved and added to the campaign. The donor was told.");
});

test("an approval from a page opened before the donor's correction is refused, and the new proof is shown", async ({
  page,
  db,
  login,
  account,
}) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor", name: `Sana ${tag}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Stale page ${tag}`, targetAmount: 100_000 });
  const donation = await makeCashDonation({ db, storage: storage() }, campaign, donor.id, { amount: 2000 });
  await page.goto(`/apps?view=${donation.id}`);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("button", { name: "Approve" })).toBeVisible();

  // Meanwhile (another tab) it was disapproved and the donor answered with a corrected proof: pending again.
  await db.insert(donationReplies).values({
    donationId: donation.id,
    message: "The right screenshot this time.",
    rejectionReason: "Wrong account.",
    previousTransactionId: donation.transactionId,
    idempotencyKey: randomUUID(),
  });
  await db
    .update(donations)
    .set({ transactionId: `NEW${tag}` })
    .where(eq(donations.id, donation.id));

  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "The donor sent a corrected proof after you opened this gift. Nothing was changed: please review the new proof.",
  );
  expect((await donationRow(db, donation.id)).status).toBe("pending");
  expect(await collected(db, campaign.id)).toEqual({ n: 0, status: "active" });
  // The page shown now is the corrected one: its approval counts.
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText("The donation was approved and added to the campaign. The donor was told.");
  expect(await collected(db, campaign.id)).toEqual({ n: 2000, status: "active" });
});

test("two approvals of one donation sent at once count once", async ({ page, db, login, account }) => {
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor" });
  const campaign = await makeCampaign(db, ngo.id);
  const donation = await makeCashDonation({ db, storage: storage() }, campaign, donor.id, { amount: 1234 });
  await page.goto("/apps");

  const answers = await Promise.all([
    postDecision(page, { intent: "approve", donationId: donation.id, round: "0" }),
    postDecision(page, { intent: "approve", donationId: donation.id, round: "0" }),
  ]);
  expect(answers.map((a) => a.status())).toEqual([302, 302]);
  const notices = answers.map((a) => new URL(a.headers()["location"]!, baseUrl()).searchParams.get("notice")).sort();
  expect(notices).toEqual(["alreadyDecided", "approved"]);
  expect((await donationRow(db, donation.id)).status).toBe("approved");
  expect((await collected(db, campaign.id)).n).toBe(1234);
  expect(await auditCount(db, donation.id, "donation.approved")).toBe(1);
  expect(await notificationCount(db, donor.id, "donationApproved")).toBe(1);

  // The one that lost is told, not shown an error page.
  await page.goto(
    new URL(answers.find((a) => a.headers()["location"]!.includes("alreadyDecided"))!.headers()["location"]!, baseUrl()).toString(),
  );
  await expect(page.getByRole("dialog")).toContainText(
    "This donation had already been decided, perhaps in another tab. Nothing was changed.",
  );
  await expect(page.getByRole("dialog")).toContainText("This donation was already decided: Approved.");
});

test("another NGO can neither see nor decide a donation paid to the first", async ({ page, db, login, account }) => {
  const tag = randomUUID().slice(0, 8);
  const owner = await account({ role: "ngo" });
  const donor = await account({ role: "donor", name: `Private ${tag}` });
  const campaign = await makeCampaign(db, owner.id);
  const donation = await makeCashDonation({ db, storage: storage() }, campaign, donor.id, {
    amount: 4321,
    transactionId: `TXP${tag}`.toUpperCase(),
  });
  await login({ role: "ngo" });

  const response = await page.goto(`/apps?view=${donation.id}`);
  expect(response!.status()).toBe(404);
  const dialog = page.getByRole("dialog", { name: "Donation not found" });
  await expect(dialog).toContainText("This donation does not exist, or it was not paid to your NGO.");
  await expect(page.locator("body")).not.toContainText(`Private ${tag}`);
  await expect(page.locator("body")).not.toContainText(donation.transactionId!);
  await expect(page.locator("body")).not.toContainText("03001234567");
  expect((await page.request.get(`/files/${donation.proofKey}`)).status()).toBe(404);

  const approve = await postDecision(page, { intent: "approve", donationId: donation.id, round: "0" });
  expect(approve.status()).toBe(404);
  const reject = await postDecision(page, { intent: "reject", donationId: donation.id, round: "0", reason: "Not ours" });
  expect(reject.status()).toBe(404);
  const row = await donationRow(db, donation.id);
  expect(row.status).toBe("pending");
  expect(row.decidedBy).toBeNull();
  expect((await collected(db, campaign.id)).n).toBe(0);
  expect(await auditCount(db, donation.id, "donation.approved")).toBe(0);

  // Its own queue is empty.
  await page.goto("/apps");
  await expect(page.getByText("No cash donations are waiting for your review.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Waiting for review: 0" })).toBeVisible();

  // A malformed id is the same "not found", never a server error.
  expect((await page.goto("/apps?view=not-a-uuid"))!.status()).toBe(404);
  expect((await postDecision(page, { intent: "approve", donationId: "1 or 1=1" })).status()).toBe(400);
});

test("a reused transaction ID or screenshot is flagged in the list and explained in the dialog", async ({ page, db, login, account }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo" });
  const services = { db, storage: storage() };
  const campaign = await makeCampaign(db, ngo.id, { title: `Flood relief ${tag}` });
  const alice = await account({ role: "donor", name: `Alia ${tag}` });
  const bilal = await account({ role: "donor", name: `Bilal ${tag}` });
  const otherNgo = await account({ role: "ngo" });
  const otherCampaign = await makeCampaign(db, otherNgo.id, { title: `Hidden ${tag}` });
  const sharedTx = `TXDUP${tag}`.toUpperCase();
  const seed = Math.floor(Math.random() * 1_000_000);

  await makeCashDonation(services, campaign, alice.id, { amount: 100, transactionId: sharedTx, createdAt: minutesAgo(50) });
  await makeCashDonation(services, otherCampaign, alice.id, { amount: 100, transactionId: sharedTx, createdAt: minutesAgo(45) });
  const reused = await makeCashDonation(services, campaign, bilal.id, { amount: 200, transactionId: sharedTx, createdAt: minutesAgo(40) });
  await makeCashDonation(services, campaign, alice.id, { amount: 300, proof: await makeProofPng(seed), createdAt: minutesAgo(30) });
  await makeCashDonation(services, campaign, alice.id, { amount: 400, proof: await makeProofPng(seed), createdAt: minutesAgo(20) });
  await makeCashDonation(services, campaign, bilal.id, { amount: 500, createdAt: minutesAgo(10) });

  await page.goto("/apps");
  const card = (amount: string) => page.getByRole("article").filter({ hasText: amount });
  const txBadge = "Transaction ID used before";
  const imageBadge = "Same screenshot used before";
  await expect(card("Rs. 100")).toContainText(txBadge);
  await expect(card("Rs. 200")).toContainText(txBadge);
  await expect(card("Rs. 200")).not.toContainText(imageBadge);
  await expect(card("Rs. 300")).toContainText(imageBadge);
  await expect(card("Rs. 400")).toContainText(imageBadge);
  await expect(card("Rs. 400")).not.toContainText(txBadge);
  await expect(card("Rs. 500")).not.toContainText(txBadge);
  await expect(card("Rs. 500")).not.toContainText(imageBadge);
  await expect(card("Rs. 500").getByRole("list", { name: "Checks and warnings" })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole("link", { name: `View the donation of Rs. 200 from Bilal ${tag} Donor` }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(txBadge);
  await expect(dialog).toContainText("Another donation gave the same transaction ID.");
  const related = dialog.getByRole("listitem").filter({ has: page.locator("time") });
  await expect(related).toHaveCount(2);
  await expect(related.filter({ hasText: `Flood relief ${tag}` })).toContainText("Pending review, ");
  await expect(related.filter({ hasText: `Flood relief ${tag}` })).toContainText("a different donor");
  await expect(related.filter({ hasText: "paid to another NGO" })).toHaveCount(1);
  await expect(dialog).not.toContainText(`Hidden ${tag}`);

  await page.goto("/apps");
  await page.getByRole("link", { name: `View the donation of Rs. 400 from Alia ${tag} Donor` }).click();
  await expect(dialog).toContainText(imageBadge);
  await expect(dialog).toContainText("the same donor");
  expect(reused.transactionId).toBe(sharedTx);
});

test("the dialog is usable on a 360 px phone", async ({ page, db, login, account }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor" });
  const campaign = await makeCampaign(db, ngo.id, { title: `A rather long campaign title for phones ${randomUUID().slice(0, 6)}` });
  const donation = await makeCashDonation({ db, storage: storage() }, campaign, donor.id, { amount: 2750 });
  await page.goto("/apps");
  const noOverflow = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await noOverflow()).toBe(true);
  await page.getByRole("link", { name: /^View the donation of Rs\. 2,750/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  expect(await noOverflow()).toBe(true);
  // The dialog is taller than the screen and scrolls (its backdrop does), down to its buttons.
  const backdrop = dialog.locator("..");
  expect(await backdrop.evaluate((el) => el.scrollHeight > el.clientHeight && getComputedStyle(el).overflowY === "auto")).toBe(true);
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText("The donation was approved and added to the campaign. The donor was told.");
  expect((await donationRow(db, donation.id)).status).toBe("approved");
});

test("the queue pages, and the dialog and decisions keep the page", async ({ page, db, login, account }) => {
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor" });
  const campaign = await makeCampaign(db, ngo.id);
  const services = { db, storage: storage() };
  // One more than a page (PAGE_SIZE is 10), the newest on page 2.
  for (let i = 0; i < 11; i++) {
    await makeCashDonation(services, campaign, donor.id, { amount: 100 + i, createdAt: minutesAgo(60 - i) });
  }
  await page.goto("/apps");
  const cards = page.getByRole("list", { name: "Donations waiting for review" }).getByRole("article");
  await expect(cards).toHaveCount(10);
  await expect(cards.first()).toContainText("Rs. 100");
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await page.getByRole("link", { name: "Next" }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("Rs. 110");

  await page.getByRole("link", { name: /^View the donation of Rs\. 110/ }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page).toHaveURL(/view=/);
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText("The donation was approved and added to the campaign. The donor was told.");
  // Page 2 emptied: the list shows the page that is now last.
  await expect(page).toHaveURL(/page=2/);
  await expect(cards).toHaveCount(10);
  await expect(page.getByText("Page 1 of 2")).toHaveCount(0);
});

test("the Urdu review screen renders right to left", async ({ page, db, login, account }) => {
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor" });
  const campaign = await makeCampaign(db, ngo.id);
  const donation = await makeCashDonation({ db, storage: storage() }, campaign, donor.id);
  await page.goto("/apps");
  await page.getByRole("button", { name: "اردو" }).click();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("جائزے کے لیے عطیات");
  await page.goto(`/apps?view=${donation.id}`);
  await expect(page.getByRole("dialog").getByRole("button", { name: "منظور کریں" })).toBeVisible();
  await expectAccessible(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("approve, and disapprove with a reason, work as plain forms", async ({ page, db, login, account }) => {
    const tag = randomUUID().slice(0, 8);
    const ngo = await login({ role: "ngo" });
    const donor = await account({ role: "donor", name: `Nojs ${tag}` });
    const services = { db, storage: storage() };
    const campaign = await makeCampaign(db, ngo.id);
    const one = await makeCashDonation(services, campaign, donor.id, { amount: 1100, createdAt: minutesAgo(30) });
    const two = await makeCashDonation(services, campaign, donor.id, { amount: 2200, createdAt: minutesAgo(20) });
    const three = await makeCashDonation(services, campaign, donor.id, { amount: 3300, createdAt: minutesAgo(10) });
    const name = `Nojs ${tag} Donor`;

    await page.goto("/apps");
    await page.getByRole("link", { name: `View the donation of Rs. 1,100 from ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: `Donation from ${name}` });
    await expect(dialog).toBeVisible();
    await expect.poll(() => imageLoaded(page)).toBeGreaterThan(0);
    await dialog.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("status")).toHaveText("The donation was approved and added to the campaign. The donor was told.");
    expect((await donationRow(db, one.id)).status).toBe("approved");
    expect((await collected(db, campaign.id)).n).toBe(1100);

    await page.getByRole("link", { name: `View the donation of Rs. 2,200 from ${name}` }).click();
    await dialog.getByText("Disapprove", { exact: true }).click();
    // The browser's own check stops an empty reason; spaces reach the server, which refuses them.
    const reasonField = dialog.getByLabel("Reason for disapproving (the donor will see it)");
    await reasonField.fill("   ");
    await dialog.getByRole("button", { name: "Disapprove with this reason" }).click();
    await expect(dialog.getByText("Please give a reason for the donor.")).toBeVisible();
    await expect(reasonField).toHaveAttribute("aria-invalid", "true");
    expect((await donationRow(db, two.id)).status).toBe("pending");
    await reasonField.fill("The transaction ID does not match our statement");
    await dialog.getByRole("button", { name: "Disapprove with this reason" }).click();
    await expect(page.getByRole("status")).toHaveText("The donation was disapproved and the donor was told the reason.");
    const rejected = await donationRow(db, two.id);
    expect(rejected.status).toBe("rejected");
    expect(rejected.rejectionReason).toBe("The transaction ID does not match our statement");

    // Decided in another tab while this one was open: a clear notice, not an error page.
    await page.getByRole("link", { name: `View the donation of Rs. 3,300 from ${name}` }).click();
    await expect(dialog).toBeVisible();
    expect((await postDecision(page, { intent: "approve", donationId: three.id, round: "0" })).status()).toBe(302);
    await dialog.getByText("Disapprove", { exact: true }).click();
    await dialog.getByLabel("Reason for disapproving (the donor will see it)").fill("Too late");
    await dialog.getByRole("button", { name: "Disapprove with this reason" }).click();
    await expect(page.getByRole("dialog")).toContainText(
      "This donation had already been decided, perhaps in another tab. Nothing was changed.",
    );
    await expect(page.getByRole("dialog")).toContainText("This donation was already decided: Approved.");
    expect((await donationRow(db, three.id)).status).toBe("approved");
    expect((await collected(db, campaign.id)).n).toBe(1100 + 3300);
    await page.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});
