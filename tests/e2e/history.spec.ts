import fs from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { campaigns, donations, ngoProfiles } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

const suffix = () => Math.random().toString(36).slice(2, 7);

/**
 * The NGO's decision, written as decideCashDonation writes it (status, decision time, the NGO's next receipt
 * number, the campaign's total). Playwright's loader cannot import the domain module (it pulls in the JSON
 * strings), and the decision itself has its own integration tests.
 */
async function decide(
  db: Db,
  ngoId: string,
  decision: { donationId: string; approve: true } | { donationId: string; approve: false; reason: string },
): Promise<{ receiptNumber: number | null }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(donations)
      .set({
        status: decision.approve ? "approved" : "rejected",
        rejectionReason: decision.approve ? null : decision.reason,
        decidedBy: ngoId,
        decidedAt: sql`now()`,
      })
      .where(and(eq(donations.id, decision.donationId), eq(donations.recipientNgoId, ngoId), eq(donations.status, "pending")))
      .returning();
    if (!row || !decision.approve) return { receiptNumber: null };
    const [counter] = await tx
      .update(ngoProfiles)
      .set({ receiptCounter: sql`${ngoProfiles.receiptCounter} + 1` })
      .where(eq(ngoProfiles.userId, ngoId))
      .returning({ n: ngoProfiles.receiptCounter });
    await tx.update(donations).set({ receiptNumber: counter!.n }).where(eq(donations.id, row.id));
    await tx
      .update(campaigns)
      .set({ collectedAmount: sql`${campaigns.collectedAmount} + ${row.amount!}` })
      .where(eq(campaigns.id, row.campaignId));
    return { receiptNumber: counter!.n };
  });
}

/** An NGO with a few donations in each state over two campaigns. */
async function ngoScene(db: Db, ngoId: string) {
  await db.update(ngoProfiles).set({ registrationNumber: "REG-E2E-77" }).where(eq(ngoProfiles.userId, ngoId));
  const water = await makeCampaign(db, ngoId, { title: `Water pumps Thar ${suffix()}`, targetAmount: 10_000_000 });
  const school = await makeCampaign(db, ngoId, { title: `Books for Swat ${suffix()}`, targetAmount: 10_000_000 });
  const sana = await makeUser(db, "donor", { name: "Sana" });
  const omar = await makeUser(db, "donor", { name: "Omar" });
  const approvedWater = await makeDonation(db, water, sana.id, { amount: 2500, transactionId: "TXWATER1" });
  const approvedSchool = await makeDonation(db, school, omar.id, { amount: 4000 });
  const rejected = await makeDonation(db, water, omar.id, { amount: 900 });
  const pending = await makeDonation(db, school, sana.id, { amount: 600 });
  await decide(db, ngoId, { donationId: approvedWater.id, approve: true });
  await decide(db, ngoId, { donationId: approvedSchool.id, approve: true });
  await decide(db, ngoId, { donationId: rejected.id, approve: false, reason: "Screenshot was cut off" });
  return { water, school, approvedWater, approvedSchool, rejected, pending };
}

