import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reactRouterWithoutUnused } from "#scripts/react-router-unused-plugin.ts";

/** React Router's production build as installed: the files the client build reads (decision 033). */
const PRODUCTION = path.resolve("node_modules/react-router/dist/production");
const modules = fs.readdirSync(PRODUCTION).filter((name) => name.endsWith(".mjs"));

type Hooks = {
  buildStart: (this: unknown) => void;
  transform: (this: unknown, code: string, id: string) => { code: string } | null;
  buildEnd: (this: { error: (message: string) => never }, error?: Error) => void;
};

/** Runs the plugin over the given modules as a build would, and returns what it made of them. */
function build(files: { id: string; code: string }[]) {
  const hooks = reactRouterWithoutUnused() as unknown as Hooks;
  hooks.buildStart.call({});
  const out = files.map(({ id, code }) => ({ id, code: hooks.transform.call({}, code, id)?.code ?? code }));
  hooks.buildEnd.call({
    error: (message: string) => {
      throw new Error(message);
    },
  });
  return out;
}

describe("the browser's React Router without the code of RSC, instrumentations, prefetching, modulepreload links, fetchers and view transitions", () => {
  const installed = modules.map((name) => {
    const id = path.join(PRODUCTION, name);
    return { id, code: fs.readFileSync(id, "utf8") };
  });

  it("writes each condition as the value it always has in this app, keeping every line where it was", () => {
    const out = build(installed);
    const router = out.find((m) => m.code.includes("function useIsRSCRouterContext()"))!;
    const before = installed.find((m) => m.id === router.id)!.code;
    expect(router.code).toContain("function useIsRSCRouterContext() {\n  return false;\n}");
    expect(router.code).not.toContain("React.useContext(RSCRouterContext)");
    expect(router.code).not.toContain("if (init.instrumentations)");
    expect(router.code).not.toContain("usePrefetchBehavior(\n      prefetch");
    // <Scripts /> renders no modulepreload link in the browser: neither the entry's nor the page's modules'.
    expect(router.code).toContain("let preloads = true ? [] : [");
    expect(router.code).not.toContain("href: manifest.entry.module,");
    // Neither a link nor a route's links prefetch a page.
    expect(router.code).not.toContain("return shouldPrefetch && !isAbsolute ?");
    expect(router.code).not.toContain("isPageLinkDescriptor(link) ? /* @__PURE__ */ React8.createElement(");
    // The router's fetch throws before it reaches a fetcher's action or load; a submission always navigates.
    expect(router.code).toMatch(/async function fetch2\(key, routeId, href, opts\) \{\n {4}throw new Error\("Fetchers are left out/);
    expect(router.code).not.toContain("if (options.navigate === false)");
    // No view transition: a router update never starts one, a navigation link never waits for one.
    expect(router.code).toContain("let isViewTransitionAvailable = false;");
    expect(router.code).not.toContain("useViewTransitionState(path) && viewTransition === true");
    expect(router.code.split("\n")).toHaveLength(before.split("\n").length);
    // Nothing else of the build changes.
    for (const m of out) if (m !== router) expect(m.code).toBe(installed.find((i) => i.id === m.id)!.code);
  });

  it("stops the build when React Router no longer reads as expected", () => {
    const changed = installed.map(({ id, code }) => ({
      id,
      code: code.replace("if (init.instrumentations) {", "if (init.instrumentations != null) {"),
    }));
    expect(() => build(changed)).toThrow("the router's route instrumentations was found 0 times in React Router's production build");
  });

  it("leaves the server's (and any other package's) modules alone", () => {
    const hooks = reactRouterWithoutUnused() as unknown as Hooks;
    const development = installed[0]!.code;
    expect(hooks.transform.call({}, development, path.resolve("node_modules/react-router/dist/development/chunk.mjs"))).toBeNull();
  });
});
