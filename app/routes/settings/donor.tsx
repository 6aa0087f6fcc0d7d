import { useTranslation } from "~/i18n/i18n";
import { useLocation } from "react-router";
import type { Route } from "./+types/donor";
import { RoleShell } from "~/components/role-shell";
import { requireUser } from "~/lib/http.server";
import { getPersonSettings } from "../../../server/domain/accounts/settings";
import { settingsAction } from "./actions.server";
import { PasswordForm, PersonNameForm, PictureForm } from "./shared";

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor", request);
  return { settings: await getPersonSettings(context.services.db, user) };
}

export async function action({ context, request }: Route.ActionArgs) {
  return settingsAction(request, context, "donor");
}

/** /settingsDonor: name, password and profile picture. */
export default function DonorSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings } = loaderData;
  // A new location after each save remounts the forms, so they start from the saved values.
  const location = useLocation();
  return (
    <RoleShell title={t("settings:title")}>
      <title>{`${t("settings:title")} · ${t("common:brand")}`}</title>
      <div key={location.key} className="mx-auto flex max-w-2xl flex-col gap-6">
        <PersonNameForm firstName={settings.firstName} lastName={settings.lastName} />
        <PictureForm pictureKey={settings.pictureKey} kind="avatar" />
        <PasswordForm />
      </div>
    </RoleShell>
  );
}
