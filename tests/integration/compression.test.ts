import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Hono } from "hono";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "#server/http/app.ts";
import { chooseEncoding, compression } from "#server/http/compress.ts";
import { precompressDir } from "#scripts/precompress.ts";
import { loadServerBuild, signIn, type LoadedBuild } from "#tests/helpers/app.ts";
import { makeCampaign, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

const CHROME = "gzip, deflate, br, zstd";

function decode(res: Response, body: Buffer): string {
  const enc = res.headers.get("Content-Encoding");
  if (enc === "br") return zlib.brotliDecompressSync(body).toString("utf8");
  if (enc === "gzip") return zlib.gunzipSync(body).toString("utf8");
  expect(enc).toBeNull();
  return body.toString("utf8");
}
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const vary = (res: Response) => (res.headers.get("Vary") ?? "").toLowerCase();

describe("which encoding", () => {
  it("takes brotli when accepted, gzip otherwise, nothing when neither", () => {
    expect(chooseEncoding(CHROME)).toBe("br");
    expect(chooseEncoding("gzip, deflate")).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseEncoding("gzip;q=1, br;q=0.5")).toBe("gzip");
    expect(chooseEncoding("*")).toBe("br");
    expect(chooseEncoding("*;q=0, gzip;q=0")).toBeNull();
    expect(chooseEncoding("identity")).toBeNull();
    expect(chooseEncoding("deflate")).toBeNull();
    expect(chooseEncoding("")).toBeNull();
    expect(chooseEncoding(null)).toBeNull();
  });
});

describe("the compression middleware", () => {
  const text = "Ek Chhat ایک چھت ".repeat(200);
  const app = new Hono();
  app.use(compression());
  app.get("/text", (c) => c.text(text));
  app.get("/tiny", (c) => c.text("short"));
  app.get("/no-transform", (c) => c.text(text, 200, { "Cache-Control": "no-transform" }));
  app.get("/range", (c) => c.text(text.slice(0, 2000), 206, { "Content-Range": "bytes 0-1999/9000" }));
  app.get("/empty", (c) => c.body(null, 204));
  app.get("/sized", (c) =>
    c.body(text, 200, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": String(Buffer.byteLength(text)), ETag: '"v1"' }),
  );
  app.get(
    "/stream/small",
    () => new Response(stream(["a".repeat(100), "b".repeat(100)]), { headers: { "Content-Type": "text/x-script" } }),
  );
  let release: () => void = () => {};
  app.get("/stream/slow", () => {
    const held = new Promise<void>((resolve) => (release = resolve));
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode(`<!DOCTYPE html><p>shell</p>${"x".repeat(3000)}`));
        await held;
        controller.enqueue(new TextEncoder().encode("<p>the rest</p>"));
        controller.close();
      },
    });
    return new Response(body, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
  const get = (p: string, ae = CHROME) => app.request(p, { headers: { "Accept-Encoding": ae } });

  it("compresses text and says it varies by Accept-Encoding", async () => {
    for (const [ae, enc] of [
      [CHROME, "br"],
      ["gzip", "gzip"],
      ["identity", null],
    ] as const) {
      const res = await get("/text", ae);
      expect(res.headers.get("Content-Encoding")).toBe(enc);
      expect(vary(res)).toBe("accept-encoding");
      expect(decode(res, await bytes(res))).toBe(text);
      if (enc) expect(res.headers.get("Content-Length")).toBeNull();
    }
  });

  it("compresses a whole body of known length in one go, sent with its compressed byte count and a weak ETag", async () => {
    for (const ae of [CHROME, "gzip"]) {
      const res = await get("/sized", ae);
      expect(res.headers.get("Content-Encoding")).toBe(ae === "gzip" ? "gzip" : "br");
      expect(res.headers.get("ETag")).toBe('W/"v1"');
      const body = await bytes(res);
      expect(res.headers.get("Content-Length")).toBe(String(body.length));
      expect(body.length).toBeLessThan(Buffer.byteLength(text) / 4);
      expect(decode(res, body)).toBe(text);
    }
  });

  it("leaves alone what must not be transformed, ranges, empty answers and small bodies", async () => {
    for (const p of ["/no-transform", "/range", "/empty", "/tiny"]) {
      const res = await get(p);
      expect(res.headers.get("Content-Encoding"), p).toBeNull();
    }
    expect(await (await get("/tiny")).text()).toBe("short");
  });

  it("sends a short stream of unknown length whole and uncompressed", async () => {
    const res = await get("/stream/small");
    expect(res.headers.get("Content-Encoding")).toBeNull();
    expect(res.headers.get("Content-Length")).toBe("200");
    expect(await res.text()).toBe(`${"a".repeat(100)}${"b".repeat(100)}`);
  });

  it("keeps a streamed page streamed: the shell arrives, decompressed, before the rest is written", async () => {
    for (const ae of ["br", "gzip"]) {
      const res = await get("/stream/slow", ae);
      expect(res.headers.get("Content-Encoding")).toBe(ae);
      const decompressor = ae === "br" ? zlib.createBrotliDecompress() : zlib.createGunzip();
      let seen = "";
      decompressor.on("data", (d: Buffer) => (seen += d.toString("utf8")));
      const reader = res.body!.getReader();
      while (!seen.includes("shell")) {
        const { value, done } = await reader.read();
        expect(done).toBe(false);
        decompressor.write(value);
        await new Promise<void>((r) => decompressor.flush(() => r()));
      }
      expect(seen).not.toContain("the rest");
      release();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        decompressor.write(value);
      }
      await new Promise((r) => decompressor.end(r));
      expect(seen).toMatch(/shell.*<p>the rest<\/p>$/s);
    }
  });
});

