import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [index("routes/shell.tsx"), route("rows", "routes/rows.tsx")] satisfies RouteConfig;
