import { eq } from "drizzle-orm";
import { ngoProfiles, users } from "#server/db/schema.ts";
import { givePaymentAccounts, makeCampaign, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

const suffix = () => Math.random().toString(36).slice(2, 7);

/** A verified NGO accepted on a known day, with an active campaign, a partner's joint campaign and an open position. */
async function profileScene(db: Parameters<typeof makeUser>[0]) {
  const name = `Roshni Welfare ${suffix()}`;
  const ngo = await makeUser(db, "ngo", { name });
  await db
    .update(ngoProfiles)
    .set({ registrationNumber: "SECP-2019-4471", address: "Plot 4, Saddar, Karachi", contactNumber: "02134567890" })
    .where(eq(ngoProfiles.userId, ngo.id));
  await db
    .update(users)
    .set({ verifiedAt: new Date("2025-03-03T07:00:00Z") })
    .where(eq(users.id, ngo.id));
  const campaign = await makeCampaign(db, ngo.id, { title: `Clean water Thar ${suffix()}` });
  const other = await makeUser(db, "ngo");
  const joint = await makeCampaign(db, other.id, { title: `Joint relief ${suffix()}`, partners: [ngo.id] });
  const position = await makePosition(db, ngo.id, { title: `Weekend teachers ${suffix()}` });
  return { ngo, name, campaign, joint, position };
}

test("a signed-out visitor follows a campaign's NGO link to the NGO's profile", async ({ page, db }) => {
  const { ngo, name, campaign, joint, position } = await profileScene(db);
  await page.goto(`/campaign/${campaign.slug}`);
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(`/ngo/${ngo.id}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("verified")).toHaveText("Verified by Ek Chhat on 3 Mar 2025");
  await expect(page.getByTestId("verified").locator("time")).toHaveAttribute("datetime", "2025-03-03T07:00:00.000Z");
  await expect(page.getByTestId("registration")).toHaveText("SECP-2019-4471");
  await expect(page.getByRole("main")).toContainText("Plot 4, Saddar, Karachi");
  await expect(page.getByRole("link", { name: "02134567890" })).toHaveAttribute("href", "tel:02134567890");
  await expect(page.getByRole("main")).not.toContainText(ngo.email);

  const campaigns = page.getByRole("list", { name: "Active campaigns" });
  await expect(page.getByRole("heading", { name: "Active campaigns (2)" })).toBeVisible();
  await expect(campaigns.getByRole("link", { name: campaign.title })).toHaveAttribute("href", `/campaign/${campaign.slug}`);
  await expect(campaigns.locator(`[data-campaign="${joint.slug}"]`)).toContainText("Partner in a joint campaign");
  const positions = page.getByRole("list", { name: "Volunteer positions" });
  await expect(positions.getByRole("link", { name: position.title })).toHaveAttribute("href", `/vfg2?position=${position.id}`);
  await expect(positions).toContainText("2 volunteers needed");

  // Shared links show a preview card, as the campaign page's do.
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", name);
  await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", /SECP-2019-4471/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/ngo/${ngo.id}$`));
  await expectAccessible(page);

  await page.context().addCookies([{ name: "ekc_lang", value: "ur", domain: "127.0.0.1", path: "/" }]);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByTestId("verified")).toContainText("ایک چھت سے تصدیق شدہ");
  await expectAccessible(page);
});

test("the profile of a suspended, unverified or unknown NGO is not found", async ({ page, db }) => {
  const { ngo, campaign } = await profileScene(db);
  const pending = await makeUser(db, "ngo", { verification: "pending" });
  await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, ngo.id));
  for (const id of [ngo.id, pending.id, "3f1d8c1e-9a8b-4c1d-8f2e-0a1b2c3d4e5f", "not-an-id"]) {
    const response = await page.goto(`/ngo/${id}`);
    expect(response!.status(), id).toBe(404);
  }
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The campaign page no longer links to it.
  await page.goto(`/campaign/${campaign.slug}`);
  await expect(page.getByTestId("ngo-profile-link")).toHaveCount(0);
});

test("the payment screen links to the NGO being paid", async ({ page, db, login }) => {
  await login({ role: "donor" });
  const { ngo, name, campaign } = await profileScene(db);
  await givePaymentAccounts(db, ngo.id);
  await page.goto(`/donate3?campaign=${campaign.slug}&ngo=${ngo.id}&method=jazzcash`);
  const link = page.getByRole("link", { name: `About ${name}` });
  await expect(link).toHaveAttribute("href", `/ngo/${ngo.id}`);
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
});

test.describe("on a 360 px phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the profile fits the screen", async ({ page, db }) => {
    const { ngo } = await profileScene(db);
    await page.goto(`/ngo/${ngo.id}`);
    await expect(page.getByTestId("verified")).toBeVisible();
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= document.scrollingElement!.clientWidth)).toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: "/tmp/pw-history/ngo-profile-360.png", fullPage: true });
  });
});
