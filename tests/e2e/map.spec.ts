import type { Page } from "@playwright/test";
import { PAKISTAN_BOUNDS } from "#shared/places.ts";
import type { MapCampaign, MapData } from "#shared/map.ts";
import { makeCampaign } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

const suffix = () => Math.random().toString(36).slice(2, 8);

/** Holds /api/map answers until released, so the loading state can be seen. */
async function holdMapData(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/map?*", async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const mapRegion = (page: Page) => page.getByRole("region", { name: "Map of active campaigns" });
/** The map comes when asked for (its script is more than the rest of the page's): the press that brings it. */
const showMap = (page: Page, name = "Show the map") => page.getByRole("button", { name }).click();
const popup = (page: Page, title: string) => page.locator(".leaflet-popup").filter({ hasText: title });

test("an NGO sees its campaigns on the map and opens two info windows at once", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo", name: "Roshni Map Trust" });
  const id = suffix();
  // Two far-apart places, so they are separate markers at the first zoom (and away from other tests' Lahore).
  const turbat = await makeCampaign(db, ngo.id, {
    title: `Water for Turbat ${id}`,
    description:
      "Clean drinking water for families in Turbat, with tanks, filters and the training to keep them working through the long hot summer.",
    lat: 26.0,
    lng: 63.05,
    locationLabel: "Turbat, Kech District, Balochistan",
  });
  const dik = await makeCampaign(db, ngo.id, { title: `Schools in Dera Ismail Khan ${id}`, lat: 31.83, lng: 70.9 });

  const release = await holdMapData(page);
  const firstView = page.waitForRequest("**/api/map?*");
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });
  const response = await page.goto("/ngo_map", { waitUntil: "networkidle" });
  // Until it is asked for, the map is one button in its place: neither Leaflet nor the map's data is fetched.
  expect(scripts.filter((url) => /\/(leaflet|map-engine)-/.test(url))).toEqual([]);
  await expect(page.locator(".leaflet-container")).toHaveCount(0);
  await expectAccessible(page);
  await showMap(page);
  await expect.poll(() => scripts.filter((url) => /\/leaflet-/.test(url)).length, { message: "Leaflet came with the press" }).toBe(1);
  // A desktop screen starts at the specification's zoom, centred on Pakistan.
  expect(new URL((await firstView).url()).searchParams.get("zoom")).toBe("5.8");
  // The tile server may serve images to the page.
  expect(response!.headers()["content-security-policy"]).toContain("img-src 'self' data: blob: http://127.0.0.1:9;");
  await expect(page.getByRole("heading", { level: 1, name: "Campaign map" })).toBeVisible();
  // The sidebar shows the NGO's name and logo.
  const sidebar = page.locator("aside");
  await expect(sidebar).toContainText("Roshni Map Trust");
  await expect(sidebar.getByRole("img", { name: "Your picture" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Loading..." })).toBeVisible();
  release();
  await expect(page.getByText("Loading...")).toHaveCount(0);

  // The tile server is unreachable in tests; the markers show all the same, and no error.
  const markerA = page.getByRole("button", { name: turbat.title });
  const markerB = page.getByRole("button", { name: dik.title });
  await expect(markerA).toBeVisible();
  await expect(markerB).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Error loading map" })).toHaveCount(0);
  await expect.poll(() => page.locator(".leaflet-tile").count(), { message: "tiles were asked for" }).toBeGreaterThan(0);

  // The map fills the main area without scrolling on a desktop screen.
  const box = (await mapRegion(page).boundingBox())!;
  expect(box.height).toBeGreaterThan(400);
  expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);

  // Two info windows open at once.
  await markerA.click();
  await expect(popup(page, turbat.title)).toBeVisible();
  await expect(popup(page, turbat.title)).toContainText(
    "Clean drinking water for families in Turbat, with tanks, filters and the training to keep them working through the long…",
  );
  await markerB.click();
  await expect(popup(page, dik.title)).toBeVisible();
  await expect(popup(page, turbat.title)).toBeVisible();
  await expect(page.locator(".leaflet-popup")).toHaveCount(2);
  // Checked once Leaflet's fade-in is over: mid-fade, the text is half transparent and its contrast too low.
  await page.waitForFunction(() => [...document.querySelectorAll(".leaflet-popup")].every((p) => getComputedStyle(p).opacity === "1"));
  await expectAccessible(page);

  // Moving the map (here with the keyboard) reloads its data but keeps open windows open.
  const reloaded = page.waitForResponse((r) => r.url().includes("/api/map?"));
  await mapRegion(page).focus();
  await page.keyboard.press("ArrowLeft");
  await reloaded;
  await expect(page.locator(".leaflet-popup")).toHaveCount(2);

  // The close button closes one; the other stays.
  await popup(page, turbat.title).getByRole("button", { name: "Close this information window" }).click();
  await expect(popup(page, turbat.title)).toHaveCount(0);
  await expect(popup(page, dik.title)).toBeVisible();

  // A click on the marker closes its window again, and opens it once more.
  await markerB.click();
  await expect(popup(page, dik.title)).toHaveCount(0);
  await markerB.click();
  await expect(popup(page, dik.title)).toBeVisible();

  // Its link leads to the campaign's public page.
  await popup(page, dik.title).getByRole("link", { name: "View campaign" }).click();
  await expect(page).toHaveURL(new RegExp(`/campaign/${dik.slug}$`));
});

