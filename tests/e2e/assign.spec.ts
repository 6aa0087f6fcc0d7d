import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { donations, mailOutbox, notifications, pickupEvents, pickups, riderProfiles, users } from "#server/db/schema.ts";
import { makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

/** The pick-up point of makePickup (Lahore). */
const POINT = { lat: 31.558, lng: 74.35071 };
/** Degrees of latitude per kilometre (the haversine's 6371 km earth). */
const KM = 1 / ((6371 * Math.PI) / 180);

async function setArea(db: Db, riderId: string, area: { label: string; lat: number; lng: number } | null) {
  await db
    .update(riderProfiles)
    .set(area ? { areaLabel: area.label, areaLat: area.lat, areaLng: area.lng } : { areaLabel: null, areaLat: null, areaLng: null })
    .where(eq(riderProfiles.userId, riderId));
}

/** Riders for one test: near (5 km), far (300 km), one without an area, and two that must never be offered. */
async function makeRiders(db: Db, tag: string) {
  const near = await makeUser(db, "rider", { name: `Near ${tag}` });
  const far = await makeUser(db, "rider", { name: `Far ${tag}` });
  const noArea = await makeUser(db, "rider", { name: `Nowhere ${tag}` });
  const suspended = await makeUser(db, "rider", { name: `Suspended ${tag}` });
  const unverified = await makeUser(db, "rider", { name: `Unverified ${tag}`, verification: "pending" });
  await setArea(db, near.id, { label: `Model Town ${tag}`, lat: POINT.lat + 5 * KM, lng: POINT.lng });
  await setArea(db, far.id, { label: `Faisalabad ${tag}`, lat: POINT.lat + 300 * KM, lng: POINT.lng });
  await setArea(db, noArea.id, null);
  // These two stand right next to the pick-up point, so they would come first if they were offered.
  await setArea(db, suspended.id, { label: `Close by ${tag}`, lat: POINT.lat + 0.1 * KM, lng: POINT.lng });
  await setArea(db, unverified.id, { label: `Close by ${tag}`, lat: POINT.lat + 0.1 * KM, lng: POINT.lng });
  await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));
  return { near, far, noArea, suspended, unverified };
}

async function pickupRow(db: Db, id: string) {
  const [row] = await db.select().from(pickups).where(eq(pickups.donationId, id));
  return row!;
}

async function donationRow(db: Db, id: string) {
  const [row] = await db.select().from(donations).where(eq(donations.id, id));
  return row!;
}

async function eventCount(db: Db, id: string, type: "assigned" | "cancelled" | "received") {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pickupEvents)
    .where(and(eq(pickupEvents.donationId, id), eq(pickupEvents.type, type)));
  return row!.n;
}

async function notificationCount(db: Db, userId: string, type: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
  return row!.n;
}

async function mailsTo(db: Db, email: string) {
  return db.select({ subject: mailOutbox.subject, body: mailOutbox.body }).from(mailOutbox).where(eq(mailOutbox.toAddress, email));
}

/** A plain form POST as a browser without this page's JavaScript would send it (the Origin check wants the site's own). */
function post(page: Page, form: Record<string, string>) {
  return page.request.post("/noncash_apps", { form, headers: { Origin: baseUrl() }, maxRedirects: 0 });
}

const riderLabel = (tag: string, who: string) => `${who} ${tag} Rider`;

async function noSidewaysScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
}

