import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { files, volunteerApplications } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { makeApplication, makePdf, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { e2ePort } from "./env.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

/** The server under test keeps its files here (see playwright.config.ts), so a resume stored here is the one it serves. */
const storage = () => createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);

/** Stores a PDF resume for a donor as the application form would, and returns its key. */
async function storeResume(db: Db, donorId: string, text: string): Promise<string> {
  const key = `resume/${randomUUID()}.pdf`;
  const bytes = makePdf(text);
  await storage().put(key, bytes);
  await db.insert(files).values({ key, kind: "resume", ownerId: donorId, contentType: "application/pdf", size: bytes.length });
  return key;
}

async function applicationRow(db: Db, id: string) {
  const [row] = await db.select().from(volunteerApplications).where(eq(volunteerApplications.id, id));
  return row!;
}

/** A donor named `<first> Donor` (the factory's last name), as the NGO's lists show them. */
async function donor(db: Db, first: string) {
  const user = await makeUser(db, "donor", { name: first });
  return { ...user, fullName: `${first} Donor` };
}

/** A second browser context signed in as the given user, optionally without JavaScript. */
async function signedInContext(browser: Browser, db: Db, userId: string, javaScriptEnabled = true) {
  const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled });
  const { token } = await createSession(db, userId);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
  return context;
}

const hoursAgo = (n: number) => new Date(Date.now() - n * 3_600_000);

