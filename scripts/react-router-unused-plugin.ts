/**
 * The Vite plugin that leaves out of the browser's React Router the code of three features this app does not use
 * (decision 033, 2026-11-27):
 *
 * - React Server Components: `RSCRouterContext` is only ever true under `unstable_RSCHydratedRouter`, which the app
 *   does not render (it hydrates `HydratedRouter`);
 * - the router's `instrumentations`, an option of `HydratedRouter` that `entry.client.tsx` does not pass;
 * - a link's `prefetch` (no link of the app asks for one; lint refuses the attribute, so none can expect it to work),
 *   and a route's page links (a `links` export's `{ page }`, which prefetches another page: the root's favicon is the
 *   app's only link; lint refuses a `page` in a `links` export);
 * - the modulepreload links `<Scripts />` renders (decision 036: the page's head has none; in the browser they would
 *   only be added at hydration and removed again, 2026-11-27);
 * - fetchers (`useFetcher`, a submission with `navigate: false`): every form of the app navigates, and lint refuses
 *   both; the router's `fetch` throws, saying so, rather than carrying their code;
 * - view transitions (`viewTransition` on a link, a form or a navigation, `useViewTransitionState`): none is asked
 *   for, and lint refuses them; a navigation that asked would simply not animate.
 *
 * Each is a branch on a value that is always the same here, which the bundler cannot know: written as that value,
 * the branches and the functions only they reach (the RSC error handler and prefetch links, the redirect digests,
 * the instrumentation wrappers, the prefetch behaviour, the page links' prefetching, the fetchers' actions and loads,
 * the view transitions' steps) are dropped. Every page is about 4.2 KB (gzip) lighter.
 *
 * Each replacement must match exactly once in React Router's production build (the client's, see
 * react-router-production-plugin.ts), or the build stops: a new version of React Router has to be looked at again,
 * not patched blindly. The server keeps the package as it is.
 */
import path from "node:path";
import type { Plugin } from "vite";

const PRODUCTION = `${path.sep}node_modules${path.sep}react-router${path.sep}dist${path.sep}production${path.sep}`;

/** What is always the same in this app's browser, each as React Router 7.18.4's production build writes it. */
const ALWAYS_FALSE: { name: string; find: string; replace: string }[] = [
  {
    name: "the RSC router context",
    find: "function useIsRSCRouterContext() {\n  return React.useContext(RSCRouterContext);\n}",
    replace: "function useIsRSCRouterContext() {\n  return false;\n}",
  },
  {
    name: "the RSC error boundary's digest",
    find: 'if (this.context && typeof error === "object" && error && "digest" in error',
    replace: 'if (false && typeof error === "object" && error && "digest" in error',
  },
  {
    name: "the RSC error handler",
    find: "if (this.context) {\n      return /* @__PURE__ */ React2.createElement(RSCErrorHandler",
    replace: "if (false) {\n      return /* @__PURE__ */ React2.createElement(RSCErrorHandler",
  },
  {
    name: "the RSC error boundary's context",
    find: "RenderErrorBoundary.contextType = RSCRouterContext;",
    replace: "",
  },
  {
    name: "the router's route instrumentations",
    find: "  if (init.instrumentations) {\n    let instrumentations = init.instrumentations;",
    replace: "  if (false) {\n    let instrumentations = init.instrumentations;",
  },
  {
    name: "the router's own instrumentations",
    find: "  if (init.instrumentations) {\n    router = instrumentClientSideRouter(",
    replace: "  if (false) {\n    router = instrumentClientSideRouter(",
  },
  {
    // The page's head carries no modulepreload links (the server's stream leaves them out, decision 036), and by the
    // time the browser's <Scripts /> renders, every module they name has loaded: React would add them to the head
    // while the page hydrates and take them out again at the next render, 20 elements on the landing page.
    name: "the modulepreload links of the page's modules",
    find: "  let preloads = isHydrated || isRSCRouterContext ? [] : [",
    replace: "  let preloads = true ? [] : [",
  },
  {
    name: "the modulepreload link of the entry module",
    find: `/* @__PURE__ */ React8.createElement(
    "link",
    {
      rel: "modulepreload",
      href: manifest.entry.module,
      crossOrigin: scriptProps.crossOrigin,
      integrity: sri[manifest.entry.module],
      nonce: scriptProps.nonce,
      suppressHydrationWarning: true
    }
  )`,
    replace: "null",
  },
  {
    name: "a link's prefetching",
    find: "let [shouldPrefetch, prefetchRef, prefetchHandlers] = usePrefetchBehavior(\n      prefetch,\n      rest\n    );",
    replace: "let [shouldPrefetch, prefetchRef, prefetchHandlers] = [false, null, {}];",
  },
  {
    name: "a link's prefetch links",
    find: "return shouldPrefetch && !isAbsolute ? /* @__PURE__ */ React10.createElement(React10.Fragment, null, link,",
    replace: "return false ? /* @__PURE__ */ React10.createElement(React10.Fragment, null, link,",
  },
  {
    name: "a route's page links",
    find: "({ key, link }) => isPageLinkDescriptor(link) ? /* @__PURE__ */ React8.createElement(",
    replace: "({ key, link }) => false ? /* @__PURE__ */ React8.createElement(",
  },
  {
    name: "the router's fetchers",
    find: "  async function fetch2(key, routeId, href, opts) {\n    abortFetcher(key);",
    replace:
      '  async function fetch2(key, routeId, href, opts) {\n    throw new Error("Fetchers are left out of the browser\'s React Router (decision 033)");',
  },
  {
    name: "a submission without navigating",
    find: "      if (options.navigate === false) {\n        let key = options.fetcherKey || getUniqueFetcherId();",
    replace: "      if (false) {\n        let key = options.fetcherKey || getUniqueFetcherId();",
  },
  {
    name: "the view transitions of a router update",
    find: 'let isViewTransitionAvailable = router.window != null && router.window.document != null && typeof router.window.document.startViewTransition === "function";',
    replace: "let isViewTransitionAvailable = false;",
  },
  {
    name: "a navigation link's view transition",
    find: "let isTransitioning = routerState != null && // Conditional usage is OK here because the usage of a data router is static\n    // eslint-disable-next-line react-hooks/rules-of-hooks\n    useViewTransitionState(path) && viewTransition === true;",
    replace: "let isTransitioning = false;",
  },
];

const lines = (text: string) => text.split("\n").length;

export function reactRouterWithoutUnused(): Plugin {
  const found = new Map<string, number>();
  return {
    name: "ekc:react-router-without-unused",
    apply: "build",
    applyToEnvironment: (environment) => environment.config.consumer === "client",
    buildStart() {
      found.clear();
    },
    transform(code, id) {
      if (!id.includes(PRODUCTION)) return null;
      let out = code;
      for (const { name, find, replace } of ALWAYS_FALSE) {
        const parts = out.split(find);
        if (parts.length === 1) continue;
        found.set(name, (found.get(name) ?? 0) + parts.length - 1);
        // As many lines as were there, so the module's lines (and its source map, `map: null`) stay where they were.
        out = parts.join(replace + "\n".repeat(lines(find) - lines(replace)));
      }
      return out === code ? null : { code: out, map: null };
    },
    buildEnd(error) {
      if (error) return;
      for (const { name } of ALWAYS_FALSE) {
        const times = found.get(name) ?? 0;
        if (times !== 1) this.error(`${name} was found ${times} times in React Router's production build, not once`);
      }
    },
  };
}
