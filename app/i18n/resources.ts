import enAdmin from "~/locales/en/admin.json";
import enAuth from "~/locales/en/auth.json";
import enCommon from "~/locales/en/common.json";
import enErrors from "~/locales/en/errors.json";
import enHome from "~/locales/en/home.json";
import enMail from "~/locales/en/mail.json";
import enNotifications from "~/locales/en/notifications.json";
import enSettings from "~/locales/en/settings.json";
import enValidation from "~/locales/en/validation.json";
import urAdmin from "~/locales/ur/admin.json";
import urAuth from "~/locales/ur/auth.json";
import urCommon from "~/locales/ur/common.json";
import urErrors from "~/locales/ur/errors.json";
import urHome from "~/locales/ur/home.json";
import urMail from "~/locales/ur/mail.json";
import urNotifications from "~/locales/ur/notifications.json";
import urSettings from "~/locales/ur/settings.json";
import urValidation from "~/locales/ur/validation.json";
import enCampaigns from "~/locales/en/campaigns.json";
import urCampaigns from "~/locales/ur/campaigns.json";
import enPlaces from "~/locales/en/places.json";
import urPlaces from "~/locales/ur/places.json";
import enMap from "~/locales/en/map.json";
import urMap from "~/locales/ur/map.json";
import enAnalytics from "~/locales/en/analytics.json";
import urAnalytics from "~/locales/ur/analytics.json";
import enShowcase from "~/locales/en/showcase.json";
import urShowcase from "~/locales/ur/showcase.json";
import enCollab from "~/locales/en/collab.json";
import urCollab from "~/locales/ur/collab.json";
import enDonations from "~/locales/en/donations.json";
import urDonations from "~/locales/ur/donations.json";
import enDonate from "~/locales/en/donate.json";
import urDonate from "~/locales/ur/donate.json";
import enReview from "~/locales/en/review.json";
import urReview from "~/locales/ur/review.json";
import enHistory from "~/locales/en/history.json";
import urHistory from "~/locales/ur/history.json";
import enPickups from "~/locales/en/pickups.json";
import urPickups from "~/locales/ur/pickups.json";
import enGoods from "~/locales/en/goods.json";
import urGoods from "~/locales/ur/goods.json";
import enAssign from "~/locales/en/assign.json";
import urAssign from "~/locales/ur/assign.json";
import enRider from "~/locales/en/rider.json";
import urRider from "~/locales/ur/rider.json";
import enVolunteer from "~/locales/en/volunteer.json";
import urVolunteer from "~/locales/ur/volunteer.json";
import enPositions from "~/locales/en/positions.json";
import urPositions from "~/locales/ur/positions.json";
import enApplications from "~/locales/en/applications.json";
import urApplications from "~/locales/ur/applications.json";
import enOpportunities from "~/locales/en/opportunities.json";
import urOpportunities from "~/locales/ur/opportunities.json";

/** Every string a user sees, by language and namespace. A test checks both languages have the same keys. */
export const resources = {
  en: {
    common: enCommon,
    validation: enValidation,
    errors: enErrors,
    home: enHome,
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
    collab: enCollab,
    donations: enDonations,
    donate: enDonate,
    review: enReview,
    history: enHistory,
    pickups: enPickups,
    goods: enGoods,
    assign: enAssign,
    rider: enRider,
    volunteer: enVolunteer,
    positions: enPositions,
    applications: enApplications,
    opportunities: enOpportunities,
  },
  ur: {
    common: urCommon,
    validation: urValidation,
    errors: urErrors,
    home: urHome,
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
    collab: urCollab,
    donations: urDonations,
    donate: urDonate,
    review: urReview,
    history: urHistory,
    pickups: urPickups,
    goods: urGoods,
    assign: urAssign,
    rider: urRider,
    volunteer: urVolunteer,
    positions: urPositions,
    applications: urApplications,
    opportunities: urOpportunities,
  },
};
