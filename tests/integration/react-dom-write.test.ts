import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * React DOM's Node server build writes each small string straight into its 4 KB buffer (patches/react-dom+19.3.1.patch,
 * decision 037, session 19) instead of through a new view and TextEncoder.encodeInto. What it writes must be the bytes
 * React's edge build (unpatched, the same renderer writing through TextEncoder) writes for the same page: Urdu, emoji
 * (surrogate pairs), a lone surrogate, strings of every length around the buffer's edge. Run in a child process under
 * NODE_ENV=production, where React loads the builds the server runs. A destination that takes pieces as they are
 * (WholePage, decision 037, session 21) is handed strings and precomputed bytes which, encoded, are the same bytes.
 */
const PRODUCTION = path.resolve("node_modules/react-dom/cjs/react-dom-server.node.production.js");

const SCRIPT = `
import React from "react";
import { renderToPipeableStream } from "react-dom/server.node";
import { renderToReadableStream } from "react-dom/server.edge";
import { Writable } from "node:stream";
const h = React.createElement;
const words = ["ایک چھت", "Rs. 300,000", "عطیہ 🙂 دیں", "\\ud800", "a", "ééé", "ء".repeat(700), "x".repeat(1400)];
const page = (seed) =>
  h("html", null, h("body", null, Array.from({ length: 400 }, (_, i) => {
    const text = words[(i * 7 + seed) % words.length].repeat(1 + ((i + seed) % 5));
    return h(i % 3 ? "p" : "a", { key: i, title: text.slice(0, 1 + (i % 40)), href: "/x?" + i }, text, String(i));
  })));
const viaNode = (el) => new Promise((resolve, reject) => {
  const parts = [];
  const out = new Writable({ write(c, _e, cb) { parts.push(Buffer.from(c)); cb(); } });
  out.on("finish", () => resolve(Buffer.concat(parts)));
  const { pipe } = renderToPipeableStream(el, { onAllReady() { pipe(out); }, onError: reject });
});
const viaEdge = async (el) => {
  const stream = await renderToReadableStream(el);
  await stream.allReady;
  return Buffer.from(await new Response(stream).arrayBuffer());
};
const viaPieces = (el) => new Promise((resolve, reject) => {
  const pieces = [];
  const out = { takesPieces: true, write(p) { pieces.push(p); return true; }, end() {
    const strings = pieces.filter((p) => typeof p === "string").length;
    resolve([Buffer.concat(pieces.map((p) => Buffer.from(p))), strings]);
  }, on() { return this; }, destroy: reject };
  const { pipe } = renderToPipeableStream(el, { onAllReady() { pipe(out); }, onError: reject });
});
let bytes = 0;
let strings = 0;
for (let seed = 0; seed < 12; seed += 1) {
  const [a, b, [c, s]] = await Promise.all([viaNode(page(seed)), viaEdge(page(seed)), viaPieces(page(seed))]);
  if (!a.equals(b)) { console.log("DIFFERENT " + seed); process.exit(1); }
  if (!c.equals(b)) { console.log("PIECES DIFFERENT " + seed); process.exit(1); }
  bytes += a.length;
  strings += s;
}
console.log("SAME " + bytes + " " + strings);
`;

// No database here: once, on the embedded database's run.
describe.skipIf(process.env.TEST_DB === "postgres")("React DOM's Node server build with the patch", () => {
  it("is the patched build", () => {
    const source = fs.readFileSync(PRODUCTION, "utf8");
    expect(source).toContain("3 * chunk.length <= 4096 - writtenBytes");
    expect(source).toContain("true === destination.takesPieces");
  });

  it("writes the same bytes as React's unpatched edge build, Urdu, emoji and buffer edges included", () => {
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT], {
      env: { ...process.env, NODE_ENV: "production" },
      encoding: "utf8",
    });
    const [, bytes, strings] = (/^SAME (\d+) (\d+)$/m.exec(out) ?? []).map(Number);
    // Twelve pages of 400 elements each, so the 4 KB buffer fills and is handed on many times.
    expect(bytes).toBeGreaterThan(12 * 100_000);
    // A destination that takes pieces (WholePage) was handed strings, thousands of them, not 4 KB buffers.
    expect(strings).toBeGreaterThan(12 * 1_000);
  });
});
