import type { Locator, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { donations, ngoProfiles, notifications, volunteerPositions } from "#server/db/schema.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { makeApplication, makeCampaign, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

const unique = () => Math.random().toString(36).slice(2, 8);
const PHONE = { width: 360, height: 740 };

/** A tall poster with words near its top and bottom edges: exactly what a crop to a wide box cuts off. */
const tallPoster = async () => ({
  name: "poster.png",
  mimeType: "image/png",
  buffer: await sharp({ create: { width: 300, height: 600, channels: 3, background: "#0a6" } })
    .png()
    .toBuffer(),
});

/** Whether an image shows all of itself: nothing cropped (object-fit contain, or a box of the image's own shape). */
async function showsWhole(img: Locator): Promise<boolean> {
  return img.evaluate((el: HTMLImageElement) => {
    if (!el.complete || el.naturalWidth === 0) return false;
    const fit = getComputedStyle(el).objectFit;
    if (fit === "contain" || fit === "scale-down") return true;
    const box = el.getBoundingClientRect();
    return Math.abs(box.width / box.height - el.naturalWidth / el.naturalHeight) < 0.02;
  });
}

test.describe("volunteering", () => {
  test.use({ viewport: PHONE });

  test("a position's poster is shown whole on the NGO's list, the open positions and the position's page", async ({
    page,
    login,
    db,
    context,
  }) => {
    await login({ role: "ngo" });
    const title = `Poster tutor ${unique()}`;
    await page.goto("/vol1");
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Description", { exact: true }).fill("Teach reading to children at our weekend school.");
    await page.getByLabel("Working hours", { exact: true }).fill("4 hours a day");
    await page.getByLabel("Timings", { exact: true }).fill("Saturdays, 10 am to 2 pm");
    await page.getByLabel("Volunteers needed", { exact: true }).fill("2");
    await page.getByLabel("Poster (optional)").setInputFiles(await tallPoster());
    await page.getByRole("button", { name: "Post", exact: true }).click();
    await expect(page).toHaveURL(/\/vol0\?notice=created$/);
    const [saved] = await db.select().from(volunteerPositions).where(eq(volunteerPositions.title, title));
    const onList = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: title }) })
      .locator("img");
    await expect.poll(() => showsWhole(onList)).toBe(true);

    await context.clearCookies();
    await login({ role: "donor" });
    for (const size of [PHONE, { width: 1280, height: 800 }]) {
      await page.setViewportSize(size);
      await page.goto(`/vfg1?q=${encodeURIComponent(title)}`);
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });
      await expect.poll(() => showsWhole(card.locator("img"))).toBe(true);
      await page.goto(`/vfg2?position=${saved!.id}`);
      await expect.poll(() => showsWhole(page.getByRole("img", { name: new RegExp(title) }))).toBe(true);
    }
    await expectAccessible(page);
  });

  test("an approved volunteer sees what happens next and how to reach the NGO on /dvh2; others do not", async ({ page, login, db }) => {
    const donor = await login({ role: "donor" });
    const owner = await makeUser(db, "ngo", { name: `Next step ${unique()} Trust` });
    const [profile] = await db.select().from(ngoProfiles).where(eq(ngoProfiles.userId, owner.id));
    const approved = await makePosition(db, owner.id, { title: `Approved ${unique()}`, timings: "Sundays, 9 am to 1 pm" });
    const waiting = await makePosition(db, owner.id, { title: `Waiting ${unique()}` });
    await makeApplication(db, approved.id, donor.id, { status: "approved", decidedAt: new Date(), decidedBy: owner.id });
    await makeApplication(db, waiting.id, donor.id);

    await page.goto("/dvh2");
    const item = (title: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, level: 2 }) });
    const next = item(approved.title).getByRole("region", { name: "What happens next" });
    await expect(next).toContainText(`${profile!.name} has accepted you as a volunteer and will contact you`);
    await expect(next).toContainText("When: Sundays, 9 am to 1 pm");
    await expect(next).toContainText(profile!.address);
    const digits = profile!.contactNumber.replace(/[^\d+]/g, "");
    await expect(next.getByRole("link", { name: `Call ${profile!.contactNumber}` })).toHaveAttribute("href", `tel:${digits}`);
    await expect(next.getByRole("link", { name: `Email ${owner.email}` })).toHaveAttribute("href", `mailto:${owner.email}`);
    for (const link of await next.getByRole("link").all()) expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await expect(item(waiting.title).getByRole("region", { name: "What happens next" })).toHaveCount(0);
    await expect(item(waiting.title)).not.toContainText(owner.email);
    await expectAccessible(page);

    await page.getByRole("button", { name: "اردو" }).click();
    await expect(page.getByRole("region", { name: "آگے کیا ہوگا" })).toContainText("کب:");
    await expectAccessible(page);
  });
});

