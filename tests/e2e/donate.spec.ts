import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import type { Page } from "@playwright/test";
import type { Db } from "#server/db/client.ts";
import { donations, donorProfiles, files, ngoProfiles, users } from "#server/db/schema.ts";
import { makeCampaign, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { uniqueEmail } from "#tests/helpers/services.ts";
import { STRINGS_ELEMENT_ID } from "#shared/i18n/i18n.ts";
import { e2ePort } from "./env.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 8);
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

const FILL_ALL = "Please fill in all the fields.";
const SCREENSHOT_MISSING = "Please choose the screenshot of your payment.";
const PHONE_DIGITS = "Enter a mobile number, for example 0321 1234567 or +92 321 1234567.";
const AMOUNT_DIGITS = "Enter the amount in whole rupees, digits only.";
const TRANSACTION_INVALID = "Enter the transaction ID from your payment message: letters and digits, at least 4.";
const IMAGE_INVALID = "The picture must be a JPEG, PNG or WebP image.";
const IMAGE_TOO_LARGE = "The picture must be 5 MB or smaller.";
const HOSTILE = "<script>alert(1)</script>";

/** The server under test keeps its files here (see playwright.config.ts). */
const PROOF_DIR = `/tmp/ekc-e2e-${e2ePort()}/files/proof`;
const storedProofCount = () => (fs.existsSync(PROOF_DIR) ? fs.readdirSync(PROOF_DIR).length : 0);

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-donate-"));
test.afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A real screenshot-like PNG on disk, chosen through the file picker like a person would. */
async function proofFile(): Promise<string> {
  const file = path.join(scratch, `proof-${unique()}.png`);
  fs.writeFileSync(file, await makeProofPng());
  return file;
}

interface NgoAccounts {
  jazzcash: string | null;
  easypaisa: string | null;
  bank: { name: string; title: string; number: string } | null;
}

/** A verified NGO with the payment accounts given (all three unless told otherwise), each with its own numbers. */
async function ngoWithAccounts(db: Db, name: string, want: { jazzcash?: boolean; easypaisa?: boolean; bank?: boolean } = {}) {
  const { jazzcash = true, easypaisa = true, bank = true } = want;
  const user = await makeUser(db, "ngo", { name });
  const accounts: NgoAccounts = {
    jazzcash: jazzcash ? `030${digits(8)}` : null,
    easypaisa: easypaisa ? `034${digits(8)}` : null,
    bank: bank ? { name: "Meezan Bank", title: name, number: `PK36MEZN${digits(16)}` } : null,
  };
  await db
    .update(ngoProfiles)
    .set({
      jazzcashNumber: accounts.jazzcash,
      easypaisaNumber: accounts.easypaisa,
      bankName: accounts.bank?.name ?? null,
      bankAccountTitle: accounts.bank?.title ?? null,
      bankAccountNumber: accounts.bank?.number ?? null,
    })
    .where(eq(ngoProfiles.userId, user.id));
  return { ...user, name, accounts };
}

const donationsOf = (db: Db, donorId: string) => db.select().from(donations).where(eq(donations.donorId, donorId));
const proofFilesOf = (db: Db, donorId: string) =>
  db
    .select()
    .from(files)
    .where(and(eq(files.ownerId, donorId), eq(files.kind, "proof")));

function proofUrl(slug: string, ngoId: string, method: string) {
  return `/donate3?${new URLSearchParams({ campaign: slug, ngo: ngoId, method }).toString()}`;
}

async function fillProof(page: Page, values: { amount: string; screenshot: string; transactionId: string; phone?: string }) {
  if (values.phone !== undefined) await page.getByLabel("Phone number").fill(values.phone);
  await page.getByLabel("Amount (Rs.)").fill(values.amount);
  await page.getByLabel("Screenshot of the payment").setInputFiles(values.screenshot);
  await page.getByLabel("Transaction ID").fill(values.transactionId);
}

/** The field's message, tied to it by aria-describedby as the form components do. */
async function fieldMessage(page: Page, label: string) {
  const input = page.getByLabel(label);
  await expect(input).toHaveAttribute("aria-invalid", "true");
  const ids = ((await input.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
  return texts.join(" | ");
}

const donationIdOf = (page: Page) => new URL(page.url()).searchParams.get("donation")!;

test.describe("cash donation flow", () => {
  test("a donor gives by JazzCash, Easypaisa and bank transfer through the screens", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Roshni Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id, { title: `Flood relief ${unique()}` });
    const cases = [
      { key: "jazzcash", label: "JazzCash", number: ngo.accounts.jazzcash!, amount: "1,500", rupees: 1500, tx: "jc-1234 5678" },
      { key: "easypaisa", label: "Easypaisa", number: ngo.accounts.easypaisa!, amount: "2500", rupees: 2500, tx: "EP99887766" },
      { key: "bank", label: "Bank Transfer", number: ngo.accounts.bank!.number, amount: "10 000", rupees: 10_000, tx: "FT24123ABCD" },
    ] as const;

    for (const c of cases) {
      await page.goto(`/donate1?q=${encodeURIComponent(campaign.title)}`);
      const card = page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem").filter({ hasText: campaign.title });
      await card.getByRole("link", { name: "Donate Now" }).click();
      await expect(page).toHaveURL(`/donate2?campaign=${campaign.slug}`);
      // One NGO: no choosing whom to pay, straight to the methods it accepts.
      await expect(page.getByRole("heading", { name: "Choose a payment method" })).toBeVisible();
      await page.getByRole("link", { name: c.label }).click();
      await expect(page).toHaveURL(new RegExp(`/donate3\\?campaign=${campaign.slug}&ngo=${ngo.id}&method=${c.key}$`));

      await expect(page.getByTestId("account-number")).toHaveText(c.number);
      if (c.key === "bank") {
        await expect(page.getByText("Meezan Bank")).toBeVisible();
        await expect(page.getByRole("region", { name: "Pay by Bank Transfer" })).toContainText(ngo.name);
      }
      await expect(page.getByLabel("Phone number")).toHaveValue("03001234567");
      await fillProof(page, { amount: c.amount, screenshot: await proofFile(), transactionId: c.tx });
      await page.getByRole("button", { name: "Submit" }).click();

      await expect(page).toHaveURL(/\/donate4\?donation=/);
      const thanks = page.getByRole("region", { name: "Thank you for your donation!" });
      await expect(thanks).toContainText(`Rs. ${c.rupees.toLocaleString("en-US")}`);
      await expect(thanks).toContainText(campaign.title);
      await expect(thanks).toContainText(ngo.name);
      await expect(thanks).toContainText(c.label);
      await expect(thanks).toContainText("Pending review");

      const [row] = await db
        .select()
        .from(donations)
        .where(eq(donations.id, donationIdOf(page)));
      expect(row).toMatchObject({
        donorId: donor.id,
        campaignId: campaign.id,
        recipientNgoId: ngo.id,
        kind: "cash",
        status: "pending",
        amount: c.rupees,
        method: c.key,
        phone: "03001234567",
        transactionId: c.tx.replace(/[\s-]/g, "").toUpperCase(),
      });
      expect(row!.proofKey).toMatch(/^proof\/[0-9a-f-]{36}\.webp$/);
      expect(fs.existsSync(path.join(PROOF_DIR, path.basename(row!.proofKey!)))).toBe(true);
    }

    expect(await donationsOf(db, donor.id)).toHaveLength(3);
    const thanks = page.getByRole("region", { name: "Thank you for your donation!" });
    await expect(thanks.getByRole("link", { name: "My donations" })).toHaveAttribute("href", "/dvh");
    await expectAccessible(page);
    await thanks.getByRole("link", { name: "Done" }).click();
    await expect(page).toHaveURL(/\/donate1$/);
  });

  test("the picker pages six cards at a time, searches, and opens a campaign's details", async ({ page, db, login }) => {
    await login({ role: "donor" });
    const owner = await ngoWithAccounts(db, `Saaya Welfare ${unique()}`);
    const partner = await ngoWithAccounts(db, `Paani Trust ${unique()}`);
    const tag = unique();
    const start = Date.now() - 3_600_000;
    const older = [];
    for (let i = 0; i < 6; i += 1) {
      older.push(await makeCampaign(db, owner.id, { title: `Winter ${tag} ${i}`, createdAt: new Date(start + i * 60_000) }));
    }
    const longText = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");
    const joint = await makeCampaign(db, owner.id, {
      title: `Winter ${tag} joint`,
      createdAt: new Date(start + 3_000_000),
      partners: [partner.id],
      description: longText,
      otherItems: "Blankets and warm clothes",
      acceptedFunds: ["zakat", "general"],
      collectedAmount: 25_000,
    });
    await makeCampaign(db, owner.id, { title: `Winter ${tag} over`, status: "completed", completedAt: new Date() });

    await page.goto("/donate1");
    await expect(
      page.getByRole("navigation", { name: "Type of donation" }).getByRole("link", { name: "Cash", exact: true }),
    ).toHaveAttribute("aria-current", "page");
    // The Non-Cash half of the toggle leads to the in-kind picker.
    await expect(page.getByRole("navigation", { name: "Type of donation" }).getByRole("link", { name: "Non-Cash" })).toHaveAttribute(
      "href",
      "/donate5",
    );
    await expectAccessible(page);

    await page.getByRole("searchbox", { name: "Search campaigns by title" }).fill(`  WINTER ${tag.toUpperCase()} `);
    await page.getByRole("button", { name: "Search" }).click();
    // On a database holding only this test's campaigns the list before the search looks the same: wait for the search's
    // page, or "Next" below may be the unsearched list's.
    await expect(page).toHaveURL(new RegExp(`/donate1\\?q=[+]*WINTER[+]${tag.toUpperCase()}[+]*$`));
    const cards = page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem");
    await expect(cards).toHaveCount(6);
    await expect(cards.first().getByRole("heading")).toHaveText(joint.title);
    await expect(cards.first().locator("img")).toHaveAttribute("fetchpriority", "high");
    await expect(cards.nth(1).locator("img")).toHaveAttribute("loading", "lazy");
    await expect(cards.first()).toContainText(`${Array.from({ length: 20 }, (_, i) => `word${i}`).join(" ")}…`);
    await expect(cards.first()).not.toContainText("word20");
    await expect(cards.first()).toContainText(`Jointly by ${owner.name}, ${partner.name}`);
    await expect(cards.first()).toContainText("Accepts Zakat");
    // The badges' words come in the loader's data: the page carries none of the funds', checks' or later screens' strings.
    const carried = JSON.parse((await page.locator(`#${STRINGS_ELEMENT_ID}`).textContent()) ?? "{}") as Record<string, unknown>;
    expect(Object.keys(carried).sort()).toEqual(["common", "donate", "errors", "validation"]);
    await expect(cards.first().getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Rs. 25,000 raised of Rs. 100,000");
    await expect(cards.nth(1)).toContainText(`By ${owner.name}`);
    await expect(page.getByText(`Winter ${tag} over`)).toHaveCount(0);

    await expect(page.getByTestId("picker-count")).toHaveText("7 campaigns");
    const pages = page.getByRole("navigation", { name: "Pages of campaigns" });
    // The first page has no way back, only on.
    await expect(pages.getByRole("link")).toHaveCount(1);
    await pages.getByRole("link", { name: "Next" }).click();
    // The next page is read after the last card shown (its id), not by number (decision 044).
    await expect(page).toHaveURL(/after=[0-9a-f-]{36}#pick-heading$/);
    const cursor = new URL(page.url()).searchParams.get("after")!;
    await expect(cards).toHaveCount(1);
    await expect(cards.first().getByRole("heading")).toHaveText(older[0]!.title);
    await expect(page.getByTestId("picker-count")).toHaveText("7 campaigns");
    await expect(pages.getByRole("link", { name: "Next" })).toHaveCount(0);

    // Details keep the search and page; Go back returns to them.
    await cards.first().getByRole("link", { name: "Details" }).click();
    await expect(page).toHaveURL(new RegExp(`q=WINTER\\+${tag.toUpperCase()}&after=${cursor}&campaign=${older[0]!.slug}$`));
    await expect(page.getByRole("heading", { level: 2, name: older[0]!.title })).toBeVisible();
    await page.getByRole("link", { name: "Go back" }).click();
    await expect(page).toHaveURL(new RegExp(`/donate1\\?q=WINTER\\+${tag.toUpperCase()}&after=${cursor}$`));
    await expect(cards).toHaveCount(1);
    // "Previous" from the second page is the first page's own address.
    await pages.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(new RegExp(`/donate1\\?q=WINTER\\+${tag.toUpperCase()}#pick-heading$`));
    await expect(cards).toHaveCount(6);
    await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(cards).toHaveCount(1);
    await pages.getByRole("link", { name: "First page" }).click();
    await expect(page).toHaveURL(new RegExp(`/donate1\\?q=WINTER\\+${tag.toUpperCase()}#pick-heading$`));
    await expect(cards).toHaveCount(6);
    // A link from before the cursor (?page=2, shared in a message) opens the same search's first page.
    await page.goto(`/donate1?q=${tag}&page=2`);
    await expect(page).toHaveURL(new RegExp(`/donate1\\?q=${tag}$`));
    await expect(cards).toHaveCount(6);
    await expect(cards.first().getByRole("heading")).toHaveText(joint.title);

    await page.goto(`/donate1?q=${tag}`);
    await cards.first().getByRole("link", { name: "Details" }).click();
    const panel = page.getByRole("article", { name: joint.title });
    await expect(panel.getByRole("img", { name: `Picture of the campaign “${joint.title}”` })).toBeVisible();
    await expect(panel).toContainText(longText);
    await expect(panel).toContainText(joint.locationLabel);
    await expect(panel).toContainText("Blankets and warm clothes");
    await expect(panel).toContainText("Accepts Zakat");
    await expect(panel).toContainText(`${owner.name}(Organiser)`);
    await expect(panel).toContainText(`${partner.name}(Partner)`);
    await expect(panel.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "25");
    await expectAccessible(page);
    await panel.getByRole("link", { name: "Donate Now" }).click();
    await expect(page).toHaveURL(`/donate2?campaign=${joint.slug}`);
  });

  test("a link with an ended or unknown campaign explains itself", async ({ page, db, login }) => {
    await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Closed Trust ${unique()}`);
    const done = await makeCampaign(db, ngo.id, { status: "completed", completedAt: new Date(), collectedAmount: 100_000 });
    const archived = await makeCampaign(db, ngo.id, { status: "archived", archivedAt: new Date() });

    const ended = await page.goto(`/donate1?campaign=${done.slug}`);
    expect(ended!.status()).toBe(200);
    await expect(page.getByRole("alert")).toHaveText(
      `“${done.title}” has ended and no longer takes donations. Please choose another campaign.`,
    );
    await page.getByRole("link", { name: "See all campaigns" }).click();
    await expect(page).toHaveURL(/\/donate1$/);

    for (const slug of [archived.slug, `no-such-${unique()}`, "%3Cscript%3E", "x".repeat(300)]) {
      await page.goto(`/donate1?campaign=${slug}`);
      await expect(page.getByRole("alert")).toHaveText(
        "We could not find that campaign. The link may be wrong, or the campaign was removed.",
      );
    }
    await page.goto(`/donate2?campaign=${done.slug}`);
    await expect(page.getByRole("alert")).toHaveText("This campaign has ended and no longer takes donations.");
    await page.goto(proofUrl(done.slug, ngo.id, "jazzcash"));
    await expect(page.getByRole("alert")).toHaveText("This campaign has ended and no longer takes donations.");
    await expect(page.getByRole("button", { name: "Submit" })).toHaveCount(0);
  });

  test("for a joint campaign the donor chooses the partner to pay, and that partner receives it", async ({ page, db, login, context }) => {
    const donor = await login({ role: "donor" });
    const owner = await ngoWithAccounts(db, `Owner Trust ${unique()}`, { easypaisa: false, bank: false });
    const partner = await ngoWithAccounts(db, `Partner Trust ${unique()}`, { jazzcash: false, easypaisa: false });
    const unpaid = await ngoWithAccounts(db, `No Account Trust ${unique()}`, { jazzcash: false, easypaisa: false, bank: false });
    const campaign = await makeCampaign(db, owner.id, { title: `Joint water ${unique()}`, partners: [partner.id, unpaid.id] });

    await page.goto(`/donate1?campaign=${campaign.slug}`);
    await page.getByRole("article", { name: campaign.title }).getByRole("link", { name: "Donate Now" }).click();
    await expect(page.getByRole("heading", { name: "Which NGO do you want to pay?" })).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(owner.name) })).toContainText("JazzCash");
    await expect(page.getByRole("link", { name: new RegExp(partner.name) })).toContainText("Bank Transfer");
    // An NGO without an account is named, and said to be unable to take payments, but cannot be chosen.
    await expect(page.getByRole("link", { name: new RegExp(unpaid.name) })).toHaveCount(0);
    await expect(page.getByRole("listitem").filter({ hasText: unpaid.name })).toContainText("Cannot take payments yet");
    await expectAccessible(page);

    await page.getByRole("link", { name: new RegExp(partner.name) }).click();
    await expect(page).toHaveURL(`/donate2?campaign=${campaign.slug}&ngo=${partner.id}`);
    const methods = page.getByRole("region", { name: "Choose a payment method" });
    await expect(methods.getByRole("listitem")).toHaveCount(1);
    await expect(methods.getByRole("link", { name: "JazzCash" })).toHaveCount(0);
    await expect(methods.getByRole("link", { name: "Easypaisa" })).toHaveCount(0);
    await expectAccessible(page);
    await methods.getByRole("link", { name: "Bank Transfer" }).click();

    const account = page.getByRole("region", { name: "Pay by Bank Transfer" });
    await expect(account).toContainText(partner.name);
    await expect(account).toContainText("Meezan Bank");
    await expect(page.getByTestId("account-number")).toHaveText(partner.accounts.bank!.number);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl() });
    await account.getByRole("button", { name: "Copy the IBAN or account number" }).click();
    // The number's own status says so (the pledge code has a copy button and a status of its own).
    await expect(account.getByRole("status").filter({ hasText: "Copied" })).toHaveCount(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(partner.accounts.bank!.number);

    await fillProof(page, { amount: "4000", screenshot: await proofFile(), transactionId: "IBFT556677" });
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page).toHaveURL(/\/donate4\?donation=/);
    const [row] = await donationsOf(db, donor.id);
    expect(row).toMatchObject({ recipientNgoId: partner.id, method: "bank", amount: 4000, campaignId: campaign.id, status: "pending" });

    // Naming an NGO that cannot be paid, or one that does not run the campaign, brings the choice back.
    await page.goto(`/donate2?campaign=${campaign.slug}&ngo=${unpaid.id}`);
    await expect(page.getByRole("alert")).toHaveText(`${unpaid.name} cannot receive payments yet. Please choose another NGO.`);
    await page.goto(`/donate2?campaign=${campaign.slug}&ngo=${randomUUID()}`);
    await expect(page.getByRole("alert")).toHaveText("That NGO does not run this campaign. Please choose one of these.");
    await expect(page.getByRole("link", { name: new RegExp(owner.name) })).toBeVisible();
  });

  test("a method the NGO has no account for is not offered, and cannot be used", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Easypaisa Only ${unique()}`, { jazzcash: false, bank: false });
    const campaign = await makeCampaign(db, ngo.id);
    await page.goto(`/donate2?campaign=${campaign.slug}`);
    const methods = page.getByRole("region", { name: "Choose a payment method" });
    await expect(methods.getByRole("link")).toHaveCount(1);
    await expect(methods.getByRole("link", { name: "Easypaisa" })).toBeVisible();
    await expect(page.getByRole("link", { name: "JazzCash" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Bank Transfer" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Go back" })).toHaveAttribute("href", `/donate1?campaign=${campaign.slug}`);

    await page.goto(proofUrl(campaign.slug, ngo.id, "jazzcash"));
    await expect(page.getByRole("alert")).toHaveText("This NGO does not accept payments by this method. Please choose another.");
    await expect(page.getByRole("button", { name: "Submit" })).toHaveCount(0);
    await page.goto(proofUrl(campaign.slug, ngo.id, "paypal"));
    await expect(page.getByRole("alert")).toHaveText("Choose a payment method.");

    // Posting the form anyway changes nothing.
    const response = await page.request.post(proofUrl(campaign.slug, ngo.id, "jazzcash"), {
      headers: { origin: baseUrl() },
      maxRedirects: 0,
      multipart: {
        campaign: campaign.slug,
        ngo: ngo.id,
        method: "jazzcash",
        idempotencyKey: randomUUID(),
        phone: "03001234567",
        amount: "500",
        transactionId: "TX123456",
        screenshot: { name: "proof.png", mimeType: "image/png", buffer: await makeProofPng() },
      },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("This NGO does not accept payments by this method.");
    expect(await donationsOf(db, donor.id)).toHaveLength(0);
    expect(await proofFilesOf(db, donor.id)).toHaveLength(0);

    // Nobody to pay at all.
    const broke = await ngoWithAccounts(db, `No Accounts ${unique()}`, { jazzcash: false, easypaisa: false, bank: false });
    const unpayable = await makeCampaign(db, broke.id);
    await page.goto(`/donate2?campaign=${unpayable.slug}`);
    const other = page.getByRole("region", { name: "Other ways to help" });
    await expect(other).toContainText(`“${unpayable.title}” is not taking money at the moment. You can still help:`);
    await expect(other.getByRole("link", { name: "Donate goods" })).toHaveAttribute("href", `/donate5?campaign=${unpayable.slug}`);
    // The cash picker does not offer it, and its details say the same.
    await page.goto(`/donate1?q=${encodeURIComponent(unpayable.title)}`);
    await expect(page.getByRole("status")).toHaveText(`No campaigns match “${unpayable.title}”.`);
    await page.goto(`/donate1?campaign=${unpayable.slug}`);
    await expect(other.getByRole("link", { name: "Volunteer" })).toBeVisible();
    // The goods picker still does: goods need no payment account.
    await page.goto(`/donate5?q=${encodeURIComponent(unpayable.title)}`);
    await expect(page.getByRole("heading", { name: unpayable.title })).toBeVisible();
  });

  test("a suspended NGO's campaign is paused on every screen of both flows", async ({ page, db, login }) => {
    await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Paused Trust ${unique()}`);
    const c = await makeCampaign(db, ngo.id, { title: `Paused appeal ${unique()}` });
    await page.goto(`/donate1?q=${encodeURIComponent(c.title)}`);
    await expect(page.getByRole("heading", { name: c.title })).toBeVisible();

    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, ngo.id));
    for (const picker of ["/donate1", "/donate5"]) {
      await page.goto(`${picker}?q=${encodeURIComponent(c.title)}`);
      await expect(page.getByRole("status")).toHaveText(`No campaigns match “${c.title}”.`);
      await page.goto(`${picker}?campaign=${c.slug}`);
      await expect(page.getByRole("alert")).toHaveText(
        `“${c.title}” is paused and is not taking donations at the moment. Please choose another campaign.`,
      );
    }
    for (const path of [`/donate2?campaign=${c.slug}`, proofUrl(c.slug, ngo.id, "jazzcash"), `/donate5_1?campaign=${c.slug}`]) {
      await page.goto(path);
      await expect(page.getByRole("alert")).toHaveText("This campaign is paused and is not taking donations at the moment.");
    }
    await expect(page.getByRole("button", { name: /Submit|Send/ })).toHaveCount(0);
  });

  test("every field of the proof form refuses bad values with a message, storing nothing", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Strict Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);
    const png = await makeProofPng();
    const before = storedProofCount();
    type Part = string | { name: string; mimeType: string; buffer: Buffer };
    const valid = (): Record<string, Part> => ({
      campaign: campaign.slug,
      ngo: ngo.id,
      method: "jazzcash",
      idempotencyKey: randomUUID(),
      phone: "03001234567",
      amount: "2000",
      transactionId: "TX998877",
      screenshot: { name: "proof.png", mimeType: "image/png", buffer: png },
    });
    const sixMegabytes = await sharp(randomBytes(1400 * 1400 * 3), { raw: { width: 1400, height: 1400, channels: 3 } })
      .png()
      .toBuffer();
    expect(sixMegabytes.length).toBeGreaterThan(5 * 1024 * 1024);
    const cases: [string, Record<string, Part | undefined>, string][] = [
      ["phone empty", { phone: "" }, FILL_ALL],
      ["phone missing", { phone: undefined }, FILL_ALL],
      ["phone too long", { phone: "0".repeat(5000) }, PHONE_DIGITS],
      ["phone too short", { phone: "0300 12" }, PHONE_DIGITS],
      ["phone letters", { phone: "abcdefghijk" }, PHONE_DIGITS],
      ["phone script", { phone: HOSTILE }, PHONE_DIGITS],
      ["amount empty", { amount: "   " }, FILL_ALL],
      ["amount too long", { amount: "9".repeat(5000) }, AMOUNT_DIGITS],
      ["amount too large", { amount: "10000001" }, "The amount can be at most Rs. 10,000,000."],
      ["amount zero", { amount: "0" }, "The amount must be at least Rs. 1."],
      ["amount decimal", { amount: "12.50" }, AMOUNT_DIGITS],
      ["amount negative", { amount: "-500" }, AMOUNT_DIGITS],
      ["amount words", { amount: "five hundred" }, AMOUNT_DIGITS],
      ["amount script", { amount: HOSTILE }, AMOUNT_DIGITS],
      ["transaction empty", { transactionId: "" }, FILL_ALL],
      ["transaction too long", { transactionId: "A".repeat(41) }, "This is too long."],
      ["transaction too short", { transactionId: "ab1" }, TRANSACTION_INVALID],
      ["transaction punctuation", { transactionId: "TX#1234" }, TRANSACTION_INVALID],
      ["transaction script", { transactionId: HOSTILE }, TRANSACTION_INVALID],
      ["screenshot missing", { screenshot: undefined }, SCREENSHOT_MISSING],
      ["screenshot empty file", { screenshot: { name: "empty.png", mimeType: "image/png", buffer: Buffer.alloc(0) } }, SCREENSHOT_MISSING],
      ["screenshot as text", { screenshot: "not a file" }, SCREENSHOT_MISSING],
      [
        "HTML renamed .png",
        {
          screenshot: {
            name: "proof.png",
            mimeType: "image/png",
            buffer: Buffer.from(`<!doctype html><html><body>${HOSTILE}</body></html>`),
          },
        },
        IMAGE_INVALID,
      ],
      [
        "PDF as screenshot",
        { screenshot: { name: "proof.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n") } },
        IMAGE_INVALID,
      ],
      ["truncated PNG", { screenshot: { name: "proof.png", mimeType: "image/png", buffer: png.subarray(0, 120) } }, IMAGE_INVALID],
      ["image over 5 MB", { screenshot: { name: "big.png", mimeType: "image/png", buffer: sixMegabytes } }, IMAGE_TOO_LARGE],
      ["method tampered", { method: "paypal" }, "Choose a payment method."],
      ["key tampered", { idempotencyKey: "1; drop table donations" }, "This form has expired. Please open it again."],
      ["NGO not of the campaign", { ngo: randomUUID() }, "We could not find that page."],
      ["campaign script", { campaign: HOSTILE }, "We could not find that page."],
    ];
    const url = proofUrl(campaign.slug, ngo.id, "jazzcash");
    for (const [name, change, message] of cases) {
      const multipart = Object.fromEntries(
        Object.entries({ ...valid(), ...change }).filter((e): e is [string, Part] => e[1] !== undefined),
      );
      const response = await page.request.post(url, { headers: { origin: baseUrl() }, multipart, maxRedirects: 0 });
      expect([400, 404], `${name}: status`).toContain(response.status());
      const html = await response.text();
      expect(html, `${name}: message`).toContain(message.replace(/'/g, "&#x27;"));
      expect(html, `${name}: hostile text rendered as HTML`).not.toContain(HOSTILE);
      expect(await donationsOf(db, donor.id), `${name}: donation stored`).toHaveLength(0);
      expect(await proofFilesOf(db, donor.id), `${name}: proof recorded`).toHaveLength(0);
    }
    expect(storedProofCount()).toBe(before);
  });

  test("hostile values typed into the form come back as text with their messages, never as markup", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Careful Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);
    const dialogs: string[] = [];
    page.on("dialog", async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    await page.goto(proofUrl(campaign.slug, ngo.id, "easypaisa"));

    // In the browser: the checks run as fields are left, and nothing is sent.
    await page.getByLabel("Phone number").fill(HOSTILE);
    await page.getByLabel("Amount (Rs.)").fill(HOSTILE);
    await page.getByLabel("Transaction ID").fill(HOSTILE);
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await fieldMessage(page, "Phone number")).toContain(PHONE_DIGITS);
    expect(await fieldMessage(page, "Amount (Rs.)")).toContain(AMOUNT_DIGITS);
    expect(await fieldMessage(page, "Transaction ID")).toContain(TRANSACTION_INVALID);
    expect(await fieldMessage(page, "Screenshot of the payment")).toContain(SCREENSHOT_MISSING);
    await expect(page).toHaveURL(/\/donate3\?/);
    await expectAccessible(page);

    // Past the browser's checks (a plain form submission): the server says the same, and shows the values as text.
    await page.getByLabel("Screenshot of the payment").setInputFiles(await proofFile());
    const answer = page.waitForResponse((r) => r.request().method() === "POST");
    await page.evaluate(() => (document.getElementById("proof") as HTMLFormElement).submit());
    expect((await answer).status()).toBe(400);
    await expect(page.getByLabel("Phone number")).toHaveValue(HOSTILE);
    await expect(page.getByLabel("Amount (Rs.)")).toHaveValue(HOSTILE);
    expect(await fieldMessage(page, "Phone number")).toContain(PHONE_DIGITS);
    expect(await fieldMessage(page, "Amount (Rs.)")).toContain(AMOUNT_DIGITS);
    expect(await fieldMessage(page, "Transaction ID")).toContain(TRANSACTION_INVALID);
    await expect(page.locator("script", { hasText: "alert(1)" })).toHaveCount(0);
    await expectAccessible(page);

    // An HTML page renamed .png is refused as a picture once it reaches the server.
    const fake = path.join(scratch, `fake-${unique()}.png`);
    fs.writeFileSync(fake, `<!doctype html><html><body>${HOSTILE}</body></html>`);
    await fillProof(page, { phone: "0300-1234567", amount: "750", screenshot: fake, transactionId: "EP12345678" });
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText(IMAGE_INVALID)).toBeVisible();
    expect(await fieldMessage(page, "Screenshot of the payment")).toContain(IMAGE_INVALID);

    expect(dialogs).toEqual([]);
    expect(await donationsOf(db, donor.id)).toHaveLength(0);
    expect(await proofFilesOf(db, donor.id)).toHaveLength(0);
  });

  test("with JavaScript on, a large phone photo is made smaller in the browser and accepted", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Photo Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);
    // A 4000×3000 camera-sized JPEG of several MB: too large to send as it is.
    const photo = path.join(scratch, `photo-${unique()}.jpg`);
    const noise = randomBytes(1000 * 750 * 3);
    fs.writeFileSync(
      photo,
      await sharp(noise, { raw: { width: 1000, height: 750, channels: 3 } })
        .resize(4000, 3000, { kernel: "cubic" })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
    const size = fs.statSync(photo).size;
    expect(size).toBeGreaterThan(5 * 1024 * 1024);

    await page.goto(proofUrl(campaign.slug, ngo.id, "jazzcash"));
    await fillProof(page, { amount: "3000", screenshot: photo, transactionId: "JC44556677" });
    await expect(page.getByText(/The picture was made smaller for a quicker upload/)).toBeVisible({ timeout: 20_000 });
    const shrunk = await page.getByLabel("Screenshot of the payment").evaluate((input: HTMLInputElement) => ({
      size: input.files![0]!.size,
      type: input.files![0]!.type,
    }));
    expect(shrunk.type).toBe("image/jpeg");
    expect(shrunk.size).toBeLessThan(size);

    const sent = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("/donate3"));
    await page.getByRole("button", { name: "Submit" }).click();
    const request = await sent;
    const bodyBytes = Number((await request.allHeaders())["content-length"] ?? request.postDataBuffer()?.length);
    expect(bodyBytes).toBeGreaterThan(0);
    expect(bodyBytes).toBeLessThan(size);
    expect(bodyBytes).toBeLessThan(5 * 1024 * 1024);
    await expect(page).toHaveURL(/\/donate4\?donation=/);
    const [row] = await donationsOf(db, donor.id);
    expect(row).toMatchObject({ amount: 3000, status: "pending" });
    expect(row!.proofKey).toBeTruthy();
  });

  test("a double submit, or the same form sent again, makes one donation", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Once Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);
    const before = storedProofCount();

    // Clicking twice in a hurry.
    await page.goto(proofUrl(campaign.slug, ngo.id, "jazzcash"));
    await fillProof(page, { amount: "1200", screenshot: await proofFile(), transactionId: "JC10101010" });
    await page.getByRole("button", { name: "Submit" }).dblclick();
    await expect(page).toHaveURL(/\/donate4\?donation=/);
    expect(await donationsOf(db, donor.id)).toHaveLength(1);

    // The same form arriving twice at once (a retry after a dropped connection): both answers name one donation.
    await page.goto(proofUrl(campaign.slug, ngo.id, "easypaisa"));
    const key = await page.locator('input[name="idempotencyKey"]').inputValue();
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const multipart = {
      campaign: campaign.slug,
      ngo: ngo.id,
      method: "easypaisa",
      idempotencyKey: key,
      phone: "03001234567",
      amount: "800",
      transactionId: "EP20202020",
      screenshot: { name: "proof.png", mimeType: "image/png", buffer: await makeProofPng() },
    };
    const post = () =>
      page.request.post(proofUrl(campaign.slug, ngo.id, "easypaisa"), { headers: { origin: baseUrl() }, multipart, maxRedirects: 0 });
    const answers = await Promise.all([post(), post()]);
    const third = await post();
    const locations = [...answers, third].map((r) => {
      expect(r.status()).toBe(302);
      return r.headers().location;
    });
    expect(new Set(locations).size).toBe(1);
    const rows = await donationsOf(db, donor.id);
    expect(rows).toHaveLength(2);
    expect(locations[0]).toBe(`/donate4?donation=${rows.find((r) => r.method === "easypaisa")!.id}`);
    // The screenshots of the repeats were not kept.
    expect(await proofFilesOf(db, donor.id)).toHaveLength(2);
    expect(storedProofCount()).toBe(before + 2);
  });

  test("a signed-out visitor donates from a campaign's public page after signing in", async ({ page, db, account }) => {
    const ngo = await ngoWithAccounts(db, `Public Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id, { title: `Shared link ${unique()}` });
    const done = await makeCampaign(db, ngo.id, { status: "completed", completedAt: new Date() });
    const donor = await account({ role: "donor" });

    await page.goto(`/campaign/${done.slug}`);
    await expect(page.getByRole("link", { name: "Donate", exact: true })).toHaveCount(0);

    await page.goto(`/campaign/${campaign.slug}`);
    const donate = page.getByRole("link", { name: "Donate", exact: true });
    await expect(donate).toHaveAttribute("href", `/donate1?campaign=${campaign.slug}`);
    await donate.click();
    await expect(page).toHaveURL(`/donor_signin?redirectTo=${encodeURIComponent(`/donate1?campaign=${campaign.slug}`)}`);
    await page.getByLabel("Email").fill(donor.email);
    await page.getByLabel("Password", { exact: true }).fill(donor.password);
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page).toHaveURL(`/donate1?campaign=${campaign.slug}`);
    await expect(page.getByRole("article", { name: campaign.title })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: campaign.title })).toBeVisible();
  });

  test("a new donor from a shared link signs up and lands on that campaign, signed in, on a phone", async ({ page, db }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const ngo = await ngoWithAccounts(db, `Shared Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id, { title: `Shared with a friend ${unique()}` });
    const going = `/donate1?campaign=${campaign.slug}`;

    await page.goto(`/campaign/${campaign.slug}`);
    await page.getByRole("link", { name: "Donate", exact: true }).click();
    await expect(page).toHaveURL(`/donor_signin?redirectTo=${encodeURIComponent(going)}`);
    await page.getByRole("link", { name: "Sign up" }).click();
    await expect(page).toHaveURL(`/donor_signup?redirectTo=${encodeURIComponent(going)}`);
    await page.getByLabel("First name").fill("Hina");
    await page.getByLabel("Last name").fill("Qureshi");
    await page.getByLabel("Address").fill("Saddar, Rawalpindi");
    // Typed as people do (issue 14, item 5): the country code and Urdu digits, stored in one national form.
    await page.getByLabel("Contact number").fill("+92 ۳۴۵ 1234567");
    const email = uniqueEmail("shared");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Hina-gives-2024");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(going);
    await expect(page.getByRole("heading", { level: 2, name: campaign.title })).toBeVisible();
    const [stored] = await db
      .select({ contact: donorProfiles.contactNumber })
      .from(donorProfiles)
      .innerJoin(users, eq(users.id, donorProfiles.userId))
      .where(eq(users.email, email));
    expect(stored?.contact).toBe("03451234567");
  });

  test("without JavaScript, the return address survives sign-up too", async ({ browser, db }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const ngo = await ngoWithAccounts(db, `No Script Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id, { title: `Plain form ${unique()}` });
    const going = `/donate1?campaign=${campaign.slug}`;
    await page.goto(`${baseUrl()}/donor_signup?redirectTo=${encodeURIComponent(going)}`);
    await page.getByLabel("First name").fill("Bilal");
    await page.getByLabel("Last name").fill("Khan");
    await page.getByLabel("Address").fill("Hayatabad, Peshawar");
    await page.getByLabel("Contact number").fill("03331234567");
    await page.getByLabel("Email").fill(uniqueEmail("plain"));
    await page.getByLabel("Password", { exact: true }).fill("Bilal-gives-2024");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(`${baseUrl()}${going}`);
    await expect(page.getByRole("heading", { level: 2, name: campaign.title })).toBeVisible();
    // A crafted return address cannot lead off the site: the donor goes home instead.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(`${baseUrl()}/donor`);
    await page.goto(`${baseUrl()}/donor_signup?redirectTo=${encodeURIComponent("//evil.example/x")}`);
    await page.getByLabel("First name").fill("Bilal");
    await page.getByLabel("Last name").fill("Khan");
    await page.getByLabel("Address").fill("Hayatabad, Peshawar");
    await page.getByLabel("Contact number").fill("03331234567");
    await page.getByLabel("Email").fill(uniqueEmail("plain"));
    await page.getByLabel("Password", { exact: true }).fill("Bilal-gives-2024");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL(`${baseUrl()}/donor_home`);
    await context.close();
  });

  test("the picker reads right to left in Urdu and fits a 360 px phone", async ({ page, db, login }) => {
    await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Phone Trust ${unique()}`);
    const tag = unique();
    for (let i = 0; i < 3; i += 1) {
      await makeCampaign(db, ngo.id, { title: `Narrow screen ${tag} ${i} with a rather long title indeed` });
    }
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/donate1?q=${tag}`);
    await expect(page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem")).toHaveCount(3);
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.getByRole("button", { name: "اردو" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page).toHaveURL(new RegExp(`/donate1\\?q=${tag}$`));
    await expect(page.getByRole("heading", { level: 2, name: "مہم منتخب کریں" })).toBeVisible();
    await expect(page.getByRole("link", { name: "ابھی عطیہ کریں" })).toHaveCount(3);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });

  test("the donation screens stay within the JavaScript budget", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Budget Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);
    const [done] = await db
      .insert(donations)
      .values({ campaignId: campaign.id, donorId: donor.id, recipientNgoId: ngo.id, kind: "cash", amount: 100, method: "jazzcash" })
      .returning();
    const budget = 150 * 1024;
    const measured: Record<string, number> = {};
    for (const p of [
      "/donate1",
      `/donate1?campaign=${campaign.slug}`,
      `/donate2?campaign=${campaign.slug}`,
      proofUrl(campaign.slug, ngo.id, "jazzcash"),
      `/donate4?donation=${done!.id}`,
    ]) {
      const bodies: Promise<Buffer>[] = [];
      const onResponse = (r: import("@playwright/test").Response) => {
        if (r.request().resourceType() === "script" || r.url().endsWith(".js")) bodies.push(r.body());
      };
      page.on("response", onResponse);
      await page.goto(p, { waitUntil: "networkidle" });
      page.off("response", onResponse);
      const bytes = (await Promise.all(bodies)).reduce((sum, b) => sum + gzipSync(b).length, 0);
      measured[p.split("?")[0]! + (p.includes("campaign=") && p.startsWith("/donate1") ? " (details)" : "")] = bytes;
      expect(bytes, `${p}: ${bytes} bytes of gzipped JavaScript`).toBeLessThanOrEqual(budget);
      expect(bytes).toBeGreaterThan(0);
    }
    // The shrinking code arrives only when a file is chosen.
    const chunk: Promise<Buffer>[] = [];
    page.on("response", (r) => {
      if (r.url().includes("shrink-image")) chunk.push(r.body());
    });
    await page.goto(proofUrl(campaign.slug, ngo.id, "jazzcash"), { waitUntil: "networkidle" });
    expect(chunk).toHaveLength(0);
    await page.getByLabel("Screenshot of the payment").setInputFiles(await proofFile());
    await expect.poll(() => chunk.length).toBe(1);
    measured["shrink-image chunk"] = gzipSync(await chunk[0]!).length;
    test.info().annotations.push({ type: "javascript-bytes", description: JSON.stringify(measured) });
    console.log("gzipped JavaScript per page:", measured);
  });
});