test("a cluster of close campaigns zooms in to them when clicked", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const id = suffix();
  // Five campaigns within a few hundred metres in Zhob: one cluster at the first zoom. (Five, not three: other specs
  // leave small clusters of their own in the shared database, e.g. three campaigns at the default place, Lahore.)
  const made = [];
  for (let i = 0; i < 5; i++) {
    made.push(await makeCampaign(db, ngo.id, { title: `Zhob relief ${i} ${id}`, lat: 31.341 + i * 0.002, lng: 69.449 + i * 0.002 }));
  }
  await page.goto("/ngo_map");
  await showMap(page);
  const cluster = page.getByRole("button", { name: /^5 campaigns here/ });
  await expect(cluster).toBeVisible();
  await expect(page.getByRole("button", { name: made[0]!.title })).toHaveCount(0);
  // Clicking zooms in to them, and up close each is its own marker.
  await cluster.click();
  for (const c of made) await expect(page.getByRole("button", { name: c.title })).toBeVisible();
  await expect(cluster).toHaveCount(0);
});

/** The box the map asked /api/map for, in degrees. */
function viewOf(url: string) {
  const q = new URL(url).searchParams;
  return { south: Number(q.get("south")), west: Number(q.get("west")), north: Number(q.get("north")), east: Number(q.get("east")) };
}

function containsPakistan(view: ReturnType<typeof viewOf>): boolean {
  return (
    view.south <= PAKISTAN_BOUNDS.south &&
    view.west <= PAKISTAN_BOUNDS.west &&
    view.north >= PAKISTAN_BOUNDS.north &&
    view.east >= PAKISTAN_BOUNDS.east
  );
}

const fakeCampaign = (title: string, lat: number, lng: number): MapCampaign => ({
  id: crypto.randomUUID(),
  slug: title.toLowerCase().replace(/\W+/g, "-"),
  title,
  preview: `Help for ${title}.`,
  lat,
  lng,
});