test("the NGO sees its live applications, filters them by position, reads one and downloads the resume", async ({ page, db, login }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo", name: `Roshni ${tag}` });
  const reading = await makePosition(db, ngo.id, { title: `Reading tutor ${tag}`, volunteersNeeded: 3 });
  const food = await makePosition(db, ngo.id, { title: `Food drive ${tag}` });
  const ayesha = await donor(db, `Ayesha ${tag}`);
  const bilal = await donor(db, `Bilal ${tag}`);
  const resumeKey = await storeResume(db, ayesha.id, `Resume ${tag}`);
  const first = await makeApplication(db, reading.id, ayesha.id, {
    motivation: `I love reading ${tag}.\nI want children to love it too.`,
    experience: `Taught at the Saturday school ${tag}.`,
    resumeKey,
    createdAt: hoursAgo(3),
  });
  await makeApplication(db, food.id, bilal.id, { motivation: "I can drive a van.", experience: null, createdAt: hoursAgo(2) });
  // Already decided, and another NGO's: neither is on this NGO's live list.
  const decided = await donor(db, `Decided ${tag}`);
  await makeApplication(db, food.id, decided.id, { status: "approved", decidedAt: hoursAgo(1) });
  const otherNgo = await makeUser(db, "ngo");
  const elsewhere = await makePosition(db, otherNgo.id, { title: `Elsewhere ${tag}` });
  const stranger = await donor(db, `Stranger ${tag}`);
  await makeApplication(db, elsewhere.id, stranger.id);

  await page.goto("/vol2");
  await expect(page.getByRole("heading", { level: 1, name: "Volunteer applications" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Applications by state" });
  await expect(tabs.getByRole("link", { name: "Live" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "Approved" })).not.toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Back to positions" })).toHaveAttribute("href", "/vol0");
  const list = page.getByRole("list", { name: "Applications waiting for a decision" });
  const items = list.getByRole("listitem");
  await expect(items).toHaveCount(2);
  // Oldest first, with the applicant's email, the position, the date and the resume badge.
  await expect(items.nth(0)).toContainText(ayesha.fullName);
  await expect(items.nth(0)).toContainText(ayesha.email);
  await expect(items.nth(0)).toContainText(reading.title);
  await expect(items.nth(0).locator("time")).toHaveCount(1);
  await expect(items.nth(0)).toContainText("Resume attached");
  await expect(items.nth(1)).toContainText(bilal.fullName);
  await expect(items.nth(1)).not.toContainText("Resume attached");
  await expect(page.getByText(decided.fullName)).toHaveCount(0);
  await expect(page.getByText(stranger.fullName)).toHaveCount(0);
  await expectAccessible(page);

  // The position filter (a plain GET form); the tabs keep it.
  const filter = page.getByLabel("Position", { exact: true });
  await expect(filter.locator("option", { hasText: elsewhere.title })).toHaveCount(0);
  await filter.selectOption(reading.id);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`/vol2\\?position=${reading.id}$`));
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(ayesha.fullName);
  await expect(tabs.getByRole("link", { name: "Approved" })).toHaveAttribute("href", `/volApproved?position=${reading.id}`);
  await expect(tabs.getByRole("link", { name: "Rejected" })).toHaveAttribute("href", `/volRejected?position=${reading.id}`);
  await page.getByLabel("Position", { exact: true }).selectOption(food.id);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(bilal.fullName);
  // The approved one is under Approved, with its decision date, and opens the read-only view.
  await tabs.getByRole("link", { name: "Approved" }).click();
  await expect(page).toHaveURL(new RegExp(`/volApproved\\?position=${food.id}$`));
  const approved = page.getByRole("list", { name: "Approved applications" }).getByRole("listitem");
  await expect(approved).toHaveCount(1);
  await expect(approved.first()).toContainText(decided.fullName);
  await expect(approved.first().locator("time")).toHaveCount(2);
  await expect(approved.first().getByRole("link", { name: /Open the application/ })).toHaveAttribute("href", /^\/volPSDAA\?application=/);

  // Open the first application: every detail the applicant gave.
  await page.goto(`/vol2?position=${reading.id}`);
  await page.getByRole("link", { name: `Open the application of ${ayesha.fullName} for ${reading.title}` }).click();
  await expect(page).toHaveURL(`/vol3?application=${first.id}`);
  await expect(page.getByRole("heading", { level: 2, name: `Application from ${ayesha.fullName}` })).toBeVisible();
  await expect(page.getByRole("link", { name: "03001234567" })).toHaveAttribute("href", "tel:03001234567");
  await expect(page.getByRole("link", { name: ayesha.email })).toHaveAttribute("href", `mailto:${ayesha.email}`);
  await expect(page.getByText("Gulberg, Lahore")).toBeVisible();
  await expect(page.getByText(`I love reading ${tag}.`)).toBeVisible();
  await expect(page.getByText(`I love reading ${tag}.`)).toHaveAttribute("dir", "auto");
  await expect(page.getByText(`Taught at the Saturday school ${tag}.`)).toBeVisible();
  await expect(page.getByText(reading.title)).toBeVisible();
  await expect(page.getByText("3 needed · 0 accepted")).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back", exact: true })).toHaveAttribute("href", `/vol2?position=${reading.id}`);
  await expectAccessible(page);

  const resumeLink = page.getByRole("link", { name: "Download resume (PDF)" });
  await expect(resumeLink).toHaveAttribute("href", `/files/${resumeKey}`);
  const [download] = await Promise.all([page.waitForEvent("download"), resumeLink.click()]);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(bytes.toString("latin1")).toContain(`Resume ${tag}`);
  const response = await page.request.get(`/files/${resumeKey}`);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(response.headers()["content-disposition"]).toMatch(/^attachment/);

  // Without a resume or experience the page says so.
  await page.goto(`/vol2?position=${food.id}`);
  await page.getByRole("link", { name: /Open the application of/ }).click();
  await expect(page.getByText("No resume")).toBeVisible();
  await expect(page.getByRole("link", { name: "Download resume (PDF)" })).toHaveCount(0);
});

test("the NGO declines one applicant with a message and approves another", async ({ page, db, login }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo" });
  const position = await makePosition(db, ngo.id, { title: `Clinic helper ${tag}`, volunteersNeeded: 2 });
  const ayesha = await donor(db, `Ayesha ${tag}`);
  const bilal = await donor(db, `Bilal ${tag}`);
  const chand = await donor(db, `Chand ${tag}`);
  const declined = await makeApplication(db, position.id, ayesha.id, { createdAt: hoursAgo(3) });
  const approved = await makeApplication(db, position.id, bilal.id, { createdAt: hoursAgo(2) });
  const waiting = await makeApplication(db, position.id, chand.id, { createdAt: hoursAgo(1) });
  const message = `Thank you ${tag}. We have enough helpers this month.`;

  await page.goto(`/vol3?application=${declined.id}`);
  await page.getByText("Decline", { exact: true }).click();
  await page.getByLabel("Message to the applicant (optional)").fill(message);
  await page.getByRole("button", { name: "Decline application" }).click();
  await expect(page).toHaveURL(`/vol2?position=${position.id}&notice=declined`);
  await expect(page.getByRole("status")).toHaveText("The application was declined. The applicant has been told.");
  await expect(page.getByRole("list", { name: "Applications waiting for a decision" })).not.toContainText(ayesha.fullName);
  const row = await applicationRow(db, declined.id);
  expect(row.status).toBe("declined");
  expect(row.decisionMessage).toBe(message);
  expect(row.decidedBy).toBe(ngo.id);

  await page.goto("/volRejected");
  await expect(page.getByRole("navigation", { name: "Applications by state" }).getByRole("link", { name: "Rejected" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const rejected = page.getByRole("list", { name: "Rejected applications" });
  await expect(rejected.getByRole("listitem")).toHaveCount(1);
  await expect(rejected).toContainText(ayesha.fullName);
  await rejected.getByRole("link", { name: /Open the application of/ }).click();
  await expect(page).toHaveURL(`/vol3?application=${declined.id}`);
  // Decided: read-only, with its state, the message and Back to its list.
  await expect(page.getByText("This application has been decided: Declined.")).toBeVisible();
  await expect(page.getByText(message)).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  await expect(page.getByText("Decline", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Back to rejected applications" })).toHaveAttribute("href", "/volRejected");
  // A declined application has no approved view.
  await page.goto(`/volPSDAA?application=${declined.id}`);
  await expect(page).toHaveURL(`/vol3?application=${declined.id}`);

  // A waiting application has no approved view either; approve it on /vol3.
  await page.goto(`/volPSDAA?application=${approved.id}`);
  await expect(page).toHaveURL(`/vol3?application=${approved.id}`);
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page).toHaveURL(`/vol2?position=${position.id}&notice=approved`);
  await expect(page.getByRole("status")).toHaveText("The application was approved. The applicant has been told.");
  expect((await applicationRow(db, approved.id)).status).toBe("approved");

  await page.goto("/volApproved");
  const list = page.getByRole("list", { name: "Approved applications" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText(bilal.fullName);
  await expectAccessible(page);
  await list.getByRole("link", { name: /Open the application of/ }).click();
  await expect(page).toHaveURL(`/volPSDAA?application=${approved.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Approved volunteer" })).toBeVisible();
  await expect(page.getByText(`Application from ${bilal.fullName}`)).toBeVisible();
  await expect(page.getByText("2 needed · 1 accepted")).toBeVisible();
  await expect(page.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  await expect(page.getByText("Decline", { exact: true })).toHaveCount(0);
  const back = page.getByRole("link", { name: "Back to approved applications" });
  await expect(back).toHaveAttribute("href", "/volApproved");
  await expectAccessible(page);
  await back.click();
  await expect(page).toHaveURL("/volApproved");

  // Declining without a message: the message is optional.
  await page.goto(`/vol3?application=${waiting.id}`);
  await page.getByText("Decline", { exact: true }).click();
  await page.getByRole("button", { name: "Decline application" }).click();
  await expect(page).toHaveURL(`/vol2?position=${position.id}&notice=declined`);
  const plain = await applicationRow(db, waiting.id);
  expect(plain.status).toBe("declined");
  expect(plain.decisionMessage).toBeNull();

  // A decision sent again from a stale page is not an error page: it shows the application as it stands.
  const stale = await page.request.post(`/vol3?application=${declined.id}`, {
    form: { intent: "approve", applicationId: declined.id },
    headers: { Origin: baseUrl() },
    maxRedirects: 0,
  });
  expect(stale.status()).toBe(302);
  expect(stale.headers().location).toBe(`/vol3?application=${declined.id}&notice=alreadyDecided`);
  await page.goto(stale.headers().location!);
  await expect(page.getByRole("status")).toHaveText("This application had already been decided, so nothing was changed.");
  expect((await applicationRow(db, declined.id)).status).toBe("declined");
});

/** Approve, see the question, and confirm it: the same steps with and without JavaScript. */
async function approvePastNeeded(page: Page, db: Db, applicationId: string, positionId: string, accepted: number) {
  await page.goto(`/vol3?application=${applicationId}`);
  await expect(page.getByText(`1 needed · ${accepted} accepted`)).toBeVisible();
  await page.getByRole("button", { name: "Approve", exact: true }).click();
  const question = page.getByRole("alert");
  await expect(question).toContainText(
    `This position needs 1 volunteers and ${accepted} are already approved. Approve this applicant as well?`,
  );
  // The question replaces the plain Approve button: only "Approve anyway" approves.
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  if (accepted === 1) await expectAccessible(page);
  expect((await applicationRow(db, applicationId)).status).toBe("pending");
  await page.getByRole("button", { name: "Approve anyway" }).click();
  await expect(page).toHaveURL(`/vol2?position=${positionId}&notice=approved`);
  expect((await applicationRow(db, applicationId)).status).toBe("approved");
}

test("approving beyond the number needed asks first, with and without JavaScript", async ({ page, db, login, browser }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo" });
  const position = await makePosition(db, ngo.id, { title: `Single seat ${tag}`, volunteersNeeded: 1 });
  const first = await donor(db, `First ${tag}`);
  await makeApplication(db, position.id, first.id, { status: "approved", decidedAt: hoursAgo(1), decidedBy: ngo.id });
  const withJs = await makeApplication(db, position.id, (await donor(db, `Second ${tag}`)).id);
  const withoutJs = await makeApplication(db, position.id, (await donor(db, `Third ${tag}`)).id);

  await approvePastNeeded(page, db, withJs.id, position.id, 1);

  const noJs = await signedInContext(browser, db, ngo.id, false);
  try {
    const plain = await noJs.newPage();
    await approvePastNeeded(plain, db, withoutJs.id, position.id, 2);
  } finally {
    await noJs.close();
  }
});

test("only the NGO of the position sees an application and its resume; a donor is sent away", async ({ page, db, login, browser }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await makeUser(db, "ngo");
  const position = await makePosition(db, ngo.id, { title: `Private ${tag}` });
  const applicant = await donor(db, `Private ${tag}`);
  const resumeKey = await storeResume(db, applicant.id, `Private resume ${tag}`);
  const pending = await makeApplication(db, position.id, applicant.id, { resumeKey });
  const approved = await makeApplication(db, position.id, (await donor(db, `Approved ${tag}`)).id, {
    status: "approved",
    decidedAt: new Date(),
  });

  // Another NGO: not found, whatever the page, and no resume.
  const other = await login({ role: "ngo" });
  for (const path of [
    `/vol3?application=${pending.id}`,
    `/volPSDAA?application=${pending.id}`,
    `/vol3?application=${approved.id}`,
    `/volPSDAA?application=${approved.id}`,
    "/vol3?application=not-an-id",
    `/vol3?application=${randomUUID()}`,
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  expect((await page.request.get(`/files/${resumeKey}`)).status()).toBe(404);
  // Nor can it decide one by posting the form.
  const post = await page.request.post(`/vol3?application=${pending.id}`, {
    form: { intent: "decline", applicationId: pending.id, message: "no" },
    headers: { Origin: baseUrl() },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(404);
  expect((await applicationRow(db, pending.id)).status).toBe("pending");
  await page.goto("/vol2");
  await expect(page.getByText(applicant.fullName)).toHaveCount(0);
  expect(other.id).not.toBe(ngo.id);

  // The owner does see it (the same URLs).
  const owner = await signedInContext(browser, db, ngo.id);
  try {
    const ownPage = await owner.newPage();
    expect((await ownPage.goto(`/volPSDAA?application=${approved.id}`))?.status()).toBe(200);
    expect((await ownPage.request.get(`/files/${resumeKey}`)).status()).toBe(200);
  } finally {
    await owner.close();
  }

  // A donor is sent to its own home.
  await page.context().clearCookies();
  await login({ role: "donor" });
  await page.goto("/vol2");
  await expect(page).not.toHaveURL(/\/vol2/);
  await expect(page).toHaveURL(/\/donor_home/);
});
