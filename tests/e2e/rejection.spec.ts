import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { Browser, Page } from "@playwright/test";
import type { Db } from "#server/db/client.ts";
import { donationReplies, donations, ngoProfiles, notifications } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { givePaymentAccounts, makeCampaign, makeCashDonation, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { e2ePort } from "./env.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

/** The server under test keeps its files here (see playwright.config.ts), so proofs made here load in its pages. */
const storage = () => createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const REASON = "The screenshot shows a payment to another account.";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-rejection-"));
test.afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function proofFile(): Promise<string> {
  const file = path.join(scratch, `proof-${randomUUID().slice(0, 8)}.png`);
  fs.writeFileSync(file, await makeProofPng());
  return file;
}

/** A 360 × 740 phone signed in as the account; a script or console error in it fails the test. */
async function phoneAs(browser: Browser, db: Db, userId: string, errors: string[], javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ ...PHONE, javaScriptEnabled });
  const { token } = await createSession(db, userId);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error" && !/^Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return page;
}

const noSideways = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

/** An NGO with its contact as it set it in its settings, a donor, and a pending cash gift with a screenshot. */
async function scene(db: Db) {
  const tag = randomUUID().slice(0, 6);
  const ngo = await makeUser(db, "ngo", { name: `Roshan Trust ${tag}` });
  await givePaymentAccounts(db, ngo.id);
  await db
    .update(ngoProfiles)
    .set({ address: `Plot 7, Block B, Gulshan ${tag}, Karachi`, contactNumber: "02134567890" })
    .where(eq(ngoProfiles.userId, ngo.id));
  const donor = await makeUser(db, "donor", { name: `Sana ${tag}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Winter quilts ${tag}`, targetAmount: 10_000_000 });
  const gift = await makeCashDonation({ db, storage: storage() }, campaign, donor.id, {
    amount: 2500,
    transactionId: `JC${tag.toUpperCase()}11`,
  });
  return { tag, ngo, donor, campaign, gift };
}

