import { eq } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { CONTROL_CHARACTERS_MESSAGE, parseWithZod } from "#shared/forms/parse.ts";
import { hasControlCharacters } from "#shared/text.ts";
import { users } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { createApp } from "#server/http/app.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

describe("control characters", () => {
  it("are found in text, and Urdu, its joiners, direction marks, emoji and newlines are not", () => {
    for (const bad of ["a\u0000b", "\u0007", "x\u001b[31m", "\u007f", "\u0085", "\u009b", "lone \ud800", "lone \udc00 low"]) {
      expect(hasControlCharacters(bad), JSON.stringify(bad)).toBe(true);
    }
    for (const good of [
      "کراچی میں کھانا",
      "می\u200cخواهم",
      "\u200fسلام\u200e",
      "line one\nline two\r\n\tindented",
      "🙂 ok",
      "Zakat · زکوٰۃ",
    ]) {
      expect(hasControlCharacters(good), JSON.stringify(good)).toBe(false);
    }
    expect(hasControlCharacters("a\tb", { lineBreaks: false })).toBe(true);
    expect(hasControlCharacters("a\nb", { lineBreaks: false })).toBe(true);
  });

  it("in any field of any form give that field a message, before the schema is even satisfied", () => {
    const schema = z.object({ title: z.string(), description: z.string() });
    const form = new FormData();
    form.set("title", "Food\u0000drive");
    form.set("description", "Two lines\nof Urdu: کھانا");
    form.set("intent", "save\u0001");
    const submission = parseWithZod(form, { schema });
    if (submission.status === "success") throw new Error("a NUL was accepted");
    expect(submission.error).toMatchObject({ title: [CONTROL_CHARACTERS_MESSAGE], intent: [CONTROL_CHARACTERS_MESSAGE] });
    expect(submission.error?.description).toBeUndefined();

    const clean = new FormData();
    clean.set("title", "Food drive");
    clean.set("description", "Two lines\nof Urdu: کھانا\u200c");
    const ok = parseWithZod(clean, { schema });
    expect(ok.status).toBe("success");
    expect(ok.status === "success" && ok.value.description).toBe("Two lines\nof Urdu: کھانا\u200c");
  });
});

describe("the HTTP guard", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  // React Router is not part of these tests: what they check is answered before it.
  const app = () =>
    createApp({
      services: s,
      build: () => Promise.reject(new Error("React Router is not part of this test")) as Promise<ServerBuild>,
      mode: "production",
    });

  it("answers 404 for a path and 400 for a query that holds a control character or a broken escape", async () => {
    for (const path of ["/campaign/a%00b", "/files/proof/x%00.webp", "/campaign/%0d%0aSet-Cookie:x", "/campaign/%E0%A4%A", "/dvh%00"]) {
      const res = await app().request(path, { headers: { accept: "text/html" } });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(await res.text(), path).toContain("We could not find that page.");
    }
    for (const path of [
      "/campaigns?q=%00",
      "/vfg1?q=a%00",
      "/donate2?campaign=%00",
      "/rider_home?q=%1b",
      "/x?%00=1",
      "/x?q=%ZZ",
      "/x?q=a%0Ab",
    ]) {
      const res = await app().request(path);
      expect(res.status, path).toBe(400);
      expect(await res.text(), path).toContain("no page of ours uses");
    }
    // In Urdu, for someone who reads Urdu.
    const ur = await app().request("/campaigns?q=%00", { headers: { cookie: "ekc_lang=ur", accept: "text/html" } });
    expect(ur.status).toBe(400);
    expect(await ur.text()).toContain('dir="rtl"');
  });

  it("leads back only to a path of this site from a refusal page, whatever the Referer's path holds", async () => {
    const res = await app().request("/campaign/a%00b", {
      headers: { accept: "text/html", referer: `${s.config.APP_URL}//evil.example/x` },
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('href="/"');
  });

  it("lets Urdu, spaces and plus signs through to the routes", async () => {
    const res = await app().request(`/files/proof/x.webp?q=${encodeURIComponent("کراچی + لاہور")}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("Not found");
  });

  it("sends a Permissions-Policy that turns off what the app does not use", async () => {
    const res = await app().request("/files/proof/x.webp");
    const policy = res.headers.get("permissions-policy") ?? "";
    expect(policy).toContain("camera=()");
    expect(policy).toContain("geolocation=()");
    expect(policy).toContain("payment=()");
  });

  describe("the language switch", () => {
    const post = (body: BodyInit, opts: { cookie?: string; type?: string } = {}) =>
      app().request("/language", {
        method: "POST",
        headers: {
          origin: s.config.APP_URL,
          "content-type": opts.type ?? "application/x-www-form-urlencoded",
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
        },
        body,
      });
    const languageOf = async (id: string) => (await s.db.select({ l: users.language }).from(users).where(eq(users.id, id)))[0]!.l;

    it("answers a body it cannot read with 400, and changes nothing", async () => {
      const donor = await makeUser(s.db, "donor");
      const cookie = `${SESSION_COOKIE}=${(await createSession(s.db, donor.id)).token}`;
      const cut = await post('--XX\r\nContent-Disposition: form-data; name="lang"\r\n\r\nur', {
        cookie,
        type: "multipart/form-data; boundary=XX",
      });
      expect(cut.status).toBe(400);
      expect(cut.headers.get("set-cookie")).toBeNull();
      const unknown = await post(new URLSearchParams({ lang: "fr" }).toString(), { cookie });
      expect(unknown.status).toBe(400);
      expect(await languageOf(donor.id)).toBe("en");
    });

    it("goes only to a local path, whatever redirectTo holds", async () => {
      for (const target of [
        "/\t/evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "/a\r\nSet-Cookie: x=1",
        "/a\u0000b",
        "//evil.example",
        "https://evil.example",
      ]) {
        const res = await post(new URLSearchParams({ lang: "ur", redirectTo: target }).toString());
        expect(res.status, JSON.stringify(target)).toBe(303);
        expect(res.headers.get("location"), JSON.stringify(target)).toBe("/");
      }
      const home = await post(new URLSearchParams({ lang: "ur", redirectTo: "/donate1?campaign=roti" }).toString());
      expect(home.headers.get("location")).toBe("/donate1?campaign=roti");
    });
  });
});
