import { and, asc, eq } from "drizzle-orm";
import type { Locator, Page } from "@playwright/test";
import type { Db } from "#server/db/client.ts";
import { notifications, pickupEvents, pickups, riderProfiles } from "#server/db/schema.ts";
import { makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 8);

const CODE_WRONG = "That code is not right. Ask the donor to read it from their donation history.";
const RATE_LIMITED = "Too many attempts. Please wait a few minutes and try again.";
const REASON_REQUIRED = "Please give a reason.";
const SET_AREA = "Set your area in your profile to see how far this is.";
/** makePickup's pick-up point (Lahore). */
const POINT = { lat: 31.558, lng: 74.35071 };

test.use({ viewport: { width: 390, height: 844 } });

/** An NGO, a donor, and a helper that creates pick-ups assigned to a rider as the NGO would (status and event). */
async function world(db: Db) {
  const ngo = await makeUser(db, "ngo");
  const donor = await makeUser(db, "donor");
  const tag = unique();
  async function assigned(
    riderId: string,
    items: string,
    status: "assigned" | "accepted" | "collected" | "delivered" | "received" = "assigned",
  ) {
    const campaign = await makeCampaign(db, ngo.id, { title: `Ride ${tag} ${items}` });
    const { donation } = await makePickup(db, campaign, donor.id, { items, status, riderId });
    await db.insert(pickupEvents).values({ donationId: donation.id, type: "assigned", actorId: ngo.id, riderId });
    if (status !== "assigned")
      await db.insert(pickupEvents).values({ donationId: donation.id, type: "accepted", actorId: riderId, riderId });
    return { id: donation.id, title: campaign.title, items };
  }
  return { ngo, donor, tag, assigned };
}

async function pickupOf(db: Db, id: string) {
  const [p] = await db.select().from(pickups).where(eq(pickups.donationId, id));
  const events = await db.select().from(pickupEvents).where(eq(pickupEvents.donationId, id)).orderBy(asc(pickupEvents.id));
  return { ...p!, events };
}

const card = (page: Page, title: string) => page.getByRole("article", { name: title });
const tab = (page: Page, name: "Pending" | "Registered" | "Completed") =>
  page.getByRole("navigation", { name: "Your pick-up requests" }).getByRole("link", { name: new RegExp(`^${name}`) });

async function expectCounts(page: Page, counts: [number, number, number]) {
  await expect(page.getByTestId("count-pending")).toHaveText(String(counts[0]));
  await expect(page.getByTestId("count-registered")).toHaveText(String(counts[1]));
  await expect(page.getByTestId("count-completed")).toHaveText(String(counts[2]));
}

async function enterCode(c: Locator, code: string) {
  await c.getByLabel("Enter the donor's code").fill(code);
  await c.getByRole("button", { name: "Collected" }).click();
}

