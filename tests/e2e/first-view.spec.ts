import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { saveImage } from "#server/domain/files/files.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { givePaymentAccounts, makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { e2ePort } from "./env.ts";
import { expect, test } from "./fixtures.ts";

/** A photo-like JPEG wider than the stored original's 1600 pixels, as a phone camera sends it. */
async function photo(): Promise<File> {
  const noise = Buffer.from(Array.from({ length: 300 * 158 * 3 }, (_, i) => (i * 37) % 251));
  const jpeg = await sharp(noise, { raw: { width: 300, height: 158, channels: 3 } })
    .resize(2400, 1260)
    .jpeg({ quality: 80 })
    .toBuffer();
  return new File([new Uint8Array(jpeg)], "photo.jpg", { type: "image/jpeg" });
}

/** What the browser shows in an <img>: the address it chose from srcset, and the pixel width of what came from there. */
async function shown(page: Page, selector: string) {
  const img = page.locator(selector).first();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  const { src, srcset } = await img.evaluate((el: HTMLImageElement) => ({ src: el.currentSrc, srcset: el.srcset }));
  const { width } = await sharp(await (await page.request.get(src)).body()).metadata();
  return { src, srcset, width };
}

/** The page's cumulative layout shift so far (shifts not caused by input), as Lighthouse counts it. */
function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: "layout-shift", buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
}

test.describe("a campaign's picture on a 360-pixel phone at twice its density", () => {
  test.use({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });

  test("the first card on / and the public campaign page fetch a narrower copy, kept a year, never the original", async ({ page, db }) => {
    const storage = createLocalStorage(`/tmp/ekc-e2e-${e2ePort()}/files`);
    const ngo = await makeUser(db, "ngo");
    await givePaymentAccounts(db, ngo.id);
    const key = await saveImage({ db, storage }, { file: await photo(), kind: "campaign", ownerId: ngo.id, field: "picture" });
    const title = `Wells ${Math.random().toString(36).slice(2, 8)}`;
    const campaign = await makeCampaign(db, ngo.id, { title, pictureKey: key });
    const pictures: { url: string; cacheControl: string | undefined }[] = [];
    page.on("response", (r) => {
      if (r.url().includes("/files/campaign/"))
        pictures.push({ url: new URL(r.url()).pathname, cacheControl: r.headers()["cache-control"] });
    });

    await page.goto(`/?q=${encodeURIComponent(title)}`);
    const card = await shown(page, `ul li:has-text("${title}") img`);
    // About 330 CSS pixels wide, 660 device pixels: the 960 copy, not the 1600-pixel original.
    expect(new URL(card.src).pathname).toBe(`/files/${key.replace(".webp", ".w960.webp")}`);
    expect(card.width).toBe(960);
    // The pictures keep their box while they load: the page does not shift.
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.05);

    await page.goto(`/campaign/${campaign.slug}`);
    const main = await shown(page, "article img");
    expect(main.srcset).toContain(`/files/${key.replace(".webp", ".w480.webp")} 480w`);
    expect(main.width).toBeLessThan(1600);
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.05);

    expect(pictures.map((p) => p.url)).not.toContain(`/files/${key}`);
    for (const p of pictures) expect(p.cacheControl).toBe("public, max-age=31536000, immutable");
  });
});

/**
 * The stylesheets and synchronous scripts in the <head> the server sends, what holds up the page's first paint, and
 * the scripts it has the browser fetch beside them (modulepreload links: they shared a slow line with the
 * stylesheet, decision 036).
 */
async function renderBlocking(page: Page, path: string) {
  const html = await (await page.request.get(path)).text();
  const head = html.slice(0, html.indexOf("</head>"));
  return {
    stylesheets: [...head.matchAll(/<link[^>]*rel="stylesheet"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])![1]!),
    scripts: [...head.matchAll(/<script[^>]*>/g)].filter((m) => / src=/.test(m[0]) && !/ (async|defer)|type="module"/.test(m[0])).length,
    modulePreloads: [...head.matchAll(/<link[^>]*rel="modulepreload"[^>]*>/g)].length,
  };
}

/** The one stylesheet every page holds its first paint for, compressed as it is sent. */
const STYLESHEET_BUDGET_BYTES = 12 * 1024;

