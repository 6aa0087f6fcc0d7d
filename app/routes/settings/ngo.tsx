import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { Printer } from "lucide-react";
import { data, redirect, useLocation } from "react-router";
import type { Route } from "./+types/ngo";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { DROPOFF_INTENTS, dropoffAddSchema, dropoffRemoveSchema, type DropoffIntent } from "#shared/forms/pickups.ts";
import { placeLabelFor } from "#shared/places.ts";
import { addDropoffPoint, listDropoffPoints, removeDropoffPoint } from "#server/domain/pickups/dropoffs.ts";
import { mapSettings } from "#app/components/campaigns/campaign-action.server.ts";
import { DropoffPoints } from "#app/components/settings/dropoff-points.tsx";
import { ngoSettings } from "#server/domain/accounts/settings.ts";
import { PAYMENT_CHANGE_NOTICE_HOURS } from "#server/domain/accounts/payment-guard.ts";
import { settingsAction } from "#app/components/settings/actions.server.ts";
import { NgoContactForm, NgoNameForm, PasswordForm, PaymentForm, PictureForm } from "#app/components/settings/settings-page.tsx";

export const handle = pageTitle("settings:title");

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const { db } = context.services;
  return {
    settings: await ngoSettings(db, user),
    paymentNoticeHours: PAYMENT_CHANGE_NOTICE_HOURS,
    dropoffs: (await listDropoffPoints(db, user)).map(({ id, name, address, areaLabel, areaLabelUr }) => ({
      id,
      name,
      address,
      areaLabel: placeLabelFor({ label: areaLabel, labelUr: areaLabelUr }, context.lang),
    })),
    map: mapSettings(context),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const actor = requireUser(context, "ngo");
  // The drop-off point forms are the NGO's own; every other form of the page goes to the shared settings action.
  const formData = await readFormData(request, context);
  const intent = String(formData.get("intent") ?? "");
  if (!(DROPOFF_INTENTS as readonly string[]).includes(intent)) return settingsAction(request, context, "ngo", formData);
  const { services } = context;
  const submission =
    (intent as DropoffIntent) === "addDropoff"
      ? parseWithZod(formData, { schema: dropoffAddSchema })
      : parseWithZod(formData, { schema: dropoffRemoveSchema });
  if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
  const value = submission.value;
  const outcome = await formAction(submission, () =>
    "place" in value ? addDropoffPoint(services, actor, value).then(() => undefined) : removeDropoffPoint(services, actor, value),
  );
  if (!outcome.ok) return outcome.answer({ intent });
  return redirect(`${new URL(request.url).pathname}?saved=${intent}`);
}

/** /settingsNGO: name, contact, drop-off points, password, logo and the accounts donors pay into. */
export default function NgoSettings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { settings, paymentNoticeHours, dropoffs, map } = loaderData;
  // A new location after each save remounts the forms, so they start from the saved values.
  const location = useLocation();
  return (
    <>
      <title>{`${t("settings:title")} · ${t("common:brand")}`}</title>
      <div key={location.key} className="mx-auto flex max-w-2xl flex-col gap-6">
        <NgoNameForm name={settings.name} />
        <NgoContactForm address={settings.address} contactNumber={settings.contactNumber} />
        <DropoffPoints points={dropoffs} officeAddress={settings.address} map={map} />
        <PaymentForm accounts={settings} noticeHours={paymentNoticeHours} />
        <section aria-labelledby="poster-heading" className="rounded-lg bg-white p-4 shadow-sm md:p-6">
          <h2 id="poster-heading" className="text-lg font-bold text-brand-900">
            {t("campaigns:poster.collectionHeading")}
          </h2>
          <p className="mt-1 text-slate-700">{t("campaigns:poster.collectionLead")}</p>
          <a
            href="/poster"
            download
            className="mt-3 inline-flex items-center gap-1 rounded-md border border-brand-700 px-3 py-1.5 font-medium text-brand-800 hover:bg-brand-50"
          >
            <Printer aria-hidden="true" className="size-4" />
            {t("campaigns:poster.collectionLink")}
          </a>
        </section>
        <PictureForm pictureKey={settings.logoKey} kind="logo" />
        <PasswordForm />
      </div>
    </>
  );
}
