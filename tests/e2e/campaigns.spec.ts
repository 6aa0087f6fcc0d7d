import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { campaigns } from "#server/db/schema.ts";
import { makeCampaign, makeDonation, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 7);

/** Fills the campaign form's text fields and its cause (not the location). */
async function fillCampaign(page: Page, v: { title: string; description?: string; amount?: string }) {
  await page.getByLabel("Title", { exact: true }).fill(v.title);
  await page
    .getByLabel("Description", { exact: true })
    .fill(v.description ?? "Hot meals and clean water for families who lost their homes.");
  await page.getByLabel("Target amount (Rs.)").fill(v.amount ?? "75000");
  await page.getByLabel("Cause").selectOption({ label: "Disaster relief" });
}

test("an NGO creates a campaign choosing a place from the suggestions, edits it, and deletes another", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo", name: "Roshni Welfare Trust" });
  const other = await makeCampaign(db, ngo.id, { title: `Old appeal ${unique()}` });

  await page.goto("/campaigns");
  await expectAccessible(page);
  await page.getByRole("link", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/create_camp$/);
  await expectAccessible(page);

  const title = `Flood relief Dadu ${unique()}`;
  await fillCampaign(page, { title });
  const location = page.getByRole("combobox", { name: "Location" });
  await location.pressSequentially("lah", { delay: 60 });
  const option = page.getByRole("option", { name: /^Lahore, Lahore District, Punjab/ });
  await expect(option).toBeVisible();
  await location.press("ArrowDown");
  await location.press("Enter");
  await expect(location).toHaveValue("Lahore, Lahore District, Punjab");
  // Zakat needs the NGO's attestation (decision 048).
  await page.getByRole("checkbox", { name: "Zakat", exact: true }).check();
  await page.getByRole("checkbox", { name: "I attest this for my organisation:" }).check();
  await page.getByRole("button", { name: "Post" }).click();

  await expect(page).toHaveURL(/\/campaigns\?notice=created$/);
  await expect(page.getByRole("status")).toHaveText("The campaign was posted.");
  const card = page.getByRole("listitem").filter({ hasText: title });
  await expect(card).toContainText("Lahore, Lahore District, Punjab");
  await expect(card.getByRole("progressbar")).toHaveAttribute("aria-valuetext", "Rs. 0 of Rs. 75,000");
  await expect(card).toContainText("Accepts Zakat");
  const [saved] = await db.select().from(campaigns).where(eq(campaigns.title, title));
  expect(saved?.lat).toBeCloseTo(31.56, 1);
  expect(saved?.cause).toBe("relief");

  await card.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);
  await expectAccessible(page);
  await page.getByLabel("Target amount (Rs.)").fill("90,000");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText("The changes were saved.");
  await expect(page.getByRole("listitem").filter({ hasText: title }).getByRole("progressbar")).toHaveAttribute(
    "aria-valuetext",
    "Rs. 0 of Rs. 90,000",
  );

  await page.getByRole("link", { name: `Delete ${other.title}` }).click();
  await expect(page.getByRole("heading", { name: `Delete “${other.title}”?` })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status")).toHaveText("The campaign was deleted.");
  await expect(page.getByText(other.title)).toHaveCount(0);
});

test("a duplicate title is refused with a link to ask for collaboration", async ({ page, login, db }) => {
  const someone = await makeUser(db, "ngo");
  const theirs = await makeCampaign(db, someone.id, { title: `Shared cause ${unique()}` });
  await login({ role: "ngo" });
  await page.goto("/create_camp");
  await fillCampaign(page, { title: theirs.title.toUpperCase() });
  await page.getByRole("combobox", { name: "Location" }).fill("Karachi");
  // Chosen from the list, as a person would: the open list would otherwise cover Post once its suggestions arrive.
  await page.getByRole("option", { name: "Karachi, Sindh", exact: true }).click();
  await page.getByRole("button", { name: "Post" }).click();
  await expect(page.getByText("A similar campaign already exists. You can collaborate on that.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Ask to collaborate on that campaign" })).toHaveAttribute(
    "href",
    `/collab/join/${theirs.id}`,
  );
});

