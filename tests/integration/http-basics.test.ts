import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { rateLimits } from "#server/db/schema.ts";
import { makeOlder } from "#tests/helpers/time.ts";
import { originAllowed } from "#server/http/origin.ts";
import { hitRateLimit } from "#server/domain/rate-limit.ts";
import { mayRead, saveImage } from "#server/domain/files/files.ts";
import { assertValidKey } from "#server/storage/storage.ts";
import { safeRedirectTarget } from "#shared/roles.ts";
import { routeEntries } from "#tests/helpers/route-areas.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import sharp from "sharp";

const APP = "http://localhost:3000";
const headers = (h: Record<string, string>) => new Headers(h);

describe("origin check", () => {
  const sentTo = "http://127.0.0.1:3100/ngo_signup";
  it("accepts the app's own origin and the address the request was sent to", () => {
    expect(originAllowed(headers({ origin: APP }), APP, sentTo)).toBe(true);
    expect(originAllowed(headers({ origin: "http://127.0.0.1:3100" }), APP, sentTo)).toBe(true);
    expect(originAllowed(headers({ referer: "http://localhost:3000/ngo_signup" }), APP, sentTo)).toBe(true);
  });
  it("refuses other sites, opaque origins and requests that name none", () => {
    expect(originAllowed(headers({ origin: "https://evil.example" }), APP, sentTo)).toBe(false);
    expect(originAllowed(headers({ origin: "null" }), APP, sentTo)).toBe(false);
    expect(originAllowed(headers({}), APP, sentTo)).toBe(false);
    expect(originAllowed(headers({ origin: "not a url" }), APP, sentTo)).toBe(false);
  });
  it("compares the scheme and port too, not only the host", () => {
    expect(originAllowed(headers({ origin: "https://127.0.0.1:3100" }), APP, sentTo)).toBe(false);
    expect(originAllowed(headers({ origin: "http://127.0.0.1:3101" }), APP, sentTo)).toBe(false);
    expect(originAllowed(headers({ origin: "https://localhost:3000" }), APP, sentTo)).toBe(false);
  });
});

describe("route table", () => {
  // The specification's guarded pages, by role: each must sit in its role's area of app/routes.ts, whose layout's
  // middleware is the one guard (tests/integration/guard.test.ts, tests/e2e/guards.spec.ts).
  const words = (list: string) => list.trim().split(/\s+/);
  const SPEC_PAGES = {
    admin: words(`/admin /admin/accounts /admin/audit /admin/outbox /admin/zakat /admin/spending`),
    ngo: words(
      `/ngo_home /apps /noncash_apps /campaigns /create_camp /comp_camp /vol0 /cc1 /vol1 /vol2 /vol3 /volApproved /volRejected /volPSDAA /volClosed /settingsNGO /collab /collab1 /donHistory /ngo_map /campaigns/:id/edit /campaigns/:id/delete /campaigns/:id/analytics /collab/join/:campaignId /donHistory/export /campaigns/:id/updates /campaigns/:id/words`,
    ),
    donor: words(
      `/donor_home /donate1 /donate2 /donate3 /donate4 /donate5 /donate5_1 /donate6 /donor_map /vfg1 /vfg2 /vfg3 /dvh /dvh2 /settingsDonor /dvh/statements /dvh/statements/:kind/:year /support/:slug`,
    ),
    rider: words(`/rider_home /rider_profile`),
    account: words(`/notifications /receipts/:id`),
  };
  // Everything else of the route table is public; a new route lands in an area, or on this list on purpose.
  const PUBLIC = words(
    `/ /ngo /donor /rider /admin_signin /ngo_signin /donor_signin /rider_signin /ngo_signup /donor_signup /rider_signup /logout /forgot_password /reset_password /resubmit /about /campaign/:slug /campaign/:slug/ledger /campaign/:slug/updates /ngo/:id /api/places /api/map /*`,
  );
  it("puts every guarded page of the specification in its role's area, and nothing else outside one", () => {
    const areaOf = new Map(routeEntries().map((r) => [r.path, r.area]));
    for (const [area, paths] of Object.entries(SPEC_PAGES)) for (const p of paths) expect(areaOf.get(p), p).toBe(area);
    const unguarded = routeEntries()
      .filter((r) => r.area === null)
      .map((r) => r.path);
    expect(unguarded.sort()).toEqual([...PUBLIC].sort());
  });
  it("only lets local paths be redirect targets", () => {
    expect(safeRedirectTarget("/ngo_home", "/")).toBe("/ngo_home");
    expect(safeRedirectTarget("//evil.example", "/")).toBe("/");
    expect(safeRedirectTarget("https://evil.example", "/")).toBe("/");
    expect(safeRedirectTarget("/\\evil.example", "/")).toBe("/");
    expect(safeRedirectTarget(undefined, "/x")).toBe("/x");
  });
  it("refuses targets a URL parser would read as another host, and control characters", () => {
    for (const bad of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/%09/x\u0000",
      "/a\u0000b",
      "/a\rSet-Cookie: x=1",
      "/\u0085x",
      "/" + "a".repeat(3000),
      "javascript:alert(1)",
      "/\\\\evil",
    ]) {
      expect(safeRedirectTarget(bad, "/home"), JSON.stringify(bad)).toBe("/home");
    }
  });
  it("keeps local paths, their queries and Urdu, written as a Location header can carry them", () => {
    expect(safeRedirectTarget("/donate1?campaign=roti-bank&x=1", "/")).toBe("/donate1?campaign=roti-bank&x=1");
    expect(safeRedirectTarget("/campaign/کراچی", "/")).toBe("/campaign/%DA%A9%D8%B1%D8%A7%DA%86%DB%8C");
    expect(safeRedirectTarget("/a/../b", "/")).toBe("/b");
  });
});

