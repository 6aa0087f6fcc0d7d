/**
 * What a first visit costs over the network, in English and in Urdu: for each page, a fresh browser profile (empty
 * cache) loads it until the network is idle, and Chromium's own count of bytes received (CDP `encodedDataLength`,
 * headers included) is summed per resource type. Fonts are listed on their own: WOFF2 is already compressed, so HTTP
 * compression does not change those bytes. Decision 030 has the figures.
 *
 *   npm run build && SEED_DEMO=true PORT=3330 DATA_DIR=/tmp/ekc-measure npm start &
 *   npx tsx scripts/measure-first-visit.ts http://127.0.0.1:3330 [path ...]
 *
 * Without paths it measures `/` and the first public campaign page linked from it.
 */
import nodePath from "node:path";
import { fileURLToPath } from "node:url";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "#tests/e2e/env.ts";
import { chromium, type Browser, type BrowserContextOptions } from "@playwright/test";
import { LANG_COOKIE, type Lang } from "#shared/i18n/i18n.ts";

export type Visit = { total: number; byType: Record<string, number>; fonts: { url: string; bytes: number }[] };

/**
 * One first visit of `base + path` in `lang`, with `cookies` (a session) besides the language's, in a desktop window
 * or in `device`'s (a phone's width picks smaller pictures from a srcset).
 */
export async function firstVisit(
  browser: Browser,
  base: string,
  path: string,
  lang: Lang,
  opts: { cookies?: Record<string, string>; device?: BrowserContextOptions } = {},
): Promise<Visit> {
  const context = await browser.newContext(opts.device);
  const jar = { ...opts.cookies, [LANG_COOKIE]: lang };
  await context.addCookies(Object.entries(jar).map(([name, value]) => ({ name, value, url: base })));
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const requests = new Map<string, { url: string; type: string }>();
  const visit: Visit = { total: 0, byType: {}, fonts: [] };
  cdp.on("Network.requestWillBeSent", (e) => requests.set(e.requestId, { url: e.request.url, type: e.type ?? "Other" }));
  cdp.on("Network.loadingFinished", (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    visit.total += e.encodedDataLength;
    visit.byType[r.type] = (visit.byType[r.type] ?? 0) + e.encodedDataLength;
    if (r.type === "Font") visit.fonts.push({ url: new URL(r.url).pathname, bytes: e.encodedDataLength });
  });
  await page.goto(base + path, { waitUntil: "networkidle" });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForLoadState("networkidle");
  await context.close();
  return visit;
}

async function campaignPath(browser: Browser, base: string): Promise<string | null> {
  const page = await browser.newPage();
  await page.goto(base + "/");
  const href = await page
    .locator('a[href^="/campaign/"]')
    .first()
    .getAttribute("href", { timeout: 5000 })
    .catch(() => null);
  await page.close();
  return href;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

/** Chromium for measuring: Debian's (or CHROMIUM_PATH), headless, nothing of its own on the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", ...CHROMIUM_FLAGS],
  });
}

async function main() {
  const base = (process.argv[2] ?? "http://127.0.0.1:3330").replace(/\/$/, "");
  const browser = await launchChromium();
  try {
    const paths = process.argv.slice(3);
    if (paths.length === 0) {
      paths.push("/");
      const campaign = await campaignPath(browser, base);
      if (campaign) paths.push(campaign);
    }
    for (const path of paths) {
      const visits = { en: await firstVisit(browser, base, path, "en"), ur: await firstVisit(browser, base, path, "ur") };
      for (const [lang, v] of Object.entries(visits)) {
        const fontBytes = v.byType.Font ?? 0;
        const types = Object.entries(v.byType)
          .sort((a, b) => b[1] - a[1])
          .map(([t, n]) => `${t} ${kb(n)}`)
          .join(", ");
        console.log(`${path} [${lang}]: ${kb(v.total)} in all (${v.total} B); fonts ${kb(fontBytes)}; ${types}`);
        for (const f of v.fonts) console.log(`    ${f.url}  ${f.bytes} B`);
      }
      console.log(`${path}: Urdu − English = ${kb(visits.ur.total - visits.en.total)}`);
    }
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && nodePath.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
