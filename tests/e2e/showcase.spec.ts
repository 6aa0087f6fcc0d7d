import { eq } from "drizzle-orm";
import { campaigns, users } from "#server/db/schema.ts";
import { givePaymentAccounts, makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";
import type { Db } from "#server/db/client.ts";

/** A moment on a Pakistani calendar day (UTC+5). */
const at = (isoLocal: string) => new Date(`${isoLocal}+05:00`);

/**
 * A joint campaign of `ownerId` with one partner: Rs. 4,000 approved to the owner over two days, Rs. 6,000 to
 * the partner, two approved in-kind gifts and a pending cash gift that must not count.
 */
async function seedJointCampaign(db: Db, ownerId: string, opts: { title: string; partnerName: string }) {
  const partner = await makeUser(db, "ngo", { name: opts.partnerName });
  const donors = [await makeUser(db, "donor"), await makeUser(db, "donor"), await makeUser(db, "donor")];
  const campaign = await makeCampaign(db, ownerId, {
    title: opts.title,
    partners: [partner.id],
    acceptedFunds: ["zakat", "general"],
    otherItems: "Blankets and warm clothes",
    description: "Hot meals for families in Lahore this winter.",
  });
  await makeDonation(db, campaign, donors[0]!.id, {
    status: "approved",
    amount: 1500,
    method: "jazzcash",
    createdAt: at("2025-03-01T10:00:00"),
  });
  await makeDonation(db, campaign, donors[1]!.id, {
    status: "approved",
    amount: 2500,
    method: "bank",
    createdAt: at("2025-03-03T10:00:00"),
  });
  await makeDonation(db, campaign, donors[2]!.id, {
    status: "approved",
    amount: 6000,
    method: "easypaisa",
    recipientNgoId: partner.id,
    createdAt: at("2025-03-02T10:00:00"),
  });
  await makeDonation(db, campaign, donors[0]!.id, { status: "approved", kind: "in_kind", items: "Rice, Blankets" });
  await makeDonation(db, campaign, donors[1]!.id, { status: "approved", kind: "in_kind", items: "rice" });
  await makeDonation(db, campaign, donors[2]!.id, { status: "pending", amount: 50_000, method: "bank" });
  // The donation flow keeps this total; seeding writes it directly.
  await db.update(campaigns).set({ collectedAmount: 10_000 }).where(eq(campaigns.id, campaign.id));
  return { campaign, partner };
}

const unique = () => Math.random().toString(36).slice(2, 8);

test.describe("public campaign page", () => {
  test("a signed-out visitor opens a shared link and sees the campaign, its progress and partners", async ({ page, db, account }) => {
    const ownerName = `Roshni Trust ${unique()}`;
    const owner = await account({ role: "ngo", name: ownerName });
    const { campaign } = await seedJointCampaign(db, owner.id, {
      title: `Winter meals ${unique()}`,
      partnerName: `Saaya Welfare ${unique()}`,
    });
    await givePaymentAccounts(db, owner.id);

    // Arrive from a link on another page, as from a chat message.
    await page.setContent(`<a href="${baseUrl()}/campaign/${campaign.slug}">Help us</a>`);
    await page.getByRole("link", { name: "Help us" }).click();
    await expect(page).toHaveURL(`${baseUrl()}/campaign/${campaign.slug}`);

    await expect(page.getByRole("heading", { level: 1, name: campaign.title })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Rs. 10,000 raised of Rs. 100,000");
    await expect(page.getByText("Accepts Zakat")).toBeVisible();
    await expect(page.getByText("Hot meals for families in Lahore this winter.")).toBeVisible();
    await expect(page.getByText("Blankets and warm clothes")).toBeVisible();
    await expect(page.getByText(campaign.locationLabel)).toBeVisible();
    const partners = page.getByRole("region", { name: "Run jointly by" }).getByRole("listitem");
    await expect(partners).toHaveCount(2);
    await expect(partners.nth(0)).toContainText(ownerName);
    await expect(partners.nth(0)).toContainText("Organiser · Rs. 4,000 collected (40%)");
    await expect(partners.nth(1)).toContainText("Partner · Rs. 6,000 collected (60%)");
    // Nothing about donors on a public page; Donate leads into the donor's flow for this campaign.
    await expect(page.getByRole("link", { name: "Donate", exact: true })).toHaveAttribute("href", `/donate1?campaign=${campaign.slug}`);
    await expect(page.getByRole("region", { name: "Other ways to help" })).toHaveCount(0);
    const share = page.getByRole("link", { name: /Share on WhatsApp/ });
    expect(decodeURIComponent((await share.getAttribute("href"))!)).toBe(
      `https://wa.me/?text=${campaign.title}\n${baseUrl()}/campaign/${campaign.slug}`,
    );
    await expectAccessible(page);
  });

  test("on a phone, a campaign nobody can pay offers goods and time instead, and a suspended NGO's campaign is paused", async ({
    page,
    db,
    account,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const owner = await account({ role: "ngo" });
    const campaign = await makeCampaign(db, owner.id, { title: `Warm coats ${unique()}` });
    await page.goto(`/campaign/${campaign.slug}`);
    const other = page.getByRole("region", { name: "Other ways to help" });
    await expect(other).toContainText(`“${campaign.title}” is not taking money at the moment. You can still help:`);
    await expect(page.getByRole("link", { name: "Donate", exact: true })).toHaveCount(0);
    await expect(other.getByRole("link", { name: "Donate goods" })).toHaveAttribute("href", `/donate5?campaign=${campaign.slug}`);
    await expect(other.getByRole("link", { name: "Volunteer" })).toHaveAttribute("href", "/vfg1");
    await expectAccessible(page);

    // Once the NGO adds an account, Donate is back.
    await givePaymentAccounts(db, owner.id);
    await page.reload();
    await expect(page.getByRole("link", { name: "Donate", exact: true })).toBeVisible();
    await expect(other).toHaveCount(0);

    // Suspended: paused, without a promise of "yet", and nothing to give to.
    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, owner.id));
    await page.reload();
    await expect(page.getByRole("status")).toHaveText("This campaign is paused and is not taking donations at the moment.");
    await expect(page.getByRole("link", { name: "Donate", exact: true })).toHaveCount(0);
    await expect(other).toHaveCount(0);
    await expectAccessible(page);
  });

  test("a link preview gets title, progress and an absolute picture URL without running any script", async ({ request, db, account }) => {
    const owner = await account({ role: "ngo" });
    const { campaign } = await seedJointCampaign(db, owner.id, {
      title: `Clean water ${unique()}`,
      partnerName: `Paani Trust ${unique()}`,
    });
    const response = await request.get(`/campaign/${campaign.slug}`, { headers: { "user-agent": "WhatsApp/2.24.1 A" } });
    expect(response.status()).toBe(200);
    const html = await response.text();
    const meta = (attr: "property" | "name", key: string) => {
      const match = html.match(new RegExp(`<meta ${attr}="${key.replace(/[:]/g, "\\$&")}" content="([^"]*)"`));
      return match?.[1]?.replace(/&amp;/g, "&").replace(/&#x27;/g, "'");
    };
    expect(html).toContain(`<title>${campaign.title} · Ek Chhat</title>`);
    expect(meta("property", "og:title")).toBe(campaign.title);
    expect(meta("property", "og:description")).toBe(`Rs. 10,000 raised of Rs. 100,000 · ${campaign.locationLabel}`);
    expect(meta("property", "og:url")).toBe(`${baseUrl()}/campaign/${campaign.slug}`);
    expect(meta("property", "og:type")).toBe("website");
    expect(meta("property", "og:site_name")).toBe("Ek Chhat");
    const image = meta("property", "og:image")!;
    expect(image).toBe(`${baseUrl()}/static/default-campaign.png`);
    expect(meta("name", "twitter:card")).toBe("summary_large_image");
    expect(meta("name", "twitter:image")).toBe(image);
    expect(meta("name", "twitter:title")).toBe(campaign.title);
    const picture = await request.get(image);
    expect(picture.status()).toBe(200);
    expect(picture.headers()["content-type"]).toBe("image/png");
  });

  test("a completed campaign says it reached its goal; an archived or unknown one is not found", async ({ page, db, account }) => {
    const owner = await account({ role: "ngo" });
    const done = await makeCampaign(db, owner.id, { status: "completed", completedAt: new Date(), collectedAmount: 100_000 });
    await page.goto(`/campaign/${done.slug}`);
    await expect(page.getByRole("status")).toHaveText(/This campaign reached its goal/);
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");

    const gone = await makeCampaign(db, owner.id, { status: "archived", archivedAt: new Date() });
    expect((await page.goto(`/campaign/${gone.slug}`))!.status()).toBe(404);
    await expect(page.getByRole("alert")).toHaveText("We could not find that page.");
    expect((await page.goto(`/campaign/no-such-campaign-${unique()}`))!.status()).toBe(404);
  });

  test("the page reads right to left in Urdu and stays accessible", async ({ page, db, account, context }) => {
    const owner = await account({ role: "ngo" });
    const { campaign } = await seedJointCampaign(db, owner.id, { title: `Urdu page ${unique()}`, partnerName: `Partner ${unique()}` });
    await context.addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
    await page.goto(`/campaign/${campaign.slug}`);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { name: "مشترکہ منتظمین" })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("public campaign page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("renders in full on the server", async ({ page, db, account }) => {
    const owner = await account({ role: "ngo" });
    const { campaign } = await seedJointCampaign(db, owner.id, { title: `No script ${unique()}`, partnerName: `Partner ${unique()}` });
    await page.goto(`/campaign/${campaign.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: campaign.title })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Rs. 10,000 raised of Rs. 100,000");
  });
});

test.describe("Show Analytics", () => {
  test("an NGO sees its campaign's figures and chart, in total and per partner", async ({ page, db, login }) => {
    const owner = await login({ role: "ngo", name: `Analytics Trust ${unique()}` });
    const partnerName = `Helping Hands ${unique()}`;
    const { campaign } = await seedJointCampaign(db, owner.id, { title: `Chart campaign ${unique()}`, partnerName });

    await page.goto(`/campaigns/${campaign.id}/analytics?from=campaigns`);
    await expect(page.getByRole("heading", { level: 2, name: campaign.title })).toBeVisible();
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Rs. 10,000 of Rs. 100,000");
    const figures = page.getByRole("region", { name: "Figures for the whole campaign" });
    await expect(figures.getByRole("definition").first()).toHaveText("Rs. 10,000");
    await expect(figures).toContainText("Donors3");
    await expect(figures).toContainText("Cash donations3");
    await expect(figures).toContainText("1 waiting for review");
    await expect(figures).toContainText("In-kind donations2");

    const chart = page.getByRole("img", { name: "Money collected over time: the whole campaign" });
    await expect(chart).toBeVisible();
    await expect(chart.locator("path")).toHaveCount(2);
    await page.getByText("Show the numbers").click();
    const rows = page.getByRole("table", { name: "Money collected over time: the whole campaign" }).getByRole("row");
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(1)).toContainText("1 Mar 2025");
    await expect(rows.nth(3)).toContainText("Rs. 10,000");

    await expect(page.getByRole("table", { name: "Payment methods" })).toContainText("1 donation · Rs. 6,000");
    await expect(page.getByRole("table", { name: "Each partner's share" })).toContainText("Rs. 6,000 · 60%");
    await expect(page.getByRole("region", { name: "Top items given" }).getByRole("listitem").first()).toHaveText(/rice\s*\(2 donations\)/i);
    await expectAccessible(page);

    // One partner's view.
    await page.getByRole("navigation", { name: "Show analytics for" }).getByRole("link", { name: partnerName }).click();
    await expect(page).toHaveURL(/partner=.*from=campaigns/);
    const partnerFigures = page.getByRole("region", { name: `Figures for ${partnerName}` });
    await expect(partnerFigures.getByRole("definition").first()).toHaveText("Rs. 6,000");
    await expect(partnerFigures).toContainText("60% of the campaign's total");
    await expect(page.getByRole("link", { name: partnerName })).toHaveAttribute("aria-current", "page");
    await expectAccessible(page);

    await page.getByRole("link", { name: "Back to On Going campaigns" }).click();
    await expect(page).toHaveURL(/\/campaigns$/);
  });

  test("on a phone the charts' labels stay readable: none overlap, none leave their chart, none below 11px", async ({
    page,
    db,
    login,
  }) => {
    const owner = await login({ role: "ngo" });
    const partnerName = `Anjuman-e-Behbood-e-Khawateen Welfare Society of Southern Punjab ${unique()}`;
    const title = `Winter meals, blankets and warm clothes for families of daily-wage labourers in Lahore ${unique()}`;
    const { campaign } = await seedJointCampaign(db, owner.id, { title, partnerName });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/campaigns/${campaign.id}/analytics`);

    // The long title is cut short on screen but whole in its title, as the partner's name in the bars is.
    await expect(page.getByRole("heading", { level: 2, name: title })).toHaveAttribute("title", title);
    const shares = page.getByRole("table", { name: "Each partner's share" });
    await expect(shares.getByRole("rowheader", { name: partnerName }).locator("span")).toHaveAttribute("title", partnerName);

    const chart = page.getByRole("img", { name: "Money collected over time: the whole campaign" });
    await expect(chart).toBeVisible();
    for (const figure of [chart, shares, page.getByRole("table", { name: "Payment methods" })]) {
      const frame = (await figure.boundingBox())!;
      const labels = await figure.locator(".ekc-chart-label").evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return {
            text: el.textContent,
            x: r.x,
            y: r.y,
            right: r.right,
            bottom: r.bottom,
            size: parseFloat(getComputedStyle(el).fontSize),
          };
        }),
      );
      expect(labels.length).toBeGreaterThan(1);
      for (const l of labels) {
        expect(l.size, `${l.text}: font size`).toBeGreaterThanOrEqual(11);
        expect(l.x, `${l.text}: left edge`).toBeGreaterThanOrEqual(frame.x - 0.5);
        expect(l.right, `${l.text}: right edge`).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
        expect(l.y, `${l.text}: top edge`).toBeGreaterThanOrEqual(frame.y - 0.5);
        expect(l.bottom, `${l.text}: bottom edge`).toBeLessThanOrEqual(frame.y + frame.height + 0.5);
      }
      for (const [i, a] of labels.entries()) {
        for (const b of labels.slice(i + 1)) {
          const apart = a.right <= b.x + 0.5 || b.right <= a.x + 0.5 || a.bottom <= b.y + 0.5 || b.bottom <= a.y + 0.5;
          expect(apart, `"${a.text}" overlaps "${b.text}"`).toBe(true);
        }
      }
    }
    // The chart's three dates are all there: the first, the middle and the last day.
    await expect(chart.locator(".ekc-chart-label").filter({ hasText: /Mar 2025/ })).toHaveCount(3);
    // Nothing is wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  });

  test("a campaign without donations shows an empty state", async ({ page, db, login }) => {
    const owner = await login({ role: "ngo" });
    const campaign = await makeCampaign(db, owner.id);
    await page.goto(`/campaigns/${campaign.id}/analytics`);
    await expect(page.getByRole("heading", { name: "No donations yet" })).toBeVisible();
    await expect(page.getByRole("img", { name: /Money collected over time/ })).toHaveCount(0);
    await expectAccessible(page);
  });

  test("another NGO gets not found", async ({ page, db, login, account }) => {
    const owner = await account({ role: "ngo" });
    const campaign = await makeCampaign(db, owner.id);
    await login({ role: "ngo" });
    const response = await page.goto(`/campaigns/${campaign.id}/analytics`);
    expect(response!.status()).toBe(404);
    await expect(page.getByText(campaign.title)).toHaveCount(0);
    expect((await page.goto(`/campaigns/not-a-uuid/analytics`))!.status()).toBe(404);
  });
});

test.describe("Show Analytics without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("switching between partners works with plain links", async ({ page, db, login }) => {
    const owner = await login({ role: "ngo" });
    const partnerName = `No-JS Partner ${unique()}`;
    const { campaign } = await seedJointCampaign(db, owner.id, { title: `No-JS chart ${unique()}`, partnerName });
    await page.goto(`/campaigns/${campaign.id}/analytics`);
    await expect(page.getByRole("img", { name: /Money collected over time/ })).toBeVisible();
    await page.getByRole("link", { name: partnerName }).click();
    await expect(page.getByRole("region", { name: `Figures for ${partnerName}` })).toContainText("Rs. 6,000");
  });
});