test.describe("sign-up", () => {
  test("the password hint says every rule the server holds a new password to", async ({ page }) => {
    for (const path of ["/donor_signup", "/ngo_signup", "/rider_signup"]) {
      await page.goto(path);
      await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription(
        "At least 6 characters (at most 128), not only spaces, and not a common password such as 123456 or password.",
      );
    }
    await expect(page.getByText("choose it again")).toHaveCount(0);
    await expectAccessible(page);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("a form that comes back with errors asks for the picture again, in English and Urdu", async ({ page }) => {
      const NOTE =
        "The form came back with a problem, so your browser has forgotten the picture you chose. If you want one, please choose it again.";
      await page.goto("/donor_signup");
      await expect(page.getByText(NOTE)).toHaveCount(0);
      await page.getByLabel("First name").fill("Sana");
      await page.getByLabel("Profile picture (optional)").setInputFiles({
        name: "me.png",
        mimeType: "image/png",
        buffer: await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0a6" } })
          .png()
          .toBuffer(),
      });
      await page.getByRole("button", { name: "Sign Up" }).click();
      await expect(page.getByText("Last name is required", { exact: true })).toBeVisible();
      const picture = page.getByLabel("Profile picture (optional)");
      await expect(picture).toHaveAccessibleDescription(new RegExp(NOTE.replace(/[.?()]/g, "\\$&")));
      await expect(page.getByText(NOTE)).toBeVisible();

      await page.getByRole("button", { name: "اردو" }).click();
      await page.getByRole("button", { name: "سائن اپ" }).click();
      await expect(page.getByText("اسے دوبارہ چنیں", { exact: false })).toBeVisible();
    });
  });
});