test("a donor sees approved and rejected donations with the reason, and downloads the receipt", async ({ page, login, db, playwright }) => {
  const donor = await login({ role: "donor" });
  const ngo = await makeUser(db, "ngo", { name: `Hope Trust ${suffix()}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Clean water Tharparkar ${suffix()}`, targetAmount: 10_000_000 });
  const approved = await makeDonation(db, campaign, donor.id, { amount: 4321, method: "easypaisa" });
  const rejected = await makeDonation(db, campaign, donor.id, { amount: 1234 });
  const { receiptNumber } = await decide(db, ngo.id, { donationId: approved.id, approve: true });
  await decide(db, ngo.id, { donationId: rejected.id, approve: false, reason: "Transfer not found in our account" });
  const number = String(receiptNumber).padStart(6, "0");

  await page.goto("/dvh");
  await expect(page.getByRole("heading", { level: 1, name: "My donations" })).toBeVisible();
  const approvedCard = page.locator(`[data-donation="${approved.id}"]`);
  const rejectedCard = page.locator(`[data-donation="${rejected.id}"]`);
  await expect(approvedCard).toContainText("Approved");
  await expect(approvedCard).toContainText("Rs. 4,321");
  await expect(approvedCard).toContainText("Easypaisa");
  await expect(approvedCard).toContainText(`Receipt no. ${number}`);
  await expect(approvedCard.getByRole("link", { name: campaign.title })).toHaveAttribute("href", `/campaign/${campaign.slug}`);
  await expect(rejectedCard).toContainText("Rejected");
  await expect(rejectedCard).toContainText("Transfer not found in our account");
  await expect(rejectedCard.getByRole("link", { name: /Download receipt/ })).toHaveCount(0);
  await expectAccessible(page);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    approvedCard.getByRole("link", { name: `Download receipt ${number} (PDF)` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`ek-chhat-receipt-${number}.pdf`);
  const file = fs.readFileSync((await download.path())!);
  expect(file.subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // The same receipt: not for another donor (404, as if it did not exist), not for the rejected donation.
  const as = async (userId: string) =>
    playwright.request.newContext({
      baseURL: baseUrl(),
      extraHTTPHeaders: { cookie: `${SESSION_COOKIE}=${(await createSession(db, userId)).token}` },
    });
  const stranger = await makeUser(db, "donor");
  const strangerResponse = await (await as(stranger.id)).get(`/receipts/${approved.id}`);
  expect(strangerResponse.status()).toBe(404);
  expect(strangerResponse.headers()["content-type"]).not.toContain("pdf");
  const ngoResponse = await (await as(ngo.id)).get(`/receipts/${approved.id}`);
  expect(ngoResponse.status()).toBe(200);
  expect(ngoResponse.headers()["content-type"]).toBe("application/pdf");
  expect(ngoResponse.headers()["cache-control"]).toBe("private, no-store");
  expect(ngoResponse.headers()["content-disposition"]).toBe(`attachment; filename="ek-chhat-receipt-${number}.pdf"`);
  expect((await (await as(donor.id)).get(`/receipts/${rejected.id}`)).status()).toBe(404);
});

test("a donor with no donations is shown where to start", async ({ page, login }) => {
  await login({ role: "donor" });
  await page.goto("/dvh");
  await expect(page.getByText("You have not made a donation yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Choose a campaign to donate to" })).toHaveAttribute("href", "/donate1");
});

test("the NGO filters its history by state and campaign, sees totals and exports CSV", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const scene = await ngoScene(db, ngo.id);
  // Another NGO's donation never shows.
  const otherNgo = await makeUser(db, "ngo");
  const otherCampaign = await makeCampaign(db, otherNgo.id, { title: `Elsewhere ${suffix()}` });
  const elsewhere = await makeDonation(db, otherCampaign, (await makeUser(db, "donor")).id, { amount: 55_555 });

  await page.goto("/donHistory");
  await expect(page.getByRole("heading", { level: 1, name: "Donation history" })).toBeVisible();
  const totals = page.getByRole("region", { name: "Totals" });
  await expect(totals.locator('[data-total="approved"]')).toHaveText("Rs. 6,500");
  await expect(totals.locator('[data-total="pending"]')).toHaveText("Rs. 600");
  await expect(totals.locator('[data-total="count"]')).toHaveText("4");
  await expect(totals.locator('[data-count="rejected"]')).toContainText("1");
  const table = page.getByRole("region", { name: /Donations received/ });
  await expect(table.locator("tbody tr")).toHaveCount(4);
  await expect(page.locator(`[data-donation="${elsewhere.id}"]`)).toHaveCount(0);
  await expect(page.locator(`[data-donation="${scene.rejected.id}"]`)).toContainText("Screenshot was cut off");
  await expectAccessible(page);

  await page.getByLabel("State", { exact: true }).selectOption("approved");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=approved/);
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(totals.locator('[data-total="approved"]')).toHaveText("Rs. 6,500");
  await expect(totals.locator('[data-total="pending"]')).toHaveText("Rs. 0");
  await expect(page.locator(`[data-donation="${scene.approvedWater.id}"]`).getByRole("link", { name: /Download receipt/ })).toBeVisible();

  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: scene.water.title });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`campaign=${scene.water.id}`));
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table).toContainText("TXWATER1");
  await expect(totals.locator('[data-total="approved"]')).toHaveText("Rs. 2,500");

  const exportLink = page.getByRole("link", { name: "Export CSV" });
  await expect(exportLink).toHaveAttribute("href", `/donHistory/export?campaign=${scene.water.id}&status=approved`);
  const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^donations-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const lines = csv.slice(1).trim().split("\r\n");
  expect(lines[0]).toBe(
    '"Date","Receipt number","Campaign","Donor name","Donor email","Kind","Method","Amount (Rs.)","Items","Transaction ID","State","Pick-up state","Reason"',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`"${scene.water.title}"`);
  expect(lines[1]).toContain('"2500","","TXWATER1","Approved",""');
  expect(csv).not.toContain("55555");

  // Everything, unfiltered: all four rows.
  const all = await page.request.get("/donHistory/export?sort=amountDesc");
  expect(all.headers()["cache-control"]).toBe("private, no-store");
  expect(all.headers()["content-disposition"]).toMatch(/^attachment; filename="donations-\d{4}-\d{2}-\d{2}\.csv"$/);
  const rows = (await all.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n")
    .slice(1);
  expect(rows.map((r) => r.split('","')[7])).toEqual(["4000", "2500", "900", "600"]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the NGO's history filter form works", async ({ page, login, db }) => {
    const ngo = await login({ role: "ngo" });
    const scene = await ngoScene(db, ngo.id);
    await page.goto("/donHistory");
    await expect(page.locator("tbody tr")).toHaveCount(4);
    await page.getByLabel("State", { exact: true }).selectOption("rejected");
    await page.getByLabel("Sort by").selectOption("amountAsc");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/status=rejected/);
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expect(page.locator(`[data-donation="${scene.rejected.id}"]`)).toContainText("Screenshot was cut off");
    await expect(page.getByLabel("State", { exact: true })).toHaveValue("rejected");
    await expect(page.getByLabel("Sort by")).toHaveValue("amountAsc");

    await page.getByLabel("State", { exact: true }).selectOption("");
    await page.getByLabel("Campaign", { exact: true }).selectOption({ label: scene.school.title });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("tbody tr")).toHaveCount(2);
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", new RegExp(`campaign=${scene.school.id}`));
  });
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("both histories fit the screen; the NGO's table scrolls sideways inside its own region", async ({ page, login, db }) => {
    const ngo = await login({ role: "ngo" });
    await ngoScene(db, ngo.id);
    await page.goto("/donHistory");
    const table = page.getByRole("region", { name: /Donations received/ });
    await expect(table).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await expect(page.getByText("Scroll sideways to see every column.")).toBeVisible();
    await page.screenshot({ path: "/tmp/pw-history/ngo-360.png", fullPage: true });

    const donor = await login({ role: "donor" });
    const campaign = await makeCampaign(db, ngo.id, { title: `A rather long campaign title for phones ${suffix()}` });
    const d = await makeDonation(db, campaign, donor.id, { amount: 1_250_000 });
    await decide(db, ngo.id, {
      donationId: d.id,
      approve: false,
      reason: "A long reason that has to wrap on a small phone screen without overflowing",
    });
    await page.goto("/dvh");
    await expect(page.locator(`[data-donation="${d.id}"]`)).toContainText("Rs. 1,250,000");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: "/tmp/pw-history/dvh-360.png", fullPage: true });

    // Urdu, right to left: still no sideways scrolling of the page.
    await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await page.goto("/dvh");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator(`[data-donation="${d.id}"]`)).toContainText("مسترد");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: "/tmp/pw-history/dvh-360-ur.png", fullPage: true });
  });
});
