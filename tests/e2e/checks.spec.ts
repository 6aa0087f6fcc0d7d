import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { ngoChecks } from "#server/db/schema.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { formatDay } from "#shared/format.ts";
import { LANG_COOKIE } from "#shared/i18n/i18n.ts";
import { makeCampaign, makePdf } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

/** What the vetting of an NGO checked, and the badge that says it (decision 051). */

const today = pakistanToday();
const fitsTheScreen = () => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth;

test("the admin records a registration and a tax exemption; a visitor on a phone sees the badge with its dates in both languages until they expire", async ({
  page,
  browser,
  login,
  account,
  db,
}) => {
  const tag = randomUUID().slice(0, 8);
  const name = `Noor Trust ${tag}`;
  const regNo = `SCC/KAR/${tag}`;
  const taxRef = `FBR/2(36)/${tag}`;
  const until = addDays(today, 30);
  await login({ role: "admin" });
  const ngo = await account({ role: "ngo", verification: "pending", name });
  const campaign = await makeCampaign(db, ngo.id, { title: `Clean water ${tag}` });

  // On the vetting screen, before accepting: the registration, with its document.
  await page.goto("/admin");
  const card = page.getByRole("article", { name });
  await expect(card.getByTestId("vetting-checks")).toContainText("No checks recorded yet.");
  await card.locator("summary", { hasText: "Record a check" }).click();
  await card.getByLabel("What was checked").selectOption("registration");
  await card.getByLabel("Registered with").selectOption("sindh_charity_commission");
  await card.getByLabel("Number or reference").fill(regNo);
  await expect(card.getByLabel("Checked on")).toHaveValue(today);
  await card
    .getByLabel("Document (optional)")
    .setInputFiles({ name: "certificate.pdf", mimeType: "application/pdf", buffer: makePdf("SCC") });
  await card.getByRole("button", { name: "Record the check" }).click();
  await expect(page.getByRole("status")).toHaveText("The check was recorded.");
  const sentence = `Registered with the Sindh Charity Commission, No. ${regNo}, checked ${formatDay(today, "en")}`;
  await expect(card.getByTestId("vetting-checks")).toContainText(sentence);

  // A tax exemption needs its last day: refused without it, recorded with it.
  await card.locator("summary", { hasText: "Record a check" }).click();
  await card.getByLabel("What was checked").selectOption("tax_exemption");
  await card.getByLabel("Number or reference").fill(taxRef);
  await card.getByRole("button", { name: "Record the check" }).click();
  await expect(page.getByText("Enter the last day it is valid.")).toBeVisible();
  // The refusal is the NGO's checks page, with the form as sent and its error.
  const record = page.getByRole("region", { name: "Record a check" });
  await expect(record.getByLabel("Number or reference")).toHaveValue(taxRef);
  await record.getByLabel("Valid until").fill(until);
  await record.getByRole("button", { name: "Record the check" }).click();
  await expect(page.getByRole("status")).toHaveText("The check was recorded.");
  await expect(page).toHaveURL(/\/admin\/ngos\/.+\/checks\?notice=recorded$/);
  await expect(page.locator("[data-state=standing]")).toHaveCount(2);
  await expectAccessible(page);

  // The document is the administrator's: a download for them, nothing for anyone else.
  const href = await page.getByRole("link", { name: "Download the document" }).getAttribute("href");
  expect(href).toMatch(/^\/files\/check\/[0-9a-f-]{36}\.pdf$/);
  const own = await page.request.get(href!);
  expect(own.status()).toBe(200);
  expect(own.headers()["content-disposition"]).toMatch(/^attachment/);
  const stranger = await browser.newContext({ baseURL: baseUrl() });
  expect((await stranger.request.get(href!)).status()).toBe(404);

  await page.goto("/admin");
  await page
    .getByRole("article", { name })
    .getByRole("button", { name: /^Accept/ })
    .click();
  await expect(page.getByRole("status")).toHaveText("The sign-up was accepted and the applicant was told.");

  // A signed-out visitor on a 360 px phone.
  const visitor = await stranger.newPage();
  await visitor.setViewportSize({ width: 360, height: 740 });
  const taxSentence = `ref. ${taxRef}, until ${formatDay(until, "en")}, checked ${formatDay(today, "en")}`;
  for (const path of [`/ngo/${ngo.id}`, `/campaign/${campaign.slug}`]) {
    await visitor.goto(path);
    const badge = visitor.getByTestId("check-statement");
    await expect(badge.getByRole("heading", { name: "What Ek Chhat checked" })).toBeVisible();
    await expect(badge).toContainText(sentence);
    await expect(badge).toContainText("Tax-exempt: approved by FBR as a non-profit organisation under section 2(36)");
    await expect(badge).toContainText(taxSentence);
    expect(await visitor.evaluate(fitsTheScreen), path).toBe(true);
  }
  // The profile's campaign card carries the compact badge.
  await visitor.goto(`/ngo/${ngo.id}`);
  await expect(visitor.locator(`[data-campaign="${campaign.slug}"]`).getByTestId("check-badge")).toHaveText(
    "Checked by Ek Chhat: Registered · Tax-exempt",
  );
  await expectAccessible(visitor);

  // In Urdu.
  await stranger.addCookies([{ name: LANG_COOKIE, value: "ur", domain: "127.0.0.1", path: "/" }]);
  for (const path of [`/ngo/${ngo.id}`, `/campaign/${campaign.slug}`]) {
    await visitor.goto(path);
    const badge = visitor.getByTestId("check-statement");
    await expect(badge.getByRole("heading", { name: "ایک چھت نے کیا جانچا" })).toBeVisible();
    await expect(badge).toContainText("سندھ چیریٹی کمیشن میں رجسٹرڈ");
    await expect(badge).toContainText(`${formatDay(today, "ur")} کو جانچا گیا`);
    await expect(badge).toContainText(`${formatDay(until, "ur")} تک`);
    expect(await visitor.evaluate(fitsTheScreen), path).toBe(true);
  }
  await expectAccessible(visitor);

  // Time passes: the tax exemption's last day goes by, then the registration is given one that goes by too.
  await db
    .update(ngoChecks)
    .set({ checkedOn: addDays(today, -400), expiresOn: addDays(today, -1) })
    .where(eq(ngoChecks.reference, taxRef));
  await stranger.clearCookies();
  await visitor.goto(`/campaign/${campaign.slug}`);
  await expect(visitor.getByTestId("check-statement")).toContainText(sentence);
  await expect(visitor.getByTestId("check-statement")).not.toContainText("Tax-exempt");
  await db
    .update(ngoChecks)
    .set({ checkedOn: addDays(today, -400), expiresOn: addDays(today, -1) })
    .where(eq(ngoChecks.ngoId, ngo.id));
  for (const path of [`/ngo/${ngo.id}`, `/campaign/${campaign.slug}`]) {
    await visitor.goto(path);
    await expect(visitor.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(visitor.getByTestId("check-statement")).toHaveCount(0);
    await expect(visitor.getByTestId("check-badge")).toHaveCount(0);
  }
  await stranger.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the admin records a check with the plain form, is told what is missing, and revokes it", async ({ page, login, account }) => {
    const tag = randomUUID().slice(0, 8);
    await login({ role: "admin" });
    const ngo = await account({ role: "ngo", name: `Umeed ${tag}` });
    await page.goto(`/admin/ngos/${ngo.id}/checks`);
    await expect(page.getByRole("heading", { name: `Checks of Umeed ${tag}` })).toBeVisible();
    await expect(page.getByText("No checks recorded yet.")).toBeVisible();

    await page.getByLabel("What was checked").selectOption("registration");
    await page.getByLabel("Number or reference").fill(`0093${tag}`);
    await page.getByRole("button", { name: "Record the check" }).click();
    await expect(page.getByText("Choose the authority the organisation is registered with.")).toBeVisible();

    await page.getByLabel("Registered with").selectOption("other");
    await page.getByRole("button", { name: "Record the check" }).click();
    await expect(page.getByText("Write the name of the authority.")).toBeVisible();
    await page.getByLabel("The authority's name").fill("Gilgit-Baltistan Registrar of Societies");
    await page.getByRole("button", { name: "Record the check" }).click();
    await expect(page.getByRole("status")).toHaveText("The check was recorded.");
    const row = page.locator("[data-state=standing]");
    await expect(row).toContainText(
      `Registered with Gilgit-Baltistan Registrar of Societies, No. 0093${tag}, checked ${formatDay(today, "en")}`,
    );

    await row.locator("summary", { hasText: "Revoke" }).click();
    await row.getByLabel("Why it is revoked").fill("The registrar has no record of it");
    await row.getByRole("button", { name: "Revoke the check" }).click();
    await expect(page.getByRole("status")).toHaveText("The check was revoked: it is no longer shown.");
    await expect(page.locator("[data-state=revoked]")).toContainText("The registrar has no record of it");
  });
});
