import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { Form, Link } from "react-router";
import type { Route } from "./+types/ngo-signup";
import { RequiredNotice, SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";

import { signUpAction } from "#app/components/auth/sign-up.server.ts";
import { AuthPage, ContactField, NewPasswordField, PictureField } from "#app/components/auth/auth-ui.tsx";

export function action({ request, context }: Route.ActionArgs) {
  return signUpAction("ngo", request, context);
}

export default function NgoSignUp({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/accounts.ts").then((m) => m.ngoSignUpSchema), {
    lastResult: actionData?.result,
  });
  return (
    <AuthPage title={t("auth:signUp.title.ngo")} lead={t("auth:signUp.lead.ngo")}>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
        <RequiredNotice
          fields={[fields.name, fields.address, fields.registrationNumber, fields.contactNumber, fields.email, fields.password]}
        />
        <ErrorBox id={form.errorId} errors={form.errors} />
        <TextField field={fields.name} label={t("auth:fields.ngoName")} autoComplete="organization" />
        <TextField field={fields.address} label={t("auth:fields.ngoAddress")} autoComplete="street-address" />
        <TextField field={fields.registrationNumber} label={t("auth:fields.registrationNumber")} />
        <ContactField field={fields.contactNumber} landline />
        <TextField field={fields.email} label={t("auth:fields.email")} type="email" autoComplete="email" />
        <NewPasswordField field={fields.password} label={t("auth:fields.password")} />
        <PictureField field={fields.logo} returned={form.status === "error"} label={t("auth:fields.logo")} />
        <SubmitButton>{t("auth:signUp.submit")}</SubmitButton>
      </Form>
      <p className="mt-4 text-center text-slate-700">
        {t("auth:signUp.haveAccount")}{" "}
        <Link to="/ngo_signin" className="font-medium text-brand-800 underline">
          {t("auth:signUp.logIn")}
        </Link>
      </p>
    </AuthPage>
  );
}