/** Fails when the page scrolls sideways, i.e. something does not fit the phone's width. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test("the rider sets and clears its area in the profile", async ({ page, db, login }) => {
  const rider = await login({ role: "rider" });
  await page.goto("/rider_profile");
  await expect(page.getByRole("heading", { name: "Your area" })).toBeVisible();
  await expect(page.getByTestId("rider-area-current")).toHaveText("No area set yet. NGOs see riders without an area after the others.");
  await expectAccessible(page);

  await page.getByLabel("Area or town").fill("Qwxzzy Nowhere");
  await page.getByRole("button", { name: "Save area" }).click();
  await expect(page.getByText("Please enter a valid location")).toBeVisible();
  await expect(page.getByLabel("Area or town")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Area or town").fill("Lahore");
  await page.getByRole("button", { name: "Save area" }).click();
  await expect(page.getByText("Your area has been saved.")).toBeVisible();
  await expect(page.getByTestId("rider-area-current")).toContainText("Saved area: Lahore");
  const [saved] = await db.select().from(riderProfiles).where(eq(riderProfiles.userId, rider.id));
  expect(saved!.areaLabel).toMatch(/^Lahore/);
  expect(saved!.areaLat).toBeCloseTo(31.5, 0);
  expect(saved!.areaLng).toBeCloseTo(74.3, 0);
  await expect(page.getByLabel("Area or town")).toHaveValue(saved!.areaLabel!);
  await expectAccessible(page);

  await page.getByRole("button", { name: "Clear area" }).click();
  await expect(page.getByText("Your area has been cleared.")).toBeVisible();
  const [cleared] = await db.select().from(riderProfiles).where(eq(riderProfiles.userId, rider.id));
  expect([cleared!.areaLabel, cleared!.areaLat, cleared!.areaLng]).toEqual([null, null, null]);
});

test("a rider answers, collects with the donor's code and delivers, on its own requests only", async ({ page, db, login }) => {
  const rider = await login({ role: "rider", name: "Bilal" });
  await db.update(riderProfiles).set({ areaLabel: "Lahore", areaLat: 31.52, areaLng: 74.35 }).where(eq(riderProfiles.userId, rider.id));
  const other = await makeUser(db, "rider");
  const w = await world(db);
  const toAccept = await w.assigned(rider.id, `Blankets ${w.tag}`);
  const toDecline = await w.assigned(rider.id, `School books ${w.tag}`);
  const toGuess = await w.assigned(rider.id, `Rice sacks ${w.tag}`, "accepted");
  const toCollect = await w.assigned(rider.id, `Winter coats ${w.tag}`, "accepted");
  const done = await w.assigned(rider.id, `Cooking oil ${w.tag}`, "received");
  const notMine = await w.assigned(other.id, `Secret stove ${w.tag}`);

  await page.goto("/rider_home");
  await expect(page.getByRole("heading", { name: "Welcome, Bilal" })).toBeVisible();
  await expect(tab(page, "Pending")).toHaveAttribute("aria-current", "page");
  await expectCounts(page, [2, 2, 1]);
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(card(page, notMine.title)).toHaveCount(0);
  await expectAccessible(page);

  // Everything needed at the door: items, address and area, window, distance, a call link and directions.
  const a = card(page, toAccept.title);
  await expect(a).toContainText(toAccept.items);
  await expect(a).toContainText("House 12, Street 4");
  await expect(a).toContainText("Lahore, Lahore District, Punjab");
  await expect(a).toContainText("Morning (9 am – 12 pm)");
  await expect(a.getByTestId("pickup-distance")).toHaveText(/^\d+(\.\d)? km from your area$/);
  // Next door reads as such, not as "0 km".
  await db.update(riderProfiles).set({ areaLat: POINT.lat, areaLng: POINT.lng }).where(eq(riderProfiles.userId, rider.id));
  await page.reload();
  await expect(card(page, toAccept.title).getByTestId("pickup-distance")).toHaveText("In your area");
  await db.update(riderProfiles).set({ areaLat: 31.52, areaLng: 74.35 }).where(eq(riderProfiles.userId, rider.id));
  await page.reload();
  await expect(a.getByRole("link", { name: "Call donor" })).toHaveAttribute("href", "tel:03001234567");
  await expect(a.getByRole("link", { name: /^Directions/ })).toHaveAttribute(
    "href",
    `https://www.google.com/maps/dir/?api=1&destination=${POINT.lat},${POINT.lng}`,
  );
  // Thumb-sized targets.
  for (const target of [a.getByRole("button", { name: "Accept" }), a.getByRole("link", { name: "Call donor" }), tab(page, "Registered")]) {
    expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  await expectNoSidewaysScroll(page);

  // Search narrows the list and the counts; another rider's request is never found.
  await page.getByRole("searchbox", { name: "Search your pick-ups" }).fill("Blankets");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=Blankets/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(card(page, toAccept.title)).toBeVisible();
  await expectCounts(page, [1, 0, 0]);
  await page.getByRole("searchbox", { name: "Search your pick-ups" }).fill("Secret stove");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No pick-ups here match “Secret stove”.")).toBeVisible();
  await expectCounts(page, [0, 0, 0]);
  await page.getByRole("link", { name: "Clear search" }).click();
  await expectCounts(page, [2, 2, 1]);

  // Accept: the request moves to Registered.
  await card(page, toAccept.title).getByRole("button", { name: "Accept" }).click();
  await expect(page.getByText("Accepted. You will find it under Registered")).toBeVisible();
  await expectCounts(page, [1, 3, 1]);
  expect((await pickupOf(db, toAccept.id)).status).toBe("accepted");

  // Decline asks for a reason; then the request leaves the rider's list and goes back to the NGO.
  const d = card(page, toDecline.title);
  await d.getByText("Decline", { exact: true }).click();
  await d.getByRole("button", { name: "Decline this request" }).click();
  await expect(d.getByText(REASON_REQUIRED)).toBeVisible();
  expect((await pickupOf(db, toDecline.id)).status).toBe("assigned");
  await d.getByLabel("Why are you declining?").fill("My motorbike broke down today.");
  await d.getByRole("button", { name: "Decline this request" }).click();
  await expect(page.getByText("Declined. The request has gone back to the NGO.")).toBeVisible();
  await expect(card(page, toDecline.title)).toHaveCount(0);
  await expectCounts(page, [0, 3, 1]);
  const declined = await pickupOf(db, toDecline.id);
  expect(declined.status).toBe("new");
  expect(declined.riderId).toBeNull();
  expect(declined.events.at(-1)).toMatchObject({ type: "declined", riderId: rider.id, reason: "My motorbike broke down today." });
  const told = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, w.ngo.id), eq(notifications.type, "pickupDeclined")));
  expect(told.map((n) => n.params.reason)).toContain("My motorbike broke down today.");

  // Registered: where the goods go (the NGO lists no drop-off points: its office address), and the donor's code.
  await tab(page, "Registered").click();
  await expect(tab(page, "Registered")).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("article")).toHaveCount(3);
  await expectAccessible(page);
  const g = card(page, toGuess.title);
  await expect(g.getByTestId("pickup-state")).toHaveText("To collect");
  await expect(g).toContainText("Take the goods to");
  await expect(g.getByTestId("pickup-dropoff")).toContainText("Saddar, Karachi");
  const code = g.getByLabel("Enter the donor's code");
  await expect(code).toHaveAttribute("inputmode", "numeric");
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await expect(code).toHaveAttribute("pattern", "[0-9]{4}");

  for (let i = 0; i < 5; i += 1) {
    await enterCode(card(page, toGuess.title), "9999");
    await expect(card(page, toGuess.title).getByText(CODE_WRONG)).toBeVisible();
    await expect(card(page, toGuess.title).getByLabel("Enter the donor's code")).toHaveAttribute("aria-invalid", "true");
  }
  expect((await pickupOf(db, toGuess.id)).status).toBe("accepted");
  await enterCode(card(page, toGuess.title), "9998");
  await expect(card(page, toGuess.title).getByRole("alert")).toContainText(RATE_LIMITED);
  expect((await pickupOf(db, toGuess.id)).status).toBe("accepted");

  // The right code marks it collected; Delivered hands it over (Completed, waiting for the NGO).
  await enterCode(card(page, toCollect.title), "1234");
  await expect(page.getByText("Collected. Take the goods to the NGO")).toBeVisible();
  expect((await pickupOf(db, toCollect.id)).status).toBe("collected");
  const c = card(page, toCollect.title);
  await expect(c.getByTestId("pickup-state")).toHaveText("To deliver");
  await expect(c.getByRole("link", { name: "Directions to the NGO" })).toHaveAttribute(
    "href",
    `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent("Saddar, Karachi")}`,
  );
  await c.getByRole("button", { name: "Delivered to the NGO" }).click();
  await expect(page.getByText("Delivered. It is now under Completed")).toBeVisible();
  expect((await pickupOf(db, toCollect.id)).status).toBe("delivered");
  await expectCounts(page, [0, 2, 2]);

  await tab(page, "Completed").click();
  await expect(page.getByRole("article")).toHaveCount(2);
  await expect(card(page, toCollect.title).getByTestId("pickup-state")).toHaveText("Delivered: waiting for the NGO's confirmation");
  await expect(card(page, done.title).getByTestId("pickup-state")).toHaveText("Received by the NGO");
  await expect(page.getByRole("article").getByRole("button")).toHaveCount(0);
  await expectAccessible(page);

  // A crafted POST on another rider's request is answered as not found and changes nothing.
  const crafted: Record<string, string>[] = [
    { intent: "accept", donationId: notMine.id },
    { intent: "decline", donationId: notMine.id, reason: "Not mine" },
    { intent: "collect", donationId: notMine.id, code: "1234" },
  ];
  for (const form of crafted) {
    const response = await page.request.post("/rider_home", { headers: { origin: baseUrl() }, form, maxRedirects: 0 });
    expect(response.status(), form.intent).toBe(404);
  }
  const untouched = await pickupOf(db, notMine.id);
  expect([untouched.status, untouched.riderId, untouched.events.length]).toEqual(["assigned", other.id, 2]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a rider accepts and enters the donor's code", async ({ page, db, login }) => {
    const rider = await login({ role: "rider" });
    const w = await world(db);
    const p = await w.assigned(rider.id, `Warm quilts ${w.tag}`);

    await page.goto("/rider_home");
    // No area yet: the card asks for one instead of a distance.
    await expect(card(page, p.title).getByRole("link", { name: SET_AREA })).toHaveAttribute("href", "/rider_profile");
    await card(page, p.title).getByRole("button", { name: "Accept" }).click();
    await expect(page.getByText("Accepted. You will find it under Registered")).toBeVisible();
    expect((await pickupOf(db, p.id)).status).toBe("accepted");

    await tab(page, "Registered").click();
    await enterCode(card(page, p.title), "4321");
    await expect(card(page, p.title).getByText(CODE_WRONG)).toBeVisible();
    expect((await pickupOf(db, p.id)).status).toBe("accepted");
    await enterCode(card(page, p.title), "1234");
    await expect(page.getByText("Collected. Take the goods to the NGO")).toBeVisible();
    expect((await pickupOf(db, p.id)).status).toBe("collected");

    // The decline reason opens without JavaScript too (a native disclosure).
    const q = await w.assigned(rider.id, `Old shoes ${w.tag}`);
    await tab(page, "Pending").click();
    await card(page, q.title).getByText("Decline", { exact: true }).click();
    await card(page, q.title).getByLabel("Why are you declining?").fill("Too far for me.");
    await card(page, q.title).getByRole("button", { name: "Decline this request" }).click();
    await expect(page.getByText("Declined. The request has gone back to the NGO.")).toBeVisible();
    expect((await pickupOf(db, q.id)).status).toBe("new");
  });
});

test("the rider home reads right to left in Urdu and fits the phone", async ({ page, db, login, context }) => {
  const rider = await login({ role: "rider" });
  const w = await world(db);
  const p = await w.assigned(rider.id, `Dry rations with a rather long description of the items ${w.tag}`);
  await context.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto("/rider_home");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("navigation", { name: "آپ کی پک اپ درخواستیں" }).getByRole("link", { name: /^زیر التوا/ })).toBeVisible();
  await expect(card(page, p.title).getByRole("button", { name: "قبول کریں" })).toBeVisible();
  await expect(card(page, p.title).getByRole("link", { name: "عطیہ دہندہ کو کال کریں" })).toHaveAttribute("href", "tel:03001234567");
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);
});
