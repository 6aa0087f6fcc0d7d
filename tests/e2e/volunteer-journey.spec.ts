import { eq } from "drizzle-orm";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import type { Db } from "#server/db/client.ts";
import { mailOutbox, volunteerApplications, volunteerPositions } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makePdf, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, test } from "./fixtures.ts";

/** A page of its own browser context, signed in as a new verified account of the role. */
async function signedIn(browser: Browser, db: Db, role: "ngo" | "donor", name: string, phone = false) {
  const user = await makeUser(db, role, { name });
  const { token } = await createSession(db, user.id);
  const context = await browser.newContext(phone ? { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } : {});
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: baseUrl(), httpOnly: true, sameSite: "Lax" }]);
  return { user, page: await context.newPage(), close: () => context.close() };
}

async function navigate(page: Page, label: string) {
  // The sidebar is a menu on a phone and a column on a laptop; both are links of the main navigation.
  const nav = page.getByRole("navigation").getByRole("link", { name: label, exact: true });
  if (!(await nav.first().isVisible())) await page.locator("summary", { hasText: "Menu" }).click();
  await nav.first().click();
}

async function applyFor(page: Page, search: string, title: string, opts: { motivation: string; resume?: Buffer }) {
  await navigate(page, "Volunteer");
  await expect(page).toHaveURL(/\/vfg1$/);
  await page.getByRole("searchbox", { name: "Search by title, NGO or city" }).fill(search);
  await page.getByRole("button", { name: "Search" }).click();
  const card = page
    .getByRole("list", { name: "Open positions" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: title }) });
  await expect(card).toHaveCount(1);
  await card.getByRole("link", { name: /Visit profile/ }).click();
  await expect(page).toHaveURL(/\/vfg2\?position=/);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await page.getByRole("link", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/vfg3\?position=/);
  await page.getByLabel("Why do you want to volunteer?").fill(opts.motivation);
  if (opts.resume)
    await page.getByLabel("Resume (PDF)").setInputFiles({ name: "cv.pdf", mimeType: "application/pdf", buffer: opts.resume });
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/vfg1\?notice=applied/);
  await expect(page.getByRole("status")).toContainText(`Your application for “${title}” was sent`);
}

