import routeConfig from "#app/routes.ts";
import type { GuardedArea } from "#app/lib/http.server.ts";

/** An entry of app/routes.ts as its config gives it. */
export interface ConfigEntry {
  path?: string;
  index?: boolean;
  file: string;
  id?: string;
  children?: ConfigEntry[];
}

/** One route of app/routes.ts: its full path template, module, id, and the signed-in area it sits in (null: public). */
export interface RouteEntry {
  path: string;
  file: string;
  id: string;
  area: GuardedArea | null;
}

const AREA_LAYOUT = /^routes\/layouts\/([a-z]+)\.tsx$/;

function flatten(entries: ConfigEntry[], prefix: string, area: GuardedArea | null): RouteEntry[] {
  return entries.flatMap((e) => {
    const id = e.id ?? e.file.replace(/\.[tj]sx?$/, "");
    // A layout adds no path; an area's layout says who may open what it holds.
    if (!e.index && e.path === undefined) {
      const layoutArea = (AREA_LAYOUT.exec(e.file)?.[1] as GuardedArea | undefined) ?? area;
      return flatten(e.children ?? [], prefix, layoutArea);
    }
    const p = e.index ? prefix || "/" : `${prefix}/${e.path ?? ""}`.replace(/\/+/g, "/");
    return [{ path: p, file: e.file, id, area }, ...(e.children ? flatten(e.children, p === "/" ? "" : p, area) : [])];
  });
}

/** Every route of the route table, in its order, with its area: the guard's rule, read from where the route sits. */
export function routeEntries(): RouteEntry[] {
  return flatten(routeConfig as ConfigEntry[], "", null);
}

/** The routes a signed-in area guards with one role (not the catch-all, nor "any account"), as [path, role]. */
export function roleRoutes(): [string, Exclude<GuardedArea, "account">][] {
  return routeEntries().flatMap((r) =>
    r.area && r.area !== "account" ? [[r.path, r.area] as [string, Exclude<GuardedArea, "account">]] : [],
  );
}
