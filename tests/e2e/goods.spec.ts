import fs from "node:fs";
import { gzipSync } from "node:zlib";
import { and, asc, eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import type { Db } from "#server/db/client.ts";
import { donations, pickupEvents, pickups } from "#server/db/schema.ts";
import { makeCampaign, makePickup, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 8);

const FILL_ALL = "Please fill in all the fields.";
const PHONE_DIGITS = "Enter a mobile number, for example 0321 1234567 or +92 321 1234567.";
const AREA_INVALID = "Please enter a valid location";
const DATE_RANGE = "Choose a day from today up to 30 days ahead.";
const HOSTILE = "<script>alert(1)</script>";
const LAHORE = "Lahore, Lahore District, Punjab";

/** The shared pick-up strings, read as data (a spec cannot import the modules that bundle them). */
const PICKUPS = JSON.parse(fs.readFileSync(new URL("../../shared/locales/en/pickups.json", import.meta.url), "utf8")) as {
  status: Record<string, string>;
  events: Record<string, string>;
  slots: Record<string, string>;
};
/** The goods form's and the slots' Urdu, read as data, for the Urdu run of the form. */
const UR_GOODS = JSON.parse(fs.readFileSync(new URL("../../shared/locales/ur/goods.json", import.meta.url), "utf8")) as {
  offer: Record<string, string>;
  thanks: Record<string, string>;
};
const UR_SLOTS = (
  JSON.parse(fs.readFileSync(new URL("../../shared/locales/ur/pickups.json", import.meta.url), "utf8")) as { slots: Record<string, string> }
).slots;
/** What every date field says it expects, in Urdu (common:dateInput). */
const UR_DATE_INPUT = (
  JSON.parse(fs.readFileSync(new URL("../../shared/locales/ur/common.json", import.meta.url), "utf8")) as { dateInput: string }
).dateInput;
const step = (type: string, rider = "") => PICKUPS.events[type]!.replace("{{rider}}", rider);

/** Today in Pakistan (UTC+5), as the server counts the pick-up window, `days` ahead. */
function pakistanDay(days = 0): string {
  const d = new Date(Date.now() + 5 * 3600 * 1000);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

test.use({ viewport: { width: 390, height: 844 } });

async function goodsOf(db: Db, donorId: string) {
  return db
    .select({
      id: donations.id,
      kind: donations.kind,
      status: donations.status,
      items: donations.items,
      phone: donations.phone,
      ngo: donations.recipientNgoId,
    })
    .from(donations)
    .where(and(eq(donations.donorId, donorId), eq(donations.kind, "in_kind")));
}

async function pickupOf(db: Db, donationId: string) {
  const [p] = await db.select().from(pickups).where(eq(pickups.donationId, donationId));
  const events = await db.select().from(pickupEvents).where(eq(pickupEvents.donationId, donationId)).orderBy(asc(pickupEvents.id));
  return { pickup: p!, events };
}

/** Gzipped JavaScript a page loads, measured as tests/e2e/budget.spec.ts does. */
async function javaScriptBytes(page: Page, path: string): Promise<number> {
  const bodies: Promise<Buffer>[] = [];
  const onResponse = (r: import("@playwright/test").Response) => {
    if (r.request().resourceType() === "script" || r.url().endsWith(".js")) bodies.push(r.body());
  };
  page.on("response", onResponse);
  await page.goto(path, { waitUntil: "networkidle" });
  page.off("response", onResponse);
  const all = await Promise.all(bodies);
  return all.reduce((sum, b) => sum + gzipSync(b).length, 0);
}

/** Fills the goods form's visible fields (not the area). */
async function fillForm(page: Page, v: { phone?: string; items?: string; address?: string; day?: string; slot?: RegExp }) {
  if (v.phone !== undefined) await page.getByLabel("Phone number").fill(v.phone);
  if (v.items !== undefined) await page.getByLabel("Description of items").fill(v.items);
  if (v.address !== undefined) await page.getByLabel("House and street").fill(v.address);
  if (v.day !== undefined) await page.getByLabel("Day", { exact: true }).fill(v.day);
  if (v.slot) await page.getByRole("radio", { name: v.slot }).check();
}

test("a donor goes from Cash to Non-Cash, offers goods and gets a pick-up code", async ({ page, db, login, account }) => {
  const tag = unique();
  const ngoName = `Edhi Goods ${tag}`;
  const ngo = await account({ role: "ngo", name: ngoName });
  const campaign = await makeCampaign(db, ngo.id, { title: `Winter drive ${tag}`, otherItems: "Blankets, quilts and warm jackets" });
  const donor = await login({ role: "donor" });

  await page.goto("/donate1");
  const toggle = page.getByRole("navigation", { name: "Type of donation" });
  await toggle.getByRole("link", { name: "Non-Cash" }).click();
  await expect(page).toHaveURL(/\/donate5$/);
  await expect(toggle.getByRole("link", { name: "Non-Cash" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "Choose a campaign to give goods to" })).toBeVisible();

  await page.getByRole("searchbox", { name: "Search campaigns by title" }).fill(`winter drive ${tag}`);
  await page.getByRole("button", { name: "Search" }).click();
  const cards = page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("Items needed");
  await expect(cards.first()).toContainText("Blankets, quilts and warm jackets");
  await expectAccessible(page);

  // The details panel shows the items needed prominently; its toggle keeps the campaign for the cash side.
  await cards.first().getByRole("link", { name: "Details" }).click();
  await expect(page).toHaveURL(new RegExp(`/donate5\\?q=.*campaign=${campaign.slug}`));
  await expect(page.getByRole("heading", { level: 2, name: campaign.title })).toBeVisible();
  await expect(page.getByText("Blankets, quilts and warm jackets")).toBeVisible();
  await expect(toggle.getByRole("link", { name: "Cash", exact: true })).toHaveAttribute("href", `/donate1?campaign=${campaign.slug}`);
  await expectAccessible(page);
  await page.getByRole("link", { name: "Donate goods" }).click();

  await expect(page).toHaveURL(`/donate5_1?campaign=${campaign.slug}`);
  await expect(page.getByText("Blankets, quilts and warm jackets")).toBeVisible();
  await expect(page.getByLabel("Phone number")).toHaveValue("03001234567");
  // One NGO: no choice to make.
  await expect(page.getByRole("radio", { name: ngoName })).toHaveCount(0);
  await expect(page.getByLabel("Day", { exact: true })).toHaveAttribute("min", pakistanDay());
  await expect(page.getByLabel("Day", { exact: true })).toHaveAttribute("max", pakistanDay(30));

  await fillForm(page, {
    items: "5 blankets and 2 quilts",
    address: "House 7, Street 3, near the mosque",
    day: pakistanDay(2),
    slot: /Morning/,
  });
  const area = page.getByRole("combobox", { name: "Area or town" });
  await area.fill("Lahore");
  await page.getByRole("option", { name: LAHORE, exact: true }).click();
  await expect(area).toHaveValue(LAHORE);
  await page.getByRole("button", { name: "Submit" }).click();

  await expect(page).toHaveURL(/\/donate6\?donation=/);
  await expect(page.getByRole("heading", { name: "Thank you for your donation!" })).toBeVisible();
  await expect(page.getByText("The rider will soon collect the donation.")).toBeVisible();
  const code = (await page.getByTestId("pickup-code").textContent())!.trim();
  expect(code).toMatch(/^\d{4}$/);
  await expect(page.getByText("Give this code to the rider at your door")).toBeVisible();
  await expect(page.getByRole("main")).toContainText("5 blankets and 2 quilts");
  await expect(page.getByRole("main")).toContainText(`House 7, Street 3, near the mosque, ${LAHORE}`);
  await expect(page.getByRole("main")).toContainText(campaign.title);
  await expect(page.getByRole("main")).toContainText(ngoName);
  await expectAccessible(page);

  const rows = await goodsOf(db, donor.id);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    kind: "in_kind",
    status: "pending",
    items: "5 blankets and 2 quilts",
    phone: "03001234567",
    ngo: ngo.id,
  });
  expect(page.url()).toContain(`donation=${rows[0]!.id}`);
  const { pickup, events } = await pickupOf(db, rows[0]!.id);
  expect(pickup).toMatchObject({
    status: "new",
    code,
    windowDate: pakistanDay(2),
    windowSlot: "morning",
    areaLabel: LAHORE,
    address: "House 7, Street 3, near the mosque",
  });
  expect(pickup.lat).toBeCloseTo(31.55, 1);
  expect(events.map((e) => e.type)).toEqual(["requested"]);

  // /dvh: the request with its code and state. Done leads back to the goods picker.
  await page.getByRole("link", { name: "See my donations" }).click();
  await expect(page).toHaveURL("/dvh");
  const item = page.locator(`[data-donation="${rows[0]!.id}"]`);
  await expect(item).toContainText(PICKUPS.status.new!);
  await expect(item.getByTestId("pickup-code")).toHaveText(code);
  await expect(item).toContainText(step("requested"));
  await page.goBack();
  await page.getByRole("link", { name: "Done" }).click();
  await expect(page).toHaveURL("/donate5");
});

