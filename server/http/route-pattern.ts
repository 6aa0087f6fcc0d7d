import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children: RouteNode[];
}

const trees = new WeakMap<ServerBuild, RouteNode[]>();

/** The build's flat route list as the tree matchRoutes takes, made once per build. */
function routeTree(build: ServerBuild): RouteNode[] {
  let tree = trees.get(build);
  if (tree) return tree;
  const nodes = new Map<string, RouteNode>();
  for (const r of Object.values(build.routes)) {
    if (r) nodes.set(r.id, { id: r.id, path: r.path, index: r.index, caseSensitive: r.caseSensitive, children: [] });
  }
  tree = [];
  for (const r of Object.values(build.routes)) {
    if (!r) continue;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    (parent ? parent.children : tree).push(nodes.get(r.id)!);
  }
  trees.set(build, tree);
  return tree;
}

/**
 * The pattern of the page or resource route React Router answers `pathname` with (`/campaign/:slug`, `/*` for an
 * address no route has), for the metrics' labels. A `.data` request (a client navigation's loader data) counts
 * under its page's pattern.
 */
export function routePattern(build: ServerBuild, pathname: string): string {
  let path = pathname;
  if (path.endsWith(".data")) path = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
  // Only the fields matching reads; React Router's type also demands that an index route have no children.
  const matches = matchRoutes(routeTree(build) as RouteObject[], path);
  if (!matches) return "unmatched";
  const parts = matches.map((m) => m.route.path).filter((p): p is string => !!p);
  return `/${parts.join("/")}`.replace(/\/{2,}/g, "/");
}
