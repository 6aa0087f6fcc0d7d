import { expect, test } from "./fixtures.ts";
import type { Page } from "@playwright/test";

/**
 * The role shell's menu, drawn once (decision 037, 2026-11-28): a disclosure on a phone, the sidebar's column from md
 * up, one navigation landmark either way; and the app's plain links (`useLinks`), which navigate on the client as
 * React Router's `<Link>` does.
 */

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main navigation" });

/** Marks the document, so a later check can tell a client-side navigation (the mark stays) from a page load. */
const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { shellMark: number }).shellMark = 1));
const documentMarked = (page: Page) => page.evaluate(() => (window as unknown as { shellMark?: number }).shellMark === 1);

test.describe("on a laptop", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("the menu is the sidebar, always shown, the page's entry marked; its links and the cards' navigate without a page load", async ({
    page,
    login,
  }) => {
    await login({ role: "donor" });
    await page.goto("/donate1");
    // One menu (it was drawn twice); the page has navigations of its own (the Cash / Non-Cash toggle, the pager).
    await expect(mainNav(page)).toHaveCount(1);
    await expect(page.locator("summary", { hasText: "Menu" })).toBeHidden();
    const donate = mainNav(page).getByRole("link", { name: "Donate", exact: true });
    const home = mainNav(page).getByRole("link", { name: "Home", exact: true });
    await expect(donate).toBeVisible();
    await expect(donate).toHaveAttribute("aria-current", "page");
    await expect(donate).toHaveAttribute("href", "/donate1");
    await expect(donate).toHaveAttribute("data-discover", "true");
    await expect(home).not.toHaveAttribute("aria-current");
    await expect(mainNav(page).locator("[aria-current]")).toHaveCount(1);

    await markDocument(page);
    await home.click();
    await expect(page).toHaveURL(/\/donor_home$/);
    await expect(home).toHaveAttribute("aria-current", "page");
    await expect(donate).not.toHaveAttribute("aria-current");
    await donate.click();
    await expect(page).toHaveURL(/\/donate1$/);
    await expect(donate).toHaveAttribute("aria-current", "page");
    expect(await documentMarked(page), "the menu's links navigate on the client").toBe(true);

    // The Cash / Non-Cash toggle's links are the same plain links (the cards' are followed in donate.spec.ts).
    const nonCash = page.getByRole("navigation", { name: "Type of donation" }).getByRole("link", { name: "Non-Cash" });
    await expect(nonCash).toHaveAttribute("data-discover", "true");
    await nonCash.click();
    await expect(page).toHaveURL(/\/donate5$/);
    await expect(page.getByRole("navigation", { name: "Type of donation" }).getByRole("link", { name: "Non-Cash" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    expect(await documentMarked(page), "the page's links navigate on the client").toBe(true);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("the menu opens and closes from its disclosure, by keyboard too, and a choice in it closes it", async ({ page, login }) => {
    await login({ role: "donor" });
    await page.goto("/donor_home");
    const summary = page.locator("summary", { hasText: "Menu" });
    const settings = mainNav(page).getByRole("link", { name: "Settings" });
    await expect(settings).toBeHidden();
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(settings).toBeVisible();
    // The menu comes next in the order of the page's controls.
    await page.keyboard.press("Tab");
    await expect(mainNav(page).getByRole("link", { name: "Home", exact: true })).toBeFocused();
    await summary.click();
    await expect(settings).toBeHidden();
    await summary.click();
    await settings.click();
    await expect(page).toHaveURL(/\/settingsDonor$/);
    await expect(settings).toBeHidden();
    // Closed, the menu is out of the accessibility tree; its entry for the page is marked all the same.
    await expect(page.locator('#main-navigation a[href="/settingsDonor"]')).toHaveAttribute("aria-current", "page");
  });
});

test.describe("on a phone without JavaScript", () => {
  test.use({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });

  test("the menu opens and closes, and its links are plain links", async ({ page, login }) => {
    await login({ role: "donor" });
    await page.goto("/donor_home");
    const summary = page.locator("summary", { hasText: "Menu" });
    const donate = mainNav(page).getByRole("link", { name: "Donate", exact: true });
    await expect(donate).toBeHidden();
    await summary.click();
    await expect(donate).toBeVisible();
    await summary.click();
    await expect(donate).toBeHidden();
    await summary.click();
    await donate.click();
    await expect(page).toHaveURL(/\/donate1$/);
    await expect(page.getByRole("heading", { level: 1, name: "Donate" })).toBeVisible();
    await expect(donate).toBeHidden();
    await expect(page.locator('#main-navigation a[href="/donate1"]')).toHaveAttribute("aria-current", "page");
  });
});
