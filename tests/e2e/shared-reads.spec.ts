import { makeCampaign } from "#tests/helpers/factories.ts";
import { expect, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 7);

/**
 * The landing page's first page of campaigns is read once for every visitor of a few seconds (decision 054). A change
 * made behind the server's back (straight in the database, as another server's would be) shows within those seconds;
 * one an NGO makes through its form shows on the very next page, though visitors were shown the page a moment before.
 */
test("an NGO's change shows on the landing page at once; one made elsewhere within seconds", async ({ page, login, db, browser }) => {
  const ngo = await login({ role: "ngo", name: `Sehat ${unique()} Trust` });
  const before = `Clinic ${unique()}`;
  const campaign = await makeCampaign(db, ngo.id, { title: before });

  const visitor = await (await browser.newContext()).newPage();
  const firstTitle = visitor
    .getByRole("list", { name: "Active campaigns" })
    .getByRole("listitem")
    .first()
    .getByRole("heading", { level: 3 });
  // Made straight in the database: the newest campaign heads the list within the seconds a read is shared.
  await expect(async () => {
    await visitor.goto("/");
    await expect(firstTitle).toHaveText(before, { timeout: 100 });
  }).toPass({ timeout: 10_000, intervals: [500] });

  const after = `Mobile clinic ${unique()}`;
  await page.goto(`/campaigns/${campaign.id}/edit`);
  await page.getByLabel("Title", { exact: true }).fill(after);
  // A visitor is shown the page just before the change...
  await visitor.reload();
  await expect(firstTitle).toHaveText(before);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toHaveText("The changes were saved.");
  // ...and the change on the next one, a moment later, without waiting for the shared read to age.
  await visitor.reload();
  await expect(firstTitle).toHaveText(after);
  await visitor.context().close();
});
