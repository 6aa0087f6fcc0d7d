import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { dropoffPoints, pickupEvents, pickups, riderProfiles, users } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

/** makePickup's pick-up point (Lahore), and kilometres as degrees of latitude (the haversine's 6371 km earth). */
const POINT = { lat: 31.558, lng: 74.35071 };
const KM = 1 / ((6371 * Math.PI) / 180);

test.use({ viewport: { width: 360, height: 740 } });

async function setArea(db: Db, riderId: string, label: string, kmNorth: number) {
  await db
    .update(riderProfiles)
    .set({ areaLabel: label, areaLat: POINT.lat + kmNorth * KM, areaLng: POINT.lng })
    .where(eq(riderProfiles.userId, riderId));
}

/** Signs the page in as an existing account (the sign-in screens have their own tests). */
async function signInAs(page: Page, db: Db, userId: string) {
  const { token } = await createSession(db, userId);
  await page.context().clearCookies();
  await page
    .context()
    .addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Chooses a place in a place field (the combobox) by typing and picking the suggestion. */
async function choosePlace(page: Page, label: string, typed: string, option: string) {
  const field = page.getByRole("combobox", { name: label });
  await field.fill("");
  await field.pressSequentially(typed, { delay: 40 });
  await page.getByRole("option", { name: option, exact: true }).click();
  await expect(field).toHaveValue(option);
}

/** Whether the search box's placeholder fits in the box (text width within the box's content width). */
async function placeholderFits(page: Page, selector: string): Promise<{ text: number; box: number }> {
  return page.evaluate((sel) => {
    const input = document.querySelector<HTMLInputElement>(sel)!;
    const style = getComputedStyle(input);
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const box = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: ctx.measureText(input.placeholder).width, box };
  }, selector);
}

