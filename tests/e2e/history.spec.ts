import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { campaigns, donations, donorProfiles, ngoProfiles } from "#server/db/schema.ts";
import type { Page } from "@playwright/test";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { formatReceiptNumber } from "#server/domain/donations/receipt-number.ts";
import { makeCampaign, makeDonation, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

const suffix = () => Math.random().toString(36).slice(2, 7);

/**
 * The NGO's decision, written as decideCashDonation writes it (status, decision time, the NGO's next receipt
 * number, the campaign's total). Playwright's loader cannot import the domain module (it pulls in the JSON
 * strings), and the decision itself has its own integration tests.
 */
async function decide(
  db: Db,
  ngoId: string,
  decision: { donationId: string; approve: true } | { donationId: string; approve: false; reason: string },
): Promise<{ receiptNumber: number | null }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(donations)
      .set({
        status: decision.approve ? "approved" : "rejected",
        rejectionReason: decision.approve ? null : decision.reason,
        decidedBy: ngoId,
        decidedAt: sql`now()`,
      })
      .where(and(eq(donations.id, decision.donationId), eq(donations.recipientNgoId, ngoId), eq(donations.status, "pending")))
      .returning();
    if (!row || !decision.approve) return { receiptNumber: null };
    const [counter] = await tx
      .update(ngoProfiles)
      .set({ receiptCounter: sql`${ngoProfiles.receiptCounter} + 1` })
      .where(eq(ngoProfiles.userId, ngoId))
      .returning({ n: ngoProfiles.receiptCounter });
    await tx.update(donations).set({ receiptNumber: counter!.n }).where(eq(donations.id, row.id));
    await tx
      .update(campaigns)
      .set({ collectedAmount: sql`${campaigns.collectedAmount} + ${row.amount!}` })
      .where(eq(campaigns.id, row.campaignId));
    return { receiptNumber: counter!.n };
  });
}

/** The receipt number donors see for an NGO's `n`th receipt: its prefix and the count. */
async function receiptOf(db: Db, ngoId: string, n: number): Promise<string> {
  const [row] = await db.select({ series: ngoProfiles.receiptSeries }).from(ngoProfiles).where(eq(ngoProfiles.userId, ngoId));
  return formatReceiptNumber(row!.series, n);
}

/** An NGO with a few donations in each state over two campaigns. */
async function ngoScene(db: Db, ngoId: string) {
  await db.update(ngoProfiles).set({ registrationNumber: "REG-E2E-77" }).where(eq(ngoProfiles.userId, ngoId));
  const water = await makeCampaign(db, ngoId, { title: `Water pumps Thar ${suffix()}`, targetAmount: 10_000_000 });
  const school = await makeCampaign(db, ngoId, { title: `Books for Swat ${suffix()}`, targetAmount: 10_000_000 });
  const sana = await makeUser(db, "donor", { name: "Sana" });
  const omar = await makeUser(db, "donor", { name: "Omar" });
  const approvedWater = await makeDonation(db, water, sana.id, { amount: 2500, transactionId: "TXWATER1" });
  const approvedSchool = await makeDonation(db, school, omar.id, { amount: 4000 });
  const rejected = await makeDonation(db, water, omar.id, { amount: 900 });
  const pending = await makeDonation(db, school, sana.id, { amount: 600 });
  await decide(db, ngoId, { donationId: approvedWater.id, approve: true });
  await decide(db, ngoId, { donationId: approvedSchool.id, approve: true });
  await decide(db, ngoId, { donationId: rejected.id, approve: false, reason: "Screenshot was cut off" });
  return { water, school, approvedWater, approvedSchool, rejected, pending };
}

