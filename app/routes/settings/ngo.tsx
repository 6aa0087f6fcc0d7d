import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { useLocation } from "react-router";
import type { Route } from "./+types/ngo";
import { requireUser } from "#app/lib/http.server.ts";
import { ngoSettings } from "#server/domain/accounts/settings.ts";
import { PAYMENT_CHANGE_NOTICE_HOURS } from "#server/domain/accounts/payment-guard.ts";
import { settingsAction } from "#app/components/settings/actions.server.ts";
import { NgoNameForm, PasswordForm, PaymentForm, PictureForm } from "#app/components/settings/settings-page.tsx";

export const handle = pageTitle("settings:title");

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  return { settings: await ngoSettings(context.services.db, user), paymentNoticeHours: PAYMENT_CHANGE_NOTICE_HOURS };
}

export async function action({ context, request }: Route.ActionArgs) {
  return settingsAction(request, context, "ngo");
}

/** /settingsNGO: name, password, logo and the accounts donors pay into. */
export default function NgoSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings, paymentNoticeHours } = loaderData;
  // A new location after each save remounts the forms, so they start from the saved values.
  const location = useLocation();
  return (
    <>
      <title>{`${t("settings:title")} · ${t("common:brand")}`}</title>
      <div key={location.key} className="mx-auto flex max-w-2xl flex-col gap-6">
        <NgoNameForm name={settings.name} />
        <PaymentForm accounts={settings} noticeHours={paymentNoticeHours} />
        <PictureForm pictureKey={settings.logoKey} kind="logo" />
        <PasswordForm />
      </div>
    </>
  );
}
