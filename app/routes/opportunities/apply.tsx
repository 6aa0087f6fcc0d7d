import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { CircleCheck, TriangleAlert } from "lucide-react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/apply";
import { BackLink } from "#app/components/donate-parts.tsx";
import { FileField, SubmitButton, TextAreaField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { applicationSchema } from "#shared/forms/volunteering.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { RESUME_ACCEPT } from "#shared/constants.ts";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { pictureSrcSet, pictureUrl } from "#shared/pictures.ts";
import { applyToPosition } from "#server/domain/volunteering/applications.ts";
import { positionForDonor, type PositionDetail } from "#server/domain/volunteering/positions.ts";

export const handle = pageTitle("opportunities:title");

const APPLY_FAILED = "volunteer:errors.applyFailed";

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const id = new URL(request.url).searchParams.get("position") ?? "";
  let p: PositionDetail;
  try {
    p = await positionForDonor(context.services.db, id, user);
  } catch (err) {
    throwHttp(err);
  }
  return {
    position: {
      id: p.id,
      title: p.title,
      ngoName: p.ngoName,
      poster: pictureUrl(p.posterKey, "campaign"),
      posterSrcSet: pictureSrcSet(p.posterKey),
    },
    // Applied already wins over closed: the donor's own application is what they need to know about.
    state: p.application ? ("applied" as const) : p.open ? ("open" as const) : ("closed" as const),
    values: {
      positionId: p.id,
      // A new key each time the form is shown: resending this form (a double click, a retried request) finds
      // the application it made instead of being refused as a second one.
      idempotencyKey: crypto.randomUUID(),
    },
  };
}

type ActionResult = { result: SubmissionResult<string[]> };

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, "donor");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: applicationSchema });
  if (submission.status !== "success") return data<ActionResult>({ result: submission.reply() }, { status: 400 });
  try {
    const out = await formAction(submission, () => applyToPosition(context.services, user, submission.value));
    if (!out.ok) return out.answer();
  } catch (err) {
    // applyToPosition removes a stored resume when the row is not written, so a retry starts clean.
    context.services.log.error({ err }, "saving a volunteer application failed");
    return data<ActionResult>({ result: submission.reply({ formErrors: [APPLY_FAILED] }) }, { status: 503 });
  }
  return redirect(`/vfg1?notice=applied&position=${submission.value.positionId}`);
}

/** /vfg3: the application form (motivation, prior experience, a PDF resume), or why the donor cannot apply. */
export default function OpportunityApply({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { position: p, state, values } = loaderData;
  const back = `/vfg2?position=${p.id}`;
  return (
    <>
      <title>{`${t("opportunities:apply.heading")} · ${p.title} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <div className="flex items-center gap-3 rounded-lg bg-white p-3 shadow-sm">
          <img
            src={p.poster}
            srcSet={p.posterSrcSet}
            sizes="4rem"
            alt=""
            width={64}
            height={64}
            className="size-16 shrink-0 rounded-md bg-slate-100 object-contain"
          />
          <div className="min-w-0">
            <p className="text-sm text-slate-700">{t("opportunities:apply.position")}</p>
            <UserText as="p" className="break-words text-start font-bold text-slate-900">
              {p.title}
            </UserText>
            <p className="break-words text-start text-sm text-slate-700">{t("opportunities:list.by", { ngo: p.ngoName })}</p>
          </div>
        </div>

        {state === "open" ? (
          <ApplyForm values={values} ngoName={p.ngoName} back={back} lastResult={(actionData as ActionResult | undefined)?.result} />
        ) : (
          <div className="flex flex-col items-start gap-4 rounded-lg bg-white p-4 shadow-sm sm:p-6">
            {state === "applied" ? (
              <p role="status" className="flex items-start gap-2 font-medium text-emerald-900">
                <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
                {t("opportunities:apply.alreadyApplied")}
              </p>
            ) : (
              <p role="alert" className="flex items-start gap-2 font-medium text-amber-900">
                <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
                {t("opportunities:detail.closed")}
              </p>
            )}
            <div className="flex flex-wrap gap-3">
              <BackLink to={back} label={t("opportunities:apply.goBack")} />
              <Link
                to={state === "applied" ? "/dvh2" : "/vfg1"}
                className="inline-flex min-h-11 items-center px-2 font-medium text-brand-800 underline"
              >
                {t(state === "applied" ? "opportunities:apply.seeHistory" : "opportunities:apply.seeAll")}
              </Link>
            </div>
          </div>
        )}
      </div>
    </>
  );
}

function ApplyForm({
  values,
  ngoName,
  back,
  lastResult,
}: {
  values: { positionId: string; idempotencyKey: string };
  ngoName: string;
  back: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/volunteering.ts").then((m) => m.applicationSchema), {
    id: "apply",
    lastResult,
    defaultValue: values,
  });
  // Problems with the hidden fields (an unknown position, an expired form) belong to the whole form.
  const formErrors = [...(form.errors ?? []), ...[fields.positionId, fields.idempotencyKey].flatMap((f) => f.errors ?? [])];
  return (
    <section aria-labelledby="apply-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
      <h2 id="apply-heading" className="mb-1 text-xl font-bold text-brand-900">
        {t("opportunities:apply.heading")}
      </h2>
      <p className="mb-4 text-slate-700">{t("opportunities:apply.lead", { ngo: ngoName })}</p>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" {...getFormProps(form)}>
        <ErrorBox id={form.errorId} errors={formErrors.length > 0 ? formErrors : null} />
        {([fields.positionId, fields.idempotencyKey] as const).map((f) => {
          const { key, ...props } = getInputProps(f, { type: "hidden" });
          return <input key={key ?? f.name} {...props} />;
        })}
        <TextAreaField
          field={fields.motivation}
          label={t("volunteer:fields.motivation")}
          hint={t("opportunities:apply.motivationHint")}
          rows={5}
        />
        <TextAreaField field={fields.experience} label={t("volunteer:fields.experience")} hint={t("opportunities:apply.experienceHint")} />
        <FileField
          field={fields.resume}
          label={t("volunteer:fields.resume")}
          accept={RESUME_ACCEPT}
          hint={t("opportunities:apply.resumeHint")}
        />
        <div className="flex flex-wrap-reverse items-center gap-3">
          <BackLink to={back} label={t("opportunities:apply.goBack")} />
          <div className="min-w-40 flex-1">
            <SubmitButton busyLabel={t("opportunities:apply.submitting")}>{t("opportunities:apply.submit")}</SubmitButton>
          </div>
        </div>
      </Form>
    </section>
  );
}
