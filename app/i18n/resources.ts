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
  },
};