test("a campaign with donations is archived, not deleted, and leaves the lists", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const donor = await makeUser(db, "donor");
  const c = await makeCampaign(db, ngo.id, { title: `Given to ${unique()}` });
  await makeDonation(db, c, donor.id);
  await page.goto(`/campaigns/${c.id}/delete`);
  await expect(page.getByText("This campaign has donations, so it is archived instead")).toBeVisible();
  await page.getByRole("button", { name: "Archive" }).click();
  await expect(page.getByRole("status")).toHaveText("The campaign had donations, so it was archived.");
  const [kept] = await db.select().from(campaigns).where(eq(campaigns.id, c.id));
  expect(kept?.status).toBe("archived");
  await expect(page.getByText(c.title)).toHaveCount(0);
});

test("the lists search titles case-insensitively, page through everything and end campaigns early", async ({ page, login, db }) => {
  const ngo = await login({ role: "ngo" });
  const tag = unique();
  for (let i = 0; i < 12; i += 1) await makeCampaign(db, ngo.id, { title: `Batch ${tag} ${i}` });
  await page.goto("/campaigns");
  await page.getByRole("searchbox", { name: "Search campaigns by title" }).fill(`BATCH ${tag.toUpperCase()}`);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(10);
  await page.getByRole("link", { name: "Next" }).click();
  await expect(page.getByRole("main").getByRole("listitem")).toHaveCount(2);

  const first = `Batch ${tag} 0`;
  await page.goto("/campaigns?q=" + encodeURIComponent(first));
  await page.getByRole("link", { name: `Edit ${first}` }).click();
  await page.getByRole("link", { name: "End campaign…" }).click();
  await page.getByRole("button", { name: "Yes, end it" }).click();
  await expect(page).toHaveURL(/\/comp_camp\?notice=closed$/);
  await expect(page.getByRole("link", { name: "Successful" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText(first)).toBeVisible();
  await expect(page.getByRole("link", { name: "Show Analytics" }).first()).toHaveAttribute("href", /\/analytics\?from=comp_camp$/);
  await expectAccessible(page);
});

test("a partner sees the joint campaign but cannot edit it", async ({ page, login, db }) => {
  const owner = await makeUser(db, "ngo", { name: "Owner Trust" });
  const partner = await login({ role: "ngo", name: "Partner Foundation" });
  const joint = await makeCampaign(db, owner.id, { title: `Joint ${unique()}`, partners: [partner.id] });
  await page.goto("/campaigns");
  const card = page.getByRole("listitem").filter({ hasText: joint.title });
  await expect(card).toContainText("Joint campaign: Owner Trust, Partner Foundation");
  await expect(card.getByRole("link", { name: `Edit ${joint.title}` })).toHaveCount(0);
  const response = await page.goto(`/campaigns/${joint.id}/edit`);
  expect(response?.status()).toBe(403);
  const stranger = await page.request.post(`/campaigns/${joint.id}/delete`, { headers: { origin: new URL(page.url()).origin } });
  expect(stranger.status()).toBe(403);
  const [still] = await db.select().from(campaigns).where(eq(campaigns.id, joint.id));
  expect(still?.status).toBe("active");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("create-campaign reports the rules from the server and then posts, resolving a typed place", async ({ page, login, db }) => {
    await login({ role: "ngo" });
    await page.goto("/create_camp");
    await page.getByLabel("Title", { exact: true }).fill("one two three four five six seven eight nine");
    await page.getByLabel("Target amount (Rs.)").fill("12abc");
    await page.getByLabel("Location").fill("Nowhere-on-earth-xyz");
    await page.getByRole("button", { name: "Post" }).click();
    await expect(page.getByText("The Title field must be 8 words or less.")).toBeVisible();
    await expect(page.getByText("Description is required.")).toBeVisible();
    await expect(page.getByText("Please enter a valid numeric value for the Amount field.")).toBeVisible();
    await expect(page.getByText("Please choose a cause.")).toBeVisible();
    await expect(page.getByText("* Required")).toBeVisible();

    const title = `Winter warmth ${unique()}`;
    await fillCampaign(page, { title });
    await page.getByLabel("Location").fill("Nowhere-on-earth-xyz");
    await page.getByRole("button", { name: "Post" }).click();
    await expect(page.getByText("Please enter a valid location.")).toBeVisible();
    await expect(page.getByLabel("Title", { exact: true })).toHaveValue(title);

    await page.getByLabel("Location").fill("karachi");
    await page.getByRole("button", { name: "Post" }).click();
    await expect(page.getByRole("status")).toHaveText("The campaign was posted.");
    const [saved] = await db.select().from(campaigns).where(eq(campaigns.title, title));
    expect(saved?.locationLabel).toMatch(/^Karachi/);
    expect(saved?.lng).toBeCloseTo(67.0, 0);
  });
});
