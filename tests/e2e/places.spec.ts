import { eq } from "drizzle-orm";
import { campaigns } from "#server/db/schema.ts";
import { LANG_COOKIE } from "#shared/i18n/i18n.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

test("GET /api/places suggests places, big ones first, and answers odd input calmly", async ({ request }) => {
  const res = await request.get("/api/places?q=lah");
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toBe("public, max-age=3600");
  const { places } = (await res.json()) as { places: { label: string; lat: number; lng: number; kind: string }[] };
  expect(places[0]).toMatchObject({ label: "Lahore, Lahore District, Punjab", kind: "city" });
  expect(places.length).toBeLessThanOrEqual(8);

  // Urdu finds its place, with the Urdu name and label an Urdu reader is shown.
  const urdu = (await (await request.get("/api/places?q=%D9%84%D8%A7%DB%81%D9%88%D8%B1")).json()) as { places: Record<string, unknown>[] };
  expect(urdu.places[0]).toMatchObject({
    label: "Lahore, Lahore District, Punjab",
    nameUr: "لاہور",
    labelUr: "لاہور، ضلع لاہور، پنجاب",
  });

  for (const q of ["", "%20", "xyzzy", "x".repeat(3000), "%D8%AE%D8%B3%D8%AE%D8%B3"]) {
    const odd = await request.get(`/api/places?q=${q}`);
    expect(odd.status(), q.slice(0, 20)).toBe(200);
    expect(((await odd.json()) as { places: unknown[] }).places).toEqual([]);
  }
  // An escape that does not decode, or a control character, is no address of ours: refused before the route (decision 010).
  for (const q of ["%E0%A4", "%00", "lah%0A"]) {
    expect((await request.get(`/api/places?q=${q}`)).status(), q).toBe(400);
  }
});

