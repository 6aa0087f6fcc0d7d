import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { RequiredNotice, SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";

import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { withReturnTo, type Role } from "#shared/roles.ts";
import { AuthPage, NoticeBox } from "./auth-ui.tsx";
import type { signInLoader } from "./sign-in.server.ts";

const SIGN_UP: Partial<Record<Role, string>> = { ngo: "/ngo_signup", donor: "/donor_signup", rider: "/rider_signup" };

/** One role's sign-in form; each /<role>_signin route renders it with its loader's data. */
export function SignInPage({
  loaderData,
  actionData,
}: {
  loaderData: ReturnType<typeof signInLoader>;
  actionData?: { result?: SubmissionResult<string[]> };
}) {
  const { t } = useTranslation();
  const { role, notice, redirectTo } = loaderData;
  const [form, fields] = useSchemaForm(() => import("#shared/forms/accounts.ts").then((m) => m.signInSchema), {
    lastResult: actionData?.result,
  });
  const signUp = SIGN_UP[role];
  return (
    <AuthPage title={t(`auth:signIn.title.${role}`)}>
      {notice && <NoticeBox>{t(`auth:notice.${notice}`)}</NoticeBox>}
      <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
        <RequiredNotice fields={[fields.email, fields.password]} />
        <ErrorBox id={form.errorId} errors={form.errors} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField field={fields.email} label={t("auth:fields.email")} type="email" autoComplete="email" />
        <TextField field={fields.password} label={t("auth:fields.password")} type="password" autoComplete="current-password" />
        <SubmitButton>{t("auth:signIn.submit")}</SubmitButton>
      </Form>
      <div className="mt-4 flex flex-col gap-2 text-center">
        <Link
          to={redirectTo ? `/forgot_password?redirectTo=${encodeURIComponent(redirectTo)}` : "/forgot_password"}
          className="text-brand-800 underline"
        >
          {t("auth:signIn.forgot")}
        </Link>
        {signUp && (
          <p className="text-slate-700">
            {t("auth:signIn.noAccountYet")} {/* Where the visitor was going survives signing up (only a donor is signed in at once). */}
            <Link to={role === "donor" ? withReturnTo(signUp, redirectTo) : signUp} className="font-medium text-brand-800 underline">
              {t("auth:signIn.signUp")}
            </Link>
          </p>
        )}
      </div>
    </AuthPage>
  );
}