describe("the app", () => {
  let s: TestServices;
  let loaded: LoadedBuild;
  let app: ReturnType<typeof createApp>;
  let clientDir: string;
  let donorCookie: string;
  const script = `export const words = ${JSON.stringify(Array.from({ length: 600 }, (_, i) => `word${i % 37}`))};\n`;

  beforeAll(async () => {
    s = await createTestServices();
    loaded = await loadServerBuild();
    clientDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-client-"));
    fs.mkdirSync(path.join(clientDir, "assets"));
    fs.writeFileSync(path.join(clientDir, "assets", "page-AbC123xy.js"), script);
    fs.writeFileSync(path.join(clientDir, "assets", "tiny-AbC123xy.js"), "export {};\n");
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#3a7" } })
      .png()
      .toBuffer();
    fs.writeFileSync(path.join(clientDir, "assets", "photo-AbC123xy.png"), png);
    await precompressDir(path.join(clientDir, "assets"));
    app = createApp({ services: s, build: loaded.build, clientDir, mode: "production" });
    donorCookie = await signIn(s.db, (await makeUser(s.db, "donor")).id);
    // Enough campaigns that the donor's first page of giving has a .data worth compressing.
    const ngo = await makeUser(s.db, "ngo");
    for (let i = 0; i < 6; i++) await makeCampaign(s.db, ngo.id);
  }, 60_000);
  afterAll(async () => {
    await loaded?.close();
    await s?.close();
    if (clientDir) fs.rmSync(clientDir, { recursive: true, force: true });
  });

  const url = (p: string) => `${s.config.APP_URL.replace(/\/$/, "")}${p}`;
  const get = (p: string, ae: string | null, more: Record<string, string> = {}, method = "GET") =>
    app.request(url(p), { method, headers: { ...(ae === null ? {} : { "Accept-Encoding": ae }), ...more } });

  it("sends pages brotli when accepted, gzip otherwise and as they are when neither", async () => {
    const plain = await get("/", null);
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    expect(vary(plain)).toContain("accept-encoding");
    const html = decode(plain, await bytes(plain));
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    for (const [ae, enc] of [
      [CHROME, "br"],
      ["gzip, deflate", "gzip"],
    ] as const) {
      const res = await get("/", ae);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Encoding")).toBe(enc);
      expect(vary(res)).toContain("accept-encoding");
      expect(res.headers.get("Cache-Control")).toBe("private, no-store");
      const body = await bytes(res);
      const page = decode(res, body);
      expect(page).toMatch(/^<!DOCTYPE html>/i);
      expect(page).toContain("</html>");
      expect(body.length).toBeLessThan(page.length / 2);
      // A finished page is one buffer, compressed at once: its compressed length is known and sent.
      expect(res.headers.get("Content-Length")).toBe(String(body.length));
    }
    expect((await get("/", "identity")).headers.get("Content-Encoding")).toBeNull();
  });

  it("compresses a page's .data", async () => {
    // The home page's data: the campaigns it shows.
    const res = await get("/_root.data", CHROME);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/x-script/);
    expect(res.headers.get("Content-Encoding")).toBe("br");
    expect(vary(res)).toContain("accept-encoding");
    expect(decode(res, await bytes(res)).length).toBeGreaterThan(1024);
  });

  it("answers HEAD with the headers and no body", async () => {
    const res = await get("/", CHROME, {}, "HEAD");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Encoding")).toBeNull();
    expect(vary(res)).toContain("accept-encoding");
    expect((await bytes(res)).length).toBe(0);
  });

  it("does not compress small bodies", async () => {
    const res = await get("/files/proof/nothing.webp", CHROME);
    expect(res.status).toBe(404);
    expect(res.headers.get("Content-Encoding")).toBeNull();
    expect(await res.text()).toBe("Not found");
  });

  it("sends a signed-in page that another site opened uncompressed (BREACH), and the same page from here compressed", async () => {
    const cross = await get("/donate1", CHROME, { cookie: donorCookie, "Sec-Fetch-Site": "cross-site" });
    expect(cross.status).toBe(200);
    expect(cross.headers.get("Content-Encoding")).toBeNull();
    await cross.arrayBuffer();
    // An old browser that does not say where the request came from is treated as another site.
    const unsaid = await get("/donate1", CHROME, { cookie: donorCookie });
    expect(unsaid.headers.get("Content-Encoding")).toBeNull();
    await unsaid.arrayBuffer();
    const own = await get("/donate1", CHROME, { cookie: donorCookie, "Sec-Fetch-Site": "same-origin" });
    expect(own.headers.get("Content-Encoding")).toBe("br");
    await own.arrayBuffer();
    // A visitor without a session, arriving from a shared link, carries no secret: compressed.
    const shared = await get("/", CHROME, { "Sec-Fetch-Site": "cross-site" });
    expect(shared.headers.get("Content-Encoding")).toBe("br");
    await shared.arrayBuffer();
  });

  it("serves a hashed asset precompressed, immutable, and decompressing to the same bytes", async () => {
    const file = path.join(clientDir, "assets", "page-AbC123xy.js");
    for (const [ae, enc, ext] of [
      [CHROME, "br", ".br"],
      ["gzip, deflate", "gzip", ".gz"],
    ] as const) {
      const res = await get("/assets/page-AbC123xy.js", ae);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Encoding")).toBe(enc);
      expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      // Never revalidated, so no date to revalidate by: 46 bytes less on each of a first visit's assets.
      expect(res.headers.get("Last-Modified")).toBeNull();
      expect(vary(res)).toBe("accept-encoding");
      const body = await bytes(res);
      expect(body.equals(fs.readFileSync(file + ext))).toBe(true);
      expect(res.headers.get("Content-Length")).toBe(String(body.length));
      expect(decode(res, body)).toBe(script);
    }
    const plain = await get("/assets/page-AbC123xy.js", null);
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    expect(vary(plain)).toBe("accept-encoding");
    expect(plain.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("Last-Modified")).toBeNull();
    expect(plain.headers.get("Content-Length")).toBe(String(Buffer.byteLength(script)));
    expect(await plain.text()).toBe(script);
  });

  it("does not precompress or compress images and tiny files", async () => {
    const assets = fs.readdirSync(path.join(clientDir, "assets")).sort();
    expect(assets).toEqual(["page-AbC123xy.js", "page-AbC123xy.js.br", "page-AbC123xy.js.gz", "photo-AbC123xy.png", "tiny-AbC123xy.js"]);
    const png = await get("/assets/photo-AbC123xy.png", CHROME);
    expect(png.headers.get("Content-Type")).toBe("image/png");
    expect(png.headers.get("Content-Encoding")).toBeNull();
    expect((await bytes(png)).equals(fs.readFileSync(path.join(clientDir, "assets", "photo-AbC123xy.png")))).toBe(true);
    const tiny = await get("/assets/tiny-AbC123xy.js", CHROME);
    expect(tiny.headers.get("Content-Encoding")).toBeNull();
    expect(await tiny.text()).toBe("export {};\n");
  });

  it("sends a page's own headers with pages only: a script or a picture keeps nosniff and its resource policy", async () => {
    const pageOnly = [
      "content-security-policy",
      "permissions-policy",
      "x-frame-options",
      "cross-origin-opener-policy",
      "origin-agent-cluster",
    ];
    const page = await get("/", CHROME);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    for (const name of pageOnly) expect(page.headers.get(name), name).not.toBeNull();
    for (const asset of ["/assets/page-AbC123xy.js", "/assets/photo-AbC123xy.png"]) {
      const res = await get(asset, CHROME);
      expect(res.status).toBe(200);
      for (const name of pageOnly) expect(res.headers.get(name), `${asset} ${name}`).toBeNull();
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(res.headers.get("Cross-Origin-Resource-Policy")).toBe("same-origin");
      expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    }
    // An address under /assets that holds no file is answered by a page, with every header.
    const missing = await get("/assets/none-AbC123xy.js", CHROME, { Accept: "text/html" });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(missing.headers.get("content-security-policy")).not.toBeNull();
  });
});

function stream(parts: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(new TextEncoder().encode(p));
      controller.close();
    },
  });
}
