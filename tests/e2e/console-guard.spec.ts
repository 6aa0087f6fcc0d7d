import { expect, test } from "./fixtures.ts";

// The fixture's guard must fail a test whose page logs an error or throws; these tests are marked as expected to
// fail, so Playwright reports them as failing if the guard ever stops catching either.
test("a console.error in the page fails the test", async ({ page }) => {
  test.fail();
  await page.goto("/");
  await page.evaluate(() => console.error("deliberate error from the console-guard check"));
});

test("an uncaught error in the page fails the test", async ({ page }) => {
  test.fail();
  await page.goto("/");
  await page.evaluate(() =>
    setTimeout(() => {
      throw new Error("deliberate page error from the console-guard check");
    }, 0),
  );
  await page.waitForFunction(() => true);
});

test.describe("with the error expected", () => {
  test.use({ expectedConsoleErrors: [/deliberate error/] });
  test("an expected console.error passes", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => console.error("deliberate error that this test expects"));
    await expect(page.locator("body")).toBeVisible();
  });
});
