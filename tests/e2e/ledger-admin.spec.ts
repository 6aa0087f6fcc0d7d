import { eq, sql } from "drizzle-orm";
import { campaignUpdates, notifications, spendingRecords, supportWords } from "#server/db/schema.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { makeSpending } from "#tests/helpers/ledger.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { e2ePort } from "./env.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

/**
 * Issue 18's last pieces (decisions 049, 050): the administrator takes a published spending entry down from
 * /admin/spending, and a visitor reads it as removed; the public updates and words past the campaign's page, paged
 * with plain links on a phone, in English and Urdu, and without JavaScript.
 */

const unique = () => Math.random().toString(36).slice(2, 8);

test.describe("taking spending down", () => {
  test("the administrator takes a published entry down with a reason; the ledger says it was removed, the NGO is told", async ({
    page,
    db,
    login,
    account,
    browser,
  }) => {
    const ngo = await account({ role: "ngo", name: `Roshni Trust ${unique()}` });
    const donor = await makeUser(db, "donor");
    const campaign = await makeCampaign(db, ngo.id, { title: `Flood relief ${unique()}` });
    await makeDonation(db, campaign, donor.id, { amount: 20_000, status: "approved", decidedAt: new Date() });
    const purpose = `Invoice with a CNIC ${unique()}`;
    const storage = createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);
    const record = await makeSpending({ db, storage }, campaign, {
      status: "published",
      amount: 12_000,
      purpose,
    });

    await login({ role: "admin" });
    await page.goto("/admin");
    await page.getByRole("link", { name: "Published spending" }).first().click();
    await expect(page).toHaveURL("/admin/spending");
    const entry = page.getByTestId("admin-spending").filter({ hasText: purpose });
    await entry.locator("summary").click();
    // No reason: refused, nothing changed.
    await entry.getByRole("button", { name: "Take the entry down" }).click();
    await expect(entry.getByLabel("Why is this entry taken down?")).toBeVisible();
    expect((await db.select().from(spendingRecords).where(eq(spendingRecords.id, record.id)))[0]!.status).toBe("published");
    await entry.getByLabel("Why is this entry taken down?").fill("The invoice shows a donor's CNIC number.");
    await entry.getByRole("button", { name: "Take the entry down" }).click();
    await expect(page.getByRole("status")).toHaveText("The entry was taken down and the NGO was told.");
    await expect(page.getByTestId("admin-spending").filter({ hasText: purpose }).getByTestId("taken-down")).toContainText(
      "The invoice shows a donor's CNIC number.",
    );
    await expectAccessible(page);
    const told = await db.select().from(notifications).where(eq(notifications.userId, ngo.id));
    expect(told.filter((n) => n.type === "spendingTakenDown")).toHaveLength(1);

    // A signed-out visitor on a phone: removed, on its day, without amount or document; the balance without it.
    const visitor = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const phone = await visitor.newPage();
    await phone.goto(`/campaign/${campaign.slug}`);
    const ledger = phone.getByRole("region", { name: "Public ledger" });
    await expect(ledger.getByTestId("ledger-spending")).toContainText("Removed by the platform administrator on");
    await expect(ledger.getByTestId("ledger-spending")).not.toContainText(purpose);
    await expect(ledger.getByTestId("spending-document")).toHaveCount(0);
    await expect(ledger.getByTestId("fund-balances").locator('tr[data-fund="general"]')).toContainText(
      /Rs\. 20,000\s*Rs\. 0\s*Rs\. 20,000/,
    );
    expect((await phone.request.get(`/files/${record.documentKey}`)).status()).toBe(404);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await visitor.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await phone.reload();
    await expect(phone.getByTestId("ledger-spending")).toContainText("پلیٹ فارم کے منتظم نے");
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await visitor.close();
  });
});

/** A campaign with more published updates and approved words than its page shows. */
async function busyCampaign(db: Parameters<typeof makeCampaign>[0], updates: number, words: number) {
  const ngo = await makeUser(db, "ngo");
  const campaign = await makeCampaign(db, ngo.id, { title: `Wells ${unique()}` });
  await db.insert(campaignUpdates).values(
    Array.from({ length: updates }, (_, i) => ({
      campaignId: campaign.id,
      authorId: ngo.id,
      body: `Update number ${i}`,
      status: "published" as const,
      publishedAt: sql`now() - ${`${updates - i} minutes`}::interval`,
    })),
  );
  const donors = await Promise.all(Array.from({ length: words }, () => makeUser(db, "donor")));
  await db.insert(supportWords).values(
    donors.map((d, i) => ({
      campaignId: campaign.id,
      donorId: d.id,
      body: `Words number ${i}`,
      status: "approved" as const,
      createdAt: sql`now() - ${`${words - i} minutes`}::interval`,
    })),
  );
  return campaign;
}

test.describe("older updates and more words", () => {
  test("a visitor on a phone pages through the updates and the words, in English and Urdu", async ({ page, db }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const campaign = await busyCampaign(db, 23, 23);
    await page.goto(`/campaign/${campaign.slug}`);
    await expect(page.getByTestId("public-update")).toHaveCount(10);
    await page.getByRole("link", { name: "Older updates" }).click();
    await expect(page).toHaveURL(/\/campaign\/[^/]+\/updates\?updates=/);
    await expect(page.getByTestId("public-update")).toHaveCount(10);
    await expect(page.getByTestId("public-update").first()).toContainText("Update number 12");
    await page.getByRole("navigation", { name: "Pages of updates" }).getByRole("link", { name: "Older updates" }).click();
    await expect(page.getByTestId("public-update")).toHaveCount(3);
    await expect(page.getByTestId("public-update").last()).toContainText("Update number 0");
    await expect(page.getByRole("navigation", { name: "Pages of updates" }).getByRole("link", { name: "Older updates" })).toHaveCount(0);
    await page.getByRole("link", { name: "Newest updates" }).click();
    await expect(page.getByTestId("public-update").first()).toContainText("Update number 22");
    // The words page on their own cursor.
    await page.getByRole("navigation", { name: "Pages of words of support" }).getByRole("link", { name: "More words of support" }).click();
    await expect(page.getByTestId("public-words")).toHaveCount(3);
    await expect(page.getByTestId("public-update")).toHaveCount(10);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page);

    await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await page.goto(`/campaign/${campaign.slug}`);
    await page.getByRole("link", { name: "پرانی تازہ خبریں" }).click();
    await expect(page.getByTestId("public-update")).toHaveCount(10);
    await expect(page.getByRole("link", { name: "تازہ ترین خبریں" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page);
  });
});

test.describe("paging without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the links page the updates and the words", async ({ page, db }) => {
    const campaign = await busyCampaign(db, 12, 22);
    await page.goto(`/campaign/${campaign.slug}`);
    await page.getByRole("link", { name: "More words of support" }).click();
    await expect(page.getByTestId("public-words")).toHaveCount(2);
    await page.getByRole("link", { name: "Older updates" }).click();
    await expect(page.getByTestId("public-update")).toHaveCount(2);
    // Each list keeps its own place.
    await expect(page.getByTestId("public-words")).toHaveCount(2);
  });
});
