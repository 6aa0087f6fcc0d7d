import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("ngo", "routes/role-landing.tsx", { id: "landing-ngo" }),
  route("donor", "routes/role-landing.tsx", { id: "landing-donor" }),
  route("rider", "routes/role-landing.tsx", { id: "landing-rider" }),
  route("admin_signin", "routes/auth/sign-in.tsx", { id: "signin-admin" }),
  route("ngo_signin", "routes/auth/sign-in.tsx", { id: "signin-ngo" }),
  route("donor_signin", "routes/auth/sign-in.tsx", { id: "signin-donor" }),
  route("rider_signin", "routes/auth/sign-in.tsx", { id: "signin-rider" }),
  route("ngo_signup", "routes/auth/ngo-signup.tsx"),
  route("donor_signup", "routes/auth/donor-signup.tsx"),
  route("rider_signup", "routes/auth/rider-signup.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  route("forgot_password", "routes/auth/forgot-password.tsx"),
  route("reset_password", "routes/auth/reset-password.tsx"),
  route("resubmit", "routes/auth/resubmit.tsx"),
  route("ngo_home", "routes/ngo/home.tsx"),
  route("donor_home", "routes/donor/home.tsx"),
  route("rider_home", "routes/rider/home.tsx"),
  route("settingsNGO", "routes/settings/ngo.tsx"),
  route("settingsDonor", "routes/settings/donor.tsx"),
  route("rider_profile", "routes/settings/rider.tsx"),
  route("about", "routes/about.tsx"),
  route("admin", "routes/admin/requests.tsx"),
  route("admin/accounts", "routes/admin/accounts.tsx"),
  route("admin/audit", "routes/admin/audit.tsx"),
  route("admin/outbox", "routes/admin/outbox.tsx"),
  route("notifications", "routes/notifications.tsx"),
  // campaigns
  // places
  // map
  // analytics and public page
  // collaboration
] satisfies RouteConfig;