async function disapproveOnScreen(page: Page, giftId: string) {
  await page.goto(`/apps?view=${giftId}`);
  const dialog = page.getByRole("dialog");
  await dialog.getByText("Disapprove", { exact: true }).click();
  await dialog.getByLabel("Reason for disapproving (the donor will see it)").fill(REASON);
  await dialog.getByRole("button", { name: "Disapprove with this reason" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The donation was disapproved" })).toBeVisible();
}

test("a disapproved gift: the donor reads why and how to reach the NGO, replies once with a corrected proof, the NGO approves it", async ({
  browser,
  db,
}) => {
  const errors: string[] = [];
  const { tag, ngo, donor, gift } = await scene(db);
  const ngoPage = await phoneAs(browser, db, ngo.id, errors);
  const donorPage = await phoneAs(browser, db, donor.id, errors);

  // 1. The NGO disapproves with a reason, on its phone.
  await disapproveOnScreen(ngoPage, gift.id);

  // 2. The donor sees the reason, the NGO's contact as the NGO set it, and the way to reply.
  await donorPage.goto("/dvh");
  const card = donorPage.locator(`[data-donation="${gift.id}"]`);
  await expect(card).toContainText(REASON);
  const contact = card.getByTestId("ngo-contact");
  await expect(contact).toContainText(`Plot 7, Block B, Gulshan ${tag}, Karachi`);
  await expect(contact.getByRole("link", { name: "02134567890" })).toHaveAttribute("href", "tel:02134567890");
  await expect(contact.getByRole("link", { name: ngo.email })).toHaveAttribute("href", `mailto:${ngo.email}`);
  await noSideways(donorPage);
  await expectAccessible(donorPage);
  await card.getByRole("link", { name: /Reply and send a corrected proof/ }).click();

  // 3. The reply page: the reason and contact again, then the form. Nothing corrected is refused on the field.
  await expect(donorPage).toHaveURL(/\/dvh\/reply\?donation=/);
  await expect(donorPage.getByText(REASON)).toBeVisible();
  await expect(donorPage.getByTestId("ngo-contact")).toContainText("02134567890");
  await expectAccessible(donorPage);
  await donorPage.getByRole("button", { name: "Reply and send the corrected proof" }).click();
  await expect(donorPage.getByText("Please write a message to the NGO.")).toBeVisible();
  await donorPage.getByLabel("Your message to the NGO").fill(`I sent the wrong screenshot ${tag}. This is the right one.`);
  await donorPage.getByRole("button", { name: "Reply and send the corrected proof" }).click();
  await expect(donorPage.getByText("This is the proof you sent before.")).toBeVisible();
  await donorPage.getByLabel("New screenshot of the payment (if the first one was wrong)").setInputFiles(await proofFile());
  await donorPage.getByLabel("Transaction ID").fill(`jc ${tag}-22`);
  await noSideways(donorPage);
  await expectAccessible(donorPage);
  await donorPage.getByRole("button", { name: "Reply and send the corrected proof" }).click();
  await expect(donorPage).toHaveURL(/\/dvh\?replied=1/);
  await expect(donorPage.getByRole("status").filter({ hasText: "Your reply and corrected proof were sent." })).toBeVisible();
  await expect(card).toContainText("Pending review");
  await expect(card.getByRole("link", { name: /Reply and send a corrected proof/ })).toHaveCount(0);

  // The same gift: same row, same pledge; its new proof and ID; the NGO was told.
  const [after] = await db.select().from(donations).where(eq(donations.id, gift.id));
  expect(after).toMatchObject({ status: "pending", pledgeId: gift.pledgeId, transactionId: `JC${tag.toUpperCase()}22` });
  expect(after!.proofKey).not.toBe(gift.proofKey);
  const told = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, ngo.id), eq(notifications.type, "donationResubmitted")));
  expect(told).toHaveLength(1);

  // 4. The NGO sees it back in its queue, marked re-submitted, with its history, and approves it.
  await ngoPage.goto("/apps");
  await expect(ngoPage.getByRole("article").filter({ hasText: "Re-submitted by the donor" })).toHaveCount(1);
  await ngoPage
    .getByRole("link", { name: /^View the donation of/ })
    .first()
    .click();
  const dialog = ngoPage.getByRole("dialog");
  await expect(dialog.getByText("Re-submitted by the donor")).toBeVisible();
  const history = dialog.getByTestId("gift-history");
  await expect(history.locator("li")).toHaveText([
    /Sent by the donor.*Transaction ID: JC\w+11/s,
    new RegExp(`Disapproved.*Reason: ${REASON}`, "s"),
    new RegExp(`The donor replied.*I sent the wrong screenshot ${tag}`, "s"),
    new RegExp(`Re-submitted with a corrected proof.*Transaction ID: JC${tag.toUpperCase()}22.*See the earlier screenshot`, "s"),
  ]);
  await expect(dialog.getByText("Transaction ID used before")).toHaveCount(0);
  await expect(dialog.getByText("Same screenshot used before")).toHaveCount(0);
  // The earlier screenshot is still the NGO's to see.
  const earlier = await history.getByRole("link", { name: /See the earlier screenshot/ }).getAttribute("href");
  expect((await ngoPage.request.get(earlier!)).status()).toBe(200);
  await expectAccessible(ngoPage);
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(ngoPage.getByRole("status").filter({ hasText: "The donation was approved" })).toBeVisible();

  // 5. The donor's receipt is there, for the same gift.
  await donorPage.goto("/dvh");
  await expect(card).toContainText("Approved");
  const receipt = card.getByRole("link", { name: /Download receipt/ });
  const download = await donorPage.request.get((await receipt.getAttribute("href"))!);
  expect(download.status()).toBe(200);
  expect(download.headers()["content-type"]).toContain("application/pdf");

  // Once: the reply page now says so, and a second reply sent anyway is refused by the server.
  await donorPage.goto(`/dvh/reply?donation=${gift.id}`);
  await expect(donorPage.getByRole("button", { name: "Reply and send the corrected proof" })).toHaveCount(0);
  expect(await db.select().from(donationReplies).where(eq(donationReplies.donationId, gift.id))).toHaveLength(1);
  expect(errors).toEqual([]);
});