describe("database rate limiter", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("allows the limit, then refuses, counting concurrent hits exactly", async () => {
    const key = `test:${Math.random()}`;
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => hitRateLimit(s.db, key, 5, 60)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(3);
    await expect(hitRateLimit(s.db, key, 5, 60)).rejects.toMatchObject({ kind: "rate_limited" });
    await expect(hitRateLimit(s.db, `${key}:other`, 5, 60)).resolves.toBeUndefined();
  });

  it("starts a new window once the old one has passed", async () => {
    const key = `test:${Math.random()}`;
    await hitRateLimit(s.db, key, 1, 1);
    await expect(hitRateLimit(s.db, key, 1, 1)).rejects.toMatchObject({ kind: "rate_limited" });
    await makeOlder(s.db, rateLimits, rateLimits.windowStart, eq(rateLimits.key, key), 2);
    await expect(hitRateLimit(s.db, key, 1, 1)).resolves.toBeUndefined();
  });
});

describe("files", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  it("re-encodes images to WebP under a generated key and strips metadata", async () => {
    const owner = await makeUser(s.db, "donor");
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#f00" } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "secret-location" } } })
      .toBuffer();
    const key = await saveImage(s, {
      file: new File([new Uint8Array(jpeg)], "../../etc/passwd.jpg"),
      kind: "avatar",
      ownerId: owner.id,
      field: "picture",
    });
    expect(key).toMatch(/^avatar\/[0-9a-f-]{36}\.webp$/);
    const stored = await s.storage.get(key);
    const meta = await sharp(stored!).metadata();
    expect(meta.format).toBe("webp");
    expect(meta.exif).toBeUndefined();
  });

  it("refuses a script disguised as an image and an oversized upload", async () => {
    const owner = await makeUser(s.db, "donor");
    const html = new File(["<html><script>alert(1)</script></html>"], "cat.png", { type: "image/png" });
    await expect(saveImage(s, { file: html, kind: "avatar", ownerId: owner.id, field: "picture" })).rejects.toMatchObject({
      message: "validation:imageInvalid",
      field: "picture",
    });
    const big = new File([new Uint8Array(6 * 1024 * 1024)], "big.png", { type: "image/png" });
    await expect(saveImage(s, { file: big, kind: "avatar", ownerId: owner.id, field: "picture" })).rejects.toMatchObject({
      message: "validation:imageTooLarge",
    });
  });

  it("serves private files only to their owner and the admin", async () => {
    const file = { key: "avatar/x.webp", kind: "avatar" as const, ownerId: "owner" };
    const user = (id: string, role: "admin" | "ngo" | "donor" | "rider") => ({
      id,
      role,
      email: "",
      verification: "verified" as const,
      displayName: "",
      pictureKey: null,
      unreadNotifications: 0,
    });
    const db = s.db;
    expect(await mayRead(db, file, null)).toBe(false);
    expect(await mayRead(db, file, user("someone", "donor"))).toBe(false);
    expect(await mayRead(db, file, user("owner", "donor"))).toBe(true);
    expect(await mayRead(db, file, user("x", "admin"))).toBe(true);
    expect(await mayRead(db, { key: "logo/x.webp", kind: "logo", ownerId: "owner" }, null)).toBe(true);
  });

  it("accepts only generated storage keys", () => {
    expect(() => assertValidKey("../secret")).toThrow();
    expect(() => assertValidKey("avatar/../../x.webp")).toThrow();
    expect(() => assertValidKey("avatar/0b7c7a3e-3a57-4d47-9a55-1c1f0f7c1d2a.webp")).not.toThrow();
  });
});
