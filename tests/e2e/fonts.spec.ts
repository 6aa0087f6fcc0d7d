import type { BrowserContext, Page } from "@playwright/test";
import { LANG_COOKIE, type Lang } from "#shared/i18n/i18n.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { expect, test } from "./fixtures.ts";

const NASTALIQ = /\/assets\/noto-nastaliq-urdu-400-[\w-]+\.woff2$/;
const SANS_REGULAR = /\/assets\/noto-sans-400-[\w-]+\.woff2$/;

/** Loads a page with an empty cache in one language; returns each font fetched with the bytes it cost (CDP's count). */
async function fontsOfFirstVisit(context: BrowserContext, page: Page, path: string, lang: Lang) {
  await context.addCookies([{ name: LANG_COOKIE, value: lang, domain: "127.0.0.1", path: "/" }]);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const fontRequests = new Map<string, string>();
  const fonts: { url: string; bytes: number }[] = [];
  cdp.on("Network.requestWillBeSent", (e) => {
    if (e.type === "Font") fontRequests.set(e.requestId, new URL(e.request.url).pathname);
  });
  cdp.on("Network.loadingFinished", (e) => {
    const url = fontRequests.get(e.requestId);
    if (url) fonts.push({ url, bytes: e.encodedDataLength });
  });
  const response = await page.goto(path, { waitUntil: "networkidle" });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForLoadState("networkidle");
  await cdp.detach();
  return { fonts, link: (await response!.allHeaders()).link ?? "" };
}

/** The font the page's Link header preloads (one, with the attributes that make it the @font-face's own request). */
function preloaded(link: string): string {
  const preloads = link.split(/,\s*(?=<)/).filter((l) => /rel=preload/.test(l) && /as=font/.test(l));
  expect(preloads, link).toHaveLength(1);
  expect(preloads[0]).toMatch(/; type="font\/woff2"; crossorigin$/);
  return preloads[0].match(/^<([^>]+)>/)![1];
}

const total = (fonts: { bytes: number }[]) => fonts.reduce((sum, f) => sum + f.bytes, 0);

test("an English page never fetches the Urdu font, and preloads only Noto Sans", async ({ page, context, db }) => {
  const ngo = await makeUser(db, "ngo");
  const campaign = await makeCampaign(db, ngo.id);
  for (const path of ["/", `/campaign/${campaign.slug}`, "/donor_signup"]) {
    const { fonts, link } = await fontsOfFirstVisit(context, page, path, "en");
    expect(
      fonts.map((f) => f.url).filter((u) => NASTALIQ.test(u)),
      path,
    ).toEqual([]);
    expect(
      fonts.some((f) => SANS_REGULAR.test(f.url)),
      path,
    ).toBe(true);
    // The language switch writes "اردو" in Arabic script even here: drawn by the phone's own font in English.
    if (path === "/") await expect(page.getByRole("button", { name: "اردو" })).toBeVisible();
    expect(preloaded(link), path).toMatch(SANS_REGULAR);
    // One weight's file is at most a few tens of KB: the subset (decision 030) did not grow back.
    expect(total(fonts), `${path}: ${JSON.stringify(fonts)}`).toBeLessThanOrEqual(32 * 1024);
  }
});

test("an Urdu page fetches and preloads the Nastaliq font, within 125 KB more font than English", async ({ page, context }) => {
  const english = (await fontsOfFirstVisit(context, page, "/", "en")).fonts;
  const { fonts, link } = await fontsOfFirstVisit(context, page, "/", "ur");
  expect(preloaded(link)).toMatch(NASTALIQ);
  // Preloaded and used by the @font-face: one download each, not two.
  expect(
    fonts.filter((f) => NASTALIQ.test(f.url)),
    JSON.stringify(fonts),
  ).toHaveLength(1);
  expect(
    fonts.filter((f) => SANS_REGULAR.test(f.url)),
    JSON.stringify(fonts),
  ).toHaveLength(1);
  expect(total(fonts) - total(english), JSON.stringify({ english, urdu: fonts })).toBeLessThanOrEqual(125 * 1024);
});

test("Urdu renders in Nastaliq, joined, without missing glyphs", async ({ page, context }) => {
  await context.addCookies([{ name: LANG_COOKIE, value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto("/", { waitUntil: "networkidle" });
  const result = await page.evaluate(async () => {
    await document.fonts.ready;
    const phrase = "کراچی، لاہور اور پشاور میں ٹھنڈ؟ ڈھیروں گھر۔ ۱۲۳۴";
    const width = (text: string, family: string, weight = "400") => {
      const span = document.createElement("span");
      span.style.cssText = `font-family: ${family}; font-size: 32px; font-weight: ${weight}; white-space: nowrap; position: absolute;`;
      span.textContent = text;
      document.body.append(span);
      const w = span.getBoundingClientRect().width;
      span.remove();
      return w;
    };
    const faces = [...document.fonts].filter((f) => f.family.replace(/"/g, "") === "Noto Nastaliq Urdu");
    return {
      check: document.fonts.check('16px "Noto Nastaliq Urdu"', phrase),
      statuses: faces.map((f) => f.status),
      bodyFont: getComputedStyle(document.body).fontFamily,
      nastaliq: width(phrase, '"Noto Nastaliq Urdu"'),
      system: width(phrase, "serif"),
      // Joined letters are narrower than the same letters kept apart by zero-width non-joiners: the subset kept
      // the joining forms (init, medi, fina) as well as the letters.
      joined: width("پشاور", '"Noto Nastaliq Urdu"'),
      apart: width([..."پشاور"].join("\u200c"), '"Noto Nastaliq Urdu"'),
    };
  });
  expect(result.bodyFont).toMatch(/^"Noto Nastaliq Urdu"/);
  expect(result.statuses).toEqual(["loaded"]);
  expect(result.check).toBe(true);
  expect(Math.abs(result.nastaliq - result.system), JSON.stringify(result)).toBeGreaterThan(5);
  expect(result.joined, JSON.stringify(result)).toBeLessThan(result.apart);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
