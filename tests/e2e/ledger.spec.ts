import { eq } from "drizzle-orm";
import { spendingRecords } from "#server/db/schema.ts";
import { makeCampaign, makeDonation, makePickup, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { makeHostilePdf } from "#tests/helpers/ledger.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

/**
 * The public ledger (issue 18, item 2; decision 049): an NGO records spending with its invoice and publishes it; a
 * signed-out visitor on a phone reads the balances per fund and the entries, in English and Urdu.
 */

const unique = () => Math.random().toString(36).slice(2, 8);

test.describe("spending and the public ledger", () => {
  test("an NGO records spending with its invoice, publishes it, and a visitor on a phone reads it on the ledger in both languages", async ({
    page,
    db,
    login,
    browser,
  }) => {
    const ngo = await login({ role: "ngo", name: `Roshni Trust ${unique()}` });
    const campaign = await makeCampaign(db, ngo.id, { title: `Flood relief ${unique()}` });
    const named = await makeUser(db, "donor", { name: `Farah ${unique()}` });
    const hidden = await makeUser(db, "donor", { name: `Zubair${unique()}` });
    await makeDonation(db, campaign, named.id, {
      amount: 20_000,
      fund: "zakat",
      showName: true,
      status: "approved",
      decidedAt: new Date(),
    });
    await makeDonation(db, campaign, hidden.id, { amount: 5_000, fund: "sadaqah", status: "approved", decidedAt: new Date() });
    await makePickup(db, campaign, named.id, { items: "30 blankets", status: "received" });

    // From the campaign list to its spending screen.
    await page.goto("/campaigns");
    await page.getByRole("link", { name: `Spending of “${campaign.title}”` }).click();
    await expect(page).toHaveURL(`/campaigns/${campaign.id}/spending`);
    await page.getByLabel("Fund").selectOption({ label: "Zakat" });
    await page.getByLabel("Amount (Rs.)").fill("12,000");
    await page.getByLabel("Date spent").fill("2026-03-10");
    await page.getByLabel("What it was for").fill("Ration bags for 40 families");
    await page
      .getByLabel("Invoice or receipt")
      .setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: makeHostilePdf() });
    await page.getByRole("button", { name: "Save as draft" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved as a draft. Check it, then publish it.");
    const record = page.getByTestId("spending-record");
    await expect(record).toHaveAttribute("data-status", "draft");
    await expect(record).toContainText("Rs. 12,000");
    await expectAccessible(page);

    // Not public while a draft.
    const visitor = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const phone = await visitor.newPage();
    await phone.goto(`/campaign/${campaign.slug}`);
    await expect(phone.getByTestId("ledger-spending")).toHaveCount(0);

    await record.getByLabel(/I confirm that the document shows no private data/).check();
    await record.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("status")).toHaveText("Published on the campaign's public ledger.");
    await expect(record).toHaveAttribute("data-status", "published");
    const [row] = await db.select().from(spendingRecords).where(eq(spendingRecords.campaignId, campaign.id));
    expect(row).toMatchObject({ status: "published", fund: "zakat", amount: 12_000, publishedBy: ngo.id });

    // A signed-out visitor on a 360-pixel phone.
    await phone.reload();
    const ledger = phone.getByRole("region", { name: "Public ledger" });
    const balances = ledger.getByTestId("fund-balances");
    await expect(balances.locator('tr[data-fund="zakat"]')).toContainText(/Rs\. 20,000\s*Rs\. 12,000\s*Rs\. 8,000/);
    await expect(balances.locator('tr[data-fund="sadaqah"]')).toContainText(/Rs\. 5,000\s*Rs\. 0\s*Rs\. 5,000/);
    await expect(ledger.getByTestId("ledger-spending")).toContainText("Ration bags for 40 families");
    await expect(ledger.getByTestId("ledger-gifts")).toContainText("Farah");
    await expect(ledger.getByTestId("ledger-gifts")).toContainText("Anonymous");
    await expect(ledger.getByTestId("ledger-goods")).toContainText("30 blankets");
    await expect(phone.locator("body")).not.toContainText("Zubair");
    // Nothing wider than the phone.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The document is the re-made PDF, readable by anyone now.
    const href = await ledger.getByTestId("spending-document").getAttribute("href");
    const doc = await phone.request.get(href!);
    expect(doc.status()).toBe(200);
    expect(doc.headers()["content-type"]).toBe("application/pdf");
    expect((await doc.body()).toString("latin1")).not.toContain("/JavaScript");
    await expectAccessible(phone);

    // In Urdu.
    await visitor.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await phone.reload();
    const urdu = phone.getByRole("region", { name: "عوامی کھاتہ" });
    await expect(urdu.locator('tr[data-fund="zakat"]')).toContainText("زکوٰۃ");
    await expect(urdu.getByTestId("ledger-gifts")).toContainText("گمنام");
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(phone);
    await visitor.close();
  });

  test("the whole ledger pages through every gift, on a phone", async ({ page, db, account }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const ngo = await account({ role: "ngo" });
    const donor = await makeUser(db, "donor");
    const campaign = await makeCampaign(db, ngo.id, { title: `Wells ${unique()}` });
    for (let i = 0; i < 30; i++) {
      await makeDonation(db, campaign, donor.id, { amount: 100 + i, status: "approved", decidedAt: new Date(Date.UTC(2026, 0, 1, i)) });
    }
    await page.goto(`/campaign/${campaign.slug}`);
    await expect(page.getByTestId("ledger-gifts").getByRole("listitem")).toHaveCount(5);
    await page.getByRole("link", { name: "See the whole ledger" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(campaign.title);
    await expect(page.getByTestId("ledger-gifts").getByRole("listitem")).toHaveCount(25);
    await page.getByRole("navigation", { name: "Pages of gifts" }).getByRole("link", { name: "Next" }).click();
    await expect(page.getByTestId("ledger-gifts").getByRole("listitem")).toHaveCount(5);
    await expect(page.getByTestId("ledger-gifts")).toContainText("Rs. 100");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page);
  });
});

test.describe("the spending form without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("records a draft with a photo of the receipt, shows what is wrong, and publishes", async ({ page, db, login }) => {
    const ngo = await login({ role: "ngo" });
    const campaign = await makeCampaign(db, ngo.id, { title: `No script ${unique()}` });
    await page.goto(`/campaigns/${campaign.id}/spending`);
    await page.getByLabel("Fund").selectOption({ label: "General" });
    await page.getByLabel("Amount (Rs.)").fill("Rs. 0");
    await page.getByLabel("Date spent").fill("2026-02-01");
    await page.getByLabel("What it was for").fill("Medicine for the clinic");
    await page.getByLabel("Invoice or receipt").setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: await makeProofPng() });
    await page.getByRole("button", { name: "Save as draft" }).click();
    await expect(page.getByText("The amount must be at least Rs. 1.")).toBeVisible();
    expect(await db.select().from(spendingRecords).where(eq(spendingRecords.campaignId, campaign.id))).toEqual([]);

    await page.getByLabel("Amount (Rs.)").fill("1,500");
    await page.getByLabel("Invoice or receipt").setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: await makeProofPng() });
    await page.getByRole("button", { name: "Save as draft" }).click();
    await expect(page.getByRole("status")).toHaveText("Saved as a draft. Check it, then publish it.");
    const record = page.getByTestId("spending-record");
    await record.getByLabel(/I confirm that the document shows no private data/).check();
    await record.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByRole("status")).toHaveText("Published on the campaign's public ledger.");
    const [row] = await db.select().from(spendingRecords).where(eq(spendingRecords.campaignId, campaign.id));
    expect(row).toMatchObject({ status: "published", amount: 1_500, fund: "general" });
    expect(row!.documentKey).toMatch(/\.webp$/);
  });
});
