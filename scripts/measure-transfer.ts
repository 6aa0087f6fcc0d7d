/**
 * Bytes a first visit transfers (headers and bodies as they came over the wire: CDP's encodedDataLength, summed
 * over every request of the page load with the cache off), for `/` and `/donate1`, in English and Urdu, through
 * Debian's Chromium against a running server with the demo data (decision 029 has the figures).
 *
 *   npx tsx scripts/measure-transfer.ts http://127.0.0.1:3320
 */
import { chromium } from "@playwright/test";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "#server/demo/seed.ts";

const base = (process.argv[2] ?? "http://127.0.0.1:3320").replace(/\/$/, "");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
});

async function firstVisit(path: string, lang: "en" | "ur", signIn: boolean) {
  const context = await browser.newContext({ baseURL: base });
  if (lang === "ur") await context.addCookies([{ name: "ekc_lang", value: "ur", url: base }]);
  if (signIn) {
    const res = await context.request.post("/donor_signin", {
      form: { email: DEMO_ACCOUNTS.donor, password: DEMO_PASSWORD },
      headers: { origin: base },
      maxRedirects: 0,
    });
    if (res.status() !== 303 && res.status() !== 302) throw new Error(`sign-in: ${res.status()}`);
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const urls = new Map<string, string>();
  let bytes = 0;
  let requests = 0;
  const byKind: Record<string, number> = {};
  cdp.on("Network.responseReceived", (e) => urls.set(e.requestId, e.response.url));
  cdp.on("Network.loadingFinished", (e) => {
    bytes += e.encodedDataLength;
    requests++;
    const url = urls.get(e.requestId) ?? "";
    const kind = /\.js(\?|$)/.test(url)
      ? "js"
      : /\.css(\?|$)/.test(url)
        ? "css"
        : /\.woff2?(\?|$)/.test(url)
          ? "font"
          : /\.(png|webp|jpe?g|svg)(\?|$)/.test(url)
            ? "image"
            : "document/data";
    byKind[kind] = (byKind[kind] ?? 0) + e.encodedDataLength;
  });
  const response = await page.goto(path, { waitUntil: "networkidle" });
  if (response?.status() !== 200) throw new Error(`${path}: ${response?.status()}`);
  await context.close();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const parts = Object.entries(byKind)
    .map(([k, v]) => `${k} ${kb(v)}`)
    .join(", ");
  console.log(`${path} (${lang}): ${kb(bytes)} in ${requests} requests — ${parts}`);
}

try {
  for (const lang of ["en", "ur"] as const) {
    await firstVisit("/", lang, false);
    await firstVisit("/donate1", lang, true);
  }
} finally {
  await browser.close();
}
