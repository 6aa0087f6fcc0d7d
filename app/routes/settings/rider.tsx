import { useTranslation } from "~/i18n/i18n";
import { useLocation } from "react-router";
import type { Route } from "./+types/rider";
import { RoleShell } from "~/components/role-shell";
import { requireUser } from "~/lib/http.server";
import { getPersonSettings } from "../../../server/domain/accounts/settings";
import { settingsAction } from "./actions.server";
import { PasswordForm, PersonNameForm, PictureForm } from "./shared";

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "rider", request);
  return { settings: await getPersonSettings(context.services.db, user) };
}

export async function action({ context, request }: Route.ActionArgs) {
  return settingsAction(request, context, "rider");
}

/** /rider_profile: the rider's name, password and profile picture. */
export default function RiderSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings } = loaderData;
  // A new location after each save remounts the forms, so they start from the saved values.
  const location = useLocation();
  return (
    <RoleShell title={t("settings:riderTitle")}>
      <title>{`${t("settings:riderTitle")} · ${t("common:brand")}`}</title>
      <div key={location.key} className="mx-auto flex max-w-2xl flex-col gap-6">
        <PersonNameForm firstName={settings.firstName} lastName={settings.lastName} />
        <PictureForm pictureKey={settings.pictureKey} kind="avatar" />
        <PasswordForm />
      </div>
    </RoleShell>
  );
}
