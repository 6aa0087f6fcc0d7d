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
import { chromium, type Browser } from "@playwright/test";
import { LANG_COOKIE, type Lang } from "#shared/i18n/i18n.ts";

const base = (process.argv[2] ?? "http://127.0.0.1:3330").replace(/\/$/, "");

type Visit = { total: number; byType: Record<string, number>; fonts: { url: string; bytes: number }[] };

async function firstVisit(browser: Browser, path: string, lang: Lang): Promise<Visit> {
  const context = await browser.newContext();
  await context.addCookies([{ name: LANG_COOKIE, value: lang, url: base }]);
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

async function campaignPath(browser: Browser): Promise<string | null> {
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

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
});
try {
  const paths = process.argv.slice(3);
  if (paths.length === 0) {
    paths.push("/");
    const campaign = await campaignPath(browser);
    if (campaign) paths.push(campaign);
  }
  for (const path of paths) {
    const visits = { en: await firstVisit(browser, path, "en"), ur: await firstVisit(browser, path, "ur") };
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
