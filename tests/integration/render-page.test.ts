import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createElement as h, Suspense, use, type ReactNode } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPage, WholePage } from "#app/lib/render-page.server.ts";
import { withoutModulePreloadsIn } from "#app/lib/without-module-preloads.server.ts";

/**
 * How a page leaves the server (app/lib/render-page.server.ts, decision 037, 2026-11-28): a page React has finished
 * when its shell is ready goes as one buffer with its length; a page with a part still loading is streamed, its shell
 * first; either way without its head's module preloads. Sent through @hono/node-server's listener over a real socket,
 * as the server sends it (the listener puts its own `Response` in place of the global one).
 */
let release: () => void = () => {};
let later: Promise<string> = Promise.resolve("");
const resetLater = () => {
  later = new Promise<string>((resolve) => (release = () => resolve("the rest")));
};

function Later(): ReactNode {
  return h("p", null, use(later));
}

/** A part waiting on a promise that settles within the same turn, as React Router's streamed loader data does. */
function AtOnce({ chain }: { chain: number }): ReactNode {
  const promise = (settled[chain] ??= (async () => {
    for (let i = 0; i < 3; i++) await Promise.resolve();
    return `part ${chain}`;
  })());
  return h("span", null, use(promise), chain < 3 ? h(Suspense, null, h(AtOnce, { chain: chain + 1 })) : null);
}
let settled: Promise<string>[] = [];

const page = (body: ReactNode) =>
  h(
    "html",
    null,
    h(
      "head",
      null,
      h("title", null, "A page"),
      h("link", { rel: "modulepreload", href: "/assets/one.js" }),
      h("link", { rel: "stylesheet", href: "/assets/style.css" }),
    ),
    h("body", null, h("main", null, `${"x".repeat(20_000)} ü ا`), body, h("script", { src: "/assets/entry.js", type: "module" })),
  );

const pages: Record<string, { element: () => ReactNode; waitForAll?: boolean }> = {
  "/whole": { element: () => page(h("p", null, "all here")) },
  "/settles-at-once": { element: () => ((settled = []), page(h(Suspense, { fallback: h("p", null, "shell") }, h(AtOnce, { chain: 0 })))) },
  "/suspends": { element: () => page(h(Suspense, { fallback: h("p", null, "shell") }, h(Later))) },
  "/suspends-for-a-crawler": { element: () => page(h(Suspense, { fallback: h("p", null, "shell") }, h(Later))), waitForAll: true },
  "/broken": {
    element: () =>
      page(
        h(() => {
          throw new Error("the shell broke");
        }),
      ),
  },
};

let server: http.Server;
let base: string;

beforeAll(async () => {
  const listener = getRequestListener(async (request) => {
    const { element, waitForAll = false } = pages[new URL(request.url).pathname]!;
    try {
      return await renderPage(element(), {
        nonce: "n0nce",
        waitForAll,
        status: 200,
        headers: new Headers({ "X-Test": "kept" }),
        link: "</font.woff2>; rel=preload",
        timeoutMs: 5_000,
      });
    } catch (error) {
      return new Response(`failed: ${(error as Error).message}`, { status: 500 });
    }
  });
  server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The answer as it arrives: its headers at once, its body (chunked encoding undone) so far and in the end. */
function get(path: string): Promise<{ res: http.IncomingMessage; body: Promise<string>; when: (text: string) => Promise<string> }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, (res) => {
        let text = "";
        const waiting: [string, (seen: string) => void][] = [];
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          text += d;
          for (const [wanted, done] of waiting) if (text.includes(wanted)) done(text);
        });
        const when = (wanted: string) => new Promise<string>((r) => (text.includes(wanted) ? r(text) : waiting.push([wanted, r])));
        resolve({ res, when, body: new Promise((r) => res.on("end", () => r(text))) });
      })
      .on("error", reject);
  });
}

describe("a page as the server sends it", () => {
  it("goes as one buffer with its length when React has finished it", async () => {
    const { res, body } = await get("/whole");
    const html = await body;
    expect(res.statusCode).toBe(200);
    expect(res.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(html));
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers.link).toBe("</font.woff2>; rel=preload");
    expect(res.headers["x-test"]).toBe("kept");
    expect(html.startsWith("<!DOCTYPE html><html><head><title>A page</title>")).toBe(true);
    expect(html.includes(`<main>${"x".repeat(20_000)} ü ا</main><p>all here</p>`)).toBe(true);
    expect(html).toContain('<link rel="stylesheet" href="/assets/style.css"/>');
    expect(html).not.toContain("modulepreload");
    expect(html).toMatch(/<\/html>$/);
  });

  it("goes as one buffer too when its suspended parts are all written within the turn that wrote its shell", async () => {
    const { res, body } = await get("/settles-at-once");
    const html = await body;
    expect(res.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(html));
    expect(html).toContain("<span>part 0<!--$--><span>part 1<!--$--><span>part 2<!--$--><span>part 3</span>");
    expect(html).not.toContain("<p>shell</p>");
  });

  it("is streamed when a part is still loading: the shell first, the rest when it comes", async () => {
    resetLater();
    const { res, when, body } = await get("/suspends");
    expect(res.statusCode).toBe(200);
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.headers.link).toBe("</font.woff2>; rel=preload");
    // The shell arrives while the rest cannot have been written yet.
    const shell = await when("<p>shell</p>");
    expect(shell).not.toContain("the rest");
    expect(shell).not.toContain("modulepreload");
    release();
    const html = await body;
    expect(html).toContain("<p>the rest</p>");
    expect(html).toMatch(/<\/html>$/);
  });

  it("waits for every part when asked to, then goes as one buffer", async () => {
    resetLater();
    const answer = get("/suspends-for-a-crawler");
    setTimeout(() => release(), 50);
    const { res, body } = await answer;
    const html = await body;
    expect(res.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(html));
    expect(html).toContain("<p>the rest</p>");
    expect(html).not.toContain("<p>shell</p>");
    expect(html).not.toContain("modulepreload");
  });

  it("fails when the shell cannot be written", async () => {
    const { res, body } = await get("/broken");
    expect(res.statusCode).toBe(500);
    expect(await body).toBe("failed: the shell broke");
  });
});

