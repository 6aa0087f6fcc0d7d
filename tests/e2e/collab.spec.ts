import { randomUUID } from "node:crypto";
import type { Browser } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { campaignPartners, notifications } from "#server/db/schema.ts";
import type { Db } from "#server/db/client.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { baseUrl, expect, expectAccessible, test } from "./fixtures.ts";

/** A second browser, signed in as another account (as the `login` fixture does for the first). */
async function signedInPage(browser: Browser, db: Db, userId: string) {
  const context = await browser.newContext({ baseURL: baseUrl() });
  const { token } = await createSession(db, userId);
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" }]);
  return { context, page: await context.newPage() };
}

test("two NGOs form a joint campaign and both see it", async ({ page, browser, login, account, db }) => {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  const tag = randomUUID().slice(0, 8);
  const ownerName = `Amal Trust ${tag}`;
  const partnerName = `Bakhtawar Aid ${tag}`;
  const owner = await login({ role: "ngo", name: ownerName });
  const partner = await account({ role: "ngo", name: partnerName });
  const campaign = await makeCampaign(db, owner.id, { title: `Winter blankets ${tag}` });

  // The owner chooses its campaign, finds the other NGO by name and selects it.
  await page.goto("/collab");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Collaborate");
  await page.getByLabel("Your campaign", { exact: true }).selectOption({ label: campaign.title });
  await page.getByLabel("Search NGOs by name").fill(`bakhtawar aid ${tag}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`campaignId=${campaign.id}`));
  await expect(page.getByText(`Inviting partners to: ${campaign.title}`)).toBeVisible();
  const row = page.locator("label").filter({ hasText: partnerName });
  await expect(row).toContainText("Select");
  await expectAccessible(page);
  // Nothing selected: the browser refuses before anything is sent.
  await page.getByRole("button", { name: "Collaborate" }).click();
  await expect(page.getByText("Please select at least one NGO.")).toBeVisible();
  await expect(page).toHaveURL(/\/collab\?/);
  await expectAccessible(page);
  await row.click();
  await expect(page.getByRole("checkbox", { name: partnerName })).toBeChecked();
  await expect(row).toContainText("Selected");
  // Select toggles: a second click clears it, a third selects again.
  await row.click();
  await expect(page.getByRole("checkbox", { name: partnerName })).not.toBeChecked();
  await row.click();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Collaborate" }).click();
  await expect(page).toHaveURL(/\/collab1\?/);
  await expect(page.getByRole("heading", { name: "Collaboration has successfully been made" })).toBeVisible();
  await expect(page.getByText("An invitation was sent to 1 NGO.")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Go Back" }).click();
  await expect(page).toHaveURL(/\/collab$/);

  // The invited NGO, signed in elsewhere, is told and accepts.
  const other = await signedInPage(browser, db, partner.id);
  await other.page.goto("/notifications");
  const told = other.page.getByText(`${ownerName} invites you to collaborate on the campaign “${campaign.title}”.`);
  await expect(told).toBeVisible();
  // The whole card is the way to it, not only its small "Open" link.
  await other.page.getByRole("listitem").filter({ has: told }).click();
  await expect(other.page).toHaveURL(/\/collab/);
  const invitation = other.page.getByRole("article", { name: campaign.title });
  await expect(invitation).toContainText(`From ${ownerName}`);
  await expectAccessible(other.page);
  await invitation.getByRole("button", { name: /^Accept/ }).click();
  await expect(other.page.getByRole("status")).toHaveText("You accepted the invitation. The campaign is now among your joint campaigns.");

  // Both see the joint campaign with both NGOs.
  const jointFor = (p: typeof page) => p.locator("#joint").getByRole("article", { name: campaign.title });
  await expect(jointFor(other.page)).toContainText(`${ownerName} (Owner)`);
  await expect(jointFor(other.page)).toContainText(`${partnerName} (Partner)`);
  await expect(jointFor(other.page)).toContainText("You are a partner");
  await expectAccessible(other.page);
  await page.reload();
  await expect(jointFor(page)).toContainText(`${ownerName} (Owner)`);
  await expect(jointFor(page)).toContainText(`${partnerName} (Partner)`);
  await expect(jointFor(page)).toContainText("You own this campaign");
  // Only a partner can leave; the owner has no Leave.
  await expect(jointFor(page).getByText("Leave this campaign")).toHaveCount(0);

  // The partner leaves, after confirming.
  await jointFor(other.page).getByText("Leave this campaign").click();
  await jointFor(other.page)
    .getByRole("button", { name: `Yes, leave “${campaign.title}”` })
    .click();
  await expect(other.page.getByRole("status")).toHaveText("You left the campaign.");
  await expect(jointFor(other.page)).toHaveCount(0);
  await other.context.close();
  expect(consoleErrors).toEqual([]);
});

test("an NGO asks to join another NGO's campaign and the owner accepts", async ({ page, browser, login, account, db }) => {
  const tag = randomUUID().slice(0, 8);
  const askerName = `Chanan Welfare ${tag}`;
  const ownerName = `Dua Foundation ${tag}`;
  await login({ role: "ngo", name: askerName });
  const owner = await account({ role: "ngo", name: ownerName });
  const campaign = await makeCampaign(db, owner.id, { title: `Clean water Tharparkar ${tag}` });

  await page.goto(`/collab/join/${campaign.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Request to collaborate");
  await expect(page.getByRole("heading", { name: campaign.title })).toBeVisible();
  await expect(page.getByText(`Run by ${ownerName}`)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Request to collaborate" }).click();
  await expect(page.getByRole("heading", { name: "Your request to collaborate was sent" })).toBeVisible();

  const ownerSide = await signedInPage(browser, db, owner.id);
  await ownerSide.page.goto("/collab");
  const request = ownerSide.page.getByRole("article", { name: `${askerName} asks to join` });
  await expect(request).toContainText(campaign.title);
  await request.getByRole("button", { name: /^Accept/ }).click();
  await expect(ownerSide.page.getByRole("status")).toHaveText("The NGO is now a partner of your campaign.");
  await expect(ownerSide.page.locator("#joint").getByRole("article", { name: campaign.title })).toContainText(`${askerName} (Partner)`);
  await ownerSide.context.close();

  // The asker is now a partner: the join page says so and offers no second request.
  await page.goto(`/collab/join/${campaign.id}`);
  await expect(page.getByText("You already collaborate on this campaign.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Request to collaborate" })).toHaveCount(0);
  // An unknown campaign is simply not found.
  const missing = await page.goto(`/collab/join/${randomUUID()}`);
  expect(missing?.status()).toBe(404);
});

test("on a phone: own campaigns listed first, shares of what was raised, and a Collaborate that changes nothing says so", async ({
  page,
  login,
  account,
  db,
}) => {
  const tag = randomUUID().slice(0, 8);
  const owner = await login({ role: "ngo", name: `Ghar Trust ${tag}` });
  const partner = await account({ role: "ngo", name: `Hamdard Aid ${tag}` });
  const lateName = `Insaf Relief ${tag}`;
  const late = await account({ role: "ngo", name: lateName });
  const donor = await makeUser(db, "donor");
  const joint = await makeCampaign(db, owner.id, {
    title: `Joint kitchens ${tag}`,
    partners: [partner.id],
    targetAmount: 100_000,
    collectedAmount: 50_000,
  });
  await makeDonation(db, joint, donor.id, { status: "approved", amount: 20_000 });
  await makeDonation(db, joint, donor.id, { status: "approved", amount: 30_000, recipientNgoId: partner.id });
  // A long title, as campaigns have: the campaign picker must not push the page wider than the phone.
  const solo = await makeCampaign(db, owner.id, { title: `Solo wells for the families of daily-wage labourers in Tharparkar ${tag}` });
  await page.setViewportSize({ width: 360, height: 740 });

  // The NGO's own campaigns show at once, before any search.
  await page.goto("/collab");
  const own = page.getByRole("region", { name: /^Your active campaigns/ });
  await expect(own.getByRole("article", { name: joint.title })).toContainText("1 partner");
  await expect(own.getByRole("article", { name: solo.title })).toContainText("No partners yet");

  // Each partner's share is a part of what was raised, in words; the only bar is the campaign's own toward its goal.
  const card = page.locator("#joint").getByRole("article", { name: joint.title });
  await expect(card).toContainText(`Hamdard Aid ${tag} (Partner)Rs. 30,000 — 60% of what was raised`);
  await expect(card).toContainText(`Ghar Trust ${tag} (Owner)Rs. 20,000 — 40% of what was raised`);
  await expect(card.getByRole("progressbar")).toHaveCount(1);
  await expect(card.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Rs. 50,000 of Rs. 100,000 raised");
  await expectAccessible(page);

  // Choosing a campaign from the list opens the invite form with it.
  await own
    .getByRole("article", { name: solo.title })
    .getByRole("link", { name: /^Invite partners/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`campaignId=${solo.id}`));
  await expect(page.getByText(`Inviting partners to: ${solo.title}`)).toBeVisible();
  await expect(own.getByRole("article", { name: solo.title })).toContainText("Chosen below");
  await page.getByLabel("Search NGOs by name").fill(lateName);
  await page.getByRole("button", { name: "Search" }).click();
  await page.locator("label").filter({ hasText: lateName }).click();
  await expect(page.getByRole("checkbox", { name: lateName })).toBeChecked();

  // Meanwhile (another tab, say) the NGO was invited already: Collaborate then changes nothing and says so.
  await db.insert(campaignPartners).values({ campaignId: solo.id, ngoId: late.id, direction: "invited", status: "pending" });
  const [before] = await db
    .select()
    .from(campaignPartners)
    .where(and(eq(campaignPartners.campaignId, solo.id), eq(campaignPartners.ngoId, late.id)));
  await page.getByRole("button", { name: "Collaborate" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Nothing changed" })).toHaveText(
    "Nothing changed: the NGO you selected was already invited to this campaign or is already its partner. No invitation was sent again.",
  );
  await expect(page).toHaveURL(/\/collab\?/);
  await expect(page.getByRole("heading", { name: "Collaboration has successfully been made" })).toHaveCount(0);
  await expect(page.locator("li").filter({ hasText: lateName })).toContainText("Invitation sent");
  const [after] = await db
    .select()
    .from(campaignPartners)
    .where(and(eq(campaignPartners.campaignId, solo.id), eq(campaignPartners.ngoId, late.id)));
  expect(after).toEqual(before);
  expect(await db.select().from(notifications).where(eq(notifications.userId, late.id))).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the invite form searches, refuses an empty choice and sends invitations", async ({ page, login, account, db }) => {
    const tag = randomUUID().slice(0, 8);
    const owner = await login({ role: "ngo", name: `Ehsaas Care ${tag}` });
    const partnerName = `Faizan Relief ${tag}`;
    const partner = await account({ role: "ngo", name: partnerName });
    const campaign = await makeCampaign(db, owner.id, { title: `School books ${tag}` });

    // No campaign chosen: refused with the reason next to the form, nothing sent.
    await page.goto(`/collab?q=${encodeURIComponent(partnerName)}`);
    await page.locator("label").filter({ hasText: partnerName }).click();
    await expect(page.getByRole("checkbox", { name: partnerName })).toBeChecked();
    await page.getByRole("button", { name: "Collaborate" }).click();
    await expect(page.getByText("Please choose one of your campaigns.")).toBeVisible();
    await expect(page.getByLabel("Your campaign", { exact: true })).toHaveAttribute("aria-invalid", "true");
    // The selection survives the refusal.
    await expect(page.getByRole("checkbox", { name: partnerName })).toBeChecked();

    // Choose the campaign and search with the plain GET form.
    await page.getByLabel("Your campaign", { exact: true }).selectOption({ label: campaign.title });
    await page.getByLabel("Search NGOs by name").fill(partnerName);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText(`Inviting partners to: ${campaign.title}`)).toBeVisible();

    // No NGO selected: refused.
    await page.getByRole("button", { name: "Collaborate" }).click();
    await expect(page.getByText("Please select at least one NGO.")).toBeVisible();
    const none = await db
      .select()
      .from(campaignPartners)
      .where(and(eq(campaignPartners.campaignId, campaign.id), eq(campaignPartners.ngoId, partner.id)));
    expect(none).toHaveLength(0);

    // CSS alone highlights the selected row.
    const row = page.locator("label").filter({ hasText: partnerName });
    const white = "rgb(255, 255, 255)";
    await expect(row).toHaveCSS("background-color", white);
    await row.click();
    await expect(page.getByRole("checkbox", { name: partnerName })).toBeChecked();
    await expect(row).not.toHaveCSS("background-color", white);
    await page.getByRole("button", { name: "Collaborate" }).click();
    await expect(page.getByRole("heading", { name: "Collaboration has successfully been made" })).toBeVisible();
    const rows = await db
      .select()
      .from(campaignPartners)
      .where(and(eq(campaignPartners.campaignId, campaign.id), eq(campaignPartners.ngoId, partner.id)));
    expect(rows).toMatchObject([{ direction: "invited", status: "pending" }]);

    // Back on /collab the NGO shows as invited and cannot be selected twice.
    await page.getByRole("link", { name: "Go Back" }).click();
    await page.getByLabel("Your campaign", { exact: true }).selectOption({ label: campaign.title });
    await page.getByLabel("Search NGOs by name").fill(partnerName);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("Invitation sent")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: partnerName })).toHaveCount(0);
  });
});
