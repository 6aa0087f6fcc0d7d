import { randomUUID } from "node:crypto";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

test("the admin vets sign-ups, reads the audit log and outbox, and suspends an NGO", async ({ page, browser, login, account, db }) => {
  // A hydration mismatch (dates, translations) shows up as a console error.
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  const tag = randomUUID().slice(0, 8);
  const ngoName = `Noor Trust ${tag}`;
  const riderFirst = `Bilal ${tag}`;
  await login({ role: "admin" });
  const ngo = await account({ role: "ngo", verification: "pending", name: ngoName });
  const rider = await account({ role: "rider", verification: "pending", name: riderFirst });

  // Sign-up requests: both lists, every field, Accept and Reject.
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign-up requests");
  const ngoCard = page.getByRole("article", { name: ngoName });
  await expect(ngoCard).toContainText(ngo.email);
  await expect(ngoCard).toContainText("REG-1");
  await expect(ngoCard.getByRole("img", { name: `Logo of ${ngoName}` })).toBeVisible();
  const riderCard = page.getByRole("article", { name: `${riderFirst} Rider` });
  await expect(riderCard).toContainText("4210112345671");
  await expectAccessible(page);

  await ngoCard.getByRole("button", { name: /^Accept/ }).click();
  await expect(page.getByRole("status")).toHaveText("The sign-up was accepted and the applicant was told.");
  await expect(page.getByRole("article", { name: ngoName })).toHaveCount(0);

  // Reject asks for a reason before anything changes.
  await riderCard.getByText("Reject", { exact: true }).click();
  await riderCard.getByRole("button", { name: "Reject with this reason" }).click();
  await expect(riderCard.getByText("Please give a reason.")).toBeVisible();
  await expectAccessible(page);
  const reason = `The CNIC picture is unreadable ${tag}`;
  await riderCard.getByLabel(`Reason for rejecting ${riderFirst} Rider`).fill(reason);
  await riderCard.getByRole("button", { name: "Reject with this reason" }).click();
  await expect(page.getByRole("status")).toHaveText("The sign-up was rejected and the applicant was emailed the reason.");
  await expect(page.getByRole("article", { name: `${riderFirst} Rider` })).toHaveCount(0);

  // The audit log shows both decisions, with the reason.
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Audit log");
  const accepted = page.getByRole("row").filter({ hasText: ngo.email });
  await expect(accepted).toContainText("Accepted a sign-up");
  await expect(accepted).toContainText(ngoName);
  const rejected = page.getByRole("row").filter({ hasText: rider.email });
  await expect(rejected).toContainText("Rejected a sign-up");
  await expect(rejected).toContainText(reason);
  await expect(rejected.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expectAccessible(page);

  // The rejected rider's email, with the reason, is in the outbox (delivered to this run's loopback mail server).
  await page.getByRole("link", { name: "Email outbox" }).click();
  const mail = page.getByRole("article").filter({ hasText: rider.email });
  await expect(mail).toHaveCount(1);
  await expect(mail).toContainText("Your Ek Chhat sign-up needs changes");
  await expect(mail).toContainText(reason);
  // The mail goes out through the job queue, after the decision's transaction: the outbox says "Queued" until a worker
  // has sent it, and the admin sees "Sent" on a later look.
  await expect(async () => {
    await page.reload();
    await expect(mail).toContainText("Sent", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // Its link to the app is a link, and the outbox finds it by recipient.
  await expect(mail.getByRole("link").first()).toHaveAttribute("href", /^http:\/\/(localhost|127\.0\.0\.1):\d+\//);
  await page.getByRole("searchbox", { name: "Search by recipient" }).fill(rider.email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(page.getByRole("article")).toContainText(rider.email);
  await expectAccessible(page);

  // The accepted NGO is signed in elsewhere and sees its notification.
  const ngoContext = await browser.newContext({ baseURL: baseUrl() });
  const { token } = await createSession(db, ngo.id);
  await ngoContext.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
  const ngoPage = await ngoContext.newPage();
  await ngoPage.goto("/notifications");
  await expect(ngoPage.getByRole("heading", { level: 1 })).toHaveText("Notifications");
  await expect(ngoPage.getByText(`Welcome, ${ngoName}! Your sign-up was accepted`)).toBeVisible();
  await expect(ngoPage.getByRole("link", { name: /Notifications\s*1 unread/ })).toBeVisible();
  await expectAccessible(ngoPage);
  await ngoPage.getByRole("button", { name: "Mark all as read" }).click();
  await expect(ngoPage.getByRole("status")).toHaveText("All notifications are marked as read.");
  await expect(ngoPage.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();

  // Suspend the NGO from the accounts screen: its open session stops working at once.
  await page.getByRole("link", { name: "NGOs and riders" }).click();
  await expectAccessible(page);
  await page.getByLabel("Search by name or email").fill(ngoName);
  await page.getByRole("button", { name: "Search" }).click();
  const ngoRow = page.getByRole("row").filter({ hasText: ngo.email });
  await expect(ngoRow).toContainText("Verified");
  await ngoRow.getByRole("button", { name: /^Suspend/ }).click();
  await expect(page.getByRole("status")).toHaveText("The account was suspended and signed out everywhere.");
  await expect(ngoRow).toContainText("Suspended");
  await expectAccessible(page);

  await ngoPage.goto("/notifications");
  await expect(ngoPage).toHaveURL(`${baseUrl()}/?redirectTo=%2Fnotifications`);
  await expect(ngoPage.getByRole("heading", { level: 1 })).not.toHaveText("Notifications");

  // Restore brings the account back (it signs in again).
  await ngoRow.getByRole("button", { name: /^Restore/ }).click();
  await expect(page.getByRole("status")).toHaveText("The account was restored.");
  await expect(ngoRow).not.toContainText("Suspended");

  // Riders are listed on their own tab.
  await page.getByRole("link", { name: "Riders", exact: true }).click();
  await page.getByLabel("Search by name or email").fill(rider.email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("row").filter({ hasText: rider.email })).toContainText("Rejected");
  await ngoContext.close();
  expect(consoleErrors).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("rejecting asks for a reason on the server and then applies", async ({ page, login, account }) => {
    const tag = randomUUID().slice(0, 8);
    await login({ role: "admin" });
    const rider = await account({ role: "rider", verification: "pending", name: `Nojs ${tag}` });
    await page.goto("/admin");
    const card = page.getByRole("article", { name: `Nojs ${tag} Rider` });
    await card.getByText("Reject", { exact: true }).click();
    // The browser's own check would stop an empty reason; send spaces, which only the server refuses.
    await card.getByLabel(`Reason for rejecting Nojs ${tag} Rider`).fill("   ");
    await card.getByRole("button", { name: "Reject with this reason" }).click();
    const again = page.getByRole("article", { name: `Nojs ${tag} Rider` });
    await expect(again.getByText("Please give a reason.")).toBeVisible();
    await expect(again.getByLabel(`Reason for rejecting Nojs ${tag} Rider`)).toHaveAttribute("aria-invalid", "true");
    await again.getByLabel(`Reason for rejecting Nojs ${tag} Rider`).fill("Wrong CNIC");
    await again.getByRole("button", { name: "Reject with this reason" }).click();
    await expect(page.getByRole("status")).toHaveText("The sign-up was rejected and the applicant was emailed the reason.");
    await page.goto("/admin/outbox");
    await expect(page.getByRole("article").filter({ hasText: rider.email })).toContainText("Wrong CNIC");
  });
});

test("the admin's notifications page is accessible when empty", async ({ page, login }) => {
  await login({ role: "admin" });
  await page.goto("/notifications");
  await expect(page.getByText("You have no notifications yet.")).toBeVisible();
  await expectAccessible(page);
});

test("a donor is sent away from the admin pages", async ({ page, login }) => {
  await login({ role: "donor" });
  for (const path of ["/admin", "/admin/accounts", "/admin/audit", "/admin/outbox"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/donor_home\?notice=wrongRole$/);
  }
});

test("the Urdu admin screens render right to left", async ({ page, login }) => {
  await login({ role: "admin" });
  await page.goto("/admin/audit");
  await page.getByRole("button", { name: "اردو" }).click();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("آڈٹ لاگ");
  await expectAccessible(page);
});
