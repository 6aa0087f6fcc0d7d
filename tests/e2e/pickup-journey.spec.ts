import fs from "node:fs";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "@playwright/test";
import type { Db } from "#server/db/client.ts";
import { donations, pickups, riderProfiles } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { expect, test } from "./fixtures.ts";

/** The shared pick-up strings, read as data (a spec cannot import the modules that bundle them). */
const EVENTS = (
  JSON.parse(fs.readFileSync(new URL("../../shared/locales/en/pickups.json", import.meta.url), "utf8")) as {
    events: Record<string, string>;
  }
).events;
const step = (type: string, rider = "") => EVENTS[type]!.replace("{{rider}}", rider);

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A phone-sized browser signed in as the account. */
async function phoneAs(browser: Browser, db: Db, userId: string): Promise<Page> {
  const context = await browser.newContext(PHONE);
  const { token } = await createSession(db, userId);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
  return context.newPage();
}

async function riderIn(db: Db, firstName: string, lat: number, lng: number) {
  const rider = await makeUser(db, "rider");
  await db
    .update(riderProfiles)
    .set({ firstName, lastName: "Journey", areaLabel: "Lahore", areaLat: lat, areaLng: lng })
    .where(eq(riderProfiles.userId, rider.id));
  return { ...rider, name: `${firstName} Journey` };
}

