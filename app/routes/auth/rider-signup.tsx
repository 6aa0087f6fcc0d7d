import { getFormProps } from "@conform-to/react";
import { useSchemaForm } from "~/forms/use-schema-form";
import { parseWithZod } from "~/forms/parse";
import { useTranslation } from "~/i18n/i18n";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/rider-signup";
import { ErrorBox, RequiredNotice, SubmitButton, TextField } from "~/components/form";
import { riderSignUpSchema } from "~/forms/accounts";
import { formAction } from "~/lib/http.server";
import { signUp } from "../../../server/domain/accounts/sign-up";
import { AuthPage, IMAGE_ACCEPT } from "./auth-ui";

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: riderSignUpSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const out = await formAction(
    submission,
    () => signUp(context.services, context.clientIp, { role: "rider", data: submission.value }),
    ["password"],
  );
  if (!out.ok) return out.response;
  return redirect("/rider_signin?notice=submitted");
}

export default function RiderSignUp({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(riderSignUpSchema, {
    lastResult: actionData?.result,
  });
  return (
    <AuthPage title={t("auth:signUp.title.rider")} lead={t("auth:signUp.lead.rider")}>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
        <RequiredNotice
          fields={[fields.firstName, fields.lastName, fields.email, fields.password, fields.contactNumber, fields.cnic]}
        />
        <ErrorBox id={form.errorId} errors={form.errors} />
        <TextField field={fields.firstName} label={t("auth:fields.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("auth:fields.lastName")} autoComplete="family-name" />
        <TextField field={fields.email} label={t("auth:fields.email")} type="email" autoComplete="email" />
        <TextField
          field={fields.password}
          label={t("auth:fields.password")}
          type="password"
          autoComplete="new-password"
          hint={t("auth:fields.passwordHint")}
        />
        <TextField
          field={fields.contactNumber}
          label={t("auth:fields.contactNumber")}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          hint={t("auth:fields.contactHint")}
        />
        <TextField field={fields.cnic} label={t("auth:fields.cnic")} inputMode="numeric" hint={t("auth:fields.cnicHint")} />
        <TextField
          field={fields.picture}
          label={t("auth:fields.picture")}
          type="file"
          accept={IMAGE_ACCEPT}
          hint={t("auth:fields.imageHint")}
        />
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