test("on a phone the map fills the screen under the header, shows all of Pakistan and leads back out of a cluster", async ({
  page,
  login,
}) => {
  await login({ role: "donor" });
  await page.setViewportSize({ width: 360, height: 740 });
  // The map's data is faked, so that only these markers are on it (the clustering itself is tested above, against
  // the real /api/map): a campaign in each corner city, and a cluster of three in Zhob until the map zooms in.
  const cities = [
    fakeCampaign("Karachi kitchens", 24.86, 67.01),
    fakeCampaign("Peshawar schools", 34.01, 71.58),
    fakeCampaign("Quetta clinics", 30.18, 66.98),
    fakeCampaign("Gilgit bridges", 35.92, 74.31),
  ];
  const zhob = [0, 1, 2].map((i) => fakeCampaign(`Zhob wells ${i}`, 31.341 + i * 0.002, 69.449 + i * 0.002));
  await page.route("**/api/map?*", async (route) => {
    const zoom = Number(new URL(route.request().url()).searchParams.get("zoom"));
    const body: MapData =
      zoom < 9
        ? {
            clusters: [
              {
                lat: 31.343,
                lng: 69.451,
                count: 3,
                bounds: [
                  [31.341, 69.449],
                  [31.345, 69.453],
                ],
              },
            ],
            campaigns: cities,
          }
        : { clusters: [], campaigns: zhob };
    await route.fulfill({ json: body });
  });
  const firstView = page.waitForRequest("**/api/map?*");
  await page.goto("/donor_map");
  await showMap(page);
  await expect(page.getByText("Loading...")).toHaveCount(0);

  // The map runs edge to edge from the header down to the bottom of the screen, the attribution line still in view.
  // Measured until the layout has settled (the header's font and the map's own sizing can land after its first paint).
  let frame = (await mapRegion(page).boundingBox())!;
  await expect(async () => {
    frame = (await mapRegion(page).boundingBox())!;
    const header = (await page.locator("header").boundingBox())!;
    expect(frame.x).toBe(0);
    expect(frame.width).toBe(360);
    expect(Math.abs(frame.y - (header.y + header.height))).toBeLessThanOrEqual(2);
    expect(frame.y + frame.height).toBeGreaterThan(740 - 48);
    const attribution = (await page.getByText("© OpenStreetMap", { exact: false }).first().boundingBox())!;
    expect(attribution.y + attribution.height).toBeLessThanOrEqual(740);
  }).toPass({ timeout: 10_000 });

  // The whole country is in view: the map asks for a box around all of Pakistan, and every corner city shows.
  expect(containsPakistan(viewOf((await firstView).url()))).toBe(true);
  const inside = async (title: string) => {
    const box = (await page.getByRole("button", { name: title, exact: true }).boundingBox())!;
    return (
      box.x >= frame.x && box.y >= frame.y && box.x + box.width <= frame.x + frame.width && box.y + box.height <= frame.y + frame.height
    );
  };
  for (const c of cities) expect(await inside(c.title), c.title).toBe(true);

  // The info window's close button is big enough for a finger.
  await page.getByRole("button", { name: "Karachi kitchens", exact: true }).click();
  const close = popup(page, "Karachi kitchens").getByRole("button", { name: "Close this information window" });
  const closeBox = (await close.boundingBox())!;
  expect(closeBox.width).toBeGreaterThanOrEqual(44);
  expect(closeBox.height).toBeGreaterThanOrEqual(44);
  await page.waitForFunction(() => [...document.querySelectorAll(".leaflet-popup")].every((p) => getComputedStyle(p).opacity === "1"));
  await expectAccessible(page);
  await close.click();
  await expect(popup(page, "Karachi kitchens")).toHaveCount(0);

  // Into the cluster, where its campaigns part and the rest of the country is out of view...
  const zoomedIn = page.waitForRequest((r) => r.url().includes("/api/map?") && Number(new URL(r.url()).searchParams.get("zoom")) >= 9);
  await page.getByRole("button", { name: /^3 campaigns here/ }).click();
  await zoomedIn;
  for (const c of zhob) await expect(page.getByRole("button", { name: c.title })).toBeVisible();
  await expect(page.getByRole("button", { name: "Karachi kitchens", exact: true })).toHaveCount(0);

  // ...and back out with the keyboard, to the whole country again.
  const back = page.getByRole("button", { name: "Show all of Pakistan" });
  const backBox = (await back.boundingBox())!;
  expect(backBox.height).toBeGreaterThanOrEqual(44);
  const wholeAgain = page.waitForRequest((r) => r.url().includes("/api/map?") && containsPakistan(viewOf(r.url())));
  await back.focus();
  await expect(back).toBeFocused();
  await page.keyboard.press("Enter");
  await wholeAgain;
  await expect(page.getByRole("button", { name: /^3 campaigns here/ })).toBeVisible();
  for (const c of cities) await expect(page.getByRole("button", { name: c.title, exact: true })).toBeVisible();
  for (const c of cities) expect(await inside(c.title), c.title).toBe(true);
  await expectAccessible(page);
});

test("the map says so when its data cannot be loaded", async ({ page, login }) => {
  await login({ role: "ngo" });
  await page.route("**/api/map?*", (route) => route.fulfill({ status: 500, body: "no" }));
  await page.goto("/ngo_map");
  await showMap(page);
  await expect(page.getByRole("alert").filter({ hasText: "Error loading map" })).toBeVisible();
  await expect(page.getByText("Loading...")).toHaveCount(0);
  await expectAccessible(page);
});

test("until the page's script has run, the Show the map button is disabled rather than taking a tap that does nothing", async ({
  page,
  login,
}) => {
  await login({ role: "donor" });
  // The page as a slow phone has it before its script arrives: the server's HTML alone, scripts enabled.
  await page.route("**/*.js", (route) => route.abort());
  await page.goto("/donor_map");
  await expect(page.getByRole("button", { name: "Show the map" })).toBeDisabled();
  await page.unroute("**/*.js");
  await page.goto("/donor_map");
  await expect(page.getByRole("button", { name: "Show the map" })).toBeEnabled();
});

