import { describe, expect, it } from "vitest";
import { newNonce } from "#server/http/nonce.ts";
import { withWholeApp, type TestApp } from "#tests/helpers/app.ts";

describe("a page's CSP nonce", () => {
  it("is 16 random bytes in base64, never the same twice, across many draws of random bytes", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const nonce = newNonce();
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      seen.add(nonce);
    }
    expect(seen.size).toBe(2_000);
  });
});

/**
 * What a page's headers promise (decision 037, 2026-11-28: the page now leaves as one buffer, its private caching
 * set in place): a nonce of its own in the policy and on every inline script, its request id, never kept by a
 * browser or proxy, and its length.
 */
describe("a page's headers", () => {
  let t: TestApp;

  withWholeApp((app) => ({ t } = app), 60_000);

  async function page(path: string) {
    const res = await t.request(path);
    const html = await res.text();
    const policyNonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1];
    const scriptNonces = new Set([...html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((m) => m[1]));
    return { res, html, policyNonce, scriptNonces };
  }

  it("carry a nonce of the page's own, the one its scripts carry, and the request's id", async () => {
    const first = await page("/");
    const second = await page("/");
    for (const p of [first, second]) {
      expect(p.res.status).toBe(200);
      expect(p.policyNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect([...p.scriptNonces]).toEqual([p.policyNonce]);
      expect(p.res.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(p.res.headers.get("Cache-Control")).toBe("private, no-store");
      expect(p.res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
      expect(p.html).not.toContain("modulepreload");
      expect(p.res.headers.get("Content-Length")).toBe(String(Buffer.byteLength(p.html)));
    }
    expect(first.policyNonce).not.toBe(second.policyNonce);
    expect(first.res.headers.get("X-Request-Id")).not.toBe(second.res.headers.get("X-Request-Id"));
  });

  it("keep a request id the caller sent, and the private caching of a page that is not found", async () => {
    const res = await t.request("/no-such-page", { headers: { "X-Request-Id": "balancer-1234-abcd" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("X-Request-Id")).toBe("balancer-1234-abcd");
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await res.text()).toMatch(/<\/html>$/);
  });
});
