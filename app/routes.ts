import { type RouteConfig, type RouteConfigEntry, index, layout, route } from "@react-router/dev/routes";
import type { GuardedArea } from "#app/lib/http.server.ts";

/**
 * A signed-in area: its layout's middleware is the one guard of every route under it, page or resource, and the
 * layout draws the role's shell around the page (decision 021). Where a route sits here is who may open it.
 */
const area = (who: GuardedArea, routes: RouteConfigEntry[]) => layout(`routes/layouts/${who}.tsx`, routes);

export default [
  // public: the landing pages, sign-in and sign-up, the public campaign and NGO pages, the APIs the public pages use
  index("routes/home.tsx"),
  route("ngo", "routes/landing/ngo.tsx"),
  route("donor", "routes/landing/donor.tsx"),
  route("rider", "routes/landing/rider.tsx"),
  route("admin_signin", "routes/auth/sign-in-admin.tsx"),
  route("ngo_signin", "routes/auth/sign-in-ngo.tsx"),
  route("donor_signin", "routes/auth/sign-in-donor.tsx"),
  route("rider_signin", "routes/auth/sign-in-rider.tsx"),
  route("ngo_signup", "routes/auth/ngo-signup.tsx"),
  route("donor_signup", "routes/auth/donor-signup.tsx"),
  route("rider_signup", "routes/auth/rider-signup.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  route("forgot_password", "routes/auth/forgot-password.tsx"),
  route("reset_password", "routes/auth/reset-password.tsx"),
  route("resubmit", "routes/auth/resubmit.tsx"),
  route("about", "routes/about.tsx"),
  route("campaign/:slug", "routes/campaign-public.tsx"),
  route("campaign/:slug/ledger", "routes/ledger/public-ledger.tsx"),
  route("campaign/:slug/updates", "routes/updates/public-updates.tsx"),
  route("ngo/:id", "routes/ngo-public.tsx"),
  route("api/places", "routes/api/places.ts"),
  route("api/map", "routes/api/map.ts"),

  area("admin", [
    route("admin", "routes/admin/requests.tsx"),
    route("admin/accounts", "routes/admin/accounts.tsx"),
    route("admin/audit", "routes/admin/audit.tsx"),
    route("admin/outbox", "routes/admin/outbox.tsx"),
    route("admin/zakat", "routes/admin/zakat.tsx"),
    // every campaign's published spending, to take an entry down with a reason (decision 049)
    route("admin/spending", "routes/admin/spending.tsx"),
    route("admin/settings", "routes/admin/settings.tsx"),
    // what the vetting of an NGO checked: record, renew, revoke (decision 051)
    route("admin/ngos/:id/checks", "routes/admin/checks.tsx"),
  ]),

  area("ngo", [
    route("ngo_home", "routes/ngo/home.tsx"),
    route("settingsNGO", "routes/settings/ngo.tsx"),
    route("poster", "routes/ngo/poster.ts"),
    // campaigns, their analytics and the map
    route("campaigns", "routes/campaigns/ongoing.tsx"),
    route("comp_camp", "routes/campaigns/successful.tsx"),
    route("create_camp", "routes/campaigns/create.tsx"),
    route("campaigns/:id/edit", "routes/campaigns/edit.tsx"),
    route("campaigns/:id/delete", "routes/campaigns/delete.tsx"),
    route("campaigns/:id/analytics", "routes/campaigns/analytics.tsx"),
    route("campaigns/:id/poster", "routes/campaigns/poster.ts"),
    // a campaign's spending records: drafts with their documents, published to the public ledger
    route("campaigns/:id/spending", "routes/ledger/spending.tsx"),
    // a campaign's updates to its donors, and the words of support its donors wrote (decision 050)
    route("campaigns/:id/updates", "routes/updates/ngo-updates.tsx"),
    route("campaigns/:id/words", "routes/updates/ngo-words.tsx"),
    route("ngo_map", "routes/map/ngo-map.tsx"),
    // collaboration
    route("collab", "routes/collab/collab.tsx"),
    route("collab1", "routes/collab/collab1.tsx"),
    route("collab/join/:campaignId", "routes/collab/join.tsx"),
    // the review of cash donations, the pick-up requests, the donation history
    route("apps", "routes/review/apps.tsx"),
    route("noncash_apps", "routes/assign/noncash-apps.tsx"),
    route("donHistory", "routes/history/ngo.tsx"),
    route("donHistory/export", "routes/history/ngo-export.ts"),
    // statements of the NGO's accounts, matched to its gifts
    route("statements", "routes/statements/upload.tsx"),
    route("statements/columns", "routes/statements/columns.tsx"),
    route("reconcile", "routes/statements/reconcile.tsx"),
    // volunteering: positions and applications
    route("vol0", "routes/volunteer/positions-open.tsx"),
    route("cc1", "routes/volunteer/positions-cc1.tsx"),
    route("volClosed", "routes/volunteer/positions-closed.tsx"),
    route("vol1", "routes/volunteer/create.tsx"),
    route("vol2", "routes/volunteer/applications-live.tsx"),
    route("volApproved", "routes/volunteer/applications-approved.tsx"),
    route("volRejected", "routes/volunteer/applications-rejected.tsx"),
    route("vol3", "routes/volunteer/application-review.tsx"),
    route("volPSDAA", "routes/volunteer/application-approved.tsx"),
  ]),

  area("donor", [
    route("donor_home", "routes/donor/home.tsx"),
    route("settingsDonor", "routes/settings/donor.tsx"),
    route("donor_map", "routes/map/donor-map.tsx"),
    // cash donations
    route("donate1", "routes/donate/pick.tsx"),
    route("donate2", "routes/donate/pay.tsx"),
    route("donate3", "routes/donate/proof.tsx"),
    route("donate4", "routes/donate/thanks.tsx"),
    // in-kind donations
    route("donate5", "routes/goods/pick.tsx"),
    route("donate5_1", "routes/goods/offer.tsx"),
    route("donate6", "routes/goods/thanks.tsx"),
    // volunteering: search, application, history
    route("vfg1", "routes/opportunities/list.tsx"),
    route("vfg2", "routes/opportunities/detail.tsx"),
    route("vfg3", "routes/opportunities/apply.tsx"),
    route("dvh", "routes/history/donor.tsx"),
    // the donor's one reply to a disapproved cash gift, with a corrected proof (decision 025)
    route("dvh/reply", "routes/history/reply.tsx"),
    // the donor's yearly giving statements and Zakat summaries, and their PDFs (decision 052)
    route("dvh/statements", "routes/history/statements.tsx"),
    route("dvh/statements/:kind/:year", "routes/history/statement-pdf.ts"),
    route("dvh2", "routes/history/volunteer.tsx"),
    // words of support for a campaign the donor gave to (decision 050)
    route("support/:slug", "routes/updates/donor-words.tsx"),
  ]),

  area("rider", [route("rider_home", "routes/rider/home.tsx"), route("rider_profile", "routes/settings/rider.tsx")]),

  area("account", [route("notifications", "routes/notifications.tsx"), route("receipts/:id", "routes/history/receipt.ts")]),

  // Any other address: a 404 drawn inside the signed-in user's shell (root's error boundary), not a bare page.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
