import { LANG_COOKIE } from "#shared/i18n/i18n.ts";
import { eq } from "drizzle-orm";
import { users } from "#server/db/schema.ts";
import { givePaymentAccounts, makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

test("the landing page shows the product, partner logos and the four entries", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("One roof for giving in Pakistan");
  for (const name of ["Admin", "NGO", "Donor", "Rider"]) {
    await expect(
      page.getByRole("navigation", { name: "Choose how you use Ek Chhat" }).getByRole("link", { name, exact: true }),
    ).toBeVisible();
  }
  await expectAccessible(page);
  await page.getByRole("link", { name: "NGO", exact: true }).click();
  await expect(page).toHaveURL(/\/ngo$/);
  await expect(page.getByRole("link", { name: "Log In" })).toHaveAttribute("href", "/ngo_signin");
  await expect(page.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/ngo_signup");
  await expectAccessible(page);
});

test("the Urdu switch renders right to left and is remembered", async ({ page }) => {
  await page.goto("/donor");
  await page.getByRole("button", { name: "اردو" }).click();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.locator("html")).toHaveAttribute("lang", "ur");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("پاکستان میں عطیے کے لیے ایک چھت");
  await expectAccessible(page);
  await page.getByRole("button", { name: "English" }).click();
  await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
});

test.describe("giving first: anyone browses active campaigns", () => {
  const tag = () => `t${Math.random().toString(36).slice(2, 8)}`;

  test("on a phone, a signed-out visitor searches by NGO and city, narrows by cause and Zakat, and opens a campaign", async ({
    page,
    db,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const t = tag();
    const roshni = await makeUser(db, "ngo", { name: `Roshni ${t} Trust` });
    await givePaymentAccounts(db, roshni.id);
    const wells = await makeCampaign(db, roshni.id, { title: `Wells ${t}`, locationLabel: "Mithi, Tharparkar, Sindh", cause: "water" });
    const meals = await makeCampaign(db, roshni.id, {
      title: `Meals ${t}`,
      locationLabel: "Lahore, Punjab",
      cause: "food",
      acceptedFunds: ["zakat", "general"],
    });
    const unpaid = await makeUser(db, "ngo", { name: `Saaya ${t} Welfare` });
    const coats = await makeCampaign(db, unpaid.id, { title: `Coats ${t}`, locationLabel: "Quetta, Balochistan", cause: "shelter" });
    const suspended = await makeUser(db, "ngo", { name: `Gone ${t} Trust` });
    await makeCampaign(db, suspended.id, { title: `Hidden ${t}` });
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, suspended.id));

    await page.goto("/");
    // Giving comes first; the four ways in stay, below it.
    const search = page.getByRole("search");
    const entries = page.getByRole("navigation", { name: "Choose how you use Ek Chhat" });
    expect((await search.boundingBox())!.y).toBeLessThan((await entries.boundingBox())!.y);
    await expect(entries.getByRole("link", { name: "Donor", exact: true })).toBeVisible();

    const cards = page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem");
    const titles = () => cards.getByRole("heading", { level: 3 }).allTextContents();
    await page.getByLabel("Search by title, NGO or city").fill(t);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(cards).toHaveCount(3);
    expect((await titles()).sort()).toEqual([coats.title, meals.title, wells.title].sort());
    await expect(page.getByText(`Hidden ${t}`)).toHaveCount(0);
    // The first card's picture is the largest content of the first view: fetched at once, with high priority.
    await expect(cards.first().locator("img")).toHaveAttribute("fetchpriority", "high");
    await expect(cards.first().locator("img")).toHaveAttribute("loading", "eager");
    await expect(cards.nth(1).locator("img")).toHaveAttribute("loading", "lazy");
    // No sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await expectAccessible(page);

    await page.getByLabel("Search by title, NGO or city").fill(`saaya ${t}`);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(cards).toHaveCount(1);
    // A campaign nobody can pay yet is shown, with no Donate button.
    await expect(cards.first()).toContainText("Goods or time only");
    await expect(cards.first().getByRole("link", { name: /^Donate/ })).toHaveCount(0);

    await page.getByLabel("Search by title, NGO or city").fill(`${t}`);
    await page.getByLabel("Cause").selectOption({ label: "Clean water" });
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?q=${t}&cause=water$`));
    await expect(cards.getByRole("heading", { level: 3 })).toHaveText([wells.title]);
    await expect(cards.first()).toContainText("Mithi, Tharparkar, Sindh");

    await page.getByLabel("Cause").selectOption({ label: "All causes" });
    await page.getByLabel("Only campaigns that accept Zakat").check();
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`\\?q=${t}&cause=&zakat=1$`));
    await expect(cards.getByRole("heading", { level: 3 })).toHaveText([meals.title]);
    await expect(cards.first().getByRole("link", { name: `Donate to “${meals.title}”` })).toHaveAttribute(
      "href",
      `/donate1?campaign=${meals.slug}`,
    );

    await page.getByLabel("Search by title, NGO or city").fill("lahore");
    await page.getByLabel("Only campaigns that accept Zakat").uncheck();
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\?q=lahore&cause=$/);
    await expect(cards.filter({ hasText: meals.title })).toHaveCount(1);
    await expect(cards.filter({ hasText: wells.title })).toHaveCount(0);

    await page.getByRole("link", { name: `See the campaign “${meals.title}”` }).click();
    await expect(page).toHaveURL(`/campaign/${meals.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: meals.title })).toBeVisible();

    await page.goto(`/?q=nothing-${t}`);
    await expect(page.getByRole("status")).toHaveText("No active campaign matches your search.");
    await page.getByRole("link", { name: "Show all campaigns" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the search form and its filters work as a plain GET form, in Urdu too", async ({ page, db, context }) => {
      const t = tag();
      const ngo = await makeUser(db, "ngo", { name: `Paani ${t} Trust` });
      const c = await makeCampaign(db, ngo.id, { title: `Water ${t}`, cause: "water" });
      await makeCampaign(db, ngo.id, { title: `Books ${t}`, cause: "education" });
      await context.addCookies([{ name: LANG_COOKIE, value: "ur", domain: "127.0.0.1", path: "/" }]);
      await page.goto("/");
      await page.getByLabel("عنوان، این جی او یا شہر سے تلاش کریں").fill(t);
      await page.getByLabel("مقصد").selectOption({ label: "صاف پانی" });
      await page.getByRole("button", { name: "تلاش کریں" }).click();
      const cards = page.getByRole("list", { name: "جاری مہمات" }).getByRole("listitem");
      await expect(cards).toHaveCount(1);
      await expect(cards.first()).toContainText(c.title);
      await expect(cards.first()).toContainText("صاف پانی");
    });

    test("a search's campaigns page by cursor in plain links: Next, Previous, First page; an old ?page=N link opens the first page", async ({
      page,
      db,
    }) => {
      const t = tag();
      const ngo = await makeUser(db, "ngo", { name: `Pages ${t} Trust` });
      const start = Date.now() - 3_600_000;
      // 14 campaigns, newest first: pages of 6, 6 and 2.
      for (let i = 0; i < 14; i += 1) await makeCampaign(db, ngo.id, { title: `Paged ${t} ${i}`, createdAt: new Date(start + i * 60_000) });
      const cards = page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem");
      const pages = page.getByRole("navigation", { name: "Pages of campaigns" });
      const firstTitle = () => cards.first().getByRole("heading");
      await page.goto(`/?q=${t}`);
      await expect(firstTitle()).toHaveText(`Paged ${t} 13`);
      await expect(pages.getByRole("link")).toHaveCount(1);
      await pages.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(/after=[0-9a-f-]{36}#give-heading$/);
      await expect(firstTitle()).toHaveText(`Paged ${t} 7`);
      await pages.getByRole("link", { name: "Next" }).click();
      await expect(cards).toHaveCount(2);
      await expect(pages.getByRole("link", { name: "Next" })).toHaveCount(0);
      // Back by "Previous": the six before the first card shown, then the first page's own address.
      await pages.getByRole("link", { name: "Previous" }).click();
      await expect(page).toHaveURL(/before=[0-9a-f-]{36}#give-heading$/);
      await expect(cards).toHaveCount(6);
      await expect(firstTitle()).toHaveText(`Paged ${t} 7`);
      await pages.getByRole("link", { name: "Previous" }).click();
      await expect(page).toHaveURL(new RegExp(`/\\?q=${t}#give-heading$`));
      await expect(firstTitle()).toHaveText(`Paged ${t} 13`);
      await expect(pages.getByRole("link", { name: "Previous" })).toHaveCount(0);
      await pages.getByRole("link", { name: "Next" }).click();
      await pages.getByRole("link", { name: "First page" }).click();
      await expect(firstTitle()).toHaveText(`Paged ${t} 13`);
      // A numbered link from before, and forged cursors: the first page, never an error.
      await page.goto(`/?q=${t}&page=3`);
      await expect(page).toHaveURL(new RegExp(`/\\?q=${t}$`));
      await expect(firstTitle()).toHaveText(`Paged ${t} 13`);
      for (const forged of ["after=1%27%20or%20%271%27%3D%271", "before=00000000-0000-4000-8000-000000000000"]) {
        expect((await page.goto(`/?q=${t}&${forged}`))?.status(), forged).toBe(200);
        await expect(firstTitle()).toHaveText(`Paged ${t} 13`);
      }
    });
  });
});

