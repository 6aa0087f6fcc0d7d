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
