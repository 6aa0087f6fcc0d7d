import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/reset-password";
import { SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { resetPasswordSchema } from "#shared/forms/accounts.ts";
import { formAction, readFormData } from "#app/lib/http.server.ts";
import { ROLE_SIGN_IN, safeRedirectTarget } from "#shared/roles.ts";
import { isResetTokenUsable, resetPassword } from "#server/domain/accounts/password-reset.ts";
import { AuthPage, NewPasswordField } from "#app/components/auth/auth-ui.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const token = params.get("token") ?? "";
  const valid = token !== "" && (await isResetTokenUsable(context.services.db, token));
  // Where the person was going before they forgot: on to sign-in, and from there to it.
  return { token: valid ? token : "", valid, redirectTo: safeRedirectTarget(params.get("redirectTo"), "") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const hidden = ["password", "confirm"];
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: resetPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: hidden }) }, { status: 400 });
  const { token, password } = submission.value;
  const out = await formAction(submission, () => resetPassword(context.services, { token, password, clientIp: context.clientIp }), hidden);
  if (!out.ok) return out.answer();
  const returnTo = safeRedirectTarget(formData.get("redirectTo"), "");
  return redirect(`${ROLE_SIGN_IN[out.value]}?notice=reset${returnTo ? `&redirectTo=${encodeURIComponent(returnTo)}` : ""}`);
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { token, valid, redirectTo } = loaderData;
  const [form, fields] = useSchemaForm(() => import("#shared/forms/accounts.ts").then((m) => m.resetPasswordSchema), {
    lastResult: actionData?.result,
  });
  if (!valid) {
    return (
      <AuthPage title={t("auth:reset.title")}>
        <ErrorBox errors={["auth:reset.invalidToken"]} />
        <p className="mt-4 text-center">
          <Link to="/forgot_password" className="font-medium text-brand-800 underline">
            {t("auth:reset.requestNew")}
          </Link>
        </p>
      </AuthPage>
    );
  }
  // A missing or spent token is reported on its hidden field; show it with the form's errors.
  const errors = [...(form.errors ?? []), ...(fields.token.errors ?? [])];
  return (
    <AuthPage title={t("auth:reset.title")}>
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorBox id={form.errorId} errors={errors} />
        <input type="hidden" name="token" value={token} />
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <NewPasswordField field={fields.password} label={t("auth:reset.password")} />
        <TextField field={fields.confirm} label={t("auth:reset.confirm")} type="password" autoComplete="new-password" />
        <SubmitButton>{t("auth:reset.submit")}</SubmitButton>
      </Form>
      {errors.length > 0 && (
        <p className="mt-4 text-center">
          <Link to="/forgot_password" className="font-medium text-brand-800 underline">
            {t("auth:reset.requestNew")}
          </Link>
        </p>
      )}
    </AuthPage>
  );
}