test("a page's first paint waits for one small stylesheet only; the map's stylesheets come with the map", async ({ page, login }) => {
  const landing = await renderBlocking(page, "/");
  expect(landing.stylesheets).toHaveLength(1);
  expect(landing.scripts).toBe(0);
  expect(landing.modulePreloads).toBe(0);
  const css = await (await page.request.get(landing.stylesheets[0]!)).body();
  expect(gzipSync(css).length).toBeLessThanOrEqual(STYLESHEET_BUDGET_BYTES);

  await login({ role: "donor" });
  for (const path of ["/donate1", "/donor_map", "/vfg1"]) expect(await renderBlocking(page, path), path).toEqual(landing);
  // The page's scripts still come, all of them asked for once the stylesheet has arrived.
  await page.goto("/");
  const stylesheet = await page.evaluate(
    (href) => (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find((e) => e.name.endsWith(href))!.responseEnd,
    landing.stylesheets[0]!,
  );
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => e.name.endsWith(".js"))
      .map((e) => ({ name: e.name, startTime: e.startTime })),
  );
  expect(scripts.length).toBeGreaterThan(0);
  for (const s of scripts) expect(s.startTime, s.name).toBeGreaterThanOrEqual(stylesheet);
  // The map's own stylesheets arrive with its script, when the map is asked for: Leaflet lays out its panes.
  await page.goto("/donor_map");
  await page.getByRole("button", { name: "Show the map" }).click();
  await expect(page.locator(".leaflet-container")).toHaveCSS("overflow", "hidden");
});

/**
 * Records, from before the page's first script, every use of the browser's locale data the page makes (each of Intl's
 * constructors, and the toLocale… and localeCompare methods, which make a format or a collator each call: the first
 * loads ICU's data, tens of milliseconds of a phone's main thread, decision 036) and every modulepreload link put into
 * the document.
 */
function watchHydration() {
  const w = window as unknown as { formatsMade: string[]; preloadsAdded: number };
  w.formatsMade = [];
  w.preloadsAdded = 0;
  const constructors = [
    "NumberFormat",
    "DateTimeFormat",
    "PluralRules",
    "Collator",
    "RelativeTimeFormat",
    "ListFormat",
    "DisplayNames",
    "Segmenter",
  ] as const;
  for (const name of constructors.filter((n) => n in Intl)) {
    const original = Intl[name];
    const count = () => w.formatsMade.push(`Intl.${name}`);
    (Intl as unknown as Record<string, unknown>)[name] = new Proxy(original, {
      construct: (target, args) => (count(), Reflect.construct(target, args)),
      apply: (target, self, args) => (count(), Reflect.apply(target, self, args)),
    }) as never;
  }
  const locale: [object, string][] = [
    [Number.prototype, "toLocaleString"],
    [BigInt.prototype, "toLocaleString"],
    [Date.prototype, "toLocaleString"],
    [Date.prototype, "toLocaleDateString"],
    [Date.prototype, "toLocaleTimeString"],
    [String.prototype, "localeCompare"],
    [Array.prototype, "toLocaleString"],
  ];
  for (const [proto, name] of locale) {
    const original = (proto as Record<string, (...args: unknown[]) => string>)[name]!;
    Object.defineProperty(proto, name, {
      value: function (this: unknown, ...args: unknown[]) {
        w.formatsMade.push(name);
        return original.apply(this, args);
      },
    });
  }
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) if (n instanceof HTMLLinkElement && n.rel === "modulepreload") w.preloadsAdded += 1;
  }).observe(document, { childList: true, subtree: true });
}

/** Waits until React has hydrated the page (the page's last link carries its props) and its requests are over. */
async function hydrated(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => Object.keys([...document.querySelectorAll("a[href]")].at(-1) ?? {}).some((k) => k.startsWith("__reactProps"))),
    )
    .toBe(true);
  await page.waitForLoadState("networkidle");
}

