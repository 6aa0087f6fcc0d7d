import type { SubmissionResult } from "@conform-to/react";
import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { data, Form, redirect } from "react-router";
import type { AppContext } from "#app/lib/load-context.ts";
import type { Route } from "./+types/resubmit";
import { RequiredNotice, SubmitButton, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { ngoResubmitSchema, riderResubmitSchema } from "#shared/forms/accounts.ts";
import { formAction, readFormData } from "#app/lib/http.server.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { ROLE_HOME, ROLE_SIGN_IN } from "#shared/roles.ts";
import { findRejectedProfile, resubmit } from "#server/domain/accounts/resubmit.ts";
import { expiredSessionCookie } from "#server/http/cookies.ts";
import { AuthPage, ContactField, PictureField } from "#app/components/auth/auth-ui.tsx";

/** Only a signed-in NGO or rider whose details were rejected belongs here; anyone else goes home. */
async function rejectedUser(context: AppContext) {
  const { user } = context;
  if (!user) throw redirect("/");
  if (user.verification === "verified") throw redirect(ROLE_HOME[user.role]);
  const profile = user.verification === "rejected" ? await findRejectedProfile(context.services.db, user) : null;
  if (!profile) throw redirect("/");
  return { user, profile };
}

export async function loader({ context }: Route.LoaderArgs) {
  const { profile } = await rejectedUser(context);
  return { profile };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user, profile } = await rejectedUser(context);
  const formData = await readFormData(request, context);
  const { services } = context;
  let out;
  if (profile.role === "ngo") {
    const submission = parseWithZod(formData, { schema: ngoResubmitSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    out = await formAction(submission, () => resubmit(services, user, { role: "ngo", data: submission.value }));
  } else {
    const submission = parseWithZod(formData, { schema: riderResubmitSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    out = await formAction(submission, () => resubmit(services, user, { role: "rider", data: submission.value }));
  }
  if (!out.ok) return out.answer();
  // The account is pending again and its sessions have ended: the cookie goes too.
  return redirect(`${ROLE_SIGN_IN[profile.role]}?notice=resubmitted`, {
    headers: { "Set-Cookie": expiredSessionCookie(context.secure) },
  });
}

export default function Resubmit({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { profile } = loaderData;
  const fallback = profile.role === "ngo" ? "logo" : "avatar";
  return (
    <AuthPage title={t("auth:resubmit.title")} lead={t("auth:resubmit.lead")}>
      <div className="mb-4">
        <ErrorBox errors={[profile.reason]} />
      </div>
      <div className="mb-4 flex items-center gap-3">
        <img
          src={pictureUrl(profile.pictureKey, fallback)}
          alt={t("auth:resubmit.currentPicture")}
          width={64}
          height={64}
          className="h-16 w-16 rounded-full bg-slate-100 object-cover"
        />
      </div>
      {profile.role === "ngo" ? (
        <NgoForm values={profile.values} lastResult={actionData?.result} />
      ) : (
        <RiderForm values={profile.values} lastResult={actionData?.result} />
      )}
      <Form method="post" action="/logout" className="mt-4 text-center">
        <button type="submit" className="text-brand-800 underline">
          {t("common:logOut")}
        </button>
      </Form>
    </AuthPage>
  );
}

type Result = SubmissionResult<string[]> | undefined;

function NgoForm({ values, lastResult }: { values: Record<string, string | undefined>; lastResult: Result }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/accounts.ts").then((m) => m.ngoResubmitSchema), {
    lastResult,
    defaultValue: values,
  });
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
      <RequiredNotice fields={[fields.name, fields.address, fields.registrationNumber, fields.contactNumber]} />
      <ErrorBox id={form.errorId} errors={form.errors} />
      <TextField field={fields.name} label={t("auth:fields.ngoName")} autoComplete="organization" />
      <TextField field={fields.address} label={t("auth:fields.ngoAddress")} autoComplete="street-address" />
      <TextField field={fields.registrationNumber} label={t("auth:fields.registrationNumber")} />
      <ContactField field={fields.contactNumber} landline />
      <PictureField field={fields.logo} label={t("auth:fields.logo")} keep />
      <SubmitButton>{t("auth:resubmit.submit")}</SubmitButton>
    </Form>
  );
}

function RiderForm({ values, lastResult }: { values: Record<string, string | undefined>; lastResult: Result }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/accounts.ts").then((m) => m.riderResubmitSchema), {
    lastResult,
    defaultValue: values,
  });
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-col gap-4" {...getFormProps(form)}>
      <RequiredNotice fields={[fields.firstName, fields.lastName, fields.contactNumber, fields.cnic]} />
      <ErrorBox id={form.errorId} errors={form.errors} />
      <TextField field={fields.firstName} label={t("auth:fields.firstName")} autoComplete="given-name" />
      <TextField field={fields.lastName} label={t("auth:fields.lastName")} autoComplete="family-name" />
      <ContactField field={fields.contactNumber} />
      <TextField field={fields.cnic} label={t("auth:fields.cnic")} inputMode="numeric" hint={t("auth:fields.cnicHint")} />
      <PictureField field={fields.picture} label={t("auth:fields.picture")} keep />
      <SubmitButton>{t("auth:resubmit.submit")}</SubmitButton>
    </Form>
  );
}