test("a city typed in Urdu, or by a short name, finds the campaigns there, whatever labels they were saved with (issue 16)", async ({
  page,
  db,
  context,
}) => {
  const t = `t${Math.random().toString(36).slice(2, 8)}`;
  const ngo = await makeUser(db, "ngo", { name: `Roshni ${t} Trust` });
  // Places saved with their English label only (before Urdu labels were kept, or a geocoder service's), one a
  // neighbourhood of its city: no Urdu text in them for the search to find.
  const quetta = await makeCampaign(db, ngo.id, { title: `Quilts ${t}`, locationLabel: "Quetta, Quetta District, Balochistan" });
  const clifton = await makeCampaign(db, ngo.id, { title: `Meals ${t}`, locationLabel: "Clifton, Karachi, Sindh" });
  await context.addCookies([{ name: LANG_COOKIE, value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.goto("/");
  const cards = page.getByRole("list", { name: "جاری مہمات" }).getByRole("listitem");
  const search = async (q: string) => {
    await page.getByLabel("عنوان، این جی او یا شہر سے تلاش کریں").fill(q);
    await page.getByRole("button", { name: "تلاش کریں" }).click();
    await expect(page).toHaveURL(`/?q=${encodeURIComponent(q)}&cause=`);
  };
  await search("کوئٹہ");
  await expect(cards.filter({ hasText: quetta.title })).toHaveCount(1);
  await expect(cards.filter({ hasText: clifton.title })).toHaveCount(0);
  await search("کراچی");
  await expect(cards.filter({ hasText: clifton.title })).toHaveCount(1);
  await expect(cards.filter({ hasText: quetta.title })).toHaveCount(0);
  // In English, the place search's short name for Karachi.
  await context.clearCookies({ name: LANG_COOKIE });
  await page.goto("/?q=khi");
  await expect(page.getByRole("list", { name: "Active campaigns" }).getByRole("listitem").filter({ hasText: clifton.title })).toHaveCount(
    1,
  );
});