test.describe("without JavaScript", () => {
  test("the reply form works, and a second reply is refused by the server", async ({ browser, db }) => {
    const errors: string[] = [];
    const { tag, ngo, donor, gift } = await scene(db);
    const ngoPage = await phoneAs(browser, db, ngo.id, errors, false);
    const donorPage = await phoneAs(browser, db, donor.id, errors, false);
    await disapproveOnScreen(ngoPage, gift.id);

    await donorPage.goto("/dvh");
    await donorPage.getByRole("link", { name: /Reply and send a corrected proof/ }).click();
    // The server's messages, under their fields.
    await donorPage.getByLabel("Transaction ID").fill("");
    await donorPage.getByRole("button", { name: "Reply and send the corrected proof" }).click();
    await expect(donorPage.getByText("Please write a message to the NGO.")).toBeVisible();
    await expect(donorPage.getByText("Please fill in all the fields.")).toBeVisible();

    await donorPage.getByLabel("Your message to the NGO").fill(`The right ID is below ${tag}.`);
    await donorPage.getByLabel("Transaction ID").fill(`JC${tag}33`);
    const form = {
      donation: gift.id,
      idempotencyKey: await donorPage.locator('input[name="idempotencyKey"]').inputValue(),
    };
    await donorPage.getByRole("button", { name: "Reply and send the corrected proof" }).click();
    await expect(donorPage).toHaveURL(/\/dvh\?replied=1/);
    await expect(donorPage.getByText("Your reply and corrected proof were sent.")).toBeVisible();

    // The NGO disapproves again; the donor's second reply (a fresh form) is refused by the server, and says why.
    await disapproveOnScreen(ngoPage, gift.id);
    await donorPage.goto("/dvh");
    await expect(donorPage.getByText("You have already replied once about this donation.")).toBeVisible();
    await expect(donorPage.getByRole("link", { name: /Reply and send a corrected proof/ })).toHaveCount(0);
    const second = await donorPage.request.post(`/dvh/reply?donation=${gift.id}`, {
      multipart: { ...form, idempotencyKey: randomUUID(), message: "Again", transactionId: "JC99999999" },
      headers: { Origin: new URL(donorPage.url()).origin },
      maxRedirects: 0,
    });
    expect(second.status()).toBe(409);
    expect(await second.text()).toContain("You have already replied once about this donation.");
    const [row] = await db.select().from(donations).where(eq(donations.id, gift.id));
    expect(row).toMatchObject({ status: "rejected", transactionId: `JC${tag.toUpperCase()}33` });
    expect(errors).toEqual([]);
  });
});

test.describe("the proof form on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true });

  test("every missing field is flagged at once, the screenshot with its own message, on the first press", async ({ page, db, login }) => {
    await login({ role: "donor" });
    const ngo = await makeUser(db, "ngo");
    await givePaymentAccounts(db, ngo.id);
    const campaign = await makeCampaign(db, ngo.id);
    const url = `/donate3?campaign=${campaign.slug}&ngo=${ngo.id}&method=jazzcash`;
    const flagged = () => page.locator('[aria-invalid="true"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).name).sort());

    // Nothing given.
    await page.goto(url);
    await page.getByLabel("Phone number").fill("");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(flagged).toEqual(["amount", "phone", "screenshot", "transactionId"]);
    await expect(page.getByText("Please choose the screenshot of your payment.")).toBeVisible();
    await expect(page.getByText("Please fill in all the fields.")).toHaveCount(3);
    await expectAccessible(page);

    // A wrong amount typed, then Submit pressed straight from that field (by mouse, then by touch): the amount's
    // message must not move the button away mid-press, so the missing screenshot is flagged by the same press.
    for (const press of ["click", "tap"] as const) {
      await page.goto(url);
      await page.getByLabel("Amount (Rs.)").fill("abc");
      await page.getByRole("button", { name: "Submit" })[press]();
      await expect.poll(flagged).toEqual(["amount", "screenshot", "transactionId"]);
      await expect(page.getByText("Please choose the screenshot of your payment.")).toBeVisible();
      await expect(page.getByText("Enter the amount in whole rupees, digits only.")).toBeVisible();
    }
  });

  test("on a slow connection the button stays busy until the thank-you page has arrived", async ({ page, db, login }) => {
    await login({ role: "donor" });
    const ngo = await makeUser(db, "ngo");
    await givePaymentAccounts(db, ngo.id);
    const campaign = await makeCampaign(db, ngo.id);
    await page.goto(`/donate3?campaign=${campaign.slug}&ngo=${ngo.id}&method=jazzcash`);
    await page.getByLabel("Amount (Rs.)").fill("1500");
    await page.getByLabel("Screenshot of the payment").setInputFiles(await proofFile());
    await page.getByLabel("Transaction ID").fill(`JC${randomUUID().slice(0, 8)}`);
    // The thank-you page's data takes 4 s to arrive, after the proof was accepted.
    let arrived = false;
    await page.route(/\/donate4\.data/, async (route) => {
      await new Promise((r) => setTimeout(r, 4000));
      const response = await route.fetch();
      arrived = true;
      await route.fulfill({ response });
    });
    const accepted = page.waitForResponse((r) => r.request().method() === "POST");
    const button = page.getByRole("button", { name: /Submit/ });
    await button.click();
    await accepted;
    for (let i = 0; i < 6 && !arrived; i++) {
      await page.waitForTimeout(500);
      if (arrived) break;
      await expect(button).toBeDisabled();
      await expect(button).toHaveText("Submitting...");
    }
    await expect(page).toHaveURL(/\/donate4\?donation=/);
  });
});
