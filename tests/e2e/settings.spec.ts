import sharp from "sharp";
import { eq } from "drizzle-orm";
import { ngoProfiles } from "#server/db/schema.ts";
import type { Page } from "@playwright/test";
import { HOME_TILES } from "#app/components/home-tiles.tsx";
import { makeApplication, makeCampaign, makeDonation, makePickup, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, receivedMail, test } from "./fixtures.ts";

/** Checks the home tiles: each is a link to a screen that exists. */
async function expectTiles(page: Page, tiles: (typeof HOME_TILES)["ngo"]) {
  const list = page.getByRole("list", { name: "What you can do" });
  await expect(list.getByRole("listitem")).toHaveCount(tiles.length);
  for (const [i, tile] of tiles.entries()) {
    await expect(list.getByRole("listitem").nth(i).getByRole("link")).toHaveAttribute("href", tile.to);
  }
  for (const tile of tiles) {
    const response = await page.request.get(tile.to);
    expect(response.status(), tile.to).toBe(200);
  }
}

/** Fails when the page scrolls sideways, i.e. something does not fit the phone's width. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("the NGO home welcomes the NGO by name with its logo and its feature tiles", async ({ page, login }) => {
  await login({ role: "ngo", name: "Roshni Welfare Trust" });
  await page.goto("/ngo_home");
  await expect(page.getByRole("heading", { name: "Welcome, Roshni Welfare Trust" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Logo of Roshni Welfare Trust" })).toHaveAttribute("src", "/static/default-logo.svg");
  await expectTiles(page, HOME_TILES.ngo);
  await expect(page.getByRole("list", { name: "What you can do" })).toContainText("Settings");
  await expectAccessible(page);
});

test("the NGO home counts what waits: gifts to review, matches to confirm, pick-ups to assign, applications to answer", async ({
  page,
  login,
  db,
}) => {
  const ngo = await login({ role: "ngo" });
  const donor = await makeUser(db, "donor");
  const campaign = await makeCampaign(db, ngo.id);
  await page.goto("/ngo_home");
  const waiting = page.getByTestId("ngo-waiting");
  await expect(waiting.getByRole("link")).toHaveText([
    "0cash donations to review",
    "0statement matches to confirm",
    "0pick-ups to assign a rider",
    "0volunteer applications to answer",
  ]);
  await makeDonation(db, campaign, donor.id, { transactionId: "HOME0001" });
  await makeDonation(db, campaign, donor.id, { transactionId: "HOME0002" });
  await makePickup(db, campaign, donor.id);
  const position = await makePosition(db, ngo.id);
  await makeApplication(db, position.id, donor.id);
  await page.reload();
  await expect(waiting.getByRole("link")).toHaveText([
    "2cash donations to review",
    "0statement matches to confirm",
    "1pick-ups to assign a rider",
    "1volunteer applications to answer",
  ]);
  await waiting.getByRole("link", { name: /cash donations to review/ }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await expectAccessible(page);
});

test("an NGO changes its address and contact number in settings", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  await page.goto("/settingsNGO");
  const section = page.getByRole("region", { name: "Address and contact" });
  await section.getByLabel("Address").fill("Office 12, Blue Area, Islamabad");
  await section.getByLabel("Contact number").fill("051-555 1234");
  await section.getByRole("button", { name: "Save address and contact" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your address and contact number have been saved." })).toBeVisible();
  await expect(page.getByRole("region", { name: "Address and contact" }).getByLabel("Contact number")).toHaveValue("0515551234");
  const [row] = await db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, ngo.id));
  expect(row).toMatchObject({ address: "Office 12, Blue Area, Islamabad", contactNumber: "0515551234" });
});

test("the donor home shows the first name, picture and its feature tiles", async ({ page, login }) => {
  await login({ role: "donor", name: "Ayesha" });
  await page.goto("/donor_home");
  await expect(page.getByRole("heading", { name: "Welcome, Ayesha" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("img", { name: "Your picture" })).toBeVisible();
  await expectTiles(page, HOME_TILES.donor);
  await expectAccessible(page);
});

test("the rider home greets the rider and links to the profile", async ({ page, login }) => {
  await login({ role: "rider", name: "Bilal" });
  await page.goto("/rider_home");
  await expect(page.getByRole("heading", { name: "Welcome, Bilal" })).toBeVisible();
  await expect(page.getByText("No requests are waiting for your answer.")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Your profile" }).click();
  await expect(page).toHaveURL(/\/rider_profile$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your profile" })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("First name").fill("Bilal");
  await page.getByLabel("Last name").fill("Ahmed Khan");
  await page.getByRole("button", { name: "Save name" }).click();
  // The profile's area field has a live region of its own (for its suggestions).
  await expect(page.getByRole("status").filter({ hasText: "Your name has been saved." })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Last name")).toHaveValue("Ahmed Khan");
});

test("an NGO changes its name and payment accounts with its password, is told, and they persist", async ({ page, login }) => {
  const ngo = await login({ role: "ngo" });
  await page.goto("/settingsNGO");
  await expectAccessible(page);

  await page.getByLabel("NGO name").fill("Saylani Test Trust");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your name has been saved." })).toBeVisible();
  // The sidebar shows the new name at once.
  await expect(page.locator("aside")).toContainText("Saylani Test Trust");

  // The password form has a "Current password" too: the payment form's is the one in its own section.
  const payment = page.getByRole("region", { name: "Payment accounts" });
  const currentPassword = payment.getByLabel("Current password");
  await expect(currentPassword).toHaveAttribute("type", "password");
  await expect(currentPassword).toHaveAttribute("autocomplete", "current-password");

  // Bad input, and no password: the messages are next to their fields and nothing is saved.
  await page.getByLabel("JazzCash number").fill("0300-12");
  await page.getByLabel("Bank name").fill("Meezan Bank");
  await page.getByRole("button", { name: "Save payment accounts" }).click();
  await expect(page.getByText("Enter the mobile number of the account, for example 0300 1234567 or +92 300 1234567.")).toBeVisible();
  await expect(page.getByText("Account title is required for a bank account.")).toBeVisible();
  await expect(page.getByLabel("JazzCash number")).toHaveAttribute("aria-invalid", "true");
  await expect(payment.getByText("Enter your current password.")).toBeVisible();
  await expect(currentPassword).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  await page.getByLabel("JazzCash number").fill("0300 1234567");
  await page.getByLabel("Easypaisa number").fill("03451234567");
  await page.getByLabel("Account title").fill("Saylani Test Trust");
  await page.getByLabel("IBAN or account number").fill("PK36 SCBL 0000 0011 2345 6702");
  // A wrong password changes nothing; the server says so under the field and never sends the password back.
  await currentPassword.fill("not-my-password");
  await page.getByRole("button", { name: "Save payment accounts" }).click();
  await expect(payment.getByText("The current password is not correct.")).toBeVisible();
  await expect(currentPassword).toHaveValue("");
  await expect(payment.getByRole("status")).toHaveCount(0);

  await currentPassword.fill(ngo.password);
  await page.getByRole("button", { name: "Save payment accounts" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your payment accounts have been saved." })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("NGO name")).toHaveValue("Saylani Test Trust");
  await expect(page.getByLabel("JazzCash number")).toHaveValue("03001234567");
  await expect(page.getByLabel("Easypaisa number")).toHaveValue("03451234567");
  await expect(page.getByLabel("Bank name")).toHaveValue("Meezan Bank");
  await expect(page.getByLabel("Account title")).toHaveValue("Saylani Test Trust");
  await expect(page.getByLabel("IBAN or account number")).toHaveValue("PK36SCBL0000001123456702");
  await expect(currentPassword).toHaveValue("");

  // The NGO is told in the app (and by email), in case it was not them.
  await page.goto("/notifications");
  await expect(page.getByText(/Your payment accounts were changed; donors see a notice about it for 24 hours\./)).toBeVisible();
  await expect(page.getByText(/If this was not you, change your password and tell the platform administrator\./)).toBeVisible();
  await expect.poll(() => receivedMail(ngo.email).length).toBe(1);
  expect(receivedMail(ngo.email)[0]).toContain("JazzCash: added");

  await page.goto("/ngo_home");
  await expect(page.getByRole("heading", { name: "Welcome, Saylani Test Trust" })).toBeVisible();
});

test("a donor changes the password and signs in with the new one", async ({ page, login }) => {
  const donor = await login({ role: "donor" });
  await page.goto("/settingsDonor");
  await expectAccessible(page);

  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("Fresh-pass-2024");
  await page.getByLabel("Confirm new password").fill("Fresh-pass-2024");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The current password is not correct.")).toBeVisible();
  // Passwords are never sent back.
  await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");

  await page.getByLabel("Current password").fill(donor.password);
  await page.getByLabel("New password", { exact: true }).fill("Fresh-pass-2024");
  await page.getByLabel("Confirm new password").fill("Fresh-pass-2025");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("The two passwords do not match.")).toBeVisible();

  await page.getByLabel("Confirm new password").fill("Fresh-pass-2024");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password has been changed.");
  await expect(page.getByLabel("Current password")).toHaveValue("");
  // This session stays signed in.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();

  await page.getByRole("button", { name: "Log out" }).click();
  // Signed out before the next page is asked for (a page asked for while the sign-out is on its way is still signed in).
  await expect(page).toHaveURL("/donor");
  await page.goto("/donor_signin");
  await page.getByLabel("Email").fill(donor.email);
  await page.getByLabel("Password").fill(donor.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByText("Incorrect email or password.")).toBeVisible();
  await page.getByLabel("Password").fill("Fresh-pass-2024");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/donor_home$/);
});

test("a donor uploads a picture, sees it, and can remove it", async ({ page, login }) => {
  await login({ role: "donor" });
  await page.goto("/settingsDonor");
  const picture = page.getByRole("img", { name: "Your current picture" });
  await expect(picture).toHaveAttribute("src", "/static/default-avatar.svg");

  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
  await page.getByLabel("New picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("status")).toHaveText("Your new picture has been saved.");
  await expect(picture).toHaveAttribute("src", /^\/files\/avatar\/[0-9a-f-]+\.webp$/);
  // The image really loads, and the sidebar shows it too.
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  const src = await picture.getAttribute("src");
  await expect(page.locator("aside").getByRole("img", { name: "Your picture" })).toHaveAttribute("src", src!);
  await expectAccessible(page);

  // Not an image, whatever its name says.
  await page.getByLabel("New picture").setInputFiles({ name: "evil.png", mimeType: "image/png", buffer: Buffer.from("<html>hi</html>") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("The picture must be a JPEG, PNG or WebP image.")).toBeVisible();
  await expect(picture).toHaveAttribute("src", src!);

  await page.getByRole("button", { name: "Remove picture" }).click();
  await expect(page.getByRole("status")).toContainText("Your picture has been removed");
  await expect(picture).toHaveAttribute("src", "/static/default-avatar.svg");
  const old = await page.request.get(src!);
  expect(old.status()).toBe(404);
});

test.describe("on a 360 px wide phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the NGO home and settings fit, and the menu opens from the Menu disclosure", async ({ page, login }) => {
    await login({ role: "ngo", name: "Edhi Test Foundation With A Long Name" });
    await page.goto("/ngo_home");
    await expectTiles(page, HOME_TILES.ngo);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);

    const settingsLink = page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Settings" });
    await expect(settingsLink).toBeHidden();
    await page.getByText("Menu", { exact: true }).click();
    await expect(settingsLink).toBeVisible();
    await settingsLink.click();
    await expect(page).toHaveURL(/\/settingsNGO$/);
    await expect(page.getByLabel("NGO name")).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a donor's settings forms work as plain posts", async ({ page, login }) => {
    await login({ role: "donor" });
    await page.goto("/settingsDonor");
    await page.getByLabel("First name").fill("");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByText("First name is required")).toBeVisible();
    await page.getByLabel("First name").fill("Zainab");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByRole("status")).toHaveText("Your name has been saved.");
    await expect(page.getByLabel("First name")).toHaveValue("Zainab");
  });
});

test("the about page says what Ek Chhat is, and how vetting works", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "About Ek Chhat" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1, name: "About Ek Chhat" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How NGOs and riders are vetted" })).toBeVisible();
  await expectAccessible(page);
});

test("the NGO settings read right to left in Urdu", async ({ page, login, context }) => {
  await login({ role: "ngo" });
  await context.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto("/settingsNGO");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1, name: "ترتیبات" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "ادائیگی کے اکاؤنٹس" })).toBeVisible();
  await expectAccessible(page);
  await page.goto("/ngo_home");
  await expect(page.getByRole("list", { name: "آپ یہاں کیا کر سکتے ہیں" }).getByRole("link", { name: /ترتیبات/ })).toHaveAttribute(
    "href",
    "/settingsNGO",
  );
  await expectAccessible(page);
});