test("a donor reading Urdu completes the goods form in Urdu, with the area typed in Urdu", async ({ page, db, login, account }) => {
  const tag = unique();
  const ngo = await account({ role: "ngo", name: `ایدھی سامان ${tag}` });
  const campaign = await makeCampaign(db, ngo.id, { title: `سردیوں کی مہم ${tag}`, otherItems: "کمبل، رضائیاں اور گرم جیکٹیں" });
  const donor = await login({ role: "donor" });
  await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);

  await page.goto(`/donate5_1?campaign=${campaign.slug}`);
  await expect(page.getByRole("heading", { name: UR_GOODS.offer.heading })).toBeVisible();
  await page.getByLabel(UR_GOODS.offer.phone).fill("0300 1234567");
  await page.getByLabel(UR_GOODS.offer.items).fill("5 کمبل اور 2 رضائیاں");
  await page.getByLabel(UR_GOODS.offer.address).fill("مکان 7، گلی 3، مسجد کے قریب");
  const day = page.getByLabel(UR_GOODS.offer.day, { exact: true });
  // The date field says, in Urdu, what it expects (issue 16, item 4).
  await expect(day).toHaveAccessibleDescription(new RegExp(UR_DATE_INPUT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  await day.fill(pakistanDay(2));
  await page.getByRole("radio", { name: UR_SLOTS.morning }).check();
  const area = page.getByRole("combobox", { name: UR_GOODS.offer.area });
  await area.pressSequentially("لاہو", { delay: 40 });
  await page.getByRole("option", { name: "لاہور، ضلع لاہور، پنجاب", exact: true }).click();
  await expect(area).toHaveValue("لاہور، ضلع لاہور، پنجاب");
  await expectAccessible(page);
  await page.getByRole("button", { name: UR_GOODS.offer.submit }).click();

  await expect(page).toHaveURL(/\/donate6\?donation=/);
  await expect(page.getByRole("heading", { name: UR_GOODS.thanks.title })).toBeVisible();
  const main = page.getByRole("main");
  await expect(main).toContainText("5 کمبل اور 2 رضائیاں");
  await expect(main).toContainText("مکان 7، گلی 3، مسجد کے قریب");
  await expect(main).toContainText("لاہور، ضلع لاہور، پنجاب");
  await expect(main).toContainText(campaign.title);
  await expectAccessible(page);
  const saved = await goodsOf(db, donor.id);
  expect(saved).toHaveLength(1);
  expect(saved[0]).toMatchObject({ items: "5 کمبل اور 2 رضائیاں", phone: "03001234567", ngo: ngo.id, status: "pending" });
});

test("the goods form's JavaScript stays within budget, and a double submit makes one request", async ({ page, db, login, account }) => {
  const ngo = await account({ role: "ngo" });
  const campaign = await makeCampaign(db, ngo.id);
  const donor = await login({ role: "donor" });
  const path = `/donate5_1?campaign=${campaign.slug}`;
  const bytes = await javaScriptBytes(page, path);
  console.log(`${path}: ${bytes} bytes of gzipped JavaScript`);
  expect(bytes).toBeLessThanOrEqual(150 * 1024);

  // The same form sent twice at once (a double tap, a retried request) and once more: one request.
  const key = await page.locator('input[name="idempotencyKey"]').inputValue();
  const form = {
    campaign: campaign.slug,
    ngo: ngo.id,
    idempotencyKey: key,
    phone: "03001234567",
    items: "Two bags of rice",
    address: "Flat 4, Block B",
    area: "Karachi",
    areaLat: "",
    areaLng: "",
    windowDate: pakistanDay(1),
    windowSlot: "evening",
  };
  const post = () => page.request.post(path, { headers: { origin: baseUrl() }, form, maxRedirects: 0 });
  const answers = [...(await Promise.all([post(), post()])), await post()];
  const locations = answers.map((r) => {
    expect(r.status()).toBe(302);
    return r.headers().location;
  });
  expect(new Set(locations).size).toBe(1);
  const rows = await goodsOf(db, donor.id);
  expect(rows).toHaveLength(1);
  expect(locations[0]).toBe(`/donate6?donation=${rows[0]!.id}`);
  const { events } = await pickupOf(db, rows[0]!.id);
  expect(events.map((e) => e.type)).toEqual(["requested"]);

  // Double-clicking Submit in the browser makes one request too; the button says 'Submitting...' meanwhile.
  await page.goto(path);
  await fillForm(page, { items: "Winter jackets", address: "House 1", day: pakistanDay(3), slot: /Afternoon/ });
  await page.getByRole("combobox", { name: "Area or town" }).fill("Karachi");
  // Chosen from the list, as a person would: the open list would otherwise cover Submit once its suggestions arrive.
  await page.getByRole("option", { name: "Karachi, Sindh", exact: true }).click();
  await page.route("**/donate5_1*", async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  const submit = page.getByRole("button", { name: "Submit" });
  await submit.dblclick();
  await expect(page.getByRole("button", { name: "Submitting..." })).toBeDisabled();
  await expect(page).toHaveURL(/\/donate6\?donation=/);
  expect((await goodsOf(db, donor.id)).filter((r) => r.items === "Winter jackets")).toHaveLength(1);
});

test("bad input: hostile text stays text, an unknown area and a past day are refused", async ({ page, db, login, account }) => {
  const ngo = await account({ role: "ngo" });
  const campaign = await makeCampaign(db, ngo.id);
  const donor = await login({ role: "donor" });
  page.on("dialog", () => {
    throw new Error("a script ran");
  });
  await page.goto(`/donate5_1?campaign=${campaign.slug}`);
  await fillForm(page, { items: `Clothes ${HOSTILE}`, address: `Street ${HOSTILE}`, day: pakistanDay(-1), slot: /Evening/ });
  const area = page.getByRole("combobox", { name: "Area or town" });
  await area.fill("Qwxz Nowhereville");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(DATE_RANGE)).toBeVisible();
  await expect(page.getByLabel("Day", { exact: true })).toHaveAttribute("aria-invalid", "true");
  expect(await goodsOf(db, donor.id)).toHaveLength(0);

  await page.getByLabel("Day", { exact: true }).fill(pakistanDay(31));
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(DATE_RANGE)).toBeVisible();

  await page.getByLabel("Day", { exact: true }).fill(pakistanDay(0));
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText(AREA_INVALID)).toBeVisible();
  await expect(area).toHaveAttribute("aria-invalid", "true");
  expect(await goodsOf(db, donor.id)).toHaveLength(0);
  await expectAccessible(page);

  // Typed without choosing a suggestion: the server resolves it.
  await area.fill("Lahore");
  await area.press("Escape");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/donate6\?donation=/);
  await expect(page.getByRole("main")).toContainText(`Clothes ${HOSTILE}`);
  await expect(page.getByRole("main")).toContainText(`Street ${HOSTILE}, ${LAHORE}`);
  await page.goto("/dvh");
  await expect(page.getByRole("main")).toContainText(`Clothes ${HOSTILE}`);
  await expect(page.getByRole("main")).toContainText(`Street ${HOSTILE}`);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the goods form shows the server's messages and then sends the request", async ({ page, db, login, account }) => {
    const tag = unique();
    const owner = await account({ role: "ngo", name: `Owner ${tag}` });
    const partner = await account({ role: "ngo", name: `Partner ${tag}` });
    const campaign = await makeCampaign(db, owner.id, { partners: [partner.id], otherItems: "School books" });
    const donor = await login({ role: "donor" });
    await page.goto(`/donate5_1?campaign=${campaign.slug}`);
    await expect(page.getByText("School books")).toBeVisible();

    await page.getByLabel("Phone number").fill("");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page).toHaveURL(`/donate5_1?campaign=${campaign.slug}`);
    await expect(page.getByText("Choose the NGO that should receive your goods.")).toBeVisible();
    for (const label of ["Phone number", "Description of items", "House and street", "Area or town"]) {
      await expect(page.getByLabel(label, { exact: true }), label).toHaveAttribute("aria-invalid", "true");
    }
    expect(await page.getByText(FILL_ALL).count()).toBeGreaterThanOrEqual(6);

    await page.getByRole("radio", { name: `Partner ${tag}` }).check();
    await fillForm(page, {
      phone: "0300123456",
      items: "Ten school books",
      address: "House 9, Mall Road",
      day: pakistanDay(5),
      slot: /Afternoon/,
    });
    await page.getByLabel("Area or town").fill("Lahore");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText(PHONE_DIGITS)).toBeVisible();
    await expect(page.getByText(FILL_ALL)).toHaveCount(0);
    // What was typed is kept.
    await expect(page.getByLabel("Description of items")).toHaveValue("Ten school books");
    await expect(page.getByRole("radio", { name: `Partner ${tag}` })).toBeChecked();
    expect(await goodsOf(db, donor.id)).toHaveLength(0);

    await page.getByLabel("Phone number").fill("03009876543");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page).toHaveURL(/\/donate6\?donation=/);
    await expect(page.getByTestId("pickup-code")).toHaveText(/^\d{4}$/);
    const rows = await goodsOf(db, donor.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ ngo: partner.id, phone: "03009876543", items: "Ten school books" });
  });
});

