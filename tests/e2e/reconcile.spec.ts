import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "@playwright/test";
import type { Db } from "#server/db/client.ts";
import { donations, ngoProfiles, statementLines } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { givePaymentAccounts, makeCampaign, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 8);
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-reconcile-"));
test.afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A verified NGO with a JazzCash wallet. */
async function ngoWithWallet(db: Db) {
  const name = `Roshni Trust ${unique()}`;
  const ngo = await makeUser(db, "ngo", { name });
  await db
    .update(ngoProfiles)
    .set({ jazzcashNumber: `030${digits(8)}` })
    .where(eq(ngoProfiles.userId, ngo.id));
  return { ...ngo, name };
}

/** A second signed-in browser for the NGO (the page fixture is the donor's). */
async function signedIn(browser: Browser, db: Db, userId: string, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled });
  const { token } = await createSession(db, userId);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
  return context.newPage();
}

/** The donor pledges and pays through the screens, and returns the pledge code the payment screen showed. */
async function donorPays(page: Page, slug: string, ngoId: string, transactionId: string): Promise<string> {
  await page.goto(`/donate2?campaign=${slug}`);
  await page.getByRole("link", { name: "JazzCash" }).click();
  await expect(page).toHaveURL(new RegExp(`/donate3\\?campaign=${slug}&ngo=${ngoId}&method=jazzcash$`));
  const code = (await page.getByTestId("pledge-code").innerText()).trim();
  expect(code).toMatch(/^EK-[2-9A-HJ-NP-Z]{3}-[2-9A-HJ-NP-Z]{3}$/);
  // The same screen opened again shows the same code.
  await page.reload();
  await expect(page.getByTestId("pledge-code")).toHaveText(code);
  const proof = path.join(scratch, `proof-${unique()}.png`);
  fs.writeFileSync(proof, await makeProofPng());
  await page.getByLabel("Amount (Rs.)").fill("2,500");
  await page.getByLabel("Screenshot of the payment").setInputFiles(proof);
  await page.getByLabel("Transaction ID").fill(transactionId);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/donate4\?donation=/);
  return code;
}

