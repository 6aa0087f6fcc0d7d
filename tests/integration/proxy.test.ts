import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerBuild } from "react-router";
import type { AppContext } from "#app/lib/load-context.ts";
import { ConfigError, loadConfig } from "#server/config.ts";
import { limitAddress } from "#server/domain/rate-limit.ts";
import { createApp } from "#server/http/app.ts";
import { sessionCookie } from "#server/http/cookies.ts";
import { normalizeAddress, parseTrustedHops, requestOriginOf } from "#server/http/proxy.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

const origin = (over: Partial<Parameters<typeof requestOriginOf>[0]>) =>
  requestOriginOf({ hops: 1, socketAddress: "10.0.0.2", alwaysSecure: false, ...over });

describe("TRUST_PROXY", () => {
  it("is false, true (one proxy) or a number of proxies", () => {
    expect(parseTrustedHops("false")).toBe(0);
    expect(parseTrustedHops("")).toBe(0);
    expect(parseTrustedHops("0")).toBe(0);
    expect(parseTrustedHops("true")).toBe(1);
    expect(parseTrustedHops("1")).toBe(1);
    expect(parseTrustedHops("2")).toBe(2);
    expect(parseTrustedHops("yes")).toBeNull();
    expect(parseTrustedHops("-1")).toBeNull();
    expect(parseTrustedHops("11")).toBeNull();
  });

  it("is parsed once in the configuration, and a bad value stops the server", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(0);
    expect(loadConfig({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "1" }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "3" }).TRUST_PROXY).toBe(3);
    expect(loadConfig({ TRUST_PROXY: "false" }).TRUST_PROXY).toBe(0);
    expect(() => loadConfig({ TRUST_PROXY: "all" })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: "all" })).toThrow(/TRUST_PROXY/);
  });
});