test("an NGO lists two drop-off points, assigns the nearest rider (the one who declined last); the rider and donor see the nearest point", async ({
  page,
  db,
  login,
  account,
}) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo", name: `Roshni ${tag}` });
  const donor = await account({ role: "donor", name: `Donor ${tag}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Warm winter ${tag}` });
  const { donation } = await makePickup(db, campaign, donor.id, { items: `Quilts ${tag}` });

  // Settings: two drop-off points, one in Lahore (where the donor is) and one in Karachi.
  await page.goto("/settingsNGO");
  const section = page.getByRole("region", { name: "Drop-off points" });
  await expect(section.getByTestId("dropoffs-none")).toContainText("Saddar, Karachi");
  await section.getByLabel("Name").fill(`Model Town store ${tag}`);
  await section.getByLabel("Street address").fill("12 Bank Road, Model Town");
  await choosePlace(page, "Area or town", "laho", "Lahore, Lahore District, Punjab");
  await section.getByRole("button", { name: "Add drop-off point" }).click();
  await expect(page.getByText("The drop-off point was added.")).toBeVisible();
  await section.getByLabel("Name").fill(`Clifton store ${tag}`);
  await section.getByLabel("Street address").fill("Shop 3, Block 5, Clifton");
  await choosePlace(page, "Area or town", "karac", "Karachi, Sindh");
  await section.getByRole("button", { name: "Add drop-off point" }).click();
  await expect(page.getByText("The drop-off point was added.")).toBeVisible();
  const list = page.getByRole("list", { name: "Your drop-off points" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list).toContainText(`Model Town store ${tag}`);
  await expect(list).toContainText("Karachi, Sindh");
  await expect(section).toContainText("2 of 10 points");
  await noSidewaysScroll(page);
  await expectAccessible(page);
  const [lahorePoint] = await db
    .select()
    .from(dropoffPoints)
    .where(and(eq(dropoffPoints.ngoId, ngo.id), eq(dropoffPoints.name, `Model Town store ${tag}`), isNull(dropoffPoints.removedAt)));
  expect(lahorePoint).toMatchObject({ areaLabel: "Lahore, Lahore District, Punjab" });

  // Riders: 5 and 20 km away, one 300 km away (far), and one 1 km away who declined this pick-up before.
  const near = await makeUser(db, "rider", { name: `Near ${tag}` });
  const mid = await makeUser(db, "rider", { name: `Mid ${tag}` });
  const beyond = await makeUser(db, "rider", { name: `Beyond ${tag}` });
  const refuser = await makeUser(db, "rider", { name: `Refuser ${tag}` });
  await setArea(db, near.id, `Garden Town ${tag}`, 5);
  await setArea(db, mid.id, `Raiwind ${tag}`, 20);
  await setArea(db, beyond.id, `Faisalabad ${tag}`, 300);
  await setArea(db, refuser.id, `Next door ${tag}`, 1);
  await db.insert(pickupEvents).values([
    { donationId: donation.id, type: "assigned", actorId: ngo.id, riderId: refuser.id },
    { donationId: donation.id, type: "declined", actorId: refuser.id, riderId: refuser.id, reason: "Bike broken" },
  ]);

  await page.goto(`/noncash_apps?view=${donation.id}`);
  const dialog = page.getByRole("dialog", { name: `Pick-up from Donor ${tag} Donor` });
  const select = dialog.getByLabel("Select Rider");
  await expect(dialog).toContainText("Riders more than 25 km away are marked far; riders who declined this pick-up come last.");
  const options = (await select.locator("option").allTextContents()).map((s) => s.trim());
  const nearText = `Near ${tag} Rider — 5 km (Garden Town ${tag}) · 0 open`;
  const midText = `Mid ${tag} Rider — 20 km (Raiwind ${tag}) · 0 open`;
  const beyondText = `Beyond ${tag} Rider — 300 km (Faisalabad ${tag}) · 0 open · far (over 25 km)`;
  const refuserText = `Refuser ${tag} Rider — 1 km (Next door ${tag}) · 0 open · declined this pick-up`;
  for (const text of [nearText, midText, beyondText, refuserText]) expect(options).toContain(text);
  expect(options.indexOf(nearText)).toBeLessThan(options.indexOf(midText));
  expect(options.indexOf(midText)).toBeLessThan(options.indexOf(beyondText));
  // Declined riders come after everyone else, even those with no area.
  expect(options.indexOf(refuserText)).toBe(options.length - 1);
  await noSidewaysScroll(page);
  await expectAccessible(page);

  await select.selectOption({ label: nearText });
  await dialog.getByRole("button", { name: "Assign Rider" }).click();
  await expect(page.getByRole("status")).toHaveText("The rider was assigned and told. The donor was told too.");
  // Assigned: the goods go to the point nearest the pick-up (Lahore), not to the office or Karachi.
  const [row] = await db.select().from(pickups).where(eq(pickups.donationId, donation.id));
  expect(row).toMatchObject({ status: "assigned", riderId: near.id, dropoffId: lahorePoint!.id });
  await page.goto(`/noncash_apps?tab=active&view=${donation.id}`);
  await expect(page.getByTestId("assign-dropoff")).toContainText(`Model Town store ${tag}`);

  // The rider sees where to take the goods: the point's name, address, place and how far it is from the pick-up.
  await signInAs(page, db, near.id);
  await page.goto("/rider_home");
  const card = page.getByRole("article", { name: `Warm winter ${tag}` });
  const dropoff = card.getByTestId("pickup-dropoff");
  await expect(dropoff).toContainText(`Model Town store ${tag}`);
  await expect(dropoff).toContainText("12 Bank Road, Model Town");
  await expect(dropoff).toContainText("Lahore, Lahore District, Punjab");
  await expect(dropoff).toContainText("Under 1 km from the pick-up");
  await expect(card).not.toContainText(/\d+\.\d+, \d+\.\d+/);
  await expect(card.getByTestId("pickup-distance")).toHaveText("5 km from your area");
  await noSidewaysScroll(page);
  await expectAccessible(page);

  // The donor sees where the goods are going.
  await signInAs(page, db, donor.id);
  await page.goto("/dvh");
  await expect(page.getByTestId("donation-dropoff")).toContainText(`Model Town store ${tag}, 12 Bank Road, Model Town`);
  await expectAccessible(page);
});