test("the donor map shows the donor's first name and picture, and the campaigns, on a phone too", async ({ page, login, db, account }) => {
  const ngo = await account({ role: "ngo" });
  const campaign = await makeCampaign(db, ngo.id, { title: `Blankets for Chitral ${suffix()}`, lat: 35.85, lng: 71.79 });
  await login({ role: "donor", name: "Ayesha" });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/donor_map");
  await showMap(page);
  await expect(page.locator("aside")).toContainText("Ayesha");
  await expect(page.locator("aside").getByRole("img", { name: "Your picture" })).toBeVisible();
  await expect(page.getByText("Loading...")).toHaveCount(0);
  const box = (await mapRegion(page).boundingBox())!;
  expect(box.width).toBeGreaterThan(300);
  expect(box.height).toBeGreaterThan(280);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Pan to the north, where Chitral lies on a narrow screen, with the keyboard.
  await mapRegion(page).focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("button", { name: campaign.title })).toBeVisible();
  await expectAccessible(page);
});

test("the map reads right to left in Urdu", async ({ page, login, context, db, account }) => {
  await login({ role: "donor" });
  const ngo = await account({ role: "ngo" });
  // Far from the other tests' places, so it is a marker of its own at the first zoom.
  const campaign = await makeCampaign(db, ngo.id, { title: `Wells for Gwadar ${suffix()}`, lat: 25.13, lng: 62.32 });
  await context.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto("/donor_map");
  await showMap(page, "نقشہ دکھائیں");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1, name: "مہمات کا نقشہ" })).toBeVisible();
  await expect(page.getByRole("region", { name: "جاری مہمات کا نقشہ" })).toBeVisible();
  await expect(page.getByText("لوڈ ہو رہا ہے...")).toHaveCount(0);
  await expectAccessible(page);

  // An info window in Urdu: its close button is named in Urdu, the English title keeps its own direction.
  await page.getByRole("button", { name: campaign.title }).click();
  const info = popup(page, campaign.title);
  await expect(info).toBeVisible();
  await expect(info.getByRole("button", { name: "یہ معلوماتی خانہ بند کریں" })).toBeVisible();
  expect(await info.getByText(campaign.title).evaluate((el) => (el.matches(":dir(ltr)") ? "ltr" : "rtl"))).toBe("ltr");
  // Nothing Leaflet names or labels is in English; only the campaigns' markers carry their titles, as written.
  const labels = await page
    .locator(".leaflet-container")
    .evaluate((map) =>
      [...map.querySelectorAll("*:not(.ekc-map-campaign)")].flatMap((el) =>
        ["title", "aria-label", "alt", "placeholder"].map((name) => el.getAttribute(name) ?? "").filter((v) => v !== ""),
      ),
    );
  expect(labels).toContain("یہ معلوماتی خانہ بند کریں");
  expect(labels.filter((label) => /[A-Za-z]/.test(label))).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the map page lists every active campaign, page by page, with links", async ({ page, login, db, account }) => {
    const ngo = await account({ role: "ngo" });
    const id = suffix();
    const made = [];
    for (let i = 0; i < 11; i++) {
      // Titles that sort first: other specs leave hundreds of active campaigns in the shared e2e database.
      made.push(await makeCampaign(db, ngo.id, { title: `000 Nojs campaign ${id} ${String(i).padStart(2, "0")}` }));
    }
    await login({ role: "ngo" });
    await page.goto("/ngo_map");
    await expect(page.getByRole("heading", { level: 2, name: "Active campaigns" })).toBeVisible();
    // (Playwright's text locators skip <noscript>, which a browser without JavaScript does show.)
    const note = page.getByRole("main").locator("noscript p");
    expect(await note.evaluate((el) => (el.checkVisibility() ? el.textContent : null))).toBe(
      "The map needs JavaScript. Every active campaign is listed here instead.",
    );
    // The map area (which would only say "Loading...") is hidden.
    await expect(page.getByText("Loading...")).toBeHidden();

    // Every one of them is reachable through the pages, linked to its public page.
    const seen = new Map<string, string | null>();
    for (let i = 0; i < 50; i++) {
      for (const link of await page.getByRole("main").locator("li a").all()) {
        seen.set((await link.textContent()) ?? "", await link.getAttribute("href"));
      }
      const next = page.getByRole("navigation", { name: "Pages of active campaigns" }).getByRole("link", { name: "Next" });
      if ((await next.count()) === 0) break;
      await next.click();
    }
    for (const c of made) expect(seen.get(c.title)).toBe(`/campaign/${c.slug}`);
  });
});
