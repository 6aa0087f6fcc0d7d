import { describe, expect, it } from "vitest";
import { withoutModulePreloads, withoutModulePreloadsIn } from "./without-module-preloads.server.ts";

const HEAD =
  '<!DOCTYPE html><html lang="ur"><head><meta charSet="utf-8"/><title>ایک چھت</title>' +
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="n1"/>' +
  '<link rel="modulepreload" href="/assets/framework-B.js" nonce="n1"/>' +
  '<link nonce="n1" rel="stylesheet" href="/assets/framework-C.css"/></head>';
const BODY =
  '<body><main><h1>ایک چھت</h1><link rel="modulepreload" href="/assets/later-D.js"/></main>' +
  '<script type="module" async="">import * as route0 from "/assets/root-E.js";</script></body></html>';
const EXPECTED =
  '<!DOCTYPE html><html lang="ur"><head><meta charSet="utf-8"/><title>ایک چھت</title>' +
  '<link nonce="n1" rel="stylesheet" href="/assets/framework-C.css"/></head>' +
  BODY;

/** The page through the transform, written in the given pieces (bytes, so a piece may end inside a character). */
async function through(pieces: Buffer[]): Promise<string> {
  const stream = withoutModulePreloads();
  const out: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => out.push(Buffer.from(chunk)));
  const done = new Promise((resolve) => stream.on("end", resolve));
  for (const piece of pieces) stream.write(piece);
  stream.end();
  await done;
  return Buffer.concat(out).toString("utf8");
}

describe("withoutModulePreloads", () => {
  it("takes the modulepreload links out of the head and keeps everything else as it was", async () => {
    expect(await through([Buffer.from(HEAD + BODY)])).toBe(EXPECTED);
  });

  it("finds them however the page is cut into chunks, inside a tag or a character", async () => {
    const bytes = Buffer.from(HEAD + BODY);
    for (let size = 1; size <= 64; size += 1) {
      const pieces: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
      expect(await through(pieces), `pieces of ${size} bytes`).toBe(EXPECTED);
    }
  });

  it("passes what follows the head through as it comes, not at the end of the page", async () => {
    const stream = withoutModulePreloads();
    const seen: string[] = [];
    stream.on("data", (chunk: Buffer) => seen.push(chunk.toString()));
    stream.write(Buffer.from(HEAD));
    stream.write(Buffer.from("<body><main>the shell"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.join("")).toBe(EXPECTED.slice(0, EXPECTED.indexOf("<body>")) + "<body><main>the shell");
    stream.end();
  });

  it("gives back the very bytes it was given, cut where they were cut, and the body's chunks as they are", async () => {
    // Bytes no UTF-8 decoder would give back unchanged: the transform must never decode.
    const odd = Buffer.from([0xe2, 0x82, 0xff, 0x3c, 0x61, 0x3e]);
    const stream = withoutModulePreloads();
    const out: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => out.push(chunk));
    const done = new Promise((resolve) => stream.on("end", resolve));
    const head = Buffer.concat([Buffer.from(HEAD.slice(0, 40)), odd, Buffer.from(HEAD.slice(40))]);
    stream.write(head);
    stream.write(odd);
    stream.end();
    await done;
    const expectedHead = Buffer.concat([
      Buffer.from(EXPECTED.slice(0, 40)),
      odd,
      Buffer.from(EXPECTED.slice(40, EXPECTED.indexOf("<body>"))),
    ]);
    expect(Buffer.concat(out).equals(Buffer.concat([expectedHead, odd]))).toBe(true);
    expect(out.at(-1)!.equals(odd)).toBe(true);
  });

  it("edits only the head of a chunk that holds the whole page: the body leaves as the same bytes, not a copy", async () => {
    const page = Buffer.from(HEAD + BODY);
    const stream = withoutModulePreloads();
    const out: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => out.push(chunk));
    const done = new Promise((resolve) => stream.on("end", resolve));
    stream.write(page);
    stream.end();
    await done;
    expect(Buffer.concat(out).toString("utf8")).toBe(EXPECTED);
    const body = out.at(-1)!;
    expect(body.toString("utf8")).toBe("</head>" + BODY);
    expect(body.buffer).toBe(page.buffer);
    expect(body.byteOffset).toBe(page.byteOffset + Buffer.byteLength(HEAD) - "</head>".length);
  });
});

describe("withoutModulePreloadsIn (a whole page in one buffer)", () => {
  it("makes the same edit as the stream, byte for byte, bytes no decoder would keep included", async () => {
    const odd = Buffer.from([0xe2, 0x82, 0xff]);
    for (const page of [
      Buffer.from(HEAD + BODY),
      Buffer.concat([Buffer.from(HEAD.slice(0, 40)), odd, Buffer.from(HEAD.slice(40) + BODY), odd]),
    ]) {
      const streamed: Buffer[] = [];
      const stream = withoutModulePreloads();
      stream.on("data", (chunk: Buffer) => streamed.push(Buffer.from(chunk)));
      const done = new Promise((resolve) => stream.on("end", resolve));
      stream.end(page);
      await done;
      expect(withoutModulePreloadsIn(Buffer.from(page)).equals(Buffer.concat(streamed))).toBe(true);
    }
    expect(withoutModulePreloadsIn(Buffer.from(HEAD + BODY)).toString("utf8")).toBe(EXPECTED);
  });

  it("gives the page itself back when its head has no such link", () => {
    const page = Buffer.from(EXPECTED);
    expect(withoutModulePreloadsIn(page)).toBe(page);
  });
});