test("the donor's history shows every step of a pick-up with its time, and a cancellation with the NGO's reason", async ({
  page,
  db,
  login,
  account,
}) => {
  const ngo = await account({ role: "ngo" });
  const firstName = `Bilal${unique()}`;
  const secondName = `Kamran${unique()}`;
  const first = await makeUser(db, "rider", { name: firstName });
  const second = await makeUser(db, "rider", { name: secondName });
  const donor = await login({ role: "donor" });
  const campaign = await makeCampaign(db, ngo.id);
  const { donation } = await makePickup(db, { id: campaign.id, ownerId: ngo.id }, donor.id, { items: "Three quilts", code: "4821" });
  const cancelled = await makePickup(db, { id: campaign.id, ownerId: ngo.id }, donor.id, { items: "Old shoes" });

  await page.goto("/dvh");
  const item = page.locator(`[data-donation="${donation.id}"]`);
  await expect(item).toContainText(PICKUPS.status.new!);
  await expect(item.getByTestId("pickup-code")).toHaveText("4821");
  await expect(item).toContainText(PICKUPS.slots.morning!);
  await expect(item).toContainText("House 12, Street 4, Lahore, Lahore District, Punjab");
  await expectAccessible(page);

  // The pick-up moves on, step by step, as the NGO and the riders act (written straight to the database).
  const t0 = Date.UTC(2030, 0, 10, 5, 0);
  const event = (type: (typeof pickupEvents.$inferInsert)["type"], minutes: number, riderId?: string, reason?: string) => ({
    donationId: donation.id,
    type,
    riderId: riderId ?? null,
    actorId: riderId ?? ngo.id,
    reason: reason ?? null,
    createdAt: new Date(t0 + minutes * 60_000),
  });
  const steps = [
    event("assigned", 1, first.id),
    event("declined", 2, first.id, "My bike broke down"),
    event("assigned", 3, second.id),
    event("accepted", 4, second.id),
  ];
  await db.insert(pickupEvents).values(steps);
  await db.update(pickups).set({ status: "accepted", riderId: second.id }).where(eq(pickups.donationId, donation.id));
  await page.reload();
  await expect(item).toContainText(PICKUPS.status.accepted!);
  await expect(item.getByTestId("pickup-code")).toHaveText("4821");
  // The steps are collapsed under a summary of the latest one; opened, every step shows.
  await expect(item.locator("details")).not.toHaveAttribute("open");
  await expect(item.locator("summary")).toContainText(step("accepted", `${secondName} Rider`));
  await item.locator("summary").click();
  const list = item.getByRole("list", { name: "Pick-up steps" }).getByRole("listitem");
  const first_ = `${firstName} Rider`;
  const second_ = `${secondName} Rider`;
  for (const [i, text] of [
    step("requested"),
    step("assigned", first_),
    step("declined", first_),
    step("assigned", second_),
    step("accepted", second_),
  ].entries()) {
    await expect(list.nth(i)).toContainText(text);
  }
  await expect(list).toHaveCount(5);
  for (const [i, s] of steps.entries()) {
    await expect(list.nth(i + 1).locator("time")).toHaveAttribute("datetime", s.createdAt.toISOString());
  }
  // The rider's reason for declining is for the NGO, not the donor.
  await expect(item).not.toContainText("My bike broke down");

  await db.insert(pickupEvents).values([event("collected", 30, second.id), event("delivered", 90, second.id), event("received", 120)]);
  await db.update(pickups).set({ status: "received" }).where(eq(pickups.donationId, donation.id));
  await db.update(donations).set({ status: "approved" }).where(eq(donations.id, donation.id));
  await page.reload();
  await expect(item).toContainText(PICKUPS.status.received!);
  await expect(item.locator("summary")).toContainText(step("received"));
  await item.locator("summary").click();
  await expect(list).toHaveCount(8);
  await expect(list.nth(5)).toContainText(step("collected"));
  await expect(list.nth(6)).toContainText(step("delivered"));
  await expect(list.nth(7)).toContainText(step("received"));
  await expect(list.nth(7).locator("time")).toHaveAttribute("datetime", new Date(t0 + 120 * 60_000).toISOString());
  // Collected: the code is no longer needed.
  await expect(item.getByTestId("pickup-code")).toHaveCount(0);

  await db
    .insert(pickupEvents)
    .values({ donationId: cancelled.donation.id, type: "cancelled", actorId: ngo.id, reason: "We cannot store shoes" });
  await db.update(pickups).set({ status: "cancelled" }).where(eq(pickups.donationId, cancelled.donation.id));
  await db
    .update(donations)
    .set({ status: "rejected", rejectionReason: "We cannot store shoes" })
    .where(eq(donations.id, cancelled.donation.id));
  await page.reload();
  const gone = page.locator(`[data-donation="${cancelled.donation.id}"]`);
  await expect(gone).toContainText(PICKUPS.status.cancelled!);
  await expect(gone).toContainText(step("cancelled"));
  await expect(gone).toContainText("We cannot store shoes");
  await expect(gone.getByTestId("pickup-code")).toHaveCount(0);
  await expectAccessible(page);
});

