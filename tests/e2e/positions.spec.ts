import { formatDay } from "#shared/format.ts";
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import type { Db } from "#server/db/client.ts";
import { volunteerPositions } from "#server/db/schema.ts";
import { makeApplication, makePosition } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 8);

/** Today in Pakistan (UTC+5), and `days` after it, as YYYY-MM-DD — what the server counts closing days in. */
function pakistanDay(days = 0): string {
  return new Date(Date.now() + 5 * 3600 * 1000 + days * 86_400_000).toISOString().slice(0, 10);
}

/** How the pages write a day in English (the product's one date format, decision 040). */
function shownDay(day: string): string {
  return formatDay(day, "en");
}

const posterFile = async () => ({
  name: "poster.png",
  mimeType: "image/png",
  buffer: await sharp({ create: { width: 64, height: 48, channels: 3, background: "#0a6" } })
    .png()
    .toBuffer(),
});

async function positionByTitle(db: Db, title: string) {
  const [row] = await db.select().from(volunteerPositions).where(eq(volunteerPositions.title, title));
  return row;
}

/** Fills the required text fields of /vol1 (title, description, working hours, timings, volunteers). */
async function fillRequired(page: Page, v: { title: string; needed?: string }) {
  await page.getByLabel("Title", { exact: true }).fill(v.title);
  await page.getByLabel("Description", { exact: true }).fill("Teach reading to children at our weekend school.");
  await page.getByLabel("Working hours", { exact: true }).fill("4 hours a day");
  await page.getByLabel("Timings", { exact: true }).fill("Saturdays, 10 am to 2 pm");
  await page.getByLabel("Volunteers needed", { exact: true }).fill(v.needed ?? "3");
}

const card = (page: Page, title: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });

