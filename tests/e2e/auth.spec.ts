import { desc, eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { mailOutbox, users } from "#server/db/schema.ts";
import { TEST_PASSWORD } from "#tests/helpers/factories.ts";
import { uniqueEmail } from "#tests/helpers/services.ts";
import { expect, expectAccessible, receivedMail, test } from "./fixtures.ts";

const pngFile = async () => ({
  name: "me.png",
  mimeType: "image/png",
  buffer: await sharp({ create: { width: 24, height: 24, channels: 3, background: "#063" } })
    .png()
    .toBuffer(),
});
const fakeImage = { name: "logo.png", mimeType: "image/png", buffer: Buffer.from("<script>alert(1)</script>") };

async function signIn(page: Page, path: string, email: string, password: string) {
  await page.goto(path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

const errorBox = (page: Page) => page.getByRole("alert");

test("an NGO signs up, is told to wait, and cannot sign in before verification", async ({ page }) => {
  await page.goto("/ngo_signup");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("NGO sign up");
  await expectAccessible(page);

  await page.getByRole("button", { name: "Sign Up" }).click();
  for (const message of [
    "* Required",
    "NGO name is required",
    "NGO address is required",
    "Registration number is required",
    "Contact number is required",
    "Invalid email address",
    "Password must be at least 6 characters",
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page.getByLabel("NGO name")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  const email = uniqueEmail("ngo-e2e");
  await page.getByLabel("NGO name").fill("x".repeat(101));
  await expect(page.getByText("This is too long.")).toBeVisible();
  await page.getByLabel("NGO name").fill("Roshni Welfare Trust");
  await page.getByLabel("NGO address").fill("Saddar, Karachi");
  await page.getByLabel("Registration number").fill("KR-2291");
  await page.getByLabel("Contact number").fill("0300 123");
  await page.getByLabel("Contact number").blur();
  await expect(page.getByText("Invalid contact number")).toBeVisible();
  await page.getByLabel("Contact number").fill("0300 1234567");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("password");
  await page.getByLabel("Password", { exact: true }).blur();
  await expect(page.getByText("This password is too common. Please choose another.")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("Roshni-trust-2024");
  await page.getByLabel("Logo (optional)").setInputFiles(fakeImage);
  await page.getByRole("button", { name: "Sign Up" }).click();
  // The server looks inside the file; the account is not created.
  await expect(page.getByText("The picture must be a JPEG, PNG or WebP image.")).toBeVisible();
  await page
    .getByLabel("Logo (optional)")
    .setInputFiles({ name: "big.png", mimeType: "image/png", buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("The picture must be 5 MB or smaller.")).toBeVisible();
  await page.getByLabel("Logo (optional)").setInputFiles(await pngFile());
  await page.getByLabel("Password", { exact: true }).fill("Roshni-trust-2024");
  await page.getByRole("button", { name: "Sign Up" }).click();

  await expect(page).toHaveURL("/ngo_signin?notice=submitted");
  await expect(page.getByRole("status")).toHaveText(
    "Thank you. Your details were sent to the administrator; you can sign in once they are verified.",
  );
  await expectAccessible(page);
  await signIn(page, "/ngo_signin", email, "Roshni-trust-2024");
  await expect(errorBox(page)).toHaveText("Error: Your profile has not been verified yet.");
  await expect(page).toHaveURL("/ngo_signin");
});

test("a donor signs up with a picture, signs in, and logs out to the donor page", async ({ page, account }) => {
  const taken = await account({ role: "ngo" });
  await page.goto("/donor_signup");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Sign Up" }).click();
  for (const message of ["First name is required", "Last name is required", "Address is required", "Contact number is required"]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await page.getByLabel("First name").fill("Ayesha");
  await page.getByLabel("Last name").fill("Khan");
  await page.getByLabel("Address").fill("Gulberg, Lahore");
  await page.getByLabel("Contact number").fill("03001234567");
  await page.getByLabel("Email").fill(taken.email.toUpperCase());
  await page.getByLabel("Password", { exact: true }).fill("Ayesha-gives-2024");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("An account already exists for this email address.")).toBeVisible();

  const email = uniqueEmail("donor-e2e");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Ayesha-gives-2024");
  await page.getByLabel("Profile picture (optional)").setInputFiles(await pngFile());
  await page.getByRole("button", { name: "Sign Up" }).click();
  // A donor needs no vetting: signed in at once, at home.
  await expect(page).toHaveURL("/donor_home");
  await expect(page.getByText("Ayesha", { exact: true }).first()).toBeVisible();
  // Signed in, the sign-in page leads home.
  await page.goto("/donor_signin");
  await expect(page).toHaveURL("/donor_home");

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL("/donor");
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === "ekc_session")).toBeUndefined();
  await page.goto("/donor_home");
  await expect(page).toHaveURL("/donor_signin?redirectTo=%2Fdonor_home");
  // The password chosen at sign-up signs in.
  await signIn(page, "/donor_signin", email, "Ayesha-gives-2024");
  await expect(page).toHaveURL("/donor_home");
});

test("a rider signs up with the rider form's messages", async ({ page }) => {
  await page.goto("/rider_signup");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Sign Up" }).click();
  for (const message of ["First Name is required", "Last Name is required"]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  // The form's notice, then contact number and CNIC, which the specification marks only '* Required'.
  await expect(page.getByText("* Required", { exact: true })).toHaveCount(3);
  await expect(page.getByText("Enter your area or town.")).toBeVisible();
  await page.getByLabel("First name").fill("Bilal");
  await page.getByLabel("Last name").fill("Ahmed");
  await page.getByLabel("Email").fill("bilal@nowhere");
  await page.getByLabel("Password", { exact: true }).fill("Bilal-rides-2024");
  await page.getByLabel("Contact number").fill("03111234567");
  await page.getByLabel("CNIC").fill("42101-1234567");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await expect(page.getByText("Invalid CNIC number")).toBeVisible();
  await page.getByLabel("Email").fill(uniqueEmail("rider-e2e"));
  await page.getByLabel("CNIC").fill("42101-1234567-1");
  await page.getByLabel("Area or town").fill("Lahore");
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page).toHaveURL("/rider_signin?notice=submitted");
});

test("sign-in tells apart a missing account, a wrong password and a suspended one, and returns to the asked page", async ({
  page,
  account,
  db,
}) => {
  const donor = await account({ role: "donor" });
  await page.goto("/admin_signin");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Admin log in");
  await expect(page.getByRole("link", { name: "Sign up" })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByText("Password is required")).toBeVisible();

  await signIn(page, "/ngo_signin", donor.email, TEST_PASSWORD);
  await expect(errorBox(page)).toHaveText("Error: No NGO account exists for this email.");
  await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveAttribute("href", "/forgot_password");
  await expect(page.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/ngo_signup");
  await expectAccessible(page);

  await signIn(page, "/donor_signin", donor.email, "Not-the-password-1");
  await expect(errorBox(page)).toHaveText("Error: Incorrect email or password.");

  const ngo = await account({ role: "ngo" });
  await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, ngo.id));
  await signIn(page, "/ngo_signin", ngo.email, TEST_PASSWORD);
  await expect(errorBox(page)).toHaveText("Error: This account has been suspended. Please contact the administrator.");

  await page.goto("/settingsDonor");
  await expect(page).toHaveURL("/donor_signin?redirectTo=%2FsettingsDonor");
  await page.getByLabel("Email").fill(donor.email);
  await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL("/settingsDonor");
});

test("a rejected rider reads the reason, corrects the details and re-submits", async ({ page, account, db }) => {
  const rider = await account({ role: "rider", verification: "rejected" });
  await db.update(users).set({ rejectionReason: "The CNIC number is unreadable." }).where(eq(users.id, rider.id));
  await signIn(page, "/rider_signin", rider.email, TEST_PASSWORD);
  await expect(page).toHaveURL("/resubmit");
  await expect(errorBox(page).first()).toHaveText("Error: The CNIC number is unreadable.");
  await expect(page.getByLabel("Last name")).toHaveValue("Rider");
  await expectAccessible(page);
  // Guarded pages lead back here until the details are accepted.
  await page.goto("/rider_home");
  await expect(page).toHaveURL("/resubmit");

  await page.getByLabel("CNIC").fill("123");
  await page.getByRole("button", { name: "Re-submit" }).click();
  await expect(page.getByText("Invalid CNIC number")).toBeVisible();
  await page.getByLabel("CNIC").fill("42101-7654321-9");
  await page.getByRole("button", { name: "Re-submit" }).click();
  await expect(page).toHaveURL("/rider_signin?notice=resubmitted");
  await expect(page.getByRole("status")).toContainText("corrected details were sent");
  const [row] = await db.select().from(users).where(eq(users.id, rider.id));
  expect(row).toMatchObject({ verification: "pending", rejectionReason: null });
  await page.goto("/resubmit");
  await expect(page).toHaveURL("/");

  // The administrator sees it marked as re-submitted.
  const admin = await account({ role: "admin" });
  await signIn(page, "/admin_signin", admin.email, TEST_PASSWORD);
  await expect(page).toHaveURL("/admin");
  const card = page.getByRole("article").filter({ hasText: rider.email });
  await expect(card.getByTestId("resubmitted")).toContainText("Re-submitted after a rejection");
});

test("where a donor was going survives a forgotten password: sign-in, the emailed link, the reset, sign-in again", async ({
  page,
  account,
}) => {
  const donor = await account({ role: "donor" });
  const going = "/dvh2";
  await page.goto(going);
  await expect(page).toHaveURL(`/donor_signin?redirectTo=${encodeURIComponent(going)}`);
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(`/forgot_password?redirectTo=${encodeURIComponent(going)}`);
  await page.getByLabel("Email").fill(donor.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect.poll(() => receivedMail(donor.email).length).toBe(1);
  const link = /http\S+\/reset_password\?token=[\w-]+&redirectTo=\S+/.exec(receivedMail(donor.email)[0]!)![0];
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("Found-it-again-2024");
  await page.getByLabel("Confirm the new password").fill("Found-it-again-2024");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL(`/donor_signin?notice=reset&redirectTo=${encodeURIComponent(going)}`);
  await signIn(page, `/donor_signin?notice=reset&redirectTo=${encodeURIComponent(going)}`, donor.email, "Found-it-again-2024");
  await expect(page).toHaveURL(going);
});

test("switching the language on a sign-in page keeps where the visitor was going", async ({ page }) => {
  const at = `/donor_signin?redirectTo=${encodeURIComponent("/donate1?campaign=roti-bank")}`;
  await page.goto(at);
  await page.getByRole("button", { name: "اردو" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ur");
  await expect(page).toHaveURL(at);
  await expect(page.locator('main input[name="redirectTo"]')).toHaveValue("/donate1?campaign=roti-bank");
});

test("a forgotten password is reset through the emailed link, once", async ({ page, account, db, context, login }) => {
  const donor = await account({ role: "donor" });
  await page.goto("/forgot_password");
  await expectAccessible(page);
  const neutral = "If an account exists for this email, we have sent it a link to reset the password. The link works for one hour.";
  await page.getByLabel("Email").fill(uniqueEmail("nobody"));
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toHaveText(neutral);

  await page.getByLabel("Email").fill(donor.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toHaveText(neutral);
  await expect.poll(() => receivedMail(donor.email).length).toBe(1);
  const [mail] = receivedMail(donor.email);
  expect(mail).toContain("Subject: Reset your Ek Chhat password");
  const link = /http\S+\/reset_password\?token=[\w-]+/.exec(mail!)![0];
  // The admin's outbox records that it was sent, and never the link.
  const [kept] = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, donor.email)).orderBy(desc(mailOutbox.createdAt));
  expect(kept).toMatchObject({ status: "sent", subject: "Reset your Ek Chhat password" });
  expect(kept!.body).not.toContain("token=");

  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Choose a new password");
  await expectAccessible(page);
  await page.getByLabel("New password", { exact: true }).fill("Fresh-start-2024");
  await page.getByLabel("Confirm the new password").fill("Fresh-start-2025");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("The two passwords do not match.")).toBeVisible();
  await page.getByLabel("Confirm the new password").fill("Fresh-start-2024");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page).toHaveURL("/donor_signin?notice=reset");
  await expect(page.getByRole("status")).toHaveText("Your password was changed. Please log in with the new password.");

  await signIn(page, "/donor_signin", donor.email, TEST_PASSWORD);
  await expect(errorBox(page)).toHaveText("Error: Incorrect email or password.");
  await signIn(page, "/donor_signin", donor.email, "Fresh-start-2024");
  await expect(page).toHaveURL("/donor_home");

  await page.goto(link);
  await expect(errorBox(page)).toHaveText("Error: This reset link is invalid, has expired or was already used. Please ask for a new one.");
  await expectAccessible(page);

  // The administrator's outbox shows the mail was sent, never its link.
  await context.clearCookies();
  await login({ role: "admin" });
  await page.goto("/admin/outbox");
  const entry = page.getByRole("article").filter({ hasText: donor.email }).first();
  await expect(entry).toContainText("Not shown: this message held a private link");
  await expect(entry).not.toContainText("token=");
});

test("GET /logout changes nothing", async ({ page, login }) => {
  await login({ role: "ngo" });
  await page.goto("/logout");
  await expect(page).toHaveURL("/");
  await page.goto("/ngo_home");
  await expect(page).toHaveURL("/ngo_home");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("sign-up shows the server's messages and creates the account", async ({ page }) => {
    await page.goto("/donor_signup");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL("/donor_signup");
    for (const message of [
      "* Required",
      "First name is required",
      "Contact number is required",
      "Password must be at least 6 characters",
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    const email = uniqueEmail("nojs");
    await page.getByLabel("First name").fill("Sana");
    await page.getByLabel("Last name").fill("Malik");
    await page.getByLabel("Address").fill("F-7, Islamabad");
    await page.getByLabel("Contact number").fill("0333-1234567");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("Sana-gives-2024");
    await page.getByLabel("Profile picture (optional)").setInputFiles(await pngFile());
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page).toHaveURL("/donor_home");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL("/donor");
    await page.goto("/donor_signin");

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("wrong-password-9");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(errorBox(page)).toHaveText("Error: Incorrect email or password.");
    // The server keeps the email but never sends a password back.
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    await page.getByLabel("Password", { exact: true }).fill("Sana-gives-2024");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(page).toHaveURL("/donor_home");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL("/donor");
  });

  test("the NGO and rider forms report bad input from the server", async ({ page }) => {
    await page.goto("/ngo_signup");
    await page.getByLabel("Contact number").fill("12345");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page.getByText("NGO name is required")).toBeVisible();
    await expect(page.getByText("Invalid contact number")).toBeVisible();

    await page.goto("/rider_signup");
    await page.getByLabel("CNIC").fill("12345");
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page.getByText("First Name is required")).toBeVisible();
    await expect(page.getByText("Invalid CNIC number")).toBeVisible();
  });
});