/**
 * React DOM hands a finished page to WholePage as its pieces, strings and precomputed bytes, which WholePage encodes
 * once (patches/react-dom+19.3.1.patch, decision 037, session 21): the bytes must be those React writes into a
 * stream, its 4 KB buffers, for the same page. Under vitest React loads its development build; the production build
 * the server runs is held to the same in react-dom-write.test.ts.
 */
describe("a finished page written as pieces", () => {
  const urdu = "ایک چھت کے نیچے عطیہ دیں، شکریہ";
  const later = (text: string) => new Promise<string>((resolve) => setTimeout(() => resolve(text), 5));
  function Waits({ text }: { text: Promise<string> }): ReactNode {
    return h("em", null, use(text));
  }
  const many = (words: string[]) =>
    Array.from({ length: 600 }, (_, i) =>
      h(i % 3 ? "p" : "a", { key: i, href: `/x?${i}`, title: words[i % words.length] }, words[(i * 7) % words.length], String(i)),
    );
  const pages: Record<string, () => ReactNode> = {
    ascii: () => page(h("div", null, many(["Rs. 300,000", "Give to a family", "a", "Zakat & Sadaqah <3"]))),
    urdu: () => page(h("div", { lang: "ur", dir: "rtl" }, many([urdu, "عطیہ 🙂 دیں", "ءءء", "\ud800", urdu.repeat(3)]))),
    long: () =>
      page(h("div", null, h("p", null, urdu.repeat(400)), h("p", { title: "x".repeat(9_000) }, "y".repeat(12_345)), many(["é", urdu]))),
    suspended: () =>
      page(
        h(
          "div",
          null,
          many(["before", urdu]),
          h(Suspense, { fallback: h("p", null, "shell") }, h(Waits, { text: later(`${urdu} later`) }), many(["inside", "اندر"])),
          h(Suspense, { fallback: h("p", null, "shell 2") }, h(Waits, { text: later("two") })),
        ),
      ),
  };

  /** React's own output, through a stream, once every part is written. */
  const streamed = (element: ReactNode) =>
    new Promise<Buffer>((resolve, reject) => {
      const parts: Buffer[] = [];
      const out = new Writable({
        write(chunk: Uint8Array, _encoding, done) {
          parts.push(Buffer.from(chunk));
          done();
        },
      });
      out.on("finish", () => resolve(Buffer.concat(parts)));
      const { pipe } = renderToPipeableStream(element, { nonce: "n0nce", onAllReady: () => pipe(out), onShellError: reject });
    });

  /** The same page into a WholePage, as renderPage does with a finished one. */
  const whole = (element: ReactNode) =>
    new Promise<{ bytes: Buffer; count: WholePage["count"] }>((resolve, reject) => {
      const { pipe } = renderToPipeableStream(element, {
        nonce: "n0nce",
        onAllReady() {
          const written = new WholePage();
          pipe(written.asDestination());
          resolve({ bytes: written.result(), count: written.count });
        },
        onShellError: reject,
      });
    });

  for (const [name, element] of Object.entries(pages)) {
    it(`is the bytes React streams for the same page: ${name}`, async () => {
      const [expected, got] = await Promise.all([streamed(element()), whole(element())]);
      expect(got.bytes.length).toBe(expected.length);
      expect(got.bytes.equals(expected)).toBe(true);
      expect(withoutModulePreloadsIn(Buffer.from(got.bytes)).equals(withoutModulePreloadsIn(Buffer.from(expected)))).toBe(true);
      // Handed the pieces as they are, not React's 4 KB buffers: without the patch this page would come as a few
      // buffers (and its longest strings), with it as thousands of pieces, most of them strings.
      expect(got.count.pieces).toBeGreaterThan(1_000);
      expect(got.count.strings).toBeGreaterThan(got.count.pieces / 3);
      expect(got.count.strings).toBeLessThan(got.count.pieces);
    });
  }
});

describe("WholePage", () => {
  it("keeps bytes that are not whole UTF-8 as they are", () => {
    const written = new WholePage();
    const cut = Buffer.from("ایک", "utf8").subarray(0, 3);
    written.write("<p>");
    written.write(cut);
    written.write(new Uint8Array(Buffer.from("ü</p>")));
    written.write("ا");
    written.end();
    expect(written.result().equals(Buffer.concat([Buffer.from("<p>"), cut, Buffer.from("ü</p>ا")]))).toBe(true);
  });
});
