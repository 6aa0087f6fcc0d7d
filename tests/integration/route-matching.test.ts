import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { RouteObject } from "react-router";
import routeConfig from "#app/routes.ts";
import { routeEntries, type ConfigEntry } from "#tests/helpers/route-areas.ts";

/**
 * React Router's route matching on the server skips every branch whose first segment is literal text other than the
 * address's (patches/react-router+7.18.4.patch, decision 037, session 19). The server loads React Router's development
 * build, which carries the patch; its production build (the browser's) is the package as published. Both must match
 * every address the same way: the app's every route, in other cases, with slashes added, with a segment too many, and
 * addresses no route has.
 */
const DEVELOPMENT = path.resolve("node_modules/react-router/dist/development");
type Handler = { query: (request: Request) => Promise<Response | { statusCode: number; matches: Match[] }> };
type Match = { route: { id: string }; pathname: string; params: object };
type Library = { createStaticHandler: (routes: RouteObject[]) => Handler };
const patched = (await import(pathToFileURL(path.join(DEVELOPMENT, "index.mjs")).href)) as Library;
const published = (await import(pathToFileURL(path.resolve("node_modules/react-router/dist/production/index.mjs")).href)) as Library;

const NOT_FOUND = "routes/not-found.tsx";

/** The route table as React Router's server build hands it to the router: the root route holding app/routes.ts. */
const toRoute = (e: ConfigEntry): RouteObject =>
  e.index ? { id: e.id ?? e.file, index: true, path: e.path } : { id: e.id ?? e.file, path: e.path, children: e.children?.map(toRoute) };
const routes: RouteObject[] = [{ id: "root", path: "", children: (routeConfig as ConfigEntry[]).map(toRoute) }];

function addresses(): string[] {
  const out = new Set([
    "/",
    "//",
    "/donate1/",
    "//donate1",
    "/nothing-here",
    "/nothing/here/either",
    "/%64onate1",
    "/donate1%2Fx",
    "/ſ",
    "/K",
  ]);
  for (const { path: template } of routeEntries()) {
    const filled = template.replace(/:[\w-]+/g, "x-1").replace(/\*$/, "a/b");
    for (const variant of [filled, filled.toUpperCase(), `/${filled}/`, `${filled}/extra`]) out.add(variant);
  }
  return [...out];
}

/** What the server's static handler (the branches ranked once, as on the server) finds for an address. */
async function found(handler: Handler, address: string) {
  const context = await handler.query(new Request(`http://127.0.0.1${address}`));
  if (context instanceof Response) return { status: context.status };
  return { status: context.statusCode, matches: context.matches.map((m) => [m.route.id, m.pathname, m.params]) };
}

// No database here: once, on the embedded database's run.
describe.skipIf(process.env.TEST_DB === "postgres")("React Router's route matching with the patch", () => {
  it("is the patched build the server loads", () => {
    const code = fs
      .readdirSync(DEVELOPMENT)
      .filter((name) => name.endsWith(".mjs"))
      .map((name) => fs.readFileSync(path.join(DEVELOPMENT, name), "utf8"))
      .join("\n");
    expect(code).toContain("function pathHead(");
    expect(code).toContain("function cachedServerRoutes(");
  });

  it("matches every address as React Router as published does", async () => {
    const all = addresses();
    expect(all.length).toBeGreaterThan(300);
    const [withPatch, asPublished] = [patched, published].map((lib) => lib.createStaticHandler(routes));
    let ownRoute = 0;
    for (const address of all) {
      const expected = await found(asPublished!, address);
      expect(await found(withPatch!, address), address).toEqual(expected);
      if (expected.status === 200 && expected.matches?.at(-1)?.[0] !== NOT_FOUND) ownRoute += 1;
    }
    // The comparison means something only if many addresses reach a route of their own, not the catch-all.
    expect(ownRoute).toBeGreaterThan(all.length / 3);
  });
});