test("the NGO assigns, reassigns, cancels and confirms receipt of its own pick-up requests", async ({ page, db, login, account }) => {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo", name: `Roshni ${tag}` });
  const donor = await account({ role: "donor", name: `Bilal ${tag}` });
  const donorName = `Bilal ${tag} Donor`;
  const clothes = await makeCampaign(db, ngo.id, { title: `Winter clothes ${tag}` });
  const books = await makeCampaign(db, ngo.id, { title: `School books ${tag}` });
  const firstItems = `Twelve warm blankets, six quilts and four jackets for children aged five to ten ${tag}`;
  const first = await makePickup(db, clothes, donor.id, { items: firstItems, windowSlot: "morning" });
  const second = await makePickup(db, books, donor.id, { items: `Forty used school books ${tag}`, windowSlot: "evening" });
  const third = await makePickup(db, clothes, donor.id, { items: `Ten sweaters ${tag}`, windowSlot: "afternoon" });
  // Sent to another NGO: never on this NGO's queue.
  const otherNgo = await account({ role: "ngo", name: `Other ${tag}` });
  const otherCampaign = await makeCampaign(db, otherNgo.id, { title: `Elsewhere ${tag}` });
  await makePickup(db, otherCampaign, donor.id, { items: `Someone else's rice ${tag}` });
  const riders = await makeRiders(db, tag);

  await page.goto("/noncash_apps");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pick-up requests");
  await expect(page.getByRole("link", { name: "New (3)" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Under way (0)" })).toBeVisible();
  const list = page.getByRole("list", { name: "New pick-up requests" });
  const cards = list.getByRole("article");
  await expect(cards).toHaveCount(3);
  // Oldest first; the items cut to their first eight words.
  await expect(cards.nth(0)).toContainText("Twelve warm blankets, six quilts and four jackets…");
  await expect(cards.nth(0)).not.toContainText("children aged five");
  await expect(cards.nth(0)).toContainText(donorName);
  await expect(cards.nth(0)).toContainText(`Winter clothes ${tag}`);
  await expect(cards.nth(0)).toContainText("Lahore, Lahore District, Punjab");
  await expect(cards.nth(0)).toContainText("Morning (9 am – 12 pm)");
  await expect(cards.nth(0)).toContainText("Waiting for a rider");
  await expect(cards.nth(1)).toContainText(`Forty used school books ${tag}`);
  await expect(cards.nth(1)).toContainText("Evening (4 – 8 pm)");
  await expect(cards.nth(2)).toContainText(`Ten sweaters ${tag}`);
  await expect(page.getByText(`Someone else's rice ${tag}`)).toHaveCount(0);
  await expectAccessible(page);

  // Filter by campaign (a GET form); the filter keeps to this NGO's campaigns.
  const filter = page.getByLabel("Campaign");
  await expect(filter.getByRole("option", { name: `Elsewhere ${tag}` })).toHaveCount(0);
  await filter.selectOption({ label: `School books ${tag}` });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`campaign=${books.id}`));
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(`Forty used school books ${tag}`);
  await filter.selectOption({ label: "All campaigns" });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(cards).toHaveCount(3);

  // View: every detail, the steps, and the riders nearest first.
  await cards
    .nth(0)
    .getByRole("link", { name: /^View the pick-up request from/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`view=${first.donation.id}`));
  const dialog = page.getByRole("dialog", { name: `Pick-up from ${donorName}` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeFocused();
  await expect(dialog).toContainText(firstItems);
  await expect(dialog).toContainText("House 12, Street 4");
  await expect(dialog.getByRole("link", { name: "Call 03001234567" })).toHaveAttribute("href", "tel:03001234567");
  await expect(dialog.getByRole("link", { name: /Directions on OpenStreetMap/ })).toHaveAttribute(
    "href",
    `https://www.openstreetmap.org/directions?to=${POINT.lat},${POINT.lng}`,
  );
  await expect(dialog).toContainText("Morning (9 am – 12 pm)");
  await expect(dialog).toContainText(`Winter clothes ${tag}`);
  const steps = dialog.getByRole("list", { name: "Steps" });
  await expect(steps.getByRole("listitem")).toHaveCount(1);
  await expect(steps).toContainText("Pick-up requested");
  await expect(steps.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);

  const select = dialog.getByLabel("Select Rider");
  const options = (await select.locator("option").allTextContents()).map((s) => s.trim());
  const nearText = `${riderLabel(tag, "Near")} — 5 km (Model Town ${tag}) · 0 open`;
  const farText = `${riderLabel(tag, "Far")} — 300 km (Faisalabad ${tag}) · 0 open · far (over 25 km)`;
  const noAreaText = `${riderLabel(tag, "Nowhere")} — distance unknown · 0 open`;
  expect(options).toContain(nearText);
  expect(options).toContain(farText);
  expect(options).toContain(noAreaText);
  expect(options.indexOf(nearText)).toBeLessThan(options.indexOf(farText));
  expect(options.indexOf(farText)).toBeLessThan(options.indexOf(noAreaText));
  expect(options.some((o) => o.includes(`Suspended ${tag}`) || o.includes(`Unverified ${tag}`))).toBe(false);
  await expectAccessible(page);

  // Assign: the rider is told in the app and by email, the donor too; one "assigned" step.
  await select.selectOption({ label: nearText });
  await dialog.getByRole("button", { name: "Assign Rider" }).click();
  await expect(page.getByRole("status")).toHaveText("The rider was assigned and told. The donor was told too.");
  await expect(dialog).toHaveCount(0);
  await expect(cards).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Under way (1)" })).toBeVisible();
  let row = await pickupRow(db, first.donation.id);
  expect(row.status).toBe("assigned");
  expect(row.riderId).toBe(riders.near.id);
  expect(await eventCount(db, first.donation.id, "assigned")).toBe(1);
  expect(await notificationCount(db, riders.near.id, "pickupAssigned")).toBe(1);
  expect(await notificationCount(db, donor.id, "pickupRiderAssigned")).toBe(1);
  const nearMail = await mailsTo(db, riders.near.email);
  expect(nearMail.map((m) => m.subject)).toEqual(["A new pick-up is waiting for you"]);
  expect(nearMail[0]!.body).toContain(`Winter clothes ${tag}`);

  // Under way: the card names the rider; Reassign gives it to another rider (the current one is not offered).
  await page.getByRole("link", { name: "Under way (1)" }).click();
  const active = page.getByRole("list", { name: "Pick-ups under way" }).getByRole("article");
  await expect(active).toHaveCount(1);
  await expect(active.first()).toContainText(riderLabel(tag, "Near"));
  await expect(active.first()).toContainText("Rider assigned");
  await active.first().getByRole("link", { name: /^View/ }).click();
  await expect(page).toHaveURL(/tab=active/);
  await expect(dialog.getByRole("list", { name: "Steps" })).toContainText(`Rider ${riderLabel(tag, "Near")} assigned`);
  const reassign = dialog.getByLabel("Select Rider");
  expect(await reassign.locator("option").allTextContents()).not.toContain(nearText);
  await reassign.selectOption({ label: farText });
  await dialog.getByRole("button", { name: "Reassign" }).click();
  await expect(page.getByRole("status")).toHaveText("The request was given to the other rider. Everyone concerned was told.");
  await expect(page).toHaveURL(/tab=active/);
  row = await pickupRow(db, first.donation.id);
  expect(row.status).toBe("assigned");
  expect(row.riderId).toBe(riders.far.id);
  expect(await eventCount(db, first.donation.id, "assigned")).toBe(2);
  expect(await notificationCount(db, riders.far.id, "pickupAssigned")).toBe(1);
  expect(await notificationCount(db, riders.near.id, "pickupWithdrawn")).toBe(1);

  // Cancel asks for a reason; an empty one changes nothing.
  await page.getByRole("link", { name: /^New \(/ }).click();
  await page.getByRole("link", { name: new RegExp(`Forty used school books ${tag}`) }).click();
  await dialog.getByText("Cancel request", { exact: true }).click();
  await dialog.getByRole("button", { name: "Cancel with this reason" }).click();
  await expect(dialog.getByText("Please give a reason.")).toBeVisible();
  const reasonField = dialog.getByLabel("Reason for cancelling (the donor will see it)");
  await expect(reasonField).toHaveAttribute("aria-invalid", "true");
  expect((await pickupRow(db, second.donation.id)).status).toBe("new");
  await expectAccessible(page);
  const reason = `The school already has enough books ${tag}`;
  await reasonField.fill(reason);
  await dialog.getByRole("button", { name: "Cancel with this reason" }).click();
  await expect(page.getByRole("status")).toHaveText("The request was cancelled and the donor was told the reason.");
  expect((await pickupRow(db, second.donation.id)).status).toBe("cancelled");
  const cancelled = await donationRow(db, second.donation.id);
  expect(cancelled.status).toBe("rejected");
  expect(cancelled.rejectionReason).toBe(reason);
  expect(await eventCount(db, second.donation.id, "cancelled")).toBe(1);
  expect(await notificationCount(db, donor.id, "pickupCancelled")).toBe(1);
  // Opened again by its link, a cancelled request is read-only and shows the reason.
  await page.goto(`/noncash_apps?view=${second.donation.id}`);
  await expect(dialog).toContainText("This request was cancelled.");
  await expect(dialog).toContainText(reason);
  await expect(dialog.getByRole("button")).toHaveCount(0);

  // Delivered (set here as the rider would leave it): Confirm receipt with a note of what arrived.
  await db.update(pickups).set({ status: "delivered", riderId: riders.near.id }).where(eq(pickups.donationId, third.donation.id));
  await page.goto(`/noncash_apps?tab=active&view=${third.donation.id}`);
  await expect(dialog).toContainText("The rider has delivered these goods. Confirm when you have them.");
  await expect(dialog.getByLabel("Select Rider")).toHaveCount(0);
  await expectAccessible(page);
  const note = `Nine sweaters arrived, one was missing ${tag}`;
  await dialog.getByLabel("What actually arrived (optional)").fill(note);
  await dialog.getByRole("button", { name: "Confirm receipt" }).click();
  await expect(page.getByRole("status")).toHaveText("Receipt confirmed. The donation is complete and the donor was told.");
  const received = await pickupRow(db, third.donation.id);
  expect(received.status).toBe("received");
  expect(received.receivedNote).toBe(note);
  expect((await donationRow(db, third.donation.id)).status).toBe("approved");
  expect(await eventCount(db, third.donation.id, "received")).toBe(1);
  await page.goto(`/noncash_apps?view=${third.donation.id}`);
  await expect(dialog).toContainText("Received. This request is complete.");
  await expect(dialog.getByRole("list", { name: "Steps" })).toContainText("The NGO confirmed receipt");
  await expect(dialog.getByRole("list", { name: "Steps" })).toContainText(note);
  expect(consoleErrors).toEqual([]);
});

test("the rider's decline reason shows in the steps, and a collected request waits for delivery", async ({ page, db, login, account }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor", name: `Sana ${tag}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `Flood relief ${tag}` });
  const rider = await makeUser(db, "rider", { name: `Decliner ${tag}` });
  const declined = await makePickup(db, campaign, donor.id, { items: `Rice bags ${tag}` });
  await db.insert(pickupEvents).values([
    { donationId: declined.donation.id, type: "assigned", actorId: ngo.id, riderId: rider.id, createdAt: new Date(Date.now() + 1000) },
    {
      donationId: declined.donation.id,
      type: "declined",
      actorId: rider.id,
      riderId: rider.id,
      reason: `My bike broke down ${tag}`,
      createdAt: new Date(Date.now() + 2000),
    },
  ]);
  const collected = await makePickup(db, campaign, donor.id, { items: `Water bottles ${tag}`, status: "collected", riderId: rider.id });

  await page.goto(`/noncash_apps?view=${declined.donation.id}`);
  const steps = page.getByRole("dialog").getByRole("list", { name: "Steps" });
  await expect(steps.getByRole("listitem")).toHaveCount(3);
  await expect(steps.getByRole("listitem").nth(2)).toContainText(`Rider Decliner ${tag} Rider declined; waiting for another rider`);
  await expect(steps.getByRole("listitem").nth(2)).toContainText(`Reason: My bike broke down ${tag}`);

  await page.goto(`/noncash_apps?tab=active&view=${collected.donation.id}`);
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("The rider has collected the goods and is bringing them to you.");
  await expect(dialog.getByRole("button")).toHaveCount(0);
  await expect(dialog.getByText("Cancel request")).toHaveCount(0);
});

test("two assignments of one request at once give one rider", async ({ page, db, login, account }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor" });
  const campaign = await makeCampaign(db, ngo.id, { title: `Race ${tag}` });
  const { donation } = await makePickup(db, campaign, donor.id);
  const a = await makeUser(db, "rider", { name: `Racer A ${tag}` });
  const b = await makeUser(db, "rider", { name: `Racer B ${tag}` });
  await page.goto("/noncash_apps");

  const responses = await Promise.all([
    post(page, { intent: "assign", donationId: donation.id, riderId: a.id }),
    post(page, { intent: "assign", donationId: donation.id, riderId: b.id }),
  ]);
  expect(responses.map((r) => r.status()).sort()).toEqual([302, 302]);
  const notices = responses.map((r) => new URL(r.headers()["location"]!, baseUrl()).searchParams.get("notice")).sort();
  expect(notices).toEqual(["alreadyAssigned", "assigned"]);
  expect(await eventCount(db, donation.id, "assigned")).toBe(1);
  const row = await pickupRow(db, donation.id);
  expect(row.status).toBe("assigned");
  expect([a.id, b.id]).toContain(row.riderId);

  // The one that lost sees the request's state and why nothing changed.
  const lost = responses.find((r) => r.headers()["location"]!.includes("alreadyAssigned"))!;
  await page.goto(lost.headers()["location"]!);
  await expect(page.getByRole("dialog").getByRole("status")).toHaveText(
    "A rider had already been assigned to this request, perhaps in another tab. Nothing was changed.",
  );
});

test("another NGO's request is not found, and a crafted POST changes nothing", async ({ page, db, login, account }) => {
  const tag = randomUUID().slice(0, 8);
  const owner = await account({ role: "ngo" });
  const donor = await account({ role: "donor" });
  const campaign = await makeCampaign(db, owner.id, { title: `Not yours ${tag}` });
  const { donation } = await makePickup(db, campaign, donor.id, { items: `Private goods ${tag}` });
  const delivered = await makePickup(db, campaign, donor.id, { status: "delivered" });
  const rider = await makeUser(db, "rider", { name: `Bystander ${tag}` });
  await login({ role: "ngo" });

  const view = await page.goto(`/noncash_apps?view=${donation.id}`);
  expect(view!.status()).toBe(404);
  const dialog = page.getByRole("dialog", { name: "Request not found" });
  await expect(dialog).toContainText("This pick-up request does not exist, or it was not sent to your NGO.");
  await expect(page.getByText(`Private goods ${tag}`)).toHaveCount(0);

  const forms: Record<string, string>[] = [
    { intent: "assign", donationId: donation.id, riderId: rider.id },
    { intent: "cancel", donationId: donation.id, reason: "Not mine to cancel" },
    { intent: "received", donationId: delivered.donation.id },
  ];
  for (const form of forms) {
    const res = await post(page, form);
    expect(res.status()).toBe(404);
    expect(await res.text()).toMatch(
      /role="alert"[^>]*><p><strong>Error: <\/strong>This pick-up request does not exist, or it was not sent to your NGO\. Nothing was changed\./,
    );
  }
  const row = await pickupRow(db, donation.id);
  expect(row.status).toBe("new");
  expect(row.riderId).toBeNull();
  expect(await eventCount(db, donation.id, "assigned")).toBe(0);
  expect((await donationRow(db, donation.id)).status).toBe("pending");
  expect((await pickupRow(db, delivered.donation.id)).status).toBe("delivered");
  expect(await notificationCount(db, rider.id, "pickupAssigned")).toBe(0);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("assigning a rider works with plain forms", async ({ page, db, login, account }) => {
    const tag = randomUUID().slice(0, 8);
    const ngo = await login({ role: "ngo" });
    const donor = await account({ role: "donor", name: `Noor ${tag}` });
    const campaign = await makeCampaign(db, ngo.id, { title: `No script ${tag}` });
    const { donation } = await makePickup(db, campaign, donor.id, { items: `Cooking pots ${tag}` });
    const rider = await makeUser(db, "rider", { name: `Plain ${tag}` });
    await setArea(db, rider.id, { label: `Gulberg ${tag}`, lat: POINT.lat + 3.2 * KM, lng: POINT.lng });

    await page.goto(`/noncash_apps?campaign=${campaign.id}`);
    await page.getByRole("link", { name: new RegExp(`Cooking pots ${tag}`) }).click();
    const dialog = page.getByRole("dialog", { name: `Pick-up from Noor ${tag} Donor` });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Select Rider").selectOption({ label: `Plain ${tag} Rider — 3.2 km (Gulberg ${tag}) · 0 open` });
    await dialog.getByRole("button", { name: "Assign Rider" }).click();
    await expect(page.getByRole("status")).toHaveText("The rider was assigned and told. The donor was told too.");
    await expect(page).toHaveURL(new RegExp(`campaign=${campaign.id}`));
    const row = await pickupRow(db, donation.id);
    expect(row.status).toBe("assigned");
    expect(row.riderId).toBe(rider.id);
  });
});

test("Urdu renders right to left and the queue fits a 360 px phone", async ({ page, db, login, account }) => {
  const tag = randomUUID().slice(0, 8);
  const ngo = await login({ role: "ngo" });
  const donor = await account({ role: "donor" });
  const campaign = await makeCampaign(db, ngo.id, { title: `Phone ${tag}` });
  const longItems = `${"Blankets ".repeat(12)}and a-very-long-unbroken-description-of-goods-${tag}-${"x".repeat(60)}`;
  const { donation } = await makePickup(db, campaign, donor.id, { items: longItems });
  await page.setViewportSize({ width: 360, height: 780 });

  await page.goto(`/noncash_apps?campaign=${campaign.id}`);
  await expect(page.getByRole("list", { name: "New pick-up requests" }).getByRole("article")).toHaveCount(1);
  await noSidewaysScroll(page);
  await page.goto(`/noncash_apps?campaign=${campaign.id}&view=${donation.id}`);
  await expect(page.getByRole("dialog")).toBeVisible();
  await noSidewaysScroll(page);

  await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto(`/noncash_apps?campaign=${campaign.id}&view=${donation.id}`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator("html")).toHaveAttribute("lang", "ur");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("پک اپ کی درخواستیں");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("رائیڈر منتخب کریں")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "رائیڈر مقرر کریں" })).toBeVisible();
  await expect(dialog).toContainText("صبح");
  await noSidewaysScroll(page);
  await expectAccessible(page);
});
