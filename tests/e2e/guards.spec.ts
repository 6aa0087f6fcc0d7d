import { ROLE_HOME, ROLE_SIGN_IN } from "#shared/roles.ts";
import { roleRoutes } from "#tests/helpers/route-areas.ts";
import { expect, test } from "./fixtures.ts";

// Every page and resource route of the four role areas of app/routes.ts, with a made-up value for each parameter.
const paths = roleRoutes().map(([path, role]) => [path.replace(/:[A-Za-z]+/g, "x"), role] as const);

test("a signed-out visit to every guarded path goes to that role's sign-in and remembers the page", async ({ page }) => {
  for (const [path, role] of paths) {
    await page.goto(path);
    const url = new URL(page.url());
    expect(url.pathname, path).toBe(ROLE_SIGN_IN[role]);
    expect(url.searchParams.get("redirectTo"), path).toBe(path);
  }
});

test("a client-side navigation into a guarded page is redirected in React Router's own form", async ({ request }) => {
  const data = await request.get("/donate1.data?campaign=x&_routes=routes%2Fdonate%2Fpick", { maxRedirects: 0 });
  expect(data.status()).toBe(202);
  const payload = await data.text();
  expect(payload).toContain("SingleFetchRedirect");
  expect(payload).toContain(`/donor_signin?redirectTo=${encodeURIComponent("/donate1?campaign=x")}`);
  // The public page's Donate link (tests/e2e/donate.spec.ts) is such a navigation, followed through to sign-in.
});

for (const visitor of ["admin", "ngo", "donor", "rider"] as const) {
  test(`a signed-in ${visitor} visiting another role's pages is sent home with a notice`, async ({ page, login }) => {
    await login({ role: visitor });
    for (const [path, role] of paths) {
      if (role === visitor) continue;
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(303);
      expect(response.headers()["location"], path).toBe(`${ROLE_HOME[visitor]}?notice=wrongRole`);
    }
  });
}

test("state-changing requests from another site are refused", async ({ request }) => {
  const refused = await request.post("/language", { form: { lang: "ur" }, headers: { origin: "https://evil.example" } });
  expect(refused.status()).toBe(403);
  const noOrigin = await request.post("/logout", { form: {}, headers: { origin: "null" } });
  expect(noOrigin.status()).toBe(403);
});

test("pages carry security headers with a nonce-based Content-Security-Policy", async ({ page }) => {
  const response = await page.goto("/");
  const headers = response!.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
});

test("pages made for a signed-in user, and their data, are never kept by a browser or a proxy", async ({ page, login }) => {
  await login({ role: "admin" });
  for (const path of ["/admin/outbox", "/admin/outbox.data", "/admin"]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
    expect(response.headers()["cache-control"], path).toBe("private, no-store");
  }
  // A reset link's page carries a secret in its address: not kept either.
  const reset = await page.request.get("/reset_password?token=made-up");
  expect(reset.headers()["cache-control"]).toBe("private, no-store");
  // Hashed assets are the exception: kept for a year.
  const html = await (await page.request.get("/admin")).text();
  const asset = html.match(/\/assets\/[^"]+\.js/)![0];
  expect((await page.request.get(asset)).headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

test("a page opened without its id, or an unknown address, stays inside the app on a phone: menu and a way home", async ({
  page,
  login,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await login({ role: "donor" });
  for (const path of ["/donate4", "/no-such-page"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("alert")).toHaveText("We could not find that page.");
    await page.getByText("Menu").click();
    await expect(page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Donate" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the home page" })).toHaveAttribute("href", "/donor_home");
  }
});

test("a signed-out visit to a page any account may open goes through the role choice and sign-in, and back", async ({ page, account }) => {
  const donor = await account({ role: "donor" });
  await page.goto("/notifications");
  await expect(page).toHaveURL("/?redirectTo=%2Fnotifications");
  await page.getByRole("navigation", { name: "Choose how you use Ek Chhat" }).getByRole("link", { name: "Donor" }).click();
  await expect(page).toHaveURL("/donor?redirectTo=%2Fnotifications");
  await page.getByRole("link", { name: "Log In" }).click();
  await expect(page).toHaveURL("/donor_signin?redirectTo=%2Fnotifications");
  await page.getByLabel("Email").fill(donor.email);
  await page.getByLabel("Password", { exact: true }).fill(donor.password);
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page).toHaveURL("/notifications");
});
