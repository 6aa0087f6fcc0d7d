import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/forgot-password";
import { SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { forgotPasswordSchema } from "#shared/forms/accounts.ts";
import { formAction, readFormData } from "#app/lib/http.server.ts";
import { requestPasswordReset } from "#server/domain/accounts/password-reset.ts";
import { AuthPage, NoticeBox } from "#app/components/auth/auth-ui.tsx";
import { safeRedirectTarget } from "#shared/roles.ts";

/** Where the person was going when they forgot (sign-in's `redirectTo`): carried into the reset link. */
export function loader({ request }: Route.LoaderArgs) {
  return { redirectTo: safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"), "") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), sent: false }, { status: 400 });
  const out = await formAction(submission, () =>
    requestPasswordReset(context.services, {
      email: submission.value.email,
      clientIp: context.clientIp,
      returnTo: formData.get("redirectTo"),
    }),
  );
  if (!out.ok) return out.answer();
  // The same answer whether or not the account exists.
  return { result: submission.reply({ resetForm: true }), sent: true };
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { redirectTo } = loaderData;
  const [form, fields] = useSchemaForm(() => import("#shared/forms/accounts.ts").then((m) => m.forgotPasswordSchema), {
    lastResult: actionData?.result,
  });
  const sent = actionData && "sent" in actionData && actionData.sent;
  return (
    <AuthPage title={t("auth:forgot.title")} lead={t("auth:forgot.lead")}>
      {sent && <NoticeBox>{t("auth:forgot.sent")}</NoticeBox>}
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <ErrorBox id={form.errorId} errors={form.errors} />
        {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
        <TextField field={fields.email} label={t("auth:fields.email")} type="email" autoComplete="email" />
        <SubmitButton>{t("auth:forgot.submit")}</SubmitButton>
      </Form>
      <p className="mt-4 text-center">
        <Link to="/" className="text-brand-800 underline">
          {t("auth:forgot.backHome")}
        </Link>
      </p>
    </AuthPage>
  );
}