test("/ and a campaign's public page hydrate without using the browser's locale data or adding modulepreload links; their amounts are in the HTML", async ({
  page,
  db,
  browser,
}) => {
  // A joint campaign with a named gift: its page shows the progress, each NGO's share, the donor count and the ledger.
  const ngo = await makeUser(db, "ngo");
  const partner = await makeUser(db, "ngo");
  await givePaymentAccounts(db, ngo.id);
  const title = `Wells ${Math.random().toString(36).slice(2, 8)}`;
  const campaign = await makeCampaign(db, ngo.id, { title, partners: [partner.id], collectedAmount: 20_000 });
  const donor = await makeUser(db, "donor", { name: "Farah Named" });
  await makeDonation(db, campaign, donor.id, {
    amount: 20_000,
    fund: "sadaqah",
    showName: true,
    status: "approved",
    decidedAt: new Date(),
  });
  const landing = `/?q=${encodeURIComponent(title)}`;
  const publicPage = `/campaign/${campaign.slug}`;

  // The browser's first format costs a phone tens of milliseconds on the main thread while the page hydrates (decision
  // 036, 2026-11-27): the loaders write the amounts.
  await page.addInitScript(watchHydration);
  for (const path of [landing, publicPage]) {
    await page.goto(path);
    await hydrated(page);
    const seen = await page.evaluate(() => {
      const w = window as unknown as { formatsMade: string[]; preloadsAdded: number };
      return { formats: w.formatsMade, preloads: w.preloadsAdded };
    });
    expect(seen, path).toEqual({ formats: [], preloads: 0 });
  }
  await expect(page.getByTestId("fund-balances")).toContainText("Rs. 20,000");

  // What the browser no longer writes is in the page as the server sends it.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(landing);
  await expect(plain.getByRole("progressbar")).toHaveAccessibleName("Rs. 20,000 raised of Rs. 100,000");
  await plain.goto(publicPage);
  await expect(plain.getByRole("progressbar")).toHaveAccessibleName("Rs. 20,000 raised of Rs. 100,000");
  await expect(plain.getByTestId("donor-count")).toContainText("1");
  await expect(plain.getByTestId("ledger-gifts")).toContainText("Rs. 20,000");
  await expect(plain.getByTestId("fund-balances").getByTestId("balance")).toHaveText("Rs. 20,000");
  // Each NGO of a joint campaign with what it collected and its share.
  await expect(plain.getByRole("main")).toContainText(/Rs\. [\d,]+ collected \(\d+%\)/);
  await noScript.close();
});

test("the donors' pickers and the NGO's campaign list hydrate without using the browser's locale data; their progress is in the HTML", async ({
  page,
  login,
  db,
  browser,
}) => {
  const ngo = await login({ role: "ngo" });
  await givePaymentAccounts(db, ngo.id);
  const title = `Pumps ${Math.random().toString(36).slice(2, 8)}`;
  await makeCampaign(db, ngo.id, { title, collectedAmount: 20_000 });
  const search = `?q=${encodeURIComponent(title)}`;
  // "Rs. 20,000 of Rs. 100,000" on the NGO's list, "… raised of …" on the donors'.
  const progress = /^Rs\. 20,000 (raised )?of Rs\. 100,000$/;
  await page.addInitScript(watchHydration);
  const formatsWhileHydrating = async (path: string) => {
    await page.goto(path);
    await hydrated(page);
    await expect(page.getByRole("progressbar")).toHaveAccessibleName(progress);
    return page.evaluate(() => (window as unknown as { formatsMade: string[] }).formatsMade);
  };
  expect(await formatsWhileHydrating(`/campaigns${search}`)).toEqual([]);
  const cookies = await page.context().cookies();
  await login({ role: "donor" });
  for (const path of [`/donate1${search}`, `/donate5${search}`]) expect(await formatsWhileHydrating(path), path).toEqual([]);
  // The picker as the bench opens it: every open campaign's card, its badges, the pager.
  await page.goto("/donate1");
  await hydrated(page);
  expect(await page.evaluate(() => (window as unknown as { formatsMade: string[] }).formatsMade), "/donate1").toEqual([]);

  // Without JavaScript the same words are there: the loader wrote them.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  await noScript.addCookies(cookies);
  const plain = await noScript.newPage();
  await plain.goto(`/campaigns${search}`);
  await expect(plain.getByRole("progressbar")).toHaveAccessibleName(progress);
  await noScript.close();
});
