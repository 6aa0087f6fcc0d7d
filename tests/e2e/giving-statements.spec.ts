import { execFileSync } from "node:child_process";
import { eq } from "drizzle-orm";
import { donorProfiles } from "#server/db/schema.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

/**
 * The donor's statements (issue 18, item 5; decision 052): from /dvh to the statements page, a yearly statement
 * downloaded in English and in Urdu and read back, and the page at 360 px without JavaScript.
 */
const suffix = () => Math.random().toString(36).slice(2, 7);
const pkt = (local: string) => new Date(`${local}+05:00`);

function pdfText(file: string): string {
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" })
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ");
}

test("a donor finds the statements from /dvh and downloads a yearly statement in English and in Urdu", async ({ page, login, db }) => {
  const donor = await login({ role: "donor" });
  await db.update(donorProfiles).set({ firstName: "ثنا", lastName: "بلوچ" }).where(eq(donorProfiles.userId, donor.id));
  const ngo = await makeUser(db, "ngo", { name: `Hope Trust ${suffix()}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Clean water Tharparkar ${suffix()}`, targetAmount: 10_000_000 });
  await makeDonation(db, campaign, donor.id, {
    status: "approved",
    amount: 4_321,
    fund: "zakat",
    decidedAt: pkt("2025-09-10T11:00:00"),
    receiptNumber: 1,
  });
  await makeDonation(db, campaign, donor.id, {
    status: "approved",
    amount: 1_000,
    fund: "sadaqah",
    inNameOf: "Amina Bibi",
    decidedAt: pkt("2026-06-30T23:30:00"),
    receiptNumber: 2,
  });

  await page.goto("/dvh");
  await page.getByRole("navigation", { name: "Your history" }).getByRole("link", { name: "Statements" }).click();
  await expect(page).toHaveURL(/\/dvh\/statements$/);
  await expect(page.getByRole("heading", { level: 1, name: "My statements" })).toBeVisible();
  const year = page.locator('[data-year="fiscal-2025"]');
  await expect(year).toContainText("2025–26");
  await expect(year).toContainText("2 donations, Rs. 5,321");
  await expect(page.locator('[data-year="zakat-1447"]')).toContainText("1447 AH");
  await expectAccessible(page);

  const [english] = await Promise.all([
    page.waitForEvent("download"),
    year.getByRole("link", { name: "Download the statement for 2025–26 in English (PDF)" }).click(),
  ]);
  expect(english.suggestedFilename()).toBe("ek-chhat-statement-2025-26-en.pdf");
  const en = pdfText((await english.path())!);
  expect(en).toContain("Yearly giving statement 2025–26");
  expect(en).toContain("ثنا بلوچ");
  expect(en).toContain("Rs. 4,321");
  expect(en).toContain("In the name of Amina Bibi");
  expect(en).toContain("Total of all donations: Rs. 5,321");

  const [urdu] = await Promise.all([
    page.waitForEvent("download"),
    year.getByRole("link", { name: "Download the statement for 2025–26 in Urdu (PDF)" }).click(),
  ]);
  expect(urdu.suggestedFilename()).toBe("ek-chhat-statement-2025-26-ur.pdf");
  const ur = pdfText((await urdu.path())!);
  expect(ur).toContain("عطیات کا سالانہ گوشوارہ");
  expect(ur).toContain("زکوٰۃ");
  expect(ur).toContain("صدقہ");
  expect(ur).toContain("ثنا بلوچ");
  expect(ur).toContain("Rs. 4,321");
  expect(ur).not.toContain("Yearly giving statement");

  // The page in Urdu on a 360 px phone: right to left, nothing sideways, no accessibility violation.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1, name: "میرے گوشوارے" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
});

test.describe("on a 360 px phone without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 360, height: 740 } });

  test("the statements page fits, in English and Urdu, and its links download", async ({ page, login, db }) => {
    const donor = await login({ role: "donor" });
    const ngo = await makeUser(db, "ngo", { name: `Roshni Welfare Organisation ${suffix()}` });
    const campaign = await makeCampaign(db, ngo.id, { title: `Winter blankets ${suffix()}` });
    await makeDonation(db, campaign, donor.id, {
      status: "approved",
      amount: 12_500,
      fund: "zakat",
      decidedAt: pkt("2025-03-05T11:00:00"),
      receiptNumber: 1,
    });
    for (const lang of ["en", "ur"] as const) {
      await page.context().addCookies([{ name: "ekc_lang", value: lang, domain: "127.0.0.1", path: "/" }]);
      await page.goto("/dvh/statements");
      const year = page.locator('[data-year="fiscal-2024"]');
      await expect(year).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      for (const link of await year.getByRole("link").all()) {
        const box = (await link.boundingBox())!;
        expect(box.height).toBeGreaterThanOrEqual(44);
        expect(box.x + box.width).toBeLessThanOrEqual(360);
      }
      await expect(page.locator('[data-year="zakat-1446"]')).toBeVisible();
    }
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.locator('[data-year="zakat-1446"] a[href$="lang=ur"]').click(),
    ]);
    expect(download.suggestedFilename()).toBe("ek-chhat-zakat-1446AH-ur.pdf");
    expect(pdfText((await download.path())!)).toContain("رمضان");
  });
});