test("the NGO's history shows goods on their own tab with their items and pick-up state, and filters them by it", async ({
  page,
  db,
  login,
}) => {
  const ngo = await login({ role: "ngo" });
  const donor = await makeUser(db, "donor");
  const campaign = await makeCampaign(db, ngo.id);
  const waiting = await makePickup(db, { id: campaign.id, ownerId: ngo.id }, donor.id, { items: `Tins of ghee ${unique()}` });
  const row = page.locator(`[data-donation="${waiting.donation.id}"]`);
  // Not on the cash tab.
  await page.goto(`/donHistory?campaign=${campaign.id}`);
  await expect(page.getByRole("link", { name: "Goods (1)" })).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.goto(`/donHistory?kind=goods&campaign=${campaign.id}`);
  await expect(row).toContainText(waiting.donation.items!);
  await expect(row).toContainText(PICKUPS.status.new!);
  await expect(row).not.toContainText("Pending review");
  await page.goto(`/donHistory?kind=goods&campaign=${campaign.id}&status=new`);
  await expect(row).toBeVisible();
  await page.goto(`/donHistory?kind=goods&campaign=${campaign.id}&status=received`);
  await expect(row).toHaveCount(0);
  const csv = await (await page.request.get(`/donHistory/export?kind=goods&campaign=${campaign.id}`)).text();
  expect(csv).toContain(`"Goods","","${campaign.title}"`);
  expect(csv).toContain(`"${waiting.donation.items}"`);
  expect(csv).toContain(`"${PICKUPS.status.new}"`);
});
