import { describe, expect, it } from "vitest";
import { RouterContextProvider } from "react-router";
import type { TestServices } from "#tests/helpers/services.ts";
import { signIn, withWholeApp, type TestApp } from "#tests/helpers/app.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { roleRoutes } from "#tests/helpers/route-areas.ts";
import { requireAnyUser, requireUser } from "#app/lib/http.server.ts";
import { ROLE_HOME, ROLE_SIGN_IN, ROLES, type Role } from "#shared/roles.ts";

/**
 * The one route guard (decision 021): the middleware of each area's layout in app/routes.ts, through the real
 * server build and the Hono app, for every page and resource route of the four role areas.
 */
let s: TestServices;
let t: TestApp;
const cookies = {} as Record<Role | "pendingNgo", string>;

withWholeApp(async (app) => {
  ({ s, t } = app);
  for (const role of ROLES) cookies[role] = await signIn(s.db, (await makeUser(s.db, role)).id);
  cookies.pendingNgo = await signIn(s.db, (await makeUser(s.db, "ngo", { verification: "pending" })).id);
});

const paths = roleRoutes().map(([path, role]) => [path.replace(/:[A-Za-z]+/g, "x"), role] as const);

describe("the area guard", () => {
  it("covers the four roles' areas", () => {
    expect(new Set(paths.map(([, role]) => role))).toEqual(new Set(ROLES));
  });

  it("sends a signed-out visitor to the area's sign-in, remembering the page and its query, for pages and their data", async () => {
    for (const [path, role] of paths) {
      const res = await t.request(`${path}?page=2`);
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toBe(`${ROLE_SIGN_IN[role]}?redirectTo=${encodeURIComponent(`${path}?page=2`)}`);
    }
    // A client-side navigation fetches `<path>.data`: the redirect comes in React Router's own form (a single-fetch
    // payload the browser's router follows), to the page rather than to its data.
    const data = await t.request("/apps.data?page=2");
    expect(data.status).toBe(202);
    const payload = await data.text();
    expect(payload).toContain("SingleFetchRedirect");
    expect(payload).toContain(`/ngo_signin?redirectTo=${encodeURIComponent("/apps?page=2")}`);
  });

  it("refuses a post from a signed-out visitor before any action runs", async () => {
    const res = await t.request("/apps", { method: "POST", body: new URLSearchParams({ intent: "approve" }) });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/ngo_signin?redirectTo=${encodeURIComponent("/apps")}`);
  });

  it("sends an account of another role home with a notice", async () => {
    for (const visitor of ROLES) {
      for (const [path, role] of paths) {
        if (role === visitor) continue;
        const res = await t.request(path, { cookie: cookies[visitor] });
        expect(res.status, `${visitor} ${path}`).toBe(303);
        expect(res.headers.get("location"), `${visitor} ${path}`).toBe(`${ROLE_HOME[visitor]}?notice=wrongRole`);
      }
    }
  });

  it("sends an account that is not approved yet to /resubmit", async () => {
    for (const path of ["/ngo_home", "/apps", "/notifications"]) {
      const res = await t.request(path, { cookie: cookies.pendingNgo });
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toBe("/resubmit");
    }
  });

  it("lets the area's own role in, and any signed-in account into the account area", async () => {
    for (const role of ROLES) {
      const res = await t.request(ROLE_HOME[role], { cookie: cookies[role] });
      expect(res.status, role).toBe(200);
      const notifications = await t.request("/notifications", { cookie: cookies[role] });
      expect(notifications.status, role).toBe(200);
    }
    // Any account may open it: the visitor chooses a role on the home page, which carries the way back.
    expect((await t.request("/notifications")).headers.get("location")).toBe("/?redirectTo=%2Fnotifications");
  });

  it("keeps a 404 inside the app: the sidebar stays and the way back leads to the user's home", async () => {
    // A missing row, an unknown address, and pages opened without the id they need.
    const cases = [
      ["/campaigns/00000000-0000-4000-8000-000000000000/edit", "ngo"],
      ["/no-such-page", "ngo"],
      ["/vol3", "ngo"],
      ["/donate4", "donor"],
      ["/vfg2", "donor"],
    ] as const;
    for (const [path, role] of cases) {
      const res = await t.request(path, { cookie: cookies[role] });
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html, path).toContain('aria-label="Main navigation"');
      expect(html, path).toMatch(/role="alert"/);
      expect(html, path).toMatch(new RegExp(`href="${ROLE_HOME[role]}"[^>]*>Back to the home page`));
    }
    // Signed out, the same address is a plain 404 page without a sidebar.
    const anonymous = await t.request("/no-such-page");
    expect(anonymous.status).toBe(404);
    expect(await anonymous.text()).not.toContain('href="/ngo_home"');
  });
});

describe("reading the guarded account", () => {
  it("is refused where no guard ran: a page placed outside its area fails loudly instead of serving anyone", () => {
    const context = new RouterContextProvider();
    expect(() => requireUser(context, "ngo")).toThrow();
    expect(() => requireAnyUser(context)).toThrow();
  });
});
