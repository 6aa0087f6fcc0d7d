/**
 * The bench's bare production server: React Router's own Node adapter (`createRequestListener` from
 * @react-router/node) on node:http, nothing else. Pages go out as React renders them (uncompressed: the bare pages
 * are a few kilobytes); the hashed assets go out as the brotli or gzip copies scripts/precompress.ts wrote beside
 * them, as the app sends its own, with the same immutable caching.
 *
 *   PORT=3411 NODE_ENV=production npx tsx bench/bare/server.ts     (after `npx react-router build bench/bare`)
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createRequestListener } from "@react-router/node";
import type { ServerBuild } from "react-router";

const buildDir = path.join(import.meta.dirname, "build");
const assetsDir = path.join(buildDir, "client", "assets");
const TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

const build = (await import(path.join(buildDir, "server", "index.js"))) as ServerBuild;
const pages = createRequestListener({ build, mode: "production" });

function asset(pathname: string, acceptEncoding: string, res: http.ServerResponse) {
  const file = path.join(assetsDir, path.basename(pathname));
  if (!fs.existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  const encoding = ["br", "gzip"].find((e) => acceptEncoding.includes(e) && fs.existsSync(`${file}.${e === "br" ? "br" : "gz"}`));
  const headers: http.OutgoingHttpHeaders = {
    "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream",
    "Cache-Control": "public, max-age=31536000, immutable",
    Vary: "Accept-Encoding",
  };
  if (encoding) headers["Content-Encoding"] = encoding;
  res.writeHead(200, headers);
  fs.createReadStream(encoding ? `${file}.${encoding === "br" ? "br" : "gz"}` : file).pipe(res);
}

http
  .createServer((req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://127.0.0.1");
    if (pathname.startsWith("/assets/")) asset(pathname, req.headers["accept-encoding"] ?? "", res);
    else void pages(req, res);
  })
  .listen(Number(process.env.PORT ?? 3411), "127.0.0.1");