test("a donor sees approved and rejected donations with the reason, and downloads the receipt", async ({ page, login, db, playwright }) => {
  const donor = await login({ role: "donor" });
  const ngo = await makeUser(db, "ngo", { name: `Hope Trust ${suffix()}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Clean water Tharparkar ${suffix()}`, targetAmount: 10_000_000 });
  const approved = await makeDonation(db, campaign, donor.id, { amount: 4321, method: "easypaisa" });
  const rejected = await makeDonation(db, campaign, donor.id, { amount: 1234 });
  const { receiptNumber } = await decide(db, ngo.id, { donationId: approved.id, approve: true });
  await decide(db, ngo.id, { donationId: rejected.id, approve: false, reason: "Transfer not found in our account" });
  const number = await receiptOf(db, ngo.id, receiptNumber!);
  expect(number).toMatch(/^N\d{3,}-\d{6}$/);

  await page.goto("/dvh");
  await expect(page.getByRole("heading", { level: 1, name: "My donations" })).toBeVisible();
  const approvedCard = page.locator(`[data-donation="${approved.id}"]`);
  const rejectedCard = page.locator(`[data-donation="${rejected.id}"]`);
  await expect(approvedCard).toContainText("Approved");
  await expect(approvedCard).toContainText("Rs. 4,321");
  await expect(approvedCard).toContainText("Easypaisa");
  await expect(approvedCard).toContainText(`Receipt no. ${number}`);
  await expect(approvedCard.getByRole("link", { name: campaign.title })).toHaveAttribute("href", `/campaign/${campaign.slug}`);
  await expect(rejectedCard).toContainText("Rejected");
  await expect(rejectedCard).toContainText("Transfer not found in our account");
  await expect(rejectedCard.getByRole("link", { name: /Download receipt/ })).toHaveCount(0);
  await expectAccessible(page);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    approvedCard.getByRole("link", { name: `Download receipt ${number} (PDF)` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`ek-chhat-receipt-${number}.pdf`);
  const file = fs.readFileSync((await download.path())!);
  expect(file.subarray(0, 5).toString("latin1")).toBe("%PDF-");

  // The same receipt: not for another donor (404, as if it did not exist), not for the rejected donation.
  const as = async (userId: string) =>
    playwright.request.newContext({
      baseURL: baseUrl(),
      extraHTTPHeaders: { cookie: `${SESSION_COOKIE}=${(await createSession(db, userId)).token}` },
    });
  const stranger = await makeUser(db, "donor");
  const strangerResponse = await (await as(stranger.id)).get(`/receipts/${approved.id}`);
  expect(strangerResponse.status()).toBe(404);
  expect(strangerResponse.headers()["content-type"]).not.toContain("pdf");
  const ngoResponse = await (await as(ngo.id)).get(`/receipts/${approved.id}`);
  expect(ngoResponse.status()).toBe(200);
  expect(ngoResponse.headers()["content-type"]).toBe("application/pdf");
  expect(ngoResponse.headers()["cache-control"]).toBe("private, no-store");
  expect(ngoResponse.headers()["content-disposition"]).toBe(`attachment; filename="ek-chhat-receipt-${number}.pdf"`);
  expect((await (await as(donor.id)).get(`/receipts/${rejected.id}`)).status()).toBe(404);
});

test("a donor using Urdu downloads the receipt in Urdu, their Urdu name as written", async ({ page, login, db }) => {
  const donor = await login({ role: "donor" });
  await db.update(donorProfiles).set({ firstName: "ثنا", lastName: "بلوچ" }).where(eq(donorProfiles.userId, donor.id));
  const ngo = await makeUser(db, "ngo", { name: `Hope Trust ${suffix()}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Clean water Tharparkar ${suffix()}`, targetAmount: 10_000_000 });
  const approved = await makeDonation(db, campaign, donor.id, { amount: 4321, method: "easypaisa" });
  const { receiptNumber } = await decide(db, ngo.id, { donationId: approved.id, approve: true });
  const number = await receiptOf(db, ngo.id, receiptNumber!);

  await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto("/dvh");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.locator(`[data-donation="${approved.id}"] a[href="/receipts/${approved.id}"]`).click(),
  ]);
  const file = (await download.path())!;
  // pdftotext (poppler) reads the words back; its direction marks and the spaces it sets beside colons aside.
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" })
    .replace(/[\u200e\u200f\u202a-\u202e]/g, "")
    .replace(/\s+/g, " ")
    .replace(/ ?: ?/g, ":");
  expect(text).toContain("عطیے کی رسید");
  expect(text).toContain("عطیہ دہندہ:ثنا بلوچ");
  expect(text).toContain(number);
  expect(text).toContain(campaign.title);
  expect(text).toContain("ادائیگی کا طریقہ:ایزی پیسہ");
  // Rs. 4,321 in Urdu words.
  expect(text).toContain("رقم الفاظ میں:صرف چار ہزار تین سو اکیس روپے");
  expect(text).not.toContain("Rupees");
  expect(text).not.toContain("Donation receipt");
  expect(text).not.toMatch(/[?\ufffd]/);
});

