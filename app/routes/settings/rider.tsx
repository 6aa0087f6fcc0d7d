import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { data, redirect, useLocation } from "react-router";
import * as z from "zod/mini";
import type { Route } from "./+types/rider";
import { RiderAreaForm } from "#app/components/rider-area-form.tsx";
import { parseWithZod } from "#shared/forms/parse.ts";
import { RIDER_AREA_INTENTS, riderAreaSchema, type RiderAreaIntent } from "#shared/forms/settings.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { clearRiderArea, personSettings, findRiderArea, setRiderArea } from "#server/domain/accounts/settings.ts";
import { mapSettings } from "#app/components/campaigns/campaign-action.server.ts";
import { settingsAction } from "#app/components/settings/actions.server.ts";
import { PasswordForm, PersonNameForm, PictureForm } from "#app/components/settings/settings-page.tsx";

export const handle = pageTitle("settings:riderTitle");

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context, "rider");
  const { db } = context.services;
  return { settings: await personSettings(db, user), area: await findRiderArea(db, user), map: mapSettings(context) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const actor = requireUser(context, "rider");
  // The area forms are the rider's own; every other form of the page goes to the shared settings action.
  const formData = await readFormData(request, context);
  const intent = String(formData.get("intent") ?? "");
  if (!(RIDER_AREA_INTENTS as readonly string[]).includes(intent)) return settingsAction(request, context, "rider", formData);

  const back = `${new URL(request.url).pathname}?saved=${intent}`;
  const { services } = context;
  let outcome;
  if ((intent as RiderAreaIntent) === "area") {
    const submission = parseWithZod(formData, { schema: riderAreaSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    outcome = await formAction(submission, () => setRiderArea(services, actor, submission.value));
  } else {
    const submission = parseWithZod(formData, { schema: z.object({}) });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    outcome = await formAction(submission, () => clearRiderArea(services.db, actor));
  }
  if (!outcome.ok) return outcome.answer({ intent });
  return redirect(back);
}

/** /rider_profile: the rider's name, area, password and profile picture. */
export default function RiderSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings, area, map } = loaderData;
  // A new location after each save remounts the forms, so they start from the saved values.
  const location = useLocation();
  return (
    <>
      <title>{`${t("settings:riderTitle")} · ${t("common:brand")}`}</title>
      <div key={location.key} className="mx-auto flex max-w-2xl flex-col gap-6">
        <PersonNameForm firstName={settings.firstName} lastName={settings.lastName} />
        <RiderAreaForm area={area} map={map} />
        <PictureForm pictureKey={settings.pictureKey} kind="avatar" />
        <PasswordForm />
      </div>
    </>
  );
}