test("an NGO posts a position, two donors apply, the NGO declines one and approves the other, and closes it", async ({ browser, db }) => {
  test.setTimeout(120_000);
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Flood relief helper ${tag}`;
  const ngo = await signedIn(browser, db, "ngo", `Journey ${tag} Welfare`);
  const ayesha = await signedIn(browser, db, "donor", `Ayesha${tag}`, true);
  const bilal = await signedIn(browser, db, "donor", `Bilal${tag}`, true);

  // The NGO posts a position with a poster.
  await ngo.page.goto("/ngo_home");
  await navigate(ngo.page, "Volunteers");
  await expect(ngo.page).toHaveURL(/\/vol0$/);
  await ngo.page.getByRole("link", { name: "Create", exact: true }).click();
  await ngo.page.getByLabel("Title", { exact: true }).fill(title);
  await ngo.page.getByLabel("Description", { exact: true }).fill("Pack and hand out relief boxes for families hit by the floods.");
  await ngo.page.getByLabel("Working hours", { exact: true }).fill("5 hours a day");
  await ngo.page.getByLabel("Timings", { exact: true }).fill("Weekdays, 9 am to 2 pm");
  await ngo.page.getByLabel("Volunteers needed", { exact: true }).fill("1");
  const poster = await sharp({ create: { width: 80, height: 60, channels: 3, background: "#2563eb" } })
    .png()
    .toBuffer();
  await ngo.page.getByLabel("Poster (optional)").setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: poster });
  await ngo.page.getByRole("button", { name: "Post", exact: true }).click();
  await expect(ngo.page.getByRole("status")).toHaveText("The position was posted.");
  const [position] = await db.select().from(volunteerPositions).where(eq(volunteerPositions.title, title));
  expect(position?.posterKey).toMatch(/^poster\//);

  // Two donors find it, by its title and by the NGO's name, and apply; one sends a resume.
  await ayesha.page.goto("/donor_home");
  await applyFor(ayesha.page, `relief helper ${tag}`, title, { motivation: "I packed boxes in 2022.", resume: makePdf("Ayesha CV") });
  await bilal.page.goto("/donor_home");
  await applyFor(bilal.page, `journey ${tag}`, title, { motivation: "I have a free summer and a motorbike." });

  // The NGO sees the real counts and reads the applications.
  await ngo.page.goto("/vol0");
  const card = ngo.page.getByRole("listitem").filter({ has: ngo.page.getByRole("heading", { name: title }) });
  await expect(card).toContainText("1 needed · 2 applied · 0 accepted");
  await card.getByRole("link", { name: /View applications/ }).click();
  const live = ngo.page.getByRole("list", { name: "Applications waiting for a decision" });
  await expect(live.getByRole("listitem")).toHaveCount(2);

  await live.getByRole("link", { name: new RegExp(`Open the application of Ayesha${tag}`) }).click();
  await expect(ngo.page.getByText("I packed boxes in 2022.")).toBeVisible();
  const resume = ngo.page.getByRole("link", { name: "Download resume (PDF)" });
  const download = await ngo.page.request.get((await resume.getAttribute("href"))!);
  expect(download.headers()["content-type"]).toBe("application/pdf");
  expect((await download.body()).subarray(0, 5).toString()).toBe("%PDF-");
  await ngo.page.getByText("Decline", { exact: true }).click();
  await ngo.page.getByLabel("Message to the applicant (optional)").fill(`We found a helper nearer the camp, ${tag}.`);
  await ngo.page.getByRole("button", { name: "Decline application" }).click();
  await expect(ngo.page.getByRole("status")).toHaveText("The application was declined. The applicant has been told.");

  await ngo.page.getByRole("link", { name: new RegExp(`Open the application of Bilal${tag}`) }).click();
  await ngo.page.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(ngo.page.getByRole("status")).toHaveText("The application was approved. The applicant has been told.");

  // Both donors see the outcome in their volunteer history, and were told by email.
  await ayesha.page.goto("/dvh");
  await ayesha.page.getByRole("navigation", { name: "Your history" }).getByRole("link", { name: "Volunteering" }).click();
  await expect(ayesha.page).toHaveURL(/\/dvh2$/);
  const ayeshaRow = ayesha.page.getByRole("list", { name: "Your applications" }).getByRole("listitem");
  await expect(ayeshaRow).toContainText(title);
  await expect(ayeshaRow).toContainText("Declined");
  await expect(ayeshaRow).toContainText(`We found a helper nearer the camp, ${tag}.`);
  await bilal.page.goto("/dvh2");
  const bilalRow = bilal.page.getByRole("list", { name: "Your applications" }).getByRole("listitem");
  await expect(bilalRow).toContainText(title);
  await expect(bilalRow).toContainText("Approved");
  const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, bilal.user.email));
  expect(mails.map((m) => m.subject)).toContain(`You are approved to volunteer for “${title}”`);

  // The NGO closes the position: it moves to Closed and donors no longer find it.
  await ngo.page.goto("/vol0");
  await card.getByRole("button", { name: "Close" }).click();
  await expect(ngo.page.getByRole("status")).toHaveText("The position was closed. It is now under Closed.");
  await expect(card).toHaveCount(0);
  await ngo.page.getByRole("link", { name: "Closed", exact: true }).click();
  await expect(ngo.page).toHaveURL(/\/volClosed$/);
  await expect(ngo.page.getByRole("listitem").filter({ has: ngo.page.getByRole("heading", { name: title }) })).toContainText(
    "1 needed · 2 applied · 1 accepted",
  );
  await ayesha.page.goto(`/vfg1?q=${encodeURIComponent(title)}`);
  await expect(ayesha.page.getByText(`No open position matches “${title}”.`)).toBeVisible();
  const rows = await db.select().from(volunteerApplications).where(eq(volunteerApplications.positionId, position!.id));
  expect(rows.map((r) => r.status).sort()).toEqual(["approved", "declined"]);

  await Promise.all([ngo.close(), ayesha.close(), bilal.close()]);
});