test.describe("phone chrome", () => {
  test.use({ viewport: PHONE });

  /** The bottom edge of the page's title bar: everything above the page's own content. */
  const chromeHeight = async (page: Page) => {
    const box = await page
      .locator("header")
      .filter({ has: page.getByRole("heading", { level: 1 }) })
      .boundingBox();
    return box!.y + box!.height;
  };

  test("the header and title take at most 110 px at 360x740 in English and Urdu, with a quiet Log out", async ({ page, login }) => {
    await login({ role: "donor" });
    for (const path of ["/donor_home", "/dvh2", "/notifications"]) {
      await page.goto(path);
      expect(await chromeHeight(page), `${path} in English`).toBeLessThanOrEqual(110);
    }
    const logOut = page.getByRole("button", { name: "Log out" });
    const style = await logOut.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(style).toBe("rgba(0, 0, 0, 0)");
    expect((await logOut.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect((await page.getByRole("button", { name: "اردو" }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    // The menu still opens on a phone.
    await page.getByText("Menu", { exact: true }).click();
    const navLink = page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "My donations" });
    await expect(navLink).toBeVisible();
    await expectAccessible(page);
    // It lies over the page, so a choice in it closes it.
    await navLink.click();
    await expect(page).toHaveURL(/\/dvh$/);
    await expect(navLink).toBeHidden();
    await expectAccessible(page);

    await page.getByRole("button", { name: "اردو" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "ur");
    for (const path of ["/donor_home", "/dvh2", "/notifications"]) {
      await page.goto(path);
      expect(await chromeHeight(page), `${path} in Urdu`).toBeLessThanOrEqual(110);
    }
    await expectAccessible(page);
  });

  test("a notification is one card-sized link named by its words, and Mark all as read waits for the next page", async ({
    page,
    login,
    db,
  }) => {
    const user = await login({ role: "donor" });
    const campaign = `Winter blankets ${unique()}`;
    await db.insert(notifications).values({
      userId: user.id,
      type: "pickupCollectedDonor",
      params: { campaign },
      link: "/dvh2",
    });
    await page.goto("/notifications");
    const card = page.getByRole("link", { name: new RegExp(`Your donation for “${campaign}” was collected`) });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("New");
    expect((await card.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await expect(page.getByRole("listitem").filter({ hasText: campaign }).getByRole("link")).toHaveCount(1);
    await expectAccessible(page);

    // The next page is slow: the button stays disabled and busy until it has arrived.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname.startsWith("/notifications") && url.searchParams.get("notice") === "markedRead",
      async (route) => {
        await held;
        await route.continue();
      },
    );
    const button = page.getByRole("button", { name: "Mark all as read" });
    await button.click();
    const busy = page.locator("button[aria-busy=true]");
    await expect(busy).toBeDisabled();
    await page.waitForTimeout(800);
    await expect(busy).toBeDisabled();
    await expect(page.getByRole("status")).toHaveCount(0);
    release();
    await expect(page.getByRole("status")).toHaveText("All notifications are marked as read.");
    await page.unroute(() => true);

    await page.getByRole("link", { name: new RegExp(campaign) }).click();
    await expect(page).toHaveURL(/\/dvh2$/);
  });
});

test.describe("shared submit button", () => {
  test("pressing it keeps the press when leaving a field shows an error that moves the button", async ({ page }) => {
    await page.goto("/donor_signin");
    await page.getByLabel("Email").fill("not-an-email");
    const button = page.getByRole("button", { name: "Log In" });
    await button.hover();
    await page.mouse.down();
    // The field kept the focus: no blur, so no error pushed the button away under the pointer.
    await expect(page.getByLabel("Email")).toBeFocused();
    await page.mouse.up();
    await expect(page.getByText("Invalid email address", { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/donor_signin/);
    // The keyboard still reaches and presses it.
    await button.focus();
    await expect(button).toBeFocused();
  });
});

test.describe("audit log", () => {
  test("the administrator reads a donation in the audit log as money, method and campaign, not an id", async ({ page, login, db }) => {
    await login({ role: "admin" });
    const ngo = await makeUser(db, "ngo");
    const donor = await makeUser(db, "donor");
    const campaign = await makeCampaign(db, ngo.id, { title: `Audit blankets ${unique()}` });
    const [gift] = await db
      .insert(donations)
      .values({
        campaignId: campaign.id,
        donorId: donor.id,
        recipientNgoId: ngo.id,
        kind: "cash",
        amount: 5000,
        method: "jazzcash",
        status: "approved",
        receiptNumber: 7,
      })
      .returning({ id: donations.id });
    await recordAudit(db, { actorId: ngo.id, action: "donation.approved", targetUserId: donor.id, details: { donationId: gift!.id } });
    await page.goto("/admin/audit");
    const row = page.getByRole("row").filter({ hasText: campaign.title });
    await expect(row).toContainText(new RegExp(`Donation: Rs\\. 5,000 by JazzCash to “${campaign.title}”, receipt No\\. N\\d{3,}-000007`));
    await expect(page.getByRole("table")).not.toContainText(gift!.id);
    await expectAccessible(page);
  });
});