test("the about page and the public footer credit GeoNames and OpenStreetMap", async ({ page }) => {
  await page.goto("/about");
  const sources = page.getByRole("region", { name: "Sources" });
  await expect(sources).toBeVisible();
  await expect(sources.getByRole("link", { name: "GeoNames" })).toHaveAttribute("href", "https://www.geonames.org/");
  await expect(sources.getByRole("link", { name: "CC BY 4.0" })).toHaveAttribute("href", "https://creativecommons.org/licenses/by/4.0/");
  await expect(sources.getByRole("link", { name: "OpenStreetMap contributors" })).toHaveAttribute(
    "href",
    "https://www.openstreetmap.org/copyright",
  );
  await expect(page.getByRole("contentinfo")).toContainText("Place data © GeoNames (CC BY 4.0)");
  await expectAccessible(page);

  await page.getByRole("button", { name: "اردو" }).click();
  await expect(page.getByRole("region", { name: "ماخذ" }).getByRole("link", { name: "GeoNames" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "English" }).click();
});

test.describe("the place field on /create_camp", () => {
  test("autocompletes with the keyboard, fills the point, and lets the point be moved on a map loaded on demand", async ({
    page,
    login,
  }) => {
    await login({ role: "ngo" });
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script") scripts.push(r.url());
    });
    await page.goto("/create_camp");
    const field = page.getByRole("combobox", { name: "Location" });
    const lat = page.locator('input[type="hidden"][name="locationLat"]');
    const lng = page.locator('input[type="hidden"][name="locationLng"]');
    await expect(field).toHaveAttribute("aria-expanded", "false");

    await field.pressSequentially("lah", { delay: 40 });
    const listbox = page.getByRole("listbox", { name: "Places matching your text" });
    await expect(listbox.getByRole("option").first()).toHaveText("Lahore, Lahore District, Punjab");
    await expect(field).toHaveAttribute("aria-expanded", "true");
    await expect(field).toHaveAttribute("aria-controls", (await listbox.getAttribute("id"))!);
    await expect(page.getByRole("status").filter({ hasText: "places found" })).toBeAttached();

    // Down, down, up: the first option again, announced through aria-activedescendant.
    await field.press("ArrowDown");
    await field.press("ArrowDown");
    await field.press("ArrowUp");
    const activeId = await field.getAttribute("aria-activedescendant");
    await expect(page.locator(`[id="${activeId}"]`)).toHaveText("Lahore, Lahore District, Punjab");
    await expect(page.locator(`[id="${activeId}"]`)).toHaveAttribute("aria-selected", "true");
    await expectAccessible(page);
    await field.press("Enter");

    await expect(field).toHaveValue("Lahore, Lahore District, Punjab");
    await expect(field).toHaveAttribute("aria-expanded", "false");
    await expect(lat).toHaveValue("31.558");
    await expect(lng).toHaveValue("74.3507");
    expect(page.url()).toContain("/create_camp"); // Enter chose; it did not submit the form.
    // Said in words, not as raw coordinates.
    await expect(page.getByText("Its place on the map is set.")).toBeVisible();
    await expect(page.getByText(/31\.55/)).toHaveCount(0);

    // Leaflet is not part of the page: it arrives only when the map is opened.
    expect(scripts.some((u) => /point-map|leaflet/i.test(u))).toBe(false);
    await page.getByRole("button", { name: "Adjust the point on a map" }).click();
    const marker = page.getByRole("button", { name: "Chosen point" });
    await expect(marker).toBeVisible();
    expect(scripts.some((u) => /point-map/i.test(u))).toBe(true);
    // The campaign map's tree-shaken Leaflet chunk, not the whole library; the point map adds its zoom buttons.
    expect(scripts.some((u) => /\/assets\/leaflet-[\w-]+\.js$/.test(u))).toBe(true);
    await expect(page.getByRole("button", { name: "Zoom in" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Map of the chosen point" })).toBeVisible();
    await expectAccessible(page);

    // The arrow keys move a focused marker east and north; the hidden point follows.
    await marker.focus();
    await marker.press("ArrowRight");
    await marker.press("ArrowUp");
    await expect.poll(async () => Number(await lng.inputValue())).toBeGreaterThan(74.3507);
    await expect.poll(async () => Number(await lat.inputValue())).toBeGreaterThan(31.558);
    // A drag moves it too.
    const box = (await marker.boundingBox())!;
    const before = Number(await lng.inputValue());
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => Number(await lng.inputValue())).toBeLessThan(before);

    // Typing again forgets the point (and closes the map) until a place is chosen.
    await field.press("End");
    await field.press("Backspace");
    await expect(lat).toHaveValue("");
    await expect(lng).toHaveValue("");
    await expect(page.getByRole("button", { name: "Adjust the point on a map" })).toHaveCount(0);
    await expect(page.locator(".leaflet-container")).toHaveCount(0);
  });

  test("chooses with the mouse, says when nothing matches, and closes on Escape", async ({ page, login }) => {
    await login({ role: "ngo" });
    await page.goto("/create_camp");
    const field = page.getByRole("combobox", { name: "Location" });
    await field.pressSequentially("xyzzy", { delay: 30 });
    await expect(page.getByRole("option", { name: "No matching place" })).toBeVisible();
    await field.press("Escape");
    await expect(field).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("listbox")).toBeHidden();

    await field.fill("");
    await field.pressSequentially("karach", { delay: 30 });
    await page.getByRole("option", { name: "Karachi, Sindh", exact: true }).click();
    await expect(field).toHaveValue("Karachi, Sindh");
    await expect(field).toBeFocused();
    await expect(page.locator('input[name="locationLat"]')).toHaveValue("24.8608");
    await expect(page.locator('input[name="locationLng"]')).toHaveValue("67.0104");
  });

  test("works on a 360 px phone in Urdu, right to left", async ({ page, login }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await login({ role: "ngo" });
    await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await page.goto("/create_camp");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    // The place field is a combobox once hydrated (the cause picker is one from the start).
    const field = page.getByRole("combobox", { name: "مقام" });
    await field.pressSequentially("multan", { delay: 30 });
    // An Urdu reader is shown the Urdu name where GeoNames has one.
    const option = page.getByRole("option", { name: "ملتان، ضلع ملتان، پنجاب", exact: true });
    await expect(option).toBeVisible();
    const box = (await option.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    await option.click();
    await expect(field).toHaveValue("ملتان، ضلع ملتان، پنجاب");
    await expect(page.getByRole("button", { name: "نقشے پر مقام درست کریں" })).toBeVisible();
    await expectAccessible(page);

    // The map Leaflet draws speaks Urdu too: its zoom buttons, and the title of its own credit (issue 16).
    await page.getByRole("button", { name: "نقشے پر مقام درست کریں" }).click();
    await expect(page.getByRole("button", { name: "چنا گیا مقام" })).toBeVisible();
    await expect(page.getByRole("button", { name: "زوم ان کریں" })).toHaveAttribute("title", "زوم ان کریں");
    await expect(page.getByRole("button", { name: "زوم آؤٹ کریں" })).toHaveAttribute("title", "زوم آؤٹ کریں");
    await expect(page.getByRole("link", { name: "Leaflet" })).toHaveAttribute("title", "انٹرایکٹو نقشوں کے لیے جاوا اسکرپٹ لائبریری");
    // Nothing the map names or labels is in English (Leaflet's defaults: "Zoom in", "Zoom out", "Marker", "Close popup").
    const labels = await page
      .locator(".leaflet-container")
      .evaluate((map) =>
        [...map.querySelectorAll("*")].flatMap((el) =>
          ["title", "aria-label", "alt", "placeholder"].map((name) => el.getAttribute(name) ?? "").filter((v) => v !== ""),
        ),
      );
    expect(labels.length).toBeGreaterThanOrEqual(4);
    expect(labels.filter((label) => /[A-Za-z]/.test(label))).toEqual([]);
    await expectAccessible(page);
  });

  test("takes a place typed in Urdu on an Urdu page: the Urdu suggestion, and the form posts with it", async ({ page, login }) => {
    await login({ role: "ngo" });
    await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await page.goto("/create_camp");
    const field = page.getByRole("combobox", { name: "مقام" });
    await field.pressSequentially("لاہو", { delay: 40 });
    const option = page.getByRole("option").first();
    await expect(option).toHaveText("لاہور، ضلع لاہور، پنجاب");
    await expect(option.locator(".font-semibold")).toHaveText("لاہور");
    await option.click();
    await expect(field).toHaveValue("لاہور، ضلع لاہور، پنجاب");
    await expect(page.locator('input[name="locationLat"]')).toHaveValue("31.558");

    const title = `Urdu place ${Date.now().toString(36)}`;
    await page.locator('[name="title"]').fill(title);
    await page.locator('[name="description"]').fill("سردیوں کے لیے گرم کپڑے۔");
    await page.locator('[name="targetAmount"]').fill("50000");
    await page.locator('[name="cause"]').selectOption("shelter");
    await page.getByRole("button", { name: "شائع کریں" }).click();
    await expect(page).toHaveURL(/\/campaigns/);
    // The Urdu-writing NGO reads its place back in Urdu.
    await expect(page.getByText("لاہور، ضلع لاہور، پنجاب").first()).toBeVisible();
  });

  test("a campaign whose place was typed in Urdu reads in English to an English reader and in Urdu to an Urdu one (issue 16)", async ({
    page,
    login,
    db,
  }) => {
    const ENGLISH = "Lahore, Lahore District, Punjab";
    const URDU = "لاہور، ضلع لاہور، پنجاب";
    const readIn = (lang: "en" | "ur") => page.context().addCookies([{ name: LANG_COOKIE, value: lang, domain: "127.0.0.1", path: "/" }]);
    await login({ role: "ngo" });
    await readIn("ur");
    await page.goto("/create_camp");
    await page.getByRole("combobox", { name: "مقام" }).pressSequentially("لاہو", { delay: 40 });
    await page.getByRole("option", { name: URDU, exact: true }).click();
    const title = `Urdu NGO place ${Date.now().toString(36)}`;
    await page.locator('[name="title"]').fill(title);
    await page.locator('[name="description"]').fill("سردیوں کے لیے گرم کپڑے۔");
    await page.locator('[name="targetAmount"]').fill("50000");
    await page.locator('[name="cause"]').selectOption("shelter");
    await page.getByRole("button", { name: "شائع کریں" }).click();
    await expect(page).toHaveURL(/\/campaigns/);
    const [saved] = await db.select().from(campaigns).where(eq(campaigns.title, title));
    expect(saved).toMatchObject({ locationLabel: ENGLISH, locationLabelUr: URDU });

    // A donor reading English, signed in: the goods picker's campaign panel; signed out: the landing page's card and
    // the public page. Then the same pages in Urdu.
    await page.context().clearCookies();
    await login({ role: "donor" });
    const shows = async (lang: "en" | "ur") => {
      const [place, other] = lang === "en" ? [ENGLISH, URDU] : [URDU, ENGLISH];
      await readIn(lang);
      await page.goto(`/donate5?campaign=${saved!.slug}`);
      await expect(page.getByRole("main")).toContainText(place);
      await expect(page.getByRole("main")).not.toContainText(other);
      await page.goto(`/?q=${encodeURIComponent(title)}`);
      const card = page.getByRole("listitem").filter({ hasText: title });
      await expect(card).toContainText(place);
      await expect(card).not.toContainText(other);
      // Each reader's page is made for them and kept by no shared cache.
      const res = await page.goto(`/campaign/${saved!.slug}`);
      expect(res!.headers()["cache-control"]).toBe("private, no-store");
      await expect(page.getByRole("main")).toContainText(place);
      await expect(page.getByRole("main")).not.toContainText(other);
    };
    await shows("en");
    await shows("ur");
  });

  test("resolves a neighbourhood typed with its town", async ({ page, login }) => {
    await login({ role: "ngo" });
    await page.goto("/create_camp");
    const field = page.getByRole("combobox", { name: "Location" });
    await field.pressSequentially("Gulberg, Lah", { delay: 30 });
    await expect(page.getByRole("option").first()).toHaveText("Gulberg, Lahore, Lahore District, Punjab");
  });
});

test.describe("the place field without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("is a plain text field that the server resolves on submit", async ({ page, login }) => {
    await login({ role: "ngo" });
    await page.goto("/create_camp");
    const field = page.getByLabel("Location");
    await expect(field).not.toHaveAttribute("role", "combobox");
    await expect(page.locator('input[name="locationLat"]')).toHaveValue("");
    await expect(page.getByRole("button", { name: "Adjust the point on a map" })).toHaveCount(0);

    const title = `Places no-JS ${Date.now().toString(36)}`;
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Description").fill("Warm clothes for winter.");
    await page.getByLabel("Target amount (Rs.)").fill("50000");
    await page.getByLabel("Cause").selectOption("shelter");
    await field.fill("Model Town, Lahore");
    await page.getByRole("button", { name: "Post" }).click();
    await expect(page).toHaveURL(/\/campaigns/);
    await expect(page.getByText("Model Town, Lahore District, Punjab").first()).toBeVisible();
  });
});
