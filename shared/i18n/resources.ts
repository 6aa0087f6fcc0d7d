import enAdmin from "#shared/locales/en/admin.json";
import enAuth from "#shared/locales/en/auth.json";
import enCommon from "#shared/locales/en/common.json";
import enErrors from "#shared/locales/en/errors.json";
import enHome from "#shared/locales/en/home.json";
import enLanding from "#shared/locales/en/landing.json";
import enMail from "#shared/locales/en/mail.json";
import enNotifications from "#shared/locales/en/notifications.json";
import enSettings from "#shared/locales/en/settings.json";
import enValidation from "#shared/locales/en/validation.json";
import urAdmin from "#shared/locales/ur/admin.json";
import urAuth from "#shared/locales/ur/auth.json";
import urCommon from "#shared/locales/ur/common.json";
import urErrors from "#shared/locales/ur/errors.json";
import urHome from "#shared/locales/ur/home.json";
import urLanding from "#shared/locales/ur/landing.json";
import urMail from "#shared/locales/ur/mail.json";
import urNotifications from "#shared/locales/ur/notifications.json";
import urSettings from "#shared/locales/ur/settings.json";
import urValidation from "#shared/locales/ur/validation.json";
import enCampaigns from "#shared/locales/en/campaigns.json";
import urCampaigns from "#shared/locales/ur/campaigns.json";
import enPlaces from "#shared/locales/en/places.json";
import urPlaces from "#shared/locales/ur/places.json";
import enMap from "#shared/locales/en/map.json";
import urMap from "#shared/locales/ur/map.json";
import enAnalytics from "#shared/locales/en/analytics.json";
import urAnalytics from "#shared/locales/ur/analytics.json";
import enShowcase from "#shared/locales/en/showcase.json";
import enLedger from "#shared/locales/en/ledger.json";
import urLedger from "#shared/locales/ur/ledger.json";
import urShowcase from "#shared/locales/ur/showcase.json";
import enNgoProfile from "#shared/locales/en/ngoProfile.json";
import enChecks from "#shared/locales/en/checks.json";
import enBadge from "#shared/locales/en/badge.json";
import urNgoProfile from "#shared/locales/ur/ngoProfile.json";
import urChecks from "#shared/locales/ur/checks.json";
import urBadge from "#shared/locales/ur/badge.json";
import enCollab from "#shared/locales/en/collab.json";
import urCollab from "#shared/locales/ur/collab.json";
import enDonations from "#shared/locales/en/donations.json";
import urDonations from "#shared/locales/ur/donations.json";
import enDonate from "#shared/locales/en/donate.json";
import enPayment from "#shared/locales/en/payment.json";
import urDonate from "#shared/locales/ur/donate.json";
import urPayment from "#shared/locales/ur/payment.json";
import enReview from "#shared/locales/en/review.json";
import urReview from "#shared/locales/ur/review.json";
import enHistory from "#shared/locales/en/history.json";
import urHistory from "#shared/locales/ur/history.json";
import enPickups from "#shared/locales/en/pickups.json";
import urPickups from "#shared/locales/ur/pickups.json";
import enGoods from "#shared/locales/en/goods.json";
import urGoods from "#shared/locales/ur/goods.json";
import enAssign from "#shared/locales/en/assign.json";
import urAssign from "#shared/locales/ur/assign.json";
import enRider from "#shared/locales/en/rider.json";
import urRider from "#shared/locales/ur/rider.json";
import enVolunteer from "#shared/locales/en/volunteer.json";
import urVolunteer from "#shared/locales/ur/volunteer.json";
import enPositions from "#shared/locales/en/positions.json";
import urPositions from "#shared/locales/ur/positions.json";
import enApplications from "#shared/locales/en/applications.json";
import urApplications from "#shared/locales/ur/applications.json";
import enOpportunities from "#shared/locales/en/opportunities.json";
import urOpportunities from "#shared/locales/ur/opportunities.json";
import enReconcile from "#shared/locales/en/reconcile.json";
import urReconcile from "#shared/locales/ur/reconcile.json";
import enStatements from "#shared/locales/en/statements.json";
import urStatements from "#shared/locales/ur/statements.json";
import enFunds from "#shared/locales/en/funds.json";
import urFunds from "#shared/locales/ur/funds.json";
import enGivingStatements from "#shared/locales/en/givingStatements.json";
import urGivingStatements from "#shared/locales/ur/givingStatements.json";
import enUpdates from "#shared/locales/en/updates.json";
import urUpdates from "#shared/locales/ur/updates.json";

/** Every string a user sees, by language and namespace. A test checks both languages have the same keys. */
export const resources = {
  en: {
    common: enCommon,
    validation: enValidation,
    errors: enErrors,
    home: enHome,
    landing: enLanding,
    auth: enAuth,
    admin: enAdmin,
    settings: enSettings,
    notifications: enNotifications,
    mail: enMail,
    campaigns: enCampaigns,
    places: enPlaces,
    map: enMap,
    analytics: enAnalytics,
    showcase: enShowcase,
    ledger: enLedger,
    ngoProfile: enNgoProfile,
    checks: enChecks,
    badge: enBadge,
    collab: enCollab,
    donations: enDonations,
    donate: enDonate,
    payment: enPayment,
    review: enReview,
    reconcile: enReconcile,
    statements: enStatements,
    history: enHistory,
    givingStatements: enGivingStatements,
    pickups: enPickups,
    goods: enGoods,
    assign: enAssign,
    rider: enRider,
    volunteer: enVolunteer,
    positions: enPositions,
    applications: enApplications,
    opportunities: enOpportunities,
    funds: enFunds,
    updates: enUpdates,
  },
  ur: {
    common: urCommon,
    validation: urValidation,
    errors: urErrors,
    home: urHome,
    landing: urLanding,
    auth: urAuth,
    admin: urAdmin,
    settings: urSettings,
    notifications: urNotifications,
    mail: urMail,
    campaigns: urCampaigns,
    places: urPlaces,
    map: urMap,
    analytics: urAnalytics,
    showcase: urShowcase,
    ledger: urLedger,
    ngoProfile: urNgoProfile,
    checks: urChecks,
    badge: urBadge,
    collab: urCollab,
    donations: urDonations,
    donate: urDonate,
    payment: urPayment,
    review: urReview,
    reconcile: urReconcile,
    statements: urStatements,
    history: urHistory,
    givingStatements: urGivingStatements,
    pickups: urPickups,
    goods: urGoods,
    assign: urAssign,
    rider: urRider,
    volunteer: urVolunteer,
    positions: urPositions,
    applications: urApplications,
    opportunities: urOpportunities,
    funds: urFunds,
    updates: urUpdates,
  },
};