describe("the client's address behind proxies", () => {
  it("ignores X-Forwarded-For when no proxy is trusted", () => {
    expect(origin({ hops: 0, forwardedFor: "203.0.113.9" }).clientIp).toBe("10.0.0.2");
  });

  it("takes the entry the trusted proxy wrote, the right-most: a forged left-most entry changes nothing", () => {
    expect(origin({ forwardedFor: "203.0.113.9" }).clientIp).toBe("203.0.113.9");
    expect(origin({ forwardedFor: "1.1.1.1, 203.0.113.9" }).clientIp).toBe("203.0.113.9");
    expect(origin({ forwardedFor: "8.8.8.8,1.1.1.1,  203.0.113.9" }).clientIp).toBe("203.0.113.9");
  });

  it("counts the hops from the right", () => {
    // client -> CDN (writes the client) -> load balancer (writes the CDN) -> app
    expect(origin({ hops: 2, forwardedFor: "6.6.6.6, 203.0.113.9, 198.51.100.7" }).clientIp).toBe("203.0.113.9");
    expect(origin({ hops: 3, forwardedFor: "203.0.113.9, 198.51.100.7, 198.51.100.8" }).clientIp).toBe("203.0.113.9");
  });

  it("falls back to the socket's address for a missing, too short or malformed header", () => {
    expect(origin({}).clientIp).toBe("10.0.0.2");
    expect(origin({ forwardedFor: "" }).clientIp).toBe("10.0.0.2");
    expect(origin({ hops: 2, forwardedFor: "203.0.113.9" }).clientIp).toBe("10.0.0.2");
    expect(origin({ forwardedFor: "1.1.1.1, not-an-address" }).clientIp).toBe("10.0.0.2");
    expect(origin({ forwardedFor: "1.1.1.1, " }).clientIp).toBe("10.0.0.2");
    expect(origin({ forwardedFor: "203.0.113.9\u0000" }).clientIp).toBe("10.0.0.2");
    expect(origin({ forwardedFor: "x", socketAddress: undefined }).clientIp).toBe("unknown");
  });

  it("reads the forms proxies write addresses in, and Node's IPv4-mapped socket addresses", () => {
    expect(normalizeAddress("203.0.113.9:5123")).toBe("203.0.113.9");
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("2001:db8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeAddress("unknown")).toBeNull();
    expect(normalizeAddress("999.1.1.1")).toBeNull();
    expect(origin({ forwardedFor: "[2001:db8::5]:1234" }).clientIp).toBe("2001:db8::5");
    expect(origin({ hops: 0, socketAddress: "::ffff:10.1.2.3" }).clientIp).toBe("10.1.2.3");
  });

  it("keeps limits per IPv6 /64, where one subscriber holds many addresses", () => {
    expect(limitAddress("203.0.113.9")).toBe("203.0.113.9");
    expect(limitAddress("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(limitAddress("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(limitAddress("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(limitAddress("::1")).toBe("0:0:0:0::/64");
    expect(limitAddress("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
    expect(limitAddress("unknown")).toBe("unknown");
  });
});

describe("whether the request is secure", () => {
  it("believes X-Forwarded-Proto only from a trusted proxy, by the same hop rule", () => {
    expect(origin({ hops: 0, forwardedProto: "https" }).secure).toBe(false);
    expect(origin({ forwardedProto: "https" }).secure).toBe(true);
    expect(origin({ forwardedProto: "HTTPS" }).secure).toBe(true);
    expect(origin({ forwardedProto: "http" }).secure).toBe(false);
    expect(origin({}).secure).toBe(false);
    // A proxy that appends: the client's own "https" on the left is not believed.
    expect(origin({ forwardedProto: "https, http" }).secure).toBe(false);
    expect(origin({ hops: 2, forwardedProto: "http, https, http" }).secure).toBe(true);
    // Proxies that overwrite leave one value, whatever the number of hops.
    expect(origin({ hops: 2, forwardedProto: "https" }).secure).toBe(true);
  });

  it("is always secure for an https APP_URL", () => {
    expect(origin({ hops: 0, alwaysSecure: true }).secure).toBe(true);
    expect(origin({ alwaysSecure: true, forwardedProto: "http" }).secure).toBe(true);
  });
});

describe("through the app", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  /**
   * A React Router build of one resource route that answers with what the load context says, and sets the session
   * cookie as the sign-in action does: the HTTP layer's facts, exactly as every loader and action receives them.
   */
  /** The address each run of the `form` route's action saw its request at. */
  const actionSaw: string[] = [];
  const build = {
    // A document is its status alone: what these tests ask of a page is whether React Router let its action run.
    entry: { module: { default: (_request: Request, status: number) => new Response("the page", { status }) } },
    routes: {
      root: { id: "root", path: "", module: {} },
      form: {
        id: "form",
        parentId: "root",
        path: "form",
        module: {
          action: async ({ request }: { request: Request }) => {
            actionSaw.push(`${request.url} ${(await request.formData()).get("field")}`);
            return { done: true };
          },
          default: () => null,
        },
      },
      whoami: {
        id: "whoami",
        parentId: "root",
        path: "whoami",
        module: {
          loader: ({ context }: { context: AppContext }) =>
            Response.json(
              { clientIp: context.clientIp, secure: context.secure },
              { headers: { "Set-Cookie": sessionCookie(context.secure, "tok"), "Cache-Control": "no-store" } },
            ),
        },
      },
    },
    assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "1" },
    publicPath: "/",
    assetsBuildDirectory: "",
    future: { v8_middleware: true },
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;

  function app(env: Record<string, string> = {}) {
    const config = { ...s.config, ...loadConfig({ NODE_ENV: "test", DATA_DIR: s.config.DATA_DIR, LOG_LEVEL: "silent", ...env }) };
    return createApp({ services: { ...s, config }, build, mode: "production" });
  }
  async function whoami(env: Record<string, string>, headers: Record<string, string> = {}) {
    const res = await app(env).request("/whoami", { headers });
    expect(res.status).toBe(200);
    return { body: (await res.json()) as { clientIp: string; secure: boolean }, res };
  }

  it("hands loaders the address the trusted proxy saw, never a forged one", async () => {
    const forged = { "x-forwarded-for": "1.2.3.4, 203.0.113.9" };
    expect((await whoami({ TRUST_PROXY: "true" }, forged)).body.clientIp).toBe("203.0.113.9");
    expect((await whoami({ TRUST_PROXY: "true" }, { "x-forwarded-for": "5.6.7.8, 203.0.113.9" })).body.clientIp).toBe("203.0.113.9");
    expect((await whoami({ TRUST_PROXY: "2" }, forged)).body.clientIp).toBe("1.2.3.4");
    expect((await whoami({ TRUST_PROXY: "2" }, { "x-forwarded-for": "9.9.9.9, 1.2.3.4, 203.0.113.9" })).body.clientIp).toBe("1.2.3.4");
    // Not trusted: the header is nobody's word (no socket in an in-process request).
    expect((await whoami({}, forged)).body.clientIp).toBe("unknown");
  });

  it("takes a page served over https by a trusted proxy as this site's, with an http APP_URL", async () => {
    const post = (env: Record<string, string>, headers: Record<string, string>) =>
      app({ APP_URL: "http://app.test", ...env }).request("http://app.test/language", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: "lang=ur&redirectTo=%2F",
      });
    expect((await post({ TRUST_PROXY: "1" }, { origin: "https://app.test", "x-forwarded-proto": "https" })).status).toBe(303);
    // Without the trusted proxy's word the https origin is another site's.
    expect((await post({}, { origin: "https://app.test", "x-forwarded-proto": "https" })).status).toBe(403);
    expect((await post({ TRUST_PROXY: "1" }, { origin: "https://evil.test", "x-forwarded-proto": "https" })).status).toBe(403);
  });

  it("lets a page's form act behind a proxy that ends TLS or rewrites Host, once the app's own check has passed", async () => {
    // React Router refuses an action whose Origin is not its request's address; behind such a proxy the two differ
    // for every form of the site (http inside, https outside; or the upstream's host), and each answered 400.
    const send = async (env: Record<string, string>, url: string, headers: Record<string, string>) => {
      actionSaw.length = 0;
      const res = await app({ APP_URL: "https://app.test", ...env }).request(url, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: "field=kept",
      });
      return { status: res.status, saw: [...actionSaw] };
    };
    const https = { origin: "https://app.test", "x-forwarded-proto": "https" };
    // TLS ended at the proxy: the page (no JavaScript) and the same form sent by the page's script (`.data`).
    expect(await send({ TRUST_PROXY: "1" }, "http://app.test/form?step=2", https)).toEqual({
      status: 200,
      saw: ["https://app.test/form?step=2 kept"],
    });
    expect((await send({ TRUST_PROXY: "1" }, "http://app.test/form.data", https)).saw).toEqual(["https://app.test/form kept"]);
    // A proxy that sends its upstream's address as Host (nginx's default): the Origin is APP_URL's.
    expect(await send({}, "http://127.0.0.1:3000/form", { origin: "https://app.test" })).toEqual({
      status: 200,
      saw: ["https://app.test/form kept"],
    });
    // Straight to the app, as in development: unchanged.
    expect(await send({ APP_URL: "http://app.test" }, "http://app.test/form", { origin: "http://app.test" })).toEqual({
      status: 200,
      saw: ["http://app.test/form kept"],
    });
    // Another site's form is still refused by the app before anything runs, and so is an https Origin the proxy
    // is not trusted to vouch for.
    expect(await send({ TRUST_PROXY: "1" }, "http://app.test/form", { ...https, origin: "https://evil.test" })).toEqual({
      status: 403,
      saw: [],
    });
    expect(await send({ APP_URL: "http://app.test" }, "http://app.test/form", https)).toEqual({ status: 403, saw: [] });
  });

  it("makes the session cookie Secure and adds HSTS for https from a trusted proxy only", async () => {
    const https = { "x-forwarded-proto": "https" };
    const behind = await whoami({ TRUST_PROXY: "true" }, https);
    expect(behind.body.secure).toBe(true);
    expect(behind.res.headers.get("set-cookie")).toMatch(/^ekc_session=tok;.*; Secure$/);
    expect(behind.res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");

    const untrusted = await whoami({}, https);
    expect(untrusted.body.secure).toBe(false);
    expect(untrusted.res.headers.get("set-cookie")).not.toContain("Secure");
    expect(untrusted.res.headers.get("strict-transport-security")).toBeNull();

    const plain = await whoami({ TRUST_PROXY: "true" }, { "x-forwarded-proto": "http" });
    expect(plain.body.secure).toBe(false);
    expect(plain.res.headers.get("strict-transport-security")).toBeNull();

    const declared = await whoami({ APP_URL: "https://ekchhat.example" });
    expect(declared.body.secure).toBe(true);
    expect(declared.res.headers.get("set-cookie")).toMatch(/; Secure$/);
    expect(declared.res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("sets the language cookie by the same rule", async () => {
    const post = (env: Record<string, string>, headers: Record<string, string>) =>
      app(env).request("/language", {
        method: "POST",
        headers: { origin: s.config.APP_URL, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ lang: "ur", redirectTo: "/" }).toString(),
      });
    const behind = await post({ TRUST_PROXY: "true" }, { "x-forwarded-proto": "https" });
    expect(behind.status).toBe(303);
    expect(behind.headers.get("set-cookie")).toMatch(/^ekc_lang=ur;.*; Secure$/);
    expect(behind.headers.get("strict-transport-security")).not.toBeNull();
    const untrusted = await post({}, { "x-forwarded-proto": "https" });
    expect(untrusted.headers.get("set-cookie")).toMatch(/^ekc_lang=ur;/);
    expect(untrusted.headers.get("set-cookie")).not.toContain("Secure");
  });
});
