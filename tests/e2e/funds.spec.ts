import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import type { Db } from "#server/db/client.ts";
import { donations, ngoProfiles } from "#server/db/schema.ts";
import { makeCampaign, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { expect, test } from "./fixtures.ts";

/** Decision 048: a donor gives Zakat to a campaign that takes it, on a phone, in English and Urdu, and without JavaScript. */
const unique = () => Math.random().toString(36).slice(2, 8);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-funds-"));
test.afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function proofFile(): Promise<string> {
  const file = path.join(scratch, `proof-${unique()}.png`);
  fs.writeFileSync(file, await makeProofPng());
  return file;
}

async function zakatCampaign(db: Db) {
  const ngo = await makeUser(db, "ngo", { name: `Zakat Trust ${unique()}` });
  await db.update(ngoProfiles).set({ jazzcashNumber: "03001112233" }).where(eq(ngoProfiles.userId, ngo.id));
  const campaign = await makeCampaign(db, ngo.id, { title: `Zakat for widows ${unique()}`, acceptedFunds: ["zakat", "general"] });
  return { ngo, campaign };
}

const proofUrl = (slug: string, ngoId: string) => `/donate3?${new URLSearchParams({ campaign: slug, ngo: ngoId, method: "jazzcash" })}`;
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const LABELS = {
  en: {
    amount: "Amount (Rs.)",
    screenshot: "Screenshot of the payment",
    transactionId: "Transaction ID",
    zakat: "Zakat",
    sadaqah: "Sadaqah",
    showName: "Show my name in the public list of gifts",
    inNameOf: "Given in the name of (optional)",
    submit: "Submit",
  },
  ur: {
    amount: "رقم (روپے)",
    screenshot: "ادائیگی کا اسکرین شاٹ",
    transactionId: "ٹرانزیکشن آئی ڈی",
    zakat: "زکوٰۃ",
    sadaqah: "صدقہ",
    showName: "عطیات کی عوامی فہرست میں میرا نام دکھائیں",
    inNameOf: "کس کے نام پر (اختیاری)",
    submit: "جمع کریں",
  },
} as const;

async function giveZakat(page: Page, lang: "en" | "ur", inNameOf: string) {
  const l = LABELS[lang];
  // Only the funds the campaign takes are offered: Zakat and general, not Sadaqah.
  await expect(page.getByRole("radio", { name: l.zakat })).toBeVisible();
  await expect(page.getByRole("radio", { name: l.sadaqah })).toHaveCount(0);
  await page.getByLabel(l.amount).fill("2500");
  await page.getByLabel(l.screenshot).setInputFiles(await proofFile());
  await page.getByLabel(l.transactionId).fill(`JC${Date.now().toString().slice(-8)}`);
  await page.getByRole("radio", { name: l.zakat }).check();
  await page.getByLabel(l.inNameOf).fill(inNameOf);
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  await page.getByRole("button", { name: l.submit }).click();
  await expect(page).toHaveURL(/\/donate4\?donation=/);
}

test.describe("giving Zakat", () => {
  test("a donor gives Zakat on a 360 px phone, in English and in Urdu", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const { ngo, campaign } = await zakatCampaign(db);
    await page.setViewportSize({ width: 360, height: 740 });

    await page.goto(proofUrl(campaign.slug, ngo.id));
    await giveZakat(page, "en", "Late Mrs Khadija Bibi");

    await page.goto(proofUrl(campaign.slug, ngo.id));
    await page.getByRole("button", { name: "اردو" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await giveZakat(page, "ur", "مرحوم والد صاحب");

    const rows = await db.select().from(donations).where(eq(donations.donorId, donor.id));
    expect(rows.map((r) => [r.fund, r.showName, r.inNameOf]).sort()).toEqual([
      ["zakat", false, "Late Mrs Khadija Bibi"],
      ["zakat", false, "مرحوم والد صاحب"],
    ]);
  });
});

test.describe("giving Zakat without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the proof form's fund, shown name and in-whose-name work, and a refused value comes back with its message", async ({
    page,
    db,
    login,
  }) => {
    const donor = await login({ role: "donor" });
    const { ngo, campaign } = await zakatCampaign(db);
    await page.goto(proofUrl(campaign.slug, ngo.id));
    const l = LABELS.en;
    await page.getByLabel(l.amount).fill("1200");
    await page.getByLabel(l.screenshot).setInputFiles(await proofFile());
    await page.getByLabel(l.transactionId).fill(`JC${Date.now().toString().slice(-8)}`);
    await page.getByRole("radio", { name: l.zakat }).check();
    await page.getByLabel(l.showName).check();
    // Too long for the field: the server answers with the message and keeps the choices.
    await page.getByLabel(l.inNameOf).fill("x".repeat(81));
    await page.getByRole("button", { name: l.submit }).click();
    await expect(page.getByRole("radio", { name: l.zakat })).toBeChecked();
    await expect(page.getByLabel(l.inNameOf)).toHaveAttribute("aria-invalid", "true");
    expect(await db.select().from(donations).where(eq(donations.donorId, donor.id))).toHaveLength(0);

    await page.getByLabel(l.screenshot).setInputFiles(await proofFile());
    await page.getByLabel(l.inNameOf).fill("Abbu ji");
    await page.getByRole("button", { name: l.submit }).click();
    await expect(page).toHaveURL(/\/donate4\?donation=/);
    const [row] = await db.select().from(donations).where(eq(donations.donorId, donor.id));
    expect(row).toMatchObject({ fund: "zakat", showName: true, inNameOf: "Abbu ji", amount: 1200 });
  });
});
