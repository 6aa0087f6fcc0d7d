import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { Form, Link } from "react-router";
import type { Route } from "./+types/rider-signup";
import { RequiredNotice, SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";

import { signUpAction } from "#app/components/auth/sign-up.server.ts";
import { AuthPage, ContactField, NewPasswordField, PictureField } from "#app/components/auth/auth-ui.tsx";
import { PlaceField } from "#app/components/place-field.tsx";
import { mapSettings } from "#app/components/campaigns/campaign-action.server.ts";

export function loader({ context }: Route.LoaderArgs) {
  return { map: mapSettings(context) };
}

export function action({ request, context }: Route.ActionArgs) {
  return signUpAction("rider", request, context);
}

export default function RiderSignUp({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/accounts.ts").then((m) => m.riderSignUpSchema), {
    lastResult: actionData?.result,
  });
  const typedArea = typeof fields.area.initialValue === "string" ? fields.area.initialValue : "";
  return (
    <AuthPage title={t("auth:signUp.title.rider")} lead={t("auth:signUp.lead.rider")}>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
        <RequiredNotice
          fields={[fields.firstName, fields.lastName, fields.email, fields.password, fields.contactNumber, fields.cnic, fields.area]}
        />
        <ErrorBox id={form.errorId} errors={form.errors} />
        <TextField field={fields.firstName} label={t("auth:fields.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("auth:fields.lastName")} autoComplete="family-name" />
        <TextField field={fields.email} label={t("auth:fields.email")} type="email" autoComplete="email" />
        <NewPasswordField field={fields.password} label={t("auth:fields.password")} />
        <ContactField field={fields.contactNumber} />
        <TextField field={fields.cnic} label={t("auth:fields.cnic")} inputMode="numeric" hint={t("auth:fields.cnicHint")} />
        <PlaceField
          name={fields.area.name}
          id={fields.area.id}
          label={t("settings:area.label")}
          hint={t("auth:fields.riderAreaHint")}
          defaultValue={typedArea}
          error={fields.area.errors?.[0]}
          errorId={fields.area.errorId}
          required
          tileUrl={loaderData.map.tileUrl}
          tileAttribution={loaderData.map.tileAttribution}
        />
        <PictureField field={fields.picture} returned={form.status === "error"} label={t("auth:fields.picture")} />
        <SubmitButton>{t("auth:signUp.submit")}</SubmitButton>
      </Form>
      <p className="mt-4 text-center text-slate-700">
        {t("auth:signUp.haveAccount")}{" "}
        <Link to="/rider_signin" className="font-medium text-brand-800 underline">
          {t("auth:signUp.logIn")}
        </Link>
      </p>
    </AuthPage>
  );
}
