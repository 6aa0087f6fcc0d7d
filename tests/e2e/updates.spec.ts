import sharp from "sharp";
import type { BrowserContext } from "@playwright/test";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import type { Db } from "#server/db/client.ts";
import { makeCampaign, makeDonation } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

/** Campaign updates and words of support through the screens (decision 050). */

const unique = () => Math.random().toString(36).slice(2, 8);

async function photoFile() {
  const buffer = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 30, g: 110, b: 80 } } })
    .png()
    .toBuffer();
  return { name: "site.png", mimeType: "image/png", buffer };
}

/** Signs the browser in as an existing account (the sign-in screens have their own tests). */
async function signInAs(db: Db, context: BrowserContext, userId: string) {
  await context.clearCookies();
  const { token } = await createSession(db, userId);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
}

test("an NGO posts an update with a photo, a donor's words are approved, and a signed-out visitor on a phone reads both in English and Urdu", async ({
  page,
  context,
  db,
  login,
  account,
}) => {
  const ngo = await login({ role: "ngo" });
  const campaign = await makeCampaign(db, ngo.id, { title: `Wells for Tharparkar ${unique()}` });
  const donor = await account({ role: "donor", name: "Bilal" });
  await makeDonation(db, campaign, donor.id, { status: "approved" });
  const text = `The second well gives water now ${unique()}. دوسرا کنواں اب پانی دے رہا ہے۔`;

  await page.goto(`/campaigns/${campaign.id}/updates`);
  await page.getByLabel("What happened").fill(text);
  await page
    .getByLabel("Picture (optional)")
    .first()
    .setInputFiles(await photoFile());
  await page.getByRole("button", { name: "Publish now" }).click();
  await expect(page.getByRole("status")).toHaveText("Published. The campaign's donors are being told.");
  await expect(page.getByTestId("managed-update")).toContainText(text);
  await expect(page.getByTestId("managed-update")).toContainText("Published");

  // The donor is told in the app, and writes words of support.
  await signInAs(db, context, donor.id);
  await page.goto("/notifications");
  await expect(page.getByText(`News from “${campaign.title}”`)).toBeVisible();
  await page.goto(`/support/${campaign.slug}`);
  await page.getByLabel("Your words").fill("May Allah reward your work. اللہ آپ کو جزا دے");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("Thank you. The NGO will read your words.")).toBeVisible();
  await expect(page.getByTestId("own-words")).toContainText("Your words are waiting for the NGO.");

  // Not public until the NGO approves them.
  await context.clearCookies();
  await page.goto(`/campaign/${campaign.slug}`);
  await expect(page.getByText("No words of support yet.")).toBeVisible();

  await signInAs(db, context, ngo.id);
  await page.goto(`/campaigns/${campaign.id}/words`);
  const words = page.getByTestId("moderated-words");
  await expect(words).toContainText("May Allah reward your work.");
  await expect(words).toContainText("Shown on the public page as: A donor");
  await words.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toHaveText("Approved: these words are on the public page.");

  // A signed-out visitor on a 360-pixel phone.
  await context.clearCookies();
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/campaign/${campaign.slug}`);
  const update = page.getByTestId("public-update");
  await expect(update).toContainText(text);
  const photo = update.getByRole("img", { name: "Photo 1 of the update" });
  await expect(photo).toHaveAttribute("loading", "lazy");
  await expect(photo).toHaveAttribute("srcset", /\.w480\.webp 480w/);
  await photo.scrollIntoViewIfNeeded();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByTestId("public-words")).toContainText("May Allah reward your work.");
  await expect(page.getByTestId("public-words")).toContainText("A donor");
  await expect(page.getByTestId("donor-count")).toHaveText("1 donor has given");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);

  await context.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto(`/campaign/${campaign.slug}`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { name: "تازہ خبریں" })).toBeVisible();
  await expect(page.getByTestId("public-update")).toContainText(text);
  await expect(page.getByRole("heading", { name: "حوصلہ افزائی کے الفاظ" })).toBeVisible();
  await expect(page.getByTestId("public-words")).toContainText("ایک عطیہ دہندہ");
  await expect(page.getByTestId("donor-count")).toContainText("عطیہ دہندہ نے عطیہ دیا ہے");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectAccessible(page);
});

test.describe("the update form without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("refuses a photo of people without consent, then publishes once consent is confirmed", async ({ page, db, login }) => {
    const ngo = await login({ role: "ngo" });
    const campaign = await makeCampaign(db, ngo.id, { title: `School rebuild ${unique()}` });
    await page.goto(`/campaigns/${campaign.id}/updates`);
    await page.getByLabel("What happened").fill("Children are back in class.");
    await page
      .getByLabel("Picture (optional)")
      .first()
      .setInputFiles(await photoFile());
    await page.getByLabel("This photo shows people").first().check();
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByText("Confirm the consent of the people in this photo before publishing, or save a draft.")).toBeVisible();
    await expect(page.getByText("No updates yet.")).toBeVisible();

    // The text stays; the file must be chosen again (a browser never refills a file input).
    await expect(page.getByLabel("What happened")).toHaveValue("Children are back in class.");
    await page
      .getByLabel("Picture (optional)")
      .first()
      .setInputFiles(await photoFile());
    await page.getByLabel("This photo shows people").first().check();
    await page
      .getByLabel(/I confirm that the people shown/)
      .first()
      .check();
    await page.getByRole("button", { name: "Publish now" }).click();
    await expect(page.getByRole("status")).toHaveText("Published. The campaign's donors are being told.");
    await expect(page.getByTestId("managed-update")).toContainText("Shows people: consent confirmed");

    await page.goto(`/campaign/${campaign.slug}`);
    await expect(page.getByTestId("public-update")).toContainText("Children are back in class.");
  });
});