test("an NGO posts a position with a poster and sees it with its counts on /vol0 and /cc1", async ({ page, login, db, account }) => {
  const ngo = await login({ role: "ngo" });
  await page.goto("/vol0");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Volunteer positions");
  await expect(page.getByRole("link", { name: "Active" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Closed" })).not.toHaveAttribute("aria-current", "page");
  await expect(page.getByText("You have no active positions.")).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "Create", exact: true }).click();
  await expect(page).toHaveURL(/\/vol1$/);
  await expectAccessible(page);

  const title = `Weekend reading tutor ${unique()}`;
  const closesOn = pakistanDay(30);
  await fillRequired(page, { title });
  await page.getByLabel("Responsibilities (optional)").fill("Prepare lessons\nKeep attendance");
  await page.getByLabel("Duration (optional)").fill("3 months");
  const city = page.getByRole("combobox", { name: "City (optional)" });
  await city.pressSequentially("lah", { delay: 60 });
  await expect(page.getByRole("option", { name: /^Lahore, Lahore District, Punjab/ })).toBeVisible();
  await city.press("ArrowDown");
  await city.press("Enter");
  await expect(city).toHaveValue("Lahore, Lahore District, Punjab");
  await page.getByLabel("Closing date (optional)").fill(closesOn);
  await page.getByLabel("Poster (optional)").setInputFiles(await posterFile());
  await page.getByRole("button", { name: "Post", exact: true }).click();

  await expect(page).toHaveURL(/\/vol0\?notice=created$/);
  await expect(page.getByRole("status")).toHaveText("The position was posted.");
  const saved = await positionByTitle(db, title);
  expect(saved).toMatchObject({ ngoId: ngo.id, status: "active", volunteersNeeded: 3, duration: "3 months", closesOn });
  expect(saved?.posterKey).toMatch(/^poster\/[0-9a-f-]+\.webp$/);
  expect(saved?.cityLat).toBeCloseTo(31.56, 1);

  const item = card(page, title);
  await expect(item).toContainText("Lahore, Lahore District, Punjab");
  await expect(item).toContainText("4 hours a day");
  await expect(item).toContainText("Saturdays, 10 am to 2 pm");
  await expect(item).toContainText(`Apply by ${shownDay(closesOn)}`);
  await expect(item).toContainText("3 needed · 0 applied · 0 accepted");
  const poster = item.locator("img");
  await expect(poster).toHaveAttribute("src", `/files/${saved!.posterKey}`);
  await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(item.getByRole("link", { name: /View applications/ })).toHaveAttribute("href", `/vol2?position=${saved!.id}`);

  // Real counts: one waiting, one approved, one declined.
  for (const status of ["pending", "approved", "declined"] as const) {
    const donor = await account({ role: "donor" });
    await makeApplication(db, saved!.id, donor.id, { status, decidedAt: status === "pending" ? null : new Date() });
  }
  await page.goto("/cc1");
  await expect(page.getByRole("link", { name: "Active" })).toHaveAttribute("aria-current", "page");
  await expect(card(page, title)).toContainText("3 needed · 3 applied · 1 accepted");
  await expect(card(page, title)).toContainText("1 waiting for a decision");
  await expectAccessible(page);
});

test("the form reports empty required fields and zero volunteers in the browser", async ({ page, login, db }) => {
  await login({ role: "ngo" });
  await page.goto("/vol1");
  await page.getByRole("button", { name: "Post", exact: true }).click();
  await expect(page.getByText("Please enter a title.")).toBeVisible();
  await expect(page.getByText("Please describe the position.")).toBeVisible();
  await expect(page.getByText("Please enter the working hours.")).toBeVisible();
  await expect(page.getByText("Please enter the timings.")).toBeVisible();
  await expect(page.getByText("Please enter how many volunteers you need.")).toBeVisible();
  await expect(page.getByText("* Required")).toBeVisible();
  await expect(page.getByLabel("Title", { exact: true })).toHaveAttribute("aria-invalid", "true");

  const title = `Zero volunteers ${unique()}`;
  await fillRequired(page, { title, needed: "0" });
  await page.getByLabel("Volunteers needed").blur();
  await expect(page.getByText("The number of volunteers must be a whole number of at least 1.")).toBeVisible();
  await expect(page.getByText("Please enter a title.")).toHaveCount(0);
  await page.getByRole("button", { name: "Post", exact: true }).click();
  await expect(page).toHaveURL(/\/vol1$/);
  expect(await positionByTitle(db, title)).toBeUndefined();
  await expectAccessible(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server reports the rules, then posts the position with a typed city, and Close works", async ({ page, login, db }) => {
    await login({ role: "ngo" });
    await page.goto("/vol1");
    const title = `Clinic helper ${unique()}`;
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Volunteers needed").fill("0");
    await page.getByRole("button", { name: "Post", exact: true }).click();
    await expect(page.getByText("Please describe the position.")).toBeVisible();
    await expect(page.getByText("Please enter the working hours.")).toBeVisible();
    await expect(page.getByText("Please enter the timings.")).toBeVisible();
    await expect(page.getByText("The number of volunteers must be a whole number of at least 1.")).toBeVisible();
    await expect(page.getByText("* Required")).toBeVisible();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
    expect(await positionByTitle(db, title)).toBeUndefined();

    await fillRequired(page, { title, needed: "1,000" });
    await page.getByLabel("City (optional)").fill("Nowhere-on-earth-xyz");
    await page.getByRole("button", { name: "Post", exact: true }).click();
    await expect(page.getByText("We could not find that place in Pakistan. Please choose one from the suggestions.")).toBeVisible();
    expect(await positionByTitle(db, title)).toBeUndefined();

    await page.getByLabel("City (optional)").fill("karachi");
    await page.getByRole("button", { name: "Post", exact: true }).click();
    await expect(page.getByRole("status")).toHaveText("The position was posted.");
    const saved = await positionByTitle(db, title);
    expect(saved?.volunteersNeeded).toBe(1000);
    expect(saved?.cityLabel).toMatch(/^Karachi/);
    expect(saved?.posterKey).toBeNull();
    await expect(card(page, title)).toContainText("No poster");
    await expect(card(page, title)).toContainText("No closing date");

    await card(page, title).getByRole("button", { name: /Close/ }).click();
    await expect(page).toHaveURL(/\/vol0\?notice=closed$/);
    await expect(page.getByRole("status")).toHaveText("The position was closed. It is now under Closed.");
    expect((await positionByTitle(db, title))?.status).toBe("closed");
  });

  test("a remote position without a city is posted as 'Anywhere'", async ({ page, login, db }) => {
    await login({ role: "ngo" });
    await page.goto("/vol1");
    const title = `Online mentor ${unique()}`;
    await fillRequired(page, { title, needed: "2" });
    await page.getByRole("button", { name: "Post", exact: true }).click();
    await expect(page.getByRole("status")).toHaveText("The position was posted.");
    expect((await positionByTitle(db, title))?.cityLabel).toBeNull();
    await expect(card(page, title)).toContainText("Anywhere (remote)");
  });
});

test("closing a position moves it to /volClosed and reopening moves it back", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const position = await makePosition(db, ngo.id);
  await page.goto("/vol0");
  await card(page, position.title).getByRole("button", { name: /Close/ }).click();
  await expect(page).toHaveURL(/\/vol0\?notice=closed$/);
  await expect(page.getByRole("status")).toHaveText("The position was closed. It is now under Closed.");
  await expect(card(page, position.title)).toHaveCount(0);
  expect((await positionByTitle(db, position.title))?.status).toBe("closed");

  await page.getByRole("link", { name: "Closed" }).click();
  await expect(page).toHaveURL(/\/volClosed$/);
  await expect(page.getByRole("link", { name: "Closed" })).toHaveAttribute("aria-current", "page");
  const closed = card(page, position.title);
  await expect(closed).toContainText("Closed by you on");
  await expect(closed).toContainText("2 needed · 0 applied · 0 accepted");
  await expect(closed.getByRole("link", { name: /View applications/ })).toHaveAttribute("href", `/vol2?position=${position.id}`);
  await expectAccessible(page);

  await closed.getByRole("button", { name: /Reopen/ }).click();
  await expect(page).toHaveURL(/\/volClosed\?notice=reopened$/);
  await expect(page.getByRole("status")).toHaveText("The position was reopened. It is now under Active.");
  await expect(card(page, position.title)).toHaveCount(0);
  expect(await positionByTitle(db, position.title)).toMatchObject({ status: "active", closedAt: null });
  await page.getByRole("link", { name: "Active" }).click();
  await expect(card(page, position.title)).toContainText("No closing date");

  // Reopened elsewhere meanwhile (another tab): the answer says so instead of failing.
  await card(page, position.title).getByRole("button", { name: /Close/ }).click();
  await expect(page.getByRole("status")).toHaveText(/was closed/);
  await page.goto("/volClosed");
  await db.update(volunteerPositions).set({ status: "active", closedAt: null }).where(eq(volunteerPositions.id, position.id));
  await card(page, position.title)
    .getByRole("button", { name: /Reopen/ })
    .click();
  await expect(page.getByRole("alert")).toContainText("This position is already open.");
});

