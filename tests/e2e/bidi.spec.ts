import sharp from "sharp";
import type { Locator, Page } from "@playwright/test";
import { LANG_COOKIE } from "#shared/i18n/i18n.ts";
import { expectNoNestedIsolates } from "#tests/helpers/bidi.ts";
import { givePaymentAccounts, makeApplication, makeCampaign, makeDonation, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

/** Mixed text (issue 16, item 4; decision 040): user text in the other script keeps its own direction and place. */

const tag = () => `b${Math.random().toString(36).slice(2, 8)}`;
/** The card's padding (p-4). */
const PADDING = 16;

async function inUrdu(page: Page) {
  await page.context().addCookies([{ name: LANG_COOKIE, value: "ur", domain: "127.0.0.1", path: "/" }]);
}

/** The box of the card's inner column (inside its padding) and of its title, and how the title lays out. */
async function cardGeometry(card: Locator) {
  const title = card.getByRole("heading", { level: 3 });
  const content = (await card.locator("img + div").boundingBox())!;
  const box = (await title.boundingBox())!;
  const style = await title.evaluate((el) => {
    // The lines the words are laid out on, hidden ones included: more than the two shown when the title was cut.
    const words = document.createRange();
    words.selectNodeContents(el);
    const lines = new Set([...words.getClientRects()].map((r) => Math.round(r.top))).size;
    return { direction: el.matches(":dir(rtl)") ? "rtl" : "ltr", clamp: getComputedStyle(el).webkitLineClamp, lines };
  });
  return { content, box, ...style };
}

test("an English title on an Urdu card keeps to the card's right edge and is cut at its own end", async ({ page, db }) => {
  const t = tag();
  const ngo = await makeUser(db, "ngo", { name: `Roshni ${t} Trust` });
  await givePaymentAccounts(db, ngo.id);
  await makeCampaign(db, ngo.id, { title: `Wells ${t}` });
  const long = `Clean drinking water for every family of Mithi and Tharparkar this winter ${t} ${"x".repeat(40)}`;
  await makeCampaign(db, ngo.id, { title: long });
  await makeCampaign(db, ngo.id, { title: `تھر کے لیے پانی ${t}` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await inUrdu(page);
  await page.goto(`/?q=${t}`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  const cards = page.getByRole("list", { name: "جاری مہمات" }).getByRole("listitem");
  await expect(cards).toHaveCount(3);

  // A short English title: left to right inside, but as wide as its words and on the card's right (the start in Urdu).
  const short = await cardGeometry(cards.filter({ hasText: `Wells ${t}` }));
  expect(short.direction).toBe("ltr");
  expect(Math.abs(short.box.x + short.box.width - (short.content.x + short.content.width - PADDING))).toBeLessThanOrEqual(1);
  expect(short.box.width).toBeLessThan(short.content.width - 2 * PADDING - 20);
  expect(short.lines).toBe(1);

  // A long one fills the card between its paddings and is cut after two lines (the ellipsis at its end), never wider.
  const cut = await cardGeometry(cards.filter({ hasText: `Clean drinking water` }));
  expect(cut.direction).toBe("ltr");
  expect(cut.clamp).toBe("2");
  expect(cut.lines).toBeGreaterThan(2);
  expect(Math.abs(cut.box.x + cut.box.width - (cut.content.x + cut.content.width - PADDING))).toBeLessThanOrEqual(1);
  expect(cut.box.x).toBeGreaterThanOrEqual(cut.content.x + PADDING - 1);
  // Its beginning shows: the first words sit on the first line, at the title's left.
  const firstWord = await cards
    .filter({ hasText: `Clean drinking water` })
    .getByRole("heading", { level: 3 })
    .evaluate((el) => {
      const range = document.createRange();
      const text = el.querySelector("a")!.firstChild!;
      range.setStart(text, 0);
      range.setEnd(text, 5);
      const word = range.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return { dx: word.left - box.left, dy: word.top - box.top };
    });
  expect(firstWord.dx).toBeLessThanOrEqual(1);
  expect(firstWord.dy).toBeLessThanOrEqual(4);

  // An Urdu title is right to left, on the right as well.
  const urdu = await cardGeometry(cards.filter({ hasText: "تھر کے لیے پانی" }));
  expect(urdu.direction).toBe("rtl");
  expect(Math.abs(urdu.box.x + urdu.box.width - (urdu.content.x + urdu.content.width - PADDING))).toBeLessThanOrEqual(1);

  // The NGO's English name inside an Urdu sentence is isolated, so it cannot reorder the sentence around it.
  const by = await cards.first().getByText(`Roshni ${t} Trust`).textContent();
  expect(by).toContain(`\u2068Roshni ${t} Trust\u2069`);
  await expectAccessible(page);
  await expectNoNestedIsolates(page);
});

test("an Urdu title on an English card keeps to the card's left edge", async ({ page, db }) => {
  const t = tag();
  const ngo = await makeUser(db, "ngo", { name: `روشنی ٹرسٹ ${t}` });
  await givePaymentAccounts(db, ngo.id);
  await makeCampaign(db, ngo.id, { title: `پانی ${t}` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/?q=${t}`);
  const card = page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem");
  await expect(card).toHaveCount(1);
  const g = await cardGeometry(card);
  expect(g.direction).toBe("rtl");
  expect(Math.abs(g.box.x - (g.content.x + PADDING))).toBeLessThanOrEqual(1);
  expect(g.box.width).toBeLessThan(g.content.width - 2 * PADDING - 20);
  expect(await card.getByText(/^By /).first().textContent()).toContain(`\u2068روشنی ٹرسٹ ${t}\u2069`);
  await expectNoNestedIsolates(page);
});

test("pages showing English user text are accessible in Urdu", async ({ page, db, login }) => {
  const t = tag();
  const ngo = await makeUser(db, "ngo", { name: `Roshni ${t} Trust` });
  await givePaymentAccounts(db, ngo.id);
  const campaign = await makeCampaign(db, ngo.id, { title: `Wells for Thar ${t}`, locationLabel: "Mithi, Tharparkar, Sindh" });
  await inUrdu(page);
  for (const path of [`/?q=${t}`, `/campaign/${campaign.slug}`, `/ngo/${ngo.id}`]) {
    await page.goto(path);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByText(`Wells for Thar ${t}`).first()).toBeVisible();
    await expectAccessible(page);
    await expectNoNestedIsolates(page);
  }
  await login({ role: "donor" });
  for (const path of [`/donate1?q=${t}`, `/donate5?q=${t}`]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 3, name: `Wells for Thar ${t}` })).toBeVisible();
    await expectAccessible(page);
    await expectNoNestedIsolates(page);
  }
});

test("no isolate sits inside another, on the pages that mix names, titles, dates and times of both scripts", async ({
  page,
  db,
  login,
}) => {
  const t = tag();
  const ngo = await makeUser(db, "ngo", { name: `Roshni ${t} Trust` });
  await givePaymentAccounts(db, ngo.id);
  const english = await makeCampaign(db, ngo.id, { title: `Wells for Thar ${t}`, locationLabel: "Mithi, Tharparkar, Sindh" });
  const urdu = await makeCampaign(db, ngo.id, { title: `تھر کے لیے پانی ${t}` });
  const donor = await login({ role: "donor", name: `Sana ${t}` });
  await makeDonation(db, english, donor.id, { amount: 2500 });
  await makeDonation(db, urdu, donor.id, { amount: 900 });
  // A sentence that carries a moment ("you applied on {{date}}"): in Urdu the date holds its time isolated, "3:05 PM".
  const position = await makePosition(db, ngo.id, { title: `Teach in Thar ${t}` });
  await makeApplication(db, position.id, donor.id);
  const pages = [
    "/",
    `/?q=${t}`,
    `/campaign/${english.slug}`,
    `/campaign/${urdu.slug}`,
    `/ngo/${ngo.id}`,
    "/dvh",
    "/donate1",
    `/vfg2?position=${position.id}`,
    "/settingsDonor",
  ];
  for (const lang of ["ur", "en"]) {
    await page.context().addCookies([{ name: LANG_COOKIE, value: lang, domain: "127.0.0.1", path: "/" }]);
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expectNoNestedIsolates(page);
    }
  }
  // The walk finds a nesting when there is one: an isolating element put inside another, and an isolate in its text.
  await page.evaluate(() => {
    const outer = document.createElement("span");
    outer.dir = "auto";
    outer.innerHTML = "<bdi>Roshni</bdi> \u2068Trust\u2069";
    document.body.append(outer);
  });
  await expect(expectNoNestedIsolates(page)).rejects.toThrow(/<bdi> «Roshni» inside <span dir=auto>[\s\S]*isolate controls in/);
});

async function png() {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

test("the file picker's button speaks Urdu, names the chosen file, and is the field for a screen reader", async ({ page, login }) => {
  await login({ role: "donor" });
  await inUrdu(page);
  await page.goto("/settingsDonor");
  const input = page.getByLabel("نئی تصویر");
  await expect(input).toHaveAttribute("type", "file");
  await expect(page.getByText("فائل منتخب کریں")).toBeVisible();
  // With JavaScript the browser's own input is not shown: our button and the file's name take its place.
  expect((await input.boundingBox())!.width).toBeLessThanOrEqual(1);
  await expect(page.getByTestId("chosen-file")).toHaveText("کوئی فائل منتخب نہیں کی گئی");
  await input.setInputFiles({ name: "my photo.png", mimeType: "image/png", buffer: await png() });
  await expect(page.getByTestId("chosen-file")).toHaveText("my photo.png");
  // Pressing the visible button opens the browser's file chooser for the same input.
  const chooser = page.waitForEvent("filechooser");
  await page.getByText("فائل منتخب کریں").click();
  expect(await (await chooser).element().getAttribute("name")).toBe(await input.getAttribute("name"));
  // The keyboard reaches the input itself, and the button shows the focus.
  await input.focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(input).toBeFocused();
  const ring = await page.getByText("فائل منتخب کریں").evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(ring).toBe("solid");
  await expectAccessible(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a form with a file shows the browser's own picker, which names the chosen file, and is saved", async ({ page, login }) => {
    await login({ role: "donor" });
    await inUrdu(page);
    await page.goto("/settingsDonor");
    // Our button could not say which file was chosen: the browser's input is shown in its place, and names it.
    await expect(page.getByText("فائل منتخب کریں")).toBeHidden();
    await expect(page.getByTestId("chosen-file")).toHaveCount(0);
    const input = page.getByLabel("نئی تصویر");
    expect((await input.boundingBox())!.width).toBeGreaterThan(100);
    const picture = page.getByRole("img", { name: "آپ کی موجودہ تصویر" });
    await expect(picture).toHaveAttribute("src", "/static/default-avatar.svg");
    await input.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await png() });
    await expect(input).toHaveValue(/me\.png$/);
    await page.getByRole("button", { name: "اپ لوڈ کریں" }).click();
    await expect(picture).toHaveAttribute("src", /^\/files\/avatar\/[0-9a-f-]+\.webp$/);
  });
});

test("Urdu writes a moment's time and a size in the order they are read", async ({ page, login }) => {
  await login({ role: "donor" });
  await inUrdu(page);
  await page.goto("/settingsDonor");
  // The size in the picture's hint is one left-to-right unit: "5 MB" on screen, not "MB 5".
  const hint = page.getByText(/5 MB/).first();
  const order = await hint.evaluate((el) => {
    const text = el.firstChild!;
    const at = (needle: string) => {
      const i = text.textContent!.indexOf(needle);
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + needle.length);
      return range.getBoundingClientRect().left;
    };
    return { five: at("5"), mb: at("MB") };
  });
  expect(order.five).toBeLessThan(order.mb);
});

test("a choice whose words a person wrote keeps its own direction inside a list of the other", async ({ page, db, login }) => {
  // Digits only: Latin letters in the Urdu title would make it mixed, and rightly isolated in Urdu too.
  const t = String(Math.floor(Math.random() * 1e9));
  const ngo = await login({ role: "ngo" });
  const donor = await makeUser(db, "donor");
  for (const title of [`Winter quilts ${t}!`, `سردیوں کی رضائیاں ${t}`]) {
    await makeDonation(db, await makeCampaign(db, ngo.id, { title }), donor.id);
  }
  // The history's campaign filter lists the titles as they were written.
  const texts = async () =>
    (await page.locator('select[name="campaign"] option').allTextContents()).filter((text) => text.includes(t)).sort();

  // In Urdu the English title is isolated (first strong isolate … pop), so its "!" stays at its own end; the Urdu one is as written.
  await inUrdu(page);
  await page.goto("/donHistory");
  expect(await texts()).toEqual([`\u2068Winter quilts ${t}!\u2069`, `سردیوں کی رضائیاں ${t}`].sort());

  // In English it is the other way round.
  await page.context().clearCookies({ name: LANG_COOKIE });
  await page.goto("/donHistory");
  expect(await texts()).toEqual([`Winter quilts ${t}!`, `\u2068سردیوں کی رضائیاں ${t}\u2069`].sort());
});