test("a donor with no donations is shown where to start", async ({ page, login }) => {
  await login({ role: "donor" });
  await page.goto("/dvh");
  await expect(page.getByText("You have not made a donation yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Choose a campaign to donate to" })).toHaveAttribute("href", "/donate1");
});

test("the NGO filters its history by state and campaign, sees totals and exports CSV", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const scene = await ngoScene(db, ngo.id);
  // Another NGO's donation never shows.
  const otherNgo = await makeUser(db, "ngo");
  const otherCampaign = await makeCampaign(db, otherNgo.id, { title: `Elsewhere ${suffix()}` });
  const elsewhere = await makeDonation(db, otherCampaign, (await makeUser(db, "donor")).id, { amount: 55_555 });

  await page.goto("/donHistory");
  await expect(page.getByRole("heading", { level: 1, name: "Donation history" })).toBeVisible();
  const totals = page.getByRole("region", { name: "Totals" });
  await expect(totals.locator('[data-total="approved"]')).toHaveText("Rs. 6,500");
  await expect(totals.locator('[data-total="pending"]')).toHaveText("Rs. 600");
  await expect(totals.locator('[data-total="count"]')).toHaveText("4");
  await expect(totals.locator('[data-count="rejected"]')).toContainText("1");
  const table = page.getByRole("region", { name: /Donations received/ });
  await expect(table.locator("[data-donation]")).toHaveCount(4);
  await expect(page.locator(`[data-donation="${elsewhere.id}"]`)).toHaveCount(0);
  await expect(page.locator(`[data-donation="${scene.rejected.id}"]`)).toContainText("Screenshot was cut off");
  await expectAccessible(page);

  await page.getByLabel("State", { exact: true }).selectOption("approved");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=approved/);
  await expect(table.locator("[data-donation]")).toHaveCount(2);
  await expect(totals.locator('[data-total="approved"]')).toHaveText("Rs. 6,500");
  await expect(totals.locator('[data-total="pending"]')).toHaveText("Rs. 0");
  await expect(page.locator(`[data-donation="${scene.approvedWater.id}"]`).getByRole("link", { name: /Download receipt/ })).toBeVisible();

  await page.getByLabel("Campaign", { exact: true }).selectOption({ label: scene.water.title });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`campaign=${scene.water.id}`));
  await expect(table.locator("[data-donation]")).toHaveCount(1);
  await expect(table).toContainText("TXWATER1");
  await expect(totals.locator('[data-total="approved"]')).toHaveText("Rs. 2,500");

  const exportLink = page.getByRole("link", { name: "Export CSV" });
  await expect(exportLink).toHaveAttribute("href", `/donHistory/export?campaign=${scene.water.id}&status=approved`);
  const [download] = await Promise.all([page.waitForEvent("download"), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^donations-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const lines = csv.slice(1).trim().split("\r\n");
  expect(lines[0]).toBe(
    '"Date (Pakistan time, UTC+05:00)","Kind","Receipt number","Campaign","Donor name","Donor email","Method","Amount (Rs.)","Items","Transaction ID","State","Reason","Fund","Name shown in public","In the name of"',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(/^"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}","Cash","N\d{3,}-000001"/);
  expect(lines[1]).toContain(`"${scene.water.title}"`);
  expect(lines[1]).toContain('"2500","","TXWATER1","Approved",""');
  expect(csv).not.toContain("55555");

  // Everything, unfiltered: all four rows.
  const all = await page.request.get("/donHistory/export?sort=amountDesc");
  expect(all.headers()["cache-control"]).toBe("private, no-store");
  expect(all.headers()["content-disposition"]).toMatch(/^attachment; filename="donations-\d{4}-\d{2}-\d{2}\.csv"$/);
  const rows = (await all.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n")
    .slice(1);
  expect(rows.map((r) => r.split('","')[7])).toEqual(["4000", "2500", "900", "600"]);
  expect(rows.every((r) => r.split('","')[1] === "Cash")).toBe(true);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the NGO's history filter form works", async ({ page, login, db }) => {
    const ngo = await login({ role: "ngo" });
    const scene = await ngoScene(db, ngo.id);
    await page.goto("/donHistory");
    await expect(page.locator("[data-donation]")).toHaveCount(4);
    await page.getByLabel("State", { exact: true }).selectOption("rejected");
    await page.getByLabel("Sort by").selectOption("amountAsc");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/status=rejected/);
    await expect(page.locator("[data-donation]")).toHaveCount(1);
    await expect(page.locator(`[data-donation="${scene.rejected.id}"]`)).toContainText("Screenshot was cut off");
    await expect(page.getByLabel("State", { exact: true })).toHaveValue("rejected");
    await expect(page.getByLabel("Sort by")).toHaveValue("amountAsc");

    await page.getByLabel("State", { exact: true }).selectOption("");
    await page.getByLabel("Campaign", { exact: true }).selectOption({ label: scene.school.title });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("[data-donation]")).toHaveCount(2);
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", new RegExp(`campaign=${scene.school.id}`));
  });

  test("the NGO pages its history by keyset in every order, in English and Urdu; old page links and forged cursors lead somewhere", async ({
    page,
    login,
    db,
  }) => {
    const ngo = await login({ role: "ngo" });
    const campaign = await makeCampaign(db, ngo.id, { title: `Paged wells ${suffix()}`, targetAmount: 10_000_000 });
    const donor = await makeUser(db, "donor");
    // 23 pending gifts of Rs. 101 … 123 at one moment each: three pages of 10, 10 and 3.
    for (let i = 0; i < 23; i++) {
      await makeDonation(db, campaign, donor.id, { amount: 101 + i, createdAt: new Date(Date.UTC(2025, 0, 1, 8, i)) });
    }
    const amounts = () => page.locator('[data-donation] [data-field="amount"]').allTextContents();
    const expected = Array.from({ length: 23 }, (_, i) => `Rs. ${101 + i}`);

    await page.goto("/donHistory?sort=amountAsc");
    const seen: string[] = [];
    for (let n = 0; n < 3; n++) {
      seen.push(...(await amounts()));
      const next = page.getByRole("navigation", { name: "Pages of the donation history" }).getByRole("link", { name: "Next" });
      if (n < 2) await next.click();
      else await expect(next).toHaveCount(0);
    }
    expect(seen).toEqual(expected);
    await expect(page).toHaveURL(/sort=amountAsc&after=[0-9a-f-]{36}/);
    // Back by "Previous": the page before the first row shown (`before`), then the first page's own address, which has
    // no Previous.
    const pager = page.getByRole("navigation", { name: "Pages of the donation history" });
    await pager.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/sort=amountAsc&before=[0-9a-f-]{36}#history-caption$/);
    expect(await amounts()).toEqual(expected.slice(10, 20));
    await pager.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/donHistory\?sort=amountAsc#history-caption$/);
    expect(await amounts()).toEqual(expected.slice(0, 10));
    await expect(pager.getByRole("link", { name: "Previous" })).toHaveCount(0);
    await pager.getByRole("link", { name: "Next" }).click();
    await page.getByRole("link", { name: "First page" }).click();
    expect(await amounts()).toEqual(expected.slice(0, 10));

    // A numbered link from before the keyset: page 2 of the same order is the same ten gifts.
    await page.goto("/donHistory?sort=amountAsc&page=2");
    await expect(page).toHaveURL(/after=/);
    expect(await amounts()).toEqual(expected.slice(10, 20));
    await page.goto("/donHistory?sort=amountAsc&page=99");
    expect(await amounts()).toEqual(expected.slice(0, 10));

    // Another NGO's gift as the cursor: an empty page with the way back, never its rows.
    const other = await makeUser(db, "ngo");
    const theirs = await makeDonation(db, await makeCampaign(db, other.id, { title: `Not ours ${suffix()}` }), donor.id, { amount: 999 });
    const forged = await page.goto(`/donHistory?after=${theirs.id}`);
    expect(forged!.status()).toBe(200);
    await expect(page.locator("[data-donation]")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "First page" })).toBeVisible();
    expect((await page.goto("/donHistory?after=%27%3Bdrop"))!.status()).toBe(200);
    expect(await amounts()).toHaveLength(10);
    // The same for "Previous": another NGO's gift as `before` shows nothing of theirs; garbage is the first page.
    expect((await page.goto(`/donHistory?before=${theirs.id}`))!.status()).toBe(200);
    await expect(page.locator("[data-donation]")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "First page" })).toBeVisible();
    expect((await page.goto("/donHistory?sort=amountAsc&before=%27%3Bdrop"))!.status()).toBe(200);
    expect(await amounts()).toEqual(expected.slice(0, 10));

    // In Urdu, by campaign: the same pages under the Urdu links.
    await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await page.goto("/donHistory?sort=campaign");
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      ids.push(...(await page.locator("[data-donation]").evaluateAll((els) => els.map((e) => e.getAttribute("data-donation")!))));
      if (n < 2) await page.getByRole("link", { name: "اگلا" }).click();
    }
    expect(ids).toHaveLength(23);
    expect(new Set(ids).size).toBe(23);
    await expect(page.getByRole("link", { name: "پہلا صفحہ" })).toBeVisible();
    // «پچھلا» (Previous) from the last page: the second page's ten, in the same order.
    await page.getByRole("link", { name: "پچھلا" }).click();
    expect(await page.locator("[data-donation]").evaluateAll((els) => els.map((e) => e.getAttribute("data-donation")!))).toEqual(
      ids.slice(10, 20),
    );
  });
});