test("a new rider gives their area at sign-up; it is where distances are measured from", async ({ page, db }) => {
  const email = `rider-area-${randomUUID().slice(0, 8)}@example.pk`;
  await page.goto("/rider_signup");
  await page.getByLabel("First name").fill("Zara");
  await page.getByLabel("Last name").fill("Khan");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Zara-rides-2024");
  await page.getByLabel("Contact number").fill("03111234567");
  await page.getByLabel("CNIC").fill("42101-1234567-1");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Enter your area or town.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Area or town" })).toHaveAttribute("aria-invalid", "true");
  await choosePlace(page, "Area or town", "multa", "Multan, Multan District, Punjab");
  await noSidewaysScroll(page);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page).toHaveURL("/rider_signin?notice=submitted");
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  const [profile] = await db.select().from(riderProfiles).where(eq(riderProfiles.userId, user!.id));
  expect(profile).toMatchObject({ areaLabel: "Multan, Multan District, Punjab" });
  expect(profile!.areaLat).toBeCloseTo(30.2, 1);
});

test("the rider's search box placeholder fits a 360 px phone in English and Urdu", async ({ page, login }) => {
  await login({ role: "rider" });
  await page.goto("/rider_home");
  const en = await placeholderFits(page, "#rider-search");
  expect(en.text).toBeLessThanOrEqual(en.box);
  await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "ur");
  const ur = await placeholderFits(page, "#rider-search");
  expect(ur.text).toBeLessThanOrEqual(ur.box);
  await noSidewaysScroll(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the drop-off form adds and removes a point with the server's messages", async ({ page, db, login }) => {
    const tag = randomUUID().slice(0, 8);
    const ngo = await login({ role: "ngo" });
    await page.goto("/settingsNGO");
    const section = page.getByRole("region", { name: "Drop-off points" });
    await section.getByRole("button", { name: "Add drop-off point" }).click();
    await expect(page.getByText("Enter a name for the drop-off point.")).toBeVisible();
    await expect(page.getByText("Enter the street address.")).toBeVisible();
    await expect(page.getByText("Enter the area or town.")).toBeVisible();

    await section.getByLabel("Name").fill(`Depot ${tag}`);
    await section.getByLabel("Street address").fill("Plot 7, Ferozepur Road");
    await section.getByLabel("Area or town").fill("Qwxzzy Nowhere");
    await section.getByRole("button", { name: "Add drop-off point" }).click();
    await expect(page.getByText("Please enter a valid location")).toBeVisible();
    await expect(section.getByLabel("Area or town")).toHaveAttribute("aria-invalid", "true");

    await section.getByLabel("Area or town").fill("Lahore");
    await section.getByRole("button", { name: "Add drop-off point" }).click();
    await expect(page).toHaveURL("/settingsNGO?saved=addDropoff");
    await expect(page.getByText("The drop-off point was added.")).toBeVisible();
    const list = page.getByRole("list", { name: "Your drop-off points" });
    await expect(list).toContainText(`Depot ${tag}`);
    await expect(list).toContainText("Lahore, Lahore District, Punjab");

    await list.getByRole("button", { name: `Remove the drop-off point Depot ${tag}` }).click();
    await expect(page).toHaveURL("/settingsNGO?saved=removeDropoff");
    await expect(page.getByText("The drop-off point was removed.")).toBeVisible();
    await expect(page.getByRole("list", { name: "Your drop-off points" })).toHaveCount(0);
    const rows = await db
      .select()
      .from(dropoffPoints)
      .where(and(eq(dropoffPoints.ngoId, ngo.id), isNull(dropoffPoints.removedAt)));
    expect(rows).toEqual([]);
  });
});
