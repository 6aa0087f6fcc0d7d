import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { ngoProfiles } from "#server/db/schema.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { expect, test } from "./fixtures.ts";

// Icons are one <svg> with their shapes as inner HTML, on the server and in the browser (decision 037, session 19).
// The browser draws them two ways: hydrating the server's (React leaves their inner HTML as it is) and rendering them
// itself after a navigation (React sets the inner HTML of an SVG element). Either way each icon must have its shapes
// as SVG elements with a size, as the server's page has them.
test("the picker's icons have their shapes when the server draws them and when the browser does", async ({ page, db, login }) => {
  await login({ role: "donor" });
  // A campaign the picker shows (its NGO takes JazzCash), so its card's icons are drawn.
  const ngo = await makeUser(db, "ngo", { name: `Icon Trust ${randomUUID().slice(0, 8)}` });
  await db.update(ngoProfiles).set({ jazzcashNumber: "03001234567" }).where(eq(ngoProfiles.userId, ngo.id));
  await makeCampaign(db, ngo.id, { title: `Icons ${randomUUID().slice(0, 8)}`, acceptedFunds: ["zakat", "general"] });
  const shapes = () =>
    page.locator("main svg.lucide").evaluateAll((icons) =>
      icons.map((icon) => ({
        html: icon.innerHTML,
        shapes: [...icon.children].filter(
          (c) =>
            c.namespaceURI === "http://www.w3.org/2000/svg" &&
            (c as SVGGraphicsElement).getBBox().width + (c as SVGGraphicsElement).getBBox().height > 0,
        ).length,
        children: icon.children.length,
      })),
    );

  await page.goto("/donate1");
  const fromServer = await shapes();
  expect(fromServer.length).toBeGreaterThan(2);
  for (const icon of fromServer) {
    expect(icon.children).toBeGreaterThan(0);
    expect(icon.shapes).toBe(icon.children);
  }

  // To the donor's home and back by the sidebar, once React has hydrated the page (its props on the links) and with a
  // mark on the window that a full page load would lose: React draws the picker, its icons with it.
  const menu = page.getByRole("navigation", { name: "Main navigation" }).last();
  await page.waitForFunction(() => Object.keys(document.querySelector("main a")!).some((k) => k.startsWith("__reactProps")));
  await page.evaluate(() => Object.assign(window, { ekcIconsMark: true }));
  await menu.getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/donor_home$/);
  await menu.getByRole("link", { name: "Donate" }).click();
  await expect(page).toHaveURL(/\/donate1$/);
  expect(await page.evaluate(() => "ekcIconsMark" in window)).toBe(true);
  await expect(page.locator("main svg.lucide")).toHaveCount(fromServer.length);
  expect(await shapes()).toEqual(fromServer);
});