/** A wallet export (signed amount, remark, sender), as JazzCash's business portal writes one. */
function walletStatement(lines: string[]): string {
  const file = path.join(scratch, `jazzcash-${unique()}.csv`);
  fs.writeFileSync(
    file,
    ["Transaction ID,Date & Time,Transaction Type,Amount,Sender MSISDN,Sender Name,Remarks,Balance", ...lines].join("\r\n"),
  );
  return file;
}
const today = () => {
  const d = new Date(Date.now() + 5 * 3600_000);
  return `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
};

async function importStatement(ngoPage: Page, file: string) {
  await ngoPage.goto("/statements");
  await ngoPage.getByLabel("Statement file").setInputFiles(file);
  await ngoPage.getByRole("button", { name: "Import", exact: true }).click();
  // The first file of this layout asks which column holds what, with the columns guessed from its header.
  await expect(ngoPage).toHaveURL(/\/statements\/columns\?upload=/);
  await expect(ngoPage.getByLabel("Reference or transaction ID")).toHaveValue("0");
  await expect(ngoPage.getByLabel("Description or remark")).toHaveValue("6");
  await ngoPage.getByRole("button", { name: "Import with these columns" }).click();
  await expect(ngoPage).toHaveURL(/\/statements\?imported=/);
  await matchingDone(ngoPage);
}

/** The matching round is a job the worker runs after the import (decision 042): reload until the page no longer says it runs. */
async function matchingDone(ngoPage: Page) {
  await expect
    .poll(
      async () => {
        await ngoPage.reload();
        return ngoPage.getByTestId("matching-running").count();
      },
      { timeout: 30_000, intervals: [500, 1_000, 2_000] },
    )
    .toBe(0);
}

test.describe("statement matching", () => {
  test("a donor pledges and pays; the NGO imports its statement, sees the match and confirms; the donor gets the receipt", async ({
    page,
    db,
    login,
    browser,
  }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithWallet(db);
    const campaign = await makeCampaign(db, ngo.id, { title: `Winter blankets ${unique()}` });
    const tid = `${digits(11)}`;
    const code = await donorPays(page, campaign.slug, ngo.id, tid);

    const ngoPage = await signedIn(browser, db, ngo.id);
    // The transfer, with the pledge code in its remark, among others; the same file twice adds nothing.
    const file = walletStatement([
      `${tid},${today()} 10:21 AM,Money Received,"2,500",03001234567,TEST DONOR,${code},"12,500"`,
      `${digits(11)},${today()} 09:02 AM,Money Received,"700",03219876543,BILAL AHMED,,"10,000"`,
      `${digits(11)},${today()} 08:15 AM,Bill Payment,"-1,500",,,PTCL,"9,300"`,
    ]);
    await importStatement(ngoPage, file);
    const summary = ngoPage.getByTestId("import-summary");
    await expect(summary).toContainText("Credit lines in the file: 2");
    await expect(summary).toContainText("New lines added: 2");
    await expect(summary).toContainText("Matched to gifts now: 1");
    const firstImport = ngoPage.url();
    await ngoPage.getByLabel("Statement file").setInputFiles(file);
    await ngoPage.getByRole("button", { name: "Import", exact: true }).click();
    // The second import's own page (not the first one's, still showing until the answer comes).
    await expect(ngoPage).not.toHaveURL(firstImport);
    await expect(ngoPage).toHaveURL(/\/statements\?imported=/);
    await matchingDone(ngoPage);
    await expect(ngoPage.getByTestId("import-summary")).toContainText("New lines added: 0");

    await ngoPage.getByRole("link", { name: "Review the matches" }).click();
    const row = ngoPage.getByTestId("matched-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Same transaction ID");
    await expect(row).toContainText(code);
    await expect(row.getByRole("checkbox")).toBeChecked();
    await expectAccessible(ngoPage);
    await ngoPage.getByRole("button", { name: "Confirm the ticked matches" }).click();
    await expect(ngoPage.getByTestId("reconcile-notice")).toContainText("Approved: 1.");
    await expect(ngoPage.getByRole("link", { name: "To confirm (0)" })).toBeVisible();
    await ngoPage.getByRole("link", { name: "Lines without a gift (1)" }).click();
    await expect(ngoPage.getByTestId("line-row")).toContainText("BILAL AHMED");
    // On a 360 px phone the queue fits: no sideways scrolling.
    await ngoPage.setViewportSize({ width: 360, height: 740 });
    await ngoPage.reload();
    expect(await ngoPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const [gift] = await db.select().from(donations).where(eq(donations.donorId, donor.id));
    expect(gift).toMatchObject({ status: "approved", amount: 2500 });
    const [line] = await db.select().from(statementLines).where(eq(statementLines.donationId, gift!.id));
    expect(line).toMatchObject({ status: "confirmed", reference: tid });

    await page.goto("/dvh");
    const receipt = page.getByRole("link", { name: /Download receipt/ });
    await expect(receipt).toBeVisible();
    const response = await page.request.get((await receipt.getAttribute("href"))!);
    expect(response.headers()["content-type"]).toContain("application/pdf");
    await ngoPage.context().close();

    // The administrator reads the approval with its statement line, in words and rupees.
    const admin = await makeUser(db, "admin");
    const adminPage = await signedIn(browser, db, admin.id);
    await adminPage.goto("/admin/audit");
    const entry = adminPage.getByRole("row").filter({ hasText: "Approved a cash donation" }).filter({ hasText: tid });
    await expect(entry).toContainText("Amount: Rs. 2,500");
    await expect(entry).toContainText("Method: JazzCash");
    await expect(entry).toContainText(`Campaign: ${campaign.title}`);
    await expect(entry).toContainText(`Statement reference: ${tid}`);
    await expectAccessible(adminPage);
    await adminPage.context().close();
  });

  test("without JavaScript the NGO imports, sets a line aside and confirms", async ({ page, db, login, browser }) => {
    await login({ role: "donor" });
    const ngo = await ngoWithWallet(db);
    const campaign = await makeCampaign(db, ngo.id, { title: `Clean water ${unique()}` });
    const tid = `${digits(11)}`;
    await donorPays(page, campaign.slug, ngo.id, tid);

    const ngoPage = await signedIn(browser, db, ngo.id, false);
    await importStatement(
      ngoPage,
      walletStatement([
        `${tid},${today()} 10:21 AM,Money Received,"2,500",03001234567,TEST DONOR,,"12,500"`,
        `${digits(11)},${today()} 09:02 AM,Money Received,"9,999",03219876543,REFUND,,"10,000"`,
      ]),
    );
    await ngoPage.goto("/reconcile?tab=unmatched");
    const line = ngoPage.getByTestId("line-row");
    await line.getByText("Set aside").first().click();
    await line.getByLabel("Why is this line not a gift?").fill("A supplier's refund");
    await line.getByRole("button", { name: "Set aside" }).click();
    await expect(ngoPage.getByTestId("reconcile-notice")).toContainText("The line was set aside.");
    await ngoPage.goto("/reconcile");
    await ngoPage.getByRole("button", { name: "Confirm and approve" }).click();
    await expect(ngoPage.getByTestId("reconcile-notice")).toContainText("Approved: 1.");
    const [gift] = await db.select().from(donations).where(eq(donations.campaignId, campaign.id));
    expect(gift!.status).toBe("approved");
    await ngoPage.context().close();
  });
});

test.describe("the payment screen", () => {
  test("shows the Raast QR for an IBAN (drawn on the server), which the administrator can turn off, and warns of a recent account change", async ({
    page,
    db,
    login,
    browser,
  }) => {
    await login({ role: "donor" });
    const ngo = await makeUser(db, "ngo", { name: `Sahara ${unique()}` });
    await givePaymentAccounts(db, ngo.id, {
      bankName: "Meezan Bank",
      bankAccountTitle: "Sahara Trust",
      bankAccountNumber: "PK36 SCBL 0000 0011 2345 6702",
    });
    const campaign = await makeCampaign(db, ngo.id, { title: `School books ${unique()}` });
    const screen = `/donate3?campaign=${campaign.slug}&ngo=${ngo.id}&method=bank`;
    await page.goto(screen);
    const qr = page.getByTestId("raast-qr");
    await expect(qr.getByRole("img", { name: "Raast QR code of the NGO's IBAN" })).toBeVisible();
    await expect(page.getByTestId("account-changed")).toHaveCount(0);
    await expectAccessible(page);

    const admin = await makeUser(db, "admin");
    const adminPage = await signedIn(browser, db, admin.id);
    await adminPage.goto("/admin/settings");
    await expect(adminPage.getByTestId("raast-state")).toHaveText("The QR is shown.");
    await adminPage.getByRole("button", { name: "Turn the QR off" }).click();
    await expect(adminPage.getByTestId("raast-state")).toHaveText("The QR is turned off: donors see the account as text only.");
    await page.reload();
    await expect(page.getByTestId("raast-qr")).toHaveCount(0);
    await expect(page.getByTestId("account-number")).toHaveText("PK36 SCBL 0000 0011 2345 6702");
    await adminPage.getByRole("button", { name: "Turn the QR on" }).click();
    await expect(adminPage.getByTestId("raast-state")).toHaveText("The QR is shown.");
    await adminPage.context().close();

    // The NGO's accounts changed a moment ago: donors are told for a day.
    await db.update(ngoProfiles).set({ paymentChangedAt: new Date() }).where(eq(ngoProfiles.userId, ngo.id));
    await page.reload();
    await expect(page.getByTestId("account-changed")).toContainText("changed its payment accounts in the last 24 hours");
  });
});

test.describe("the review workbench", () => {
  test("shows the statement beside what the donor typed, flags an amount that differs, and moves with the keyboard", async ({
    page,
    db,
    login,
    browser,
  }) => {
    await login({ role: "donor" });
    const ngo = await ngoWithWallet(db);
    const campaign = await makeCampaign(db, ngo.id, { title: `Rations ${unique()}` });
    const first = digits(11);
    const second = digits(11);
    await donorPays(page, campaign.slug, ngo.id, first);
    await donorPays(page, campaign.slug, ngo.id, second);
    const ngoPage = await signedIn(browser, db, ngo.id);
    // The statement holds the first transfer with the donor's amount, and the second with another.
    await importStatement(
      ngoPage,
      walletStatement([
        `${first},${today()} 10:21 AM,Money Received,"2,500",03001234567,TEST DONOR,,"12,500"`,
        `${second},${today()} 10:40 AM,Money Received,"250",03001234567,TEST DONOR,,"12,750"`,
      ]),
    );
    await ngoPage.goto("/apps");
    const cards = ngoPage.getByRole("listitem").filter({ has: ngoPage.getByRole("article") });
    await expect(cards.filter({ hasText: "Matched to your statement" })).toHaveCount(1);
    await expect(cards.filter({ hasText: "Statement amount differs" })).toHaveCount(1);
    await cards
      .first()
      .getByRole("link", { name: /View the donation/ })
      .click();
    const check = ngoPage.getByTestId("statement-check");
    await expect(check).toContainText("Your statement holds this transfer (Same transaction ID)");
    await expect(check).toContainText(first);
    await expectAccessible(ngoPage);
    await ngoPage.keyboard.press("j");
    await expect(ngoPage.getByTestId("statement-check")).toContainText(second);
    await expect(ngoPage.getByTestId("statement-check")).toContainText("differs from what the donor typed");
    await ngoPage.keyboard.press("k");
    await expect(ngoPage.getByTestId("statement-check")).toContainText(first);
    await ngoPage.context().close();
  });
});

test("an NGO downloads a donation poster of its campaign from its list", async ({ page, db, login }) => {
  const ngo = await login({ role: "ngo" });
  await givePaymentAccounts(db, ngo.id);
  const campaign = await makeCampaign(db, ngo.id, { title: `Poster drive ${unique()}` });
  await page.goto(`/campaigns?q=${encodeURIComponent(campaign.title)}`);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: `Print a donation poster for ${campaign.title} (PDF)` }).click();
  const file = await (await download).path();
  expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
  // The collection point's poster, from the settings.
  await page.goto("/settingsNGO");
  const second = page.waitForEvent("download");
  await page.getByRole("link", { name: "Print a collection point poster (PDF)" }).click();
  expect(
    fs
      .readFileSync(await (await second).path())
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");
});

test("a donor who paid with the pledge code but never sent the proof still gets the gift recorded and a receipt", async ({
  page,
  db,
  login,
  browser,
}) => {
  await login({ role: "donor" });
  const ngo = await ngoWithWallet(db);
  const campaign = await makeCampaign(db, ngo.id, { title: `Flood kits ${unique()}` });
  await page.goto(`/donate3?campaign=${campaign.slug}&ngo=${ngo.id}&method=jazzcash`);
  const code = (await page.getByTestId("pledge-code").innerText()).trim();

  const ngoPage = await signedIn(browser, db, ngo.id);
  await importStatement(
    ngoPage,
    walletStatement([`${digits(11)},${today()} 10:21 AM,Money Received,"1,800",03001234567,TEST DONOR,${code},"9,800"`]),
  );
  await ngoPage.goto("/reconcile?tab=unmatched");
  const found = ngoPage.getByTestId("pledge-found");
  await expect(found).toContainText(code);
  await expect(found).toContainText(campaign.title);
  await found.getByRole("button", { name: "Record and approve this gift" }).click();
  await expect(ngoPage.getByTestId("reconcile-notice")).toContainText("The gift was recorded from the statement and approved.");
  await ngoPage.context().close();

  await page.goto("/dvh");
  await expect(page.getByRole("link", { name: /Download receipt/ })).toBeVisible();
});

test("an NGO without a payment account is warned where it starts and lists campaigns, until it adds one", async ({ page, db, login }) => {
  const ngo = await login({ role: "ngo" });
  for (const path of ["/campaigns", "/create_camp"]) {
    await page.goto(path);
    await expect(page.getByTestId("no-account")).toContainText("Donors cannot give your campaigns cash until you add a payment account");
  }
  await page.getByTestId("no-account").getByRole("link", { name: "Add one in Settings" }).click();
  await expect(page).toHaveURL(/\/settingsNGO$/);
  await givePaymentAccounts(db, ngo.id);
  for (const path of ["/campaigns", "/create_camp"]) {
    await page.goto(path);
    await expect(page.getByTestId("no-account")).toHaveCount(0);
  }
});