test("goods travel from the donor's door to the NGO, step by step, through every screen", async ({ browser, db }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const ngo = await makeUser(db, "ngo");
  const donorAccount = await makeUser(db, "donor");
  const campaign = await makeCampaign(db, ngo.id, { title: `Journey blankets ${tag}`, otherItems: "Blankets" });
  // Two riders near Lahore: the nearer one is offered first and declines; the other one takes the job.
  const first = await riderIn(db, `Near${tag}`, 31.56, 74.35);
  const second = await riderIn(db, `Far${tag}`, 31.6, 74.4);

  // 1. The donor offers goods on a phone.
  const donor = await phoneAs(browser, db, donorAccount.id);
  await donor.goto(`/donate5_1?campaign=${campaign.slug}`);
  await donor.getByLabel("Phone number").fill("0300-7654321");
  await donor.getByLabel("Description of items").fill(`Six blankets ${tag}`);
  await donor.getByLabel("House and street").fill("House 9, Street 2, near the park");
  const area = donor.getByRole("combobox", { name: "Area or town" });
  await area.fill("Lahore");
  await donor.getByRole("option", { name: "Lahore, Lahore District, Punjab", exact: true }).click();
  await donor.getByLabel("Day", { exact: true }).fill(new Date(Date.now() + 5 * 3600 * 1000).toISOString().slice(0, 10));
  await donor.getByRole("radio", { name: /Evening/ }).check();
  await donor.getByRole("button", { name: "Submit" }).click();
  await expect(donor).toHaveURL(/\/donate6\?donation=/);
  const code = (await donor.getByTestId("pickup-code").textContent())!.trim();
  expect(code).toMatch(/^\d{4}$/);
  const [donation] = await db.select({ id: donations.id }).from(donations).where(eq(donations.donorId, donorAccount.id));
  const id = donation!.id;

  // 2. The NGO assigns the nearest rider.
  const ngoPage = await phoneAs(browser, db, ngo.id);
  await ngoPage.goto("/noncash_apps");
  await ngoPage
    .getByRole("link", { name: /^View the pick-up request from/ })
    .first()
    .click();
  let dialog = ngoPage.getByRole("dialog");
  await expect(dialog).toContainText(`Six blankets ${tag}`);
  const select = dialog.getByLabel("Select Rider");
  const options = await select.locator("option").allTextContents();
  const firstIndex = options.findIndex((o) => o.startsWith(first.name));
  const secondIndex = options.findIndex((o) => o.startsWith(second.name));
  expect(firstIndex).toBeGreaterThan(-1);
  expect(secondIndex).toBeGreaterThan(firstIndex);
  await select.selectOption(first.id);
  await dialog.getByRole("button", { name: "Assign Rider" }).click();
  await expect.poll(async () => (await db.select().from(pickups).where(eq(pickups.donationId, id)))[0]?.status).toBe("assigned");

  // 3. That rider declines with a reason.
  const riderOne = await phoneAs(browser, db, first.id);
  await riderOne.goto("/rider_home");
  const offered = riderOne.getByRole("article", { name: campaign.title });
  await offered.getByText("Decline", { exact: true }).click();
  await offered.getByLabel("Why are you declining?").fill(`Bike in the workshop ${tag}`);
  await offered.getByRole("button", { name: "Decline this request" }).click();
  await expect(riderOne.getByText("Declined. The request has gone back to the NGO.")).toBeVisible();

  // 4. The NGO sees the reason and assigns the other rider.
  await ngoPage.goto(`/noncash_apps?view=${id}`);
  dialog = ngoPage.getByRole("dialog");
  await expect(dialog).toContainText(`Bike in the workshop ${tag}`);
  await dialog.getByLabel("Select Rider").selectOption(second.id);
  await dialog.getByRole("button", { name: "Assign Rider" }).click();
  await expect.poll(async () => (await db.select().from(pickups).where(eq(pickups.donationId, id)))[0]?.riderId).toBe(second.id);

  // 5. The second rider accepts, collects with the donor's code, and delivers.
  const riderTwo = await phoneAs(browser, db, second.id);
  await riderTwo.goto("/rider_home");
  await riderTwo.getByRole("article", { name: campaign.title }).getByRole("button", { name: "Accept" }).click();
  await expect(riderTwo.getByText(/^Accepted\./)).toBeVisible();
  await riderTwo
    .getByRole("navigation", { name: "Your pick-up requests" })
    .getByRole("link", { name: /^Registered/ })
    .click();
  const job = riderTwo.getByRole("article", { name: campaign.title });
  await expect(job.getByRole("link", { name: /Call donor/ })).toHaveAttribute("href", "tel:03007654321");
  await job.getByLabel("Enter the donor's code").fill(code);
  await job.getByRole("button", { name: "Collected" }).click();
  await expect(riderTwo.getByText(/^Collected\./)).toBeVisible();
  await riderTwo.getByRole("article", { name: campaign.title }).getByRole("button", { name: "Delivered to the NGO" }).click();
  await expect(riderTwo.getByText(/^Delivered\./)).toBeVisible();

  // 6. The NGO confirms receipt, noting what arrived.
  await ngoPage.goto(`/noncash_apps?view=${id}`);
  dialog = ngoPage.getByRole("dialog");
  await dialog.getByLabel("What actually arrived (optional)").fill("Six blankets, as offered");
  await dialog.getByRole("button", { name: "Confirm receipt" }).click();
  await expect.poll(async () => (await db.select().from(pickups).where(eq(pickups.donationId, id)))[0]?.status).toBe("received");

  // 7. The donor sees every step, in order, each with its time.
  await donor.goto("/dvh");
  const row = donor.locator(`[data-donation="${id}"]`);
  const steps = [
    step("requested"),
    step("assigned", first.name),
    step("declined", first.name),
    step("assigned", second.name),
    step("accepted", second.name),
    step("collected"),
    step("delivered"),
    step("received"),
  ];
  await row.locator("summary").click();
  const items = row.getByRole("listitem");
  await expect(items).toHaveCount(steps.length);
  for (const [i, text] of steps.entries()) {
    await expect(items.nth(i)).toContainText(text);
    await expect(items.nth(i).locator("time")).toHaveCount(1);
  }
  // Once collected, the door code is no longer shown: not on /dvh, and not on the thank-you page either.
  await expect(row).not.toContainText(code);
  await donor.goto(`/donate6?donation=${id}`);
  await expect(donor.locator("#thanks-heading")).toBeVisible();
  await expect(donor.getByTestId("pickup-code")).toHaveCount(0);
});