/** Three goods offers waiting for a rider, one received and one cancelled, next to the cash scene. */
async function goodsScene(db: Db, ngoId: string, campaign: { id: string; ownerId: string }) {
  const donor = await makeUser(db, "donor", { name: "Zainab" });
  const waiting = [];
  for (let i = 0; i < 3; i++) waiting.push(await makePickup(db, campaign, donor.id, { items: `Blankets, ${i + 2} pieces` }));
  const received = await makePickup(db, campaign, donor.id, { items: "Rice, 20 kg", status: "received" });
  await db.update(donations).set({ status: "approved" }).where(eq(donations.id, received.donation.id));
  const cancelled = await makePickup(db, campaign, donor.id, { items: "Old shoes", status: "cancelled" });
  await db
    .update(donations)
    .set({ status: "rejected", rejectionReason: "We cannot store shoes" })
    .where(eq(donations.id, cancelled.donation.id));
  return { waiting, received, cancelled };
}

/** Fails unless every card's content stays inside the card (nothing cut off or spilling out) and the page does not scroll sideways. */
async function expectNothingClipped(page: Page) {
  const problems = await page.evaluate(() => {
    const out: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth) out.push(`page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    for (const card of document.querySelectorAll<HTMLElement>("[data-donation]")) {
      const box = card.getBoundingClientRect();
      for (const el of card.querySelectorAll<HTMLElement>("*")) {
        const r = el.getBoundingClientRect();
        // Screen-reader-only text is a 1 px clipped box on purpose.
        if (r.width <= 1) continue;
        if (r.left < box.left - 1 || r.right > box.right + 1)
          out.push(`${card.dataset.donation}: <${el.tagName}> "${el.textContent}" overflows`);
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
          out.push(`${card.dataset.donation}: <${el.tagName}> is clipped`);
      }
    }
    return out;
  });
  expect(problems).toEqual([]);
}

test("the NGO's history shows cash and goods apart, each with its own states and counts", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const scene = await ngoScene(db, ngo.id);
  const goods = await goodsScene(db, ngo.id, { id: scene.school.id, ownerId: ngo.id });

  await page.goto("/donHistory");
  const tabs = page.getByRole("navigation", { name: "Kinds of donation" });
  await expect(tabs.getByRole("link", { name: "Cash (4)" })).toHaveAttribute("aria-current", "page");
  const totals = page.getByRole("region", { name: "Totals" });
  // Cash only: one gift waiting for review, not the goods on their way.
  await expect(totals.locator('[data-count="pending"]')).toContainText("1");
  await expect(totals.locator('[data-total="count"]')).toHaveText("4");
  await expect(page.locator(`[data-donation="${goods.waiting[0]!.donation.id}"]`)).toHaveCount(0);

  await tabs.getByRole("link", { name: "Goods (5)" }).click();
  await expect(page).toHaveURL(/kind=goods/);
  await expect(tabs.getByRole("link", { name: "Goods (5)" })).toHaveAttribute("aria-current", "page");
  await expect(totals.locator('[data-total="open"]')).toHaveText("3");
  await expect(totals.locator('[data-total="received"]')).toHaveText("1");
  await expect(totals.locator('[data-total="count"]')).toHaveText("5");
  await expect(totals.locator('[data-count="new"]')).toContainText("3");
  await expect(totals.locator('[data-count="cancelled"]')).toContainText("1");
  await expect(totals).not.toContainText("Pending review");
  const list = page.getByRole("region", { name: /Goods received/ });
  await expect(list.locator("[data-donation]")).toHaveCount(5);
  await expect(list).not.toContainText("Pending review");
  await expect(page.locator(`[data-donation="${goods.cancelled.donation.id}"]`)).toContainText("We cannot store shoes");
  await expect(page.locator(`[data-donation="${scene.approvedWater.id}"]`)).toHaveCount(0);
  await expectAccessible(page);

  // The state filter offers the pick-up's states.
  await page.getByLabel("State", { exact: true }).selectOption({ label: "Received by the NGO" });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/kind=goods.*status=received/);
  await expect(list.locator("[data-donation]")).toHaveCount(1);

  // The export of the goods tab: each row says it is goods, with the time on Pakistan's clock.
  const csv = await (await page.request.get("/donHistory/export?kind=goods")).text();
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toContain('"Date (Pakistan time, UTC+05:00)","Kind"');
  expect(lines.slice(1)).toHaveLength(5);
  for (const line of lines.slice(1)) expect(line).toMatch(/^"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}","Goods",/);

  // Urdu: both tabs in Urdu.
  await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto("/donHistory?kind=goods");
  await expect(tabs).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "عطیے کی اقسام" }).getByRole("link", { name: /سامان/ })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expectAccessible(page);
});

test("at 1280 px nothing of the NGO's history is clipped", async ({ page, login, db }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const ngo = await login({ role: "ngo" });
  const scene = await ngoScene(db, ngo.id);
  await db
    .update(donations)
    .set({ transactionId: "TX-A-VERY-LONG-TRANSACTION-IDENTIFIER-0123456789" })
    .where(eq(donations.id, scene.approvedSchool.id));
  await goodsScene(db, ngo.id, { id: scene.school.id, ownerId: ngo.id });
  await page.goto("/donHistory");
  await expect(page.locator("[data-donation]")).toHaveCount(4);
  await expectNothingClipped(page);
  await page.goto("/donHistory?kind=goods");
  await expect(page.locator("[data-donation]")).toHaveCount(5);
  await expectNothingClipped(page);
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("both histories fit the screen; each NGO history row is a card with its amount and state in view", async ({ page, login, db }) => {
    const ngo = await login({ role: "ngo" });
    const scene = await ngoScene(db, ngo.id);
    const goods = await goodsScene(db, ngo.id, { id: scene.school.id, ownerId: ngo.id });
    const noSideways = async () =>
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth)).toBe(true);
    const inView = async (id: string) => {
      const card = page.locator(`[data-donation="${id}"]`);
      for (const part of [card.locator('[data-field="amount"]'), card.locator('[data-field="state"]')]) {
        await part.scrollIntoViewIfNeeded();
        const box = (await part.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(360);
      }
    };

    await page.goto("/donHistory");
    await expect(page.getByRole("link", { name: "Cash (4)" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Goods (5)" })).toBeVisible();
    await noSideways();
    await expect(page.locator(`[data-donation="${scene.approvedWater.id}"] [data-field="amount"]`)).toHaveText("Rs. 2,500");
    await expect(page.locator(`[data-donation="${scene.approvedWater.id}"] [data-field="state"]`)).toHaveText("Approved");
    for (const id of [scene.approvedWater.id, scene.approvedSchool.id, scene.rejected.id, scene.pending.id]) await inView(id);
    await expectNothingClipped(page);
    await expectAccessible(page);
    await page.screenshot({ path: "/tmp/pw-history/ngo-360.png", fullPage: true });

    await page.goto("/donHistory?kind=goods");
    await expect(page.locator("[data-donation]")).toHaveCount(5);
    await noSideways();
    await expect(page.locator(`[data-donation="${goods.received.donation.id}"] [data-field="state"]`)).toHaveText("Received by the NGO");
    for (const id of [goods.waiting[0]!.donation.id, goods.received.donation.id, goods.cancelled.donation.id]) await inView(id);
    await expectNothingClipped(page);
    await page.screenshot({ path: "/tmp/pw-history/ngo-goods-360.png", fullPage: true });

    const donor = await login({ role: "donor" });
    const campaign = await makeCampaign(db, ngo.id, { title: `A rather long campaign title for phones ${suffix()}` });
    const d = await makeDonation(db, campaign, donor.id, { amount: 1_250_000 });
    await decide(db, ngo.id, {
      donationId: d.id,
      approve: false,
      reason: "A long reason that has to wrap on a small phone screen without overflowing",
    });
    await page.goto("/dvh");
    await expect(page.locator(`[data-donation="${d.id}"]`)).toContainText("Rs. 1,250,000");
    await noSideways();
    await page.screenshot({ path: "/tmp/pw-history/dvh-360.png", fullPage: true });

    // Urdu, right to left: still no sideways scrolling of the page.
    await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await page.goto("/dvh");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.locator(`[data-donation="${d.id}"]`)).toContainText("مسترد");
    await noSideways();
    await page.screenshot({ path: "/tmp/pw-history/dvh-360-ur.png", fullPage: true });
  });

  test("/dvh keeps a pick-up's steps collapsed under its latest step; they open with or without JavaScript", async ({
    page,
    login,
    db,
  }) => {
    const ngo = await makeUser(db, "ngo");
    const donor = await login({ role: "donor" });
    const campaign = await makeCampaign(db, ngo.id);
    const { donation } = await makePickup(db, { id: campaign.id, ownerId: ngo.id }, donor.id, { items: "Quilts" });
    await page.goto("/dvh");
    const card = page.locator(`[data-donation="${donation.id}"]`);
    const details = card.locator("details");
    await expect(details).not.toHaveAttribute("open");
    await expect(card.locator("summary")).toContainText("Pick-up steps (1)");
    await expect(card.getByRole("list", { name: /Pick-up steps/ })).toBeHidden();
    await expectAccessible(page);
    await card.locator("summary").click();
    await expect(details).toHaveAttribute("open");
    await expect(card.getByRole("list", { name: /Pick-up steps/ }).getByRole("listitem")).toHaveCount(1);
    await page.screenshot({ path: "/tmp/pw-history/dvh-steps-360.png", fullPage: true });
  });
});

test.describe("/dvh without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("a pick-up's steps open from their summary", async ({ page, login, db }) => {
    const ngo = await makeUser(db, "ngo");
    const donor = await login({ role: "donor" });
    const campaign = await makeCampaign(db, ngo.id);
    const { donation } = await makePickup(db, { id: campaign.id, ownerId: ngo.id }, donor.id, { items: "Quilts" });
    await page.goto("/dvh");
    const card = page.locator(`[data-donation="${donation.id}"]`);
    await expect(card.getByRole("list", { name: /Pick-up steps/ })).toBeHidden();
    await card.locator("summary").click();
    await expect(card.getByRole("list", { name: /Pick-up steps/ }).getByRole("listitem")).toHaveCount(1);
  });
});