test("a position past its closing date is under Closed and reopens with a new closing date", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const position = await makePosition(db, ngo.id, { closesOn: "2020-01-01" });
  await page.goto("/vol0");
  await expect(page.getByRole("heading", { level: 2, name: "Active positions" })).toBeVisible();
  await expect(card(page, position.title)).toHaveCount(0);

  await page.goto("/volClosed");
  const closed = card(page, position.title);
  await expect(closed).toContainText(`Closed on its closing date, ${shownDay("2020-01-01")}`);
  // The table allows both steps on a lapsed position; the Closed tab offers Reopen only.
  await expect(closed.getByRole("button", { name: /Close/ })).toHaveCount(0);
  await expect(closed.getByRole("button", { name: /Reopen/ })).toHaveCount(1);
  const date = closed.getByLabel("New closing date (optional)");
  await expect(date).toHaveAttribute("min", pakistanDay());

  // The browser's own limits are lifted to see the server's answer next to this position's form.
  const tooLate = pakistanDay(800);
  await date.evaluate((el) => el.removeAttribute("max"));
  await date.fill(tooLate);
  await closed.getByRole("button", { name: /Reopen/ }).click();
  const message = "The closing date must be today or later, and at most a year from today.";
  await expect(card(page, position.title).getByText(message)).toBeVisible();
  await expect(card(page, position.title).getByLabel("New closing date (optional)")).toHaveAttribute("aria-invalid", "true");
  expect((await positionByTitle(db, position.title))?.closesOn).toBe("2020-01-01");
  await expectAccessible(page);

  const next = pakistanDay(14);
  await card(page, position.title).getByLabel("New closing date (optional)").fill(next);
  await card(page, position.title)
    .getByRole("button", { name: /Reopen/ })
    .click();
  await expect(page).toHaveURL(/\/volClosed\?notice=reopened$/);
  expect(await positionByTitle(db, position.title)).toMatchObject({ status: "active", closesOn: next });
  await page.goto("/vol0");
  await expect(card(page, position.title)).toContainText(`Apply by ${shownDay(next)}`);
});

test("an NGO neither sees nor changes another NGO's positions", async ({ page, login, db, account }) => {
  const owner = await account({ role: "ngo" });
  const open = await makePosition(db, owner.id);
  const shut = await makePosition(db, owner.id, { status: "closed", closedAt: new Date() });
  await login({ role: "ngo" });

  await page.goto("/vol0");
  await expect(page.getByText("You have no active positions.")).toBeVisible();
  await expect(page.getByText(open.title)).toHaveCount(0);
  await page.goto("/volClosed");
  await expect(page.getByText("You have no closed positions.")).toBeVisible();
  await expect(page.getByText(shut.title)).toHaveCount(0);

  const origin = new URL(page.url()).origin;
  const close = await page.request.post("/vol0", { form: { intent: "close", positionId: open.id }, headers: { origin } });
  expect(close.status()).toBe(404);
  const reopen = await page.request.post("/volClosed", { form: { intent: "reopen", positionId: shut.id }, headers: { origin } });
  expect(reopen.status()).toBe(404);
  const junk = await page.request.post("/vol0", { form: { intent: "close", positionId: "not-an-id" }, headers: { origin } });
  expect(junk.status()).toBe(400);
  expect((await positionByTitle(db, open.title))?.status).toBe("active");
  expect(await positionByTitle(db, shut.title)).toMatchObject({ status: "closed" });
});

test("the positions pages are accessible in Urdu, right to left", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  await makePosition(db, ngo.id);
  await makePosition(db, ngo.id, { closesOn: "2020-01-01" });
  await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  for (const path of ["/vol0", "/volClosed", "/vol1"]) {
    await page.goto(path);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expectAccessible(page);
  }
  await page.goto("/vol0");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("رضاکارانہ عہدے");
  await expect(page.getByRole("link", { name: "فعال", exact: true })).toHaveAttribute("aria-current", "page");
});
