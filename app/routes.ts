import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("ngo", "routes/role-landing.tsx", { id: "landing-ngo" }),
  route("donor", "routes/role-landing.tsx", { id: "landing-donor" }),
  route("rider", "routes/role-landing.tsx", { id: "landing-rider" }),
] satisfies RouteConfig;