test.describe("cash donation flow without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("both pickers page by cursor in plain links, in English and in Urdu (right to left)", async ({ page, db, login }) => {
    // Two pickers walked to the end and back, then Urdu: more than a minute on a loaded machine. (No axe check here: it
    // runs in the page, which has no JavaScript; the JavaScript-on tests of the picker make it.)
    test.slow();
    await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Plain Pages Trust ${unique()}`);
    const tag = unique();
    const start = Date.now() - 3_600_000;
    for (let i = 0; i < 13; i += 1) {
      await makeCampaign(db, ngo.id, { title: `Plain page ${tag} ${i}`, createdAt: new Date(start + i * 60_000) });
    }
    const cards = page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem");
    for (const picker of ["/donate1", "/donate5"]) {
      await page.goto(`${picker}?q=${tag}`);
      await expect(page.getByTestId("picker-count")).toHaveText("13 campaigns");
      await expect(cards.first().getByRole("heading")).toHaveText(`Plain page ${tag} 12`);
      const pages = page.getByRole("navigation", { name: "Pages of campaigns" });
      await pages.getByRole("link", { name: "Next" }).click();
      await expect(cards.first().getByRole("heading")).toHaveText(`Plain page ${tag} 6`);
      await pages.getByRole("link", { name: "Next" }).click();
      await expect(cards).toHaveCount(1);
      await expect(cards.first().getByRole("heading")).toHaveText(`Plain page ${tag} 0`);
      // Back by "Previous": the six before the card shown (`before` it), then the first page, which has no Previous.
      await pages.getByRole("link", { name: "Previous" }).click();
      await expect(page).toHaveURL(/before=[0-9a-f-]{36}#pick-heading$/);
      await expect(cards).toHaveCount(6);
      await expect(cards.first().getByRole("heading")).toHaveText(`Plain page ${tag} 6`);
      await pages.getByRole("link", { name: "Previous" }).click();
      await expect(page).toHaveURL(new RegExp(`${picker}\\?q=${tag}#pick-heading$`));
      await expect(cards.first().getByRole("heading")).toHaveText(`Plain page ${tag} 12`);
      await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);
      await pages.getByRole("link", { name: "Next" }).click();
      await pages.getByRole("link", { name: "First page" }).click();
      await expect(cards.first().getByRole("heading")).toHaveText(`Plain page ${tag} 12`);
      // A forged "Previous" cursor is the first page too.
      expect((await page.goto(`${picker}?q=${tag}&before=${encodeURIComponent("1' or '1'='1")}`))?.status()).toBe(200);
      await expect(cards.first().getByRole("heading")).toHaveText(`Plain page ${tag} 12`);
      // A forged cursor is the first page, not an error.
      const forged = await page.goto(`${picker}?q=${tag}&after=${encodeURIComponent("1' or '1'='1")}`);
      expect(forged?.status()).toBe(200);
      await expect(cards.first().getByRole("heading")).toHaveText(`Plain page ${tag} 12`);
    }

    // In Urdu the line reads from the right: "First page" at its start (right), "Next" at its end (left).
    await page.goto(`/donate1?q=${tag}`);
    await page.getByRole("navigation", { name: "Pages of campaigns" }).getByRole("link", { name: "Next" }).click();
    await page.getByRole("button", { name: "اردو" }).click();
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByTestId("picker-count")).toHaveText("13 مہمات");
    const pages = page.getByRole("navigation", { name: "مہمات کے صفحات" });
    const next = pages.getByRole("link", { name: "اگلا" });
    const first = pages.getByRole("link", { name: "پہلا صفحہ" });
    const box = async (l: typeof next) => (await l.boundingBox())!;
    expect((await box(next)).x + (await box(next)).width).toBeLessThan((await box(first)).x);
    // «پچھلا» (Previous) sits with "First page", at the line's start: right of "Next".
    const previous = pages.getByRole("link", { name: "پچھلا" });
    expect((await box(next)).x + (await box(next)).width).toBeLessThan((await box(previous)).x);
    await next.click();
    await expect(page.getByRole("list", { name: "جاری مہمات" }).getByRole("listitem")).toHaveCount(1);
  });

  test("the proof form works and shows the server's field messages", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `No Script Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);

    await page.goto(`/donate1?campaign=${campaign.slug}`);
    await page.getByRole("link", { name: "Donate Now" }).click();
    await page.getByRole("link", { name: "JazzCash" }).click();
    await expect(page.getByTestId("account-number")).toHaveText(ngo.accounts.jazzcash!);
    // Copying needs JavaScript; without it the number is there to select.
    await expect(page.getByRole("button", { name: /Copy/ })).toHaveCount(0);

    await page.getByLabel("Phone number").fill("");
    await page.getByRole("button", { name: "Submit" }).click();
    for (const label of ["Phone number", "Amount (Rs.)", "Transaction ID"]) {
      expect(await fieldMessage(page, label)).toContain(FILL_ALL);
    }
    // The screenshot is flagged in the same answer, with its own message.
    expect(await fieldMessage(page, "Screenshot of the payment")).toContain(SCREENSHOT_MISSING);

    await fillProof(page, { phone: "0300 12", amount: "1000", screenshot: await proofFile(), transactionId: "JC123456" });
    await page.getByRole("button", { name: "Submit" }).click();
    expect(await fieldMessage(page, "Phone number")).toContain(PHONE_DIGITS);
    // What was typed stays; the file has to be chosen again, and the form says so.
    await expect(page.getByLabel("Amount (Rs.)")).toHaveValue("1000");
    expect(await donationsOf(db, donor.id)).toHaveLength(0);

    await fillProof(page, { phone: "0300-7654321", amount: "1000", screenshot: await proofFile(), transactionId: "JC123456" });
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page).toHaveURL(/\/donate4\?donation=/);
    await expect(page.getByRole("region", { name: "Thank you for your donation!" })).toContainText("Pending review");
    const [row] = await donationsOf(db, donor.id);
    expect(row).toMatchObject({ phone: "03007654321", amount: 1000, method: "jazzcash", status: "pending", recipientNgoId: ngo.id });
  });

  test("a 30 MB picture gets a clear page saying it is too large, and nothing is stored", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Big File Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);
    const huge = path.join(scratch, `huge-${unique()}.png`);
    const png = await makeProofPng();
    fs.writeFileSync(huge, Buffer.concat([png, Buffer.alloc(30 * 1024 * 1024 - png.length, 7)]));
    const before = storedProofCount();

    const url = proofUrl(campaign.slug, ngo.id, "jazzcash");
    await page.goto(url);
    await fillProof(page, { amount: "900", screenshot: huge, transactionId: "JC99999999" });
    const answer = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: "Submit" }).click();
    expect((await answer).status()).toBe(413);
    await expect(page.getByRole("heading", { level: 1, name: "The file is too large" })).toBeVisible();
    await expect(page.getByText("Each picture can be at most 5 MB.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Go back and try again" })).toHaveAttribute("href", url);
    await page.getByRole("link", { name: "Go back and try again" }).click();
    await expect(page.getByLabel("Screenshot of the payment")).toBeVisible();

    expect(await donationsOf(db, donor.id)).toHaveLength(0);
    expect(await proofFilesOf(db, donor.id)).toHaveLength(0);
    expect(storedProofCount()).toBe(before);
  });

  test("when the proof cannot be stored, the donor is told to try again and nothing is half-written", async ({ page, db, login }) => {
    const donor = await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Broken Disk Trust ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);
    await page.goto(proofUrl(campaign.slug, ngo.id, "easypaisa"));
    await fillProof(page, { amount: "650", screenshot: await proofFile(), transactionId: "EP31313131" });

    // The server's proof folder becomes unusable: storing the screenshot fails.
    const aside = `${PROOF_DIR}.aside-${unique()}`;
    const had = fs.existsSync(PROOF_DIR);
    if (had) fs.renameSync(PROOF_DIR, aside);
    fs.writeFileSync(PROOF_DIR, "not a folder");
    try {
      const answer = page.waitForResponse((r) => r.request().method() === "POST");
      await page.getByRole("button", { name: "Submit" }).click();
      expect((await answer).status()).toBe(503);
      await expect(page.getByRole("alert")).toContainText("Error uploading donation details. Try again");
    } finally {
      fs.rmSync(PROOF_DIR, { force: true });
      if (had) fs.renameSync(aside, PROOF_DIR);
    }
    expect(await donationsOf(db, donor.id)).toHaveLength(0);
    expect(await proofFilesOf(db, donor.id)).toHaveLength(0);

    // Trying again (the same form, so the same key) works once the server can store files again.
    await expect(page.getByLabel("Amount (Rs.)")).toHaveValue("650");
    await page.getByLabel("Screenshot of the payment").setInputFiles(await proofFile());
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page).toHaveURL(/\/donate4\?donation=/);
    expect(await donationsOf(db, donor.id)).toHaveLength(1);
  });

  test("the too-large page speaks Urdu to an Urdu reader", async ({ page, db, login, context }) => {
    await login({ role: "donor" });
    const ngo = await ngoWithAccounts(db, `Urdu Big File ${unique()}`);
    const campaign = await makeCampaign(db, ngo.id);
    await context.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    const response = await page.request.post(proofUrl(campaign.slug, ngo.id, "jazzcash"), {
      headers: { origin: baseUrl(), accept: "text/html", referer: "https://evil.example/phish" },
      multipart: { screenshot: { name: "x.png", mimeType: "image/png", buffer: Buffer.alloc(16 * 1024 * 1024) } },
    });
    expect(response.status()).toBe(413);
    const html = await response.text();
    expect(html).toContain('<html lang="ur" dir="rtl">');
    expect(html).toContain("فائل بہت بڑی ہے");
    // A Referer from another site is not a way back.
    expect(html).toContain('<a href="/">');
    // A script gets a plain line.
    const plain = await page.request.post(proofUrl(campaign.slug, ngo.id, "jazzcash"), {
      headers: { origin: baseUrl(), accept: "application/json" },
      multipart: { screenshot: { name: "x.png", mimeType: "image/png", buffer: Buffer.alloc(16 * 1024 * 1024) } },
    });
    expect(plain.status()).toBe(413);
    expect(plain.headers()["content-type"]).toContain("text/plain");
  });
});
