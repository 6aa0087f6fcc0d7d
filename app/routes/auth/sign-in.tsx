import { getFormProps } from "@conform-to/react";
import { useSchemaForm } from "~/forms/use-schema-form";
import { parseWithZod } from "~/forms/parse";
import { useTranslation } from "~/i18n/i18n";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/sign-in";
import { ErrorBox, RequiredNotice, SubmitButton, TextField } from "~/components/form";
import { roleSchema, signInSchema } from "~/forms/accounts";
import { formAction, readFormData } from "~/lib/http.server";
import { ROLE_HOME, safeRedirectTarget, type Role } from "~/lib/roles";
import { signIn } from "../../../server/domain/accounts/sign-in";
import { sessionCookie } from "../../../server/http/cookies";
import { deleteSession } from "../../../server/domain/accounts/sessions";
import { AuthPage, NoticeBox } from "./auth-ui";

const NOTICES = ["submitted", "created", "resubmitted", "reset"] as const;
const SIGN_UP: Partial<Record<Role, string>> = { ngo: "/ngo_signup", donor: "/donor_signup", rider: "/rider_signup" };

/** One module serves /admin_signin, /ngo_signin, /donor_signin and /rider_signin; the path names the role. */
function roleOf(request: Request): Role {
  const parsed = roleSchema.safeParse(new URL(request.url).pathname.split("/")[1]?.replace(/_signin$/, ""));
  if (!parsed.success) throw data(null, { status: 404 });
  return parsed.data;
}

export function loader({ request, context }: Route.LoaderArgs) {
  const role = roleOf(request);
  const { user } = context;
  if (user && user.role === role) throw redirect(user.verification === "rejected" ? "/resubmit" : ROLE_HOME[role]);
  const params = new URL(request.url).searchParams;
  const notice = NOTICES.find((n) => n === params.get("notice")) ?? null;
  return { role, notice, redirectTo: params.get("redirectTo") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const role = roleOf(request);
  const submission = parseWithZod(await readFormData(request, context), { schema: signInSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const { services } = context;
  const { email, password, redirectTo } = submission.value;
  const out = await formAction(
    submission,
    () => signIn(services, { role, email, password, clientIp: context.clientIp }),
    ["password"],
  );
  if (!out.ok) return out.response;
  // Signing in as someone else replaces the session this browser had.
  if (context.sessionToken) await deleteSession(services.db, context.sessionToken);
  const target = out.value.rejected ? "/resubmit" : safeRedirectTarget(redirectTo, ROLE_HOME[role]);
  return redirect(target, { headers: { "Set-Cookie": sessionCookie(context.secure, out.value.token) } });
}

export default function SignIn({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { role, notice, redirectTo } = loaderData;
  const [form, fields] = useSchemaForm(signInSchema, {
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
        <Link to="/forgot_password" className="text-brand-800 underline">
          {t("auth:signIn.forgot")}
        </Link>
        {signUp && (
          <p className="text-slate-700">
            {t("auth:signIn.noAccountYet")}{" "}
            <Link to={signUp} className="font-medium text-brand-800 underline">
              {t("auth:signIn.signUp")}
            </Link>
          </p>
        )}
      </div>
    </AuthPage>
  );
}
