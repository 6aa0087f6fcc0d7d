import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { ServerBuild } from "react-router";

/**
 * A loader or action is handed the request without React Router's own search parameters (`index`, `_routes`). As
 * published, React Router makes a copy of the request for that on every loader and action it calls (two `new
 * Request`s each); with patches/react-router+7.18.4.patch (decision 037, 2026-11-28) it copies only a request that
 * has one of them to take out, and hands on the request itself otherwise. What a loader sees must be the same either
 * way: compared here between the patched development build, which the server loads, and the published production
 * build.
 */
type Library = { createRequestHandler: (build: ServerBuild, mode?: string) => (request: Request) => Promise<Response> };
const load = async (build: "development" | "production") =>
  (await import(pathToFileURL(path.resolve(`node_modules/react-router/dist/${build}/index.mjs`)).href)) as Library;
const patched = await load("development");
const published = await load("production");

/** What a resource route's loader or action saw of its request, and whether it was the one the handler was given. */
type Seen = { url: string; method: string; body: string; header: string | null; aborted: boolean; same: boolean };

function serverBuild(received: Request[]): ServerBuild {
  const see = async ({ request }: { request: Request }) => {
    const seen: Seen = {
      url: request.url,
      method: request.method,
      body: request.method === "GET" ? "" : await request.text(),
      header: request.headers.get("x-test"),
      aborted: request.signal.aborted,
      same: request === received.at(-1),
    };
    return Response.json(seen);
  };
  const route = (id: string, routePath: string | undefined, parentId?: string, module: object = {}) => ({
    id,
    path: routePath,
    parentId,
    module,
  });
  return {
    routes: {
      root: route("root", "", undefined, { default: () => null }),
      thing: route("thing", "thing", "root", { loader: see, action: see }),
    },
    entry: { module: { default: () => new Response("a page") } },
    assets: { routes: {}, entry: { module: "", imports: [] }, url: "", version: "1" },
    future: { v8_middleware: false },
    basename: "/",
    publicPath: "/",
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
    assetsBuildDirectory: "",
    allowedActionOrigins: false,
  } as unknown as ServerBuild;
}

async function seenBy(lib: Library, address: string, init: RequestInit = {}): Promise<Seen> {
  const received: Request[] = [];
  const handle = lib.createRequestHandler(serverBuild(received), "production");
  const request = new Request(`http://127.0.0.1${address}`, { ...init, headers: { "x-test": "kept", ...init.headers } });
  received.push(request);
  const res = await handle(request);
  expect(res.status, address).toBe(200);
  return (await res.json()) as Seen;
}

// No database here: once, on the embedded database's run.
describe.skipIf(process.env.TEST_DB === "postgres")("the request a loader or action is handed", () => {
  const addresses = [
    "/thing",
    "/thing?q=1&r=two",
    "/thing?index",
    "/thing?index=&q=1",
    "/thing?index=1&index=&q=1",
    "/thing?_routes=root,thing",
    "/thing?q=1&_routes=thing&index",
    "/thing?%69ndex",
    "/thing?indexes=1&routes=2",
  ];

  it("is what React Router as published hands on, for a GET and a form post", async () => {
    for (const address of addresses) {
      const { same, ...expected } = await seenBy(published, address);
      expect(same).toBe(false);
      const { same: _, ...got } = await seenBy(patched, address);
      expect(got, address).toEqual(expected);
      const post = { method: "POST", body: "a=1&b=2", headers: { "content-type": "application/x-www-form-urlencoded" } };
      const { same: __, ...expectedPost } = await seenBy(published, address, post);
      const { same: ___, ...gotPost } = await seenBy(patched, address, post);
      expect(gotPost, `POST ${address}`).toEqual(expectedPost);
      expect(gotPost.body).toBe("a=1&b=2");
    }
  });

  it("is the request itself when it has nothing of React Router's to take out, a copy when it has", async () => {
    expect((await seenBy(patched, "/thing")).same).toBe(true);
    expect((await seenBy(patched, "/thing?q=1&indexes=2")).same).toBe(true);
    expect((await seenBy(patched, "/thing", { method: "POST", body: "a=1" })).same).toBe(true);
    expect((await seenBy(patched, "/thing?index")).same).toBe(false);
    expect((await seenBy(patched, "/thing?_routes=thing")).same).toBe(false);
  });
});
