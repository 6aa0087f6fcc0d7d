import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { Form, Link } from "react-router";
import type { Route } from "./+types/donor-signup";
import { RequiredNotice, SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";

import { signUpAction } from "#app/components/auth/sign-up.server.ts";
import { AuthPage, ContactField, NewPasswordField, PictureField } from "#app/components/auth/auth-ui.tsx";
import { safeRedirectTarget, withReturnTo } from "#shared/roles.ts";

export function action({ request, context }: Route.ActionArgs) {
  return signUpAction("donor", request, context);
}

/** Where the donor was going when sign-in sent them here (a shared campaign): kept through sign-up. */
export function loader({ request }: Route.LoaderArgs) {
  return { redirectTo: safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"), "") };
}

export default function DonorSignUp({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { redirectTo } = loaderData;
  const [form, fields] = useSchemaForm(() => import("#shared/forms/accounts.ts").then((m) => m.donorSignUpSchema), {
    lastResult: actionData?.result,
  });
  return (
    <AuthPage title={t("auth:signUp.title.donor")} lead={t("auth:signUp.lead.donor")}>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
        <RequiredNotice fields={[fields.firstName, fields.lastName, fields.address, fields.contactNumber, fields.email, fields.password]} />
        <ErrorBox id={form.errorId} errors={form.errors} />
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <TextField field={fields.firstName} label={t("auth:fields.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("auth:fields.lastName")} autoComplete="family-name" />
        <TextField field={fields.address} label={t("auth:fields.address")} autoComplete="street-address" />
        <ContactField field={fields.contactNumber} />
        <TextField field={fields.email} label={t("auth:fields.email")} type="email" autoComplete="email" />
        <NewPasswordField field={fields.password} label={t("auth:fields.password")} />
        <PictureField field={fields.picture} returned={form.status === "error"} label={t("auth:fields.picture")} />
        <SubmitButton>{t("auth:signUp.submit")}</SubmitButton>
      </Form>
      <p className="mt-4 text-center text-slate-700">
        {t("auth:signUp.haveAccount")}{" "}
        <Link to={withReturnTo("/donor_signin", redirectTo)} className="font-medium text-brand-800 underline">
          {t("auth:signUp.logIn")}
        </Link>
      </p>
    </AuthPage>
  );
}
