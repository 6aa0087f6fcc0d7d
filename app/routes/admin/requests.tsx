import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { data, Form, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/requests";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime, type FormattedTime } from "#shared/format.ts";
import { SubmitButton } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { Pager } from "#app/components/pager.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { vettingSchema } from "#shared/forms/admin.ts";
import { formAction, readFormData, requireUser } from "#app/lib/http.server.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { parsePage } from "#server/db/query.ts";
import { accept, listPending, reject } from "#server/domain/admin/vetting.ts";
import { currentChecks } from "#server/domain/admin/checks.ts";
import { pakistanToday } from "#server/domain/dates.ts";
import { checkSentence } from "#shared/checks.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { RecordCheckForm } from "#app/components/admin/record-check-form.tsx";
import { checksPath } from "#app/components/admin/checks-path.ts";
import { verificationStates, type VerificationAction } from "#server/domain/accounts/states.ts";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("admin:requests.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireUser(context, "admin");
  const { db } = context.services;
  const url = new URL(request.url);
  const [ngos, riders] = await Promise.all([
    listPending(db, admin, "ngo", parsePage(url.searchParams.get("ngoPage"))),
    listPending(db, admin, "rider", parsePage(url.searchParams.get("riderPage"))),
  ]);
  const when = (d: Date) => formatDateTime(d, context.lang);
  // What the vetting has checked of each waiting NGO so far, read for the page's cards at once (decision 051).
  const checks = await currentChecks(
    db,
    admin,
    ngos.rows.map((n) => n.id),
  );
  const { t } = serverI18n(context.lang);
  // The steps the verification table gives the administrator on a waiting sign-up: accept and reject.
  const actions = verificationStates.actionsFor("pending", "admin");
  return {
    today: pakistanToday(),
    notice: url.searchParams.get("notice"),
    actions,
    ngos: {
      ...ngos,
      rows: ngos.rows.map((r) => ({
        ...r,
        createdAt: when(r.createdAt),
        resubmittedAt: r.resubmittedAt ? when(r.resubmittedAt) : null,
        checks: (checks.get(r.id) ?? []).map((c) => ({ id: c.id, state: c.state, sentence: checkSentence(c, t, context.lang) })),
      })),
    },
    riders: {
      ...riders,
      rows: riders.rows.map((r) => ({ ...r, createdAt: when(r.createdAt), resubmittedAt: r.resubmittedAt ? when(r.resubmittedAt) : null })),
    },
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const admin = requireUser(context, "admin");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: vettingSchema });
  // Which row the answer belongs to, so its reject form shows the error and stays open.
  const target = { userId: String(submission.payload.userId ?? ""), intent: String(submission.payload.intent ?? "") };
  if (submission.status !== "success") {
    return data({ result: submission.reply(), ...target }, { status: 400 });
  }
  const input = submission.value;
  const outcome = await formAction(submission, () =>
    input.intent === "accept" ? accept(context.services, admin, input.userId) : reject(context.services, admin, input.userId, input.reason),
  );
  if (!outcome.ok) {
    return outcome.answer(target);
  }
  const back = new URL(request.url);
  back.searchParams.set("notice", input.intent === "accept" ? "accepted" : "rejected");
  return redirect(back.pathname + back.search);
}

type ActionData = { result: SubmissionResult<string[]>; userId: string; intent: string } | undefined;

export default function AdminRequests({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>() as ActionData;
  const { ngos, riders, notice } = loaderData;
  const formErrors = actionData?.result.error?.[""] ?? null;
  return (
    <>
      <title>{`${t("admin:requests.title")} · ${t("common:brand")}`}</title>
      <p className="mb-4 max-w-3xl text-slate-700">{t("admin:requests.lead")}</p>
      {(notice === "accepted" || notice === "rejected") && !actionData && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t(`admin:requests.${notice}`)}
        </p>
      )}
      {notice === "checkRecorded" && !actionData && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t("checks:admin.recorded")}
        </p>
      )}
      <ErrorBox errors={formErrors} />

      <section aria-labelledby="ngos-heading" className="mt-6">
        <h2 id="ngos-heading" className="text-lg font-bold text-brand-900">
          {t("admin:requests.ngos")} <span className="text-base font-normal text-slate-600">({ngos.total})</span>
        </h2>
        {ngos.rows.length === 0 ? (
          <p className="mt-2 text-slate-700">{t("admin:requests.noNgos")}</p>
        ) : (
          <ul className="mt-3 grid gap-4 lg:grid-cols-2">
            {ngos.rows.map((n) => (
              <Applicant
                key={n.id}
                id={n.id}
                name={n.name}
                picture={{ key: n.logoKey, kind: "logo", alt: t("admin:requests.logoOf", { name: n.name }) }}
                createdAt={n.createdAt}
                resubmittedAt={n.resubmittedAt}
                fields={[
                  [t("admin:fields.ngoName"), n.name],
                  [t("admin:fields.address"), n.address],
                  [t("admin:fields.registrationNumber"), n.registrationNumber],
                  [t("admin:fields.contactNumber"), n.contactNumber],
                  [t("admin:fields.email"), n.email],
                ]}
                actionData={actionData}
                actions={loaderData.actions}
              >
                <NgoChecks id={n.id} name={n.name} checks={n.checks} today={loaderData.today} />
              </Applicant>
            ))}
          </ul>
        )}
        <Pager page={ngos.page} pages={ngos.pages} param="ngoPage" label={t("admin:requests.ngos")} />
      </section>

      <section aria-labelledby="riders-heading" className="mt-10">
        <h2 id="riders-heading" className="text-lg font-bold text-brand-900">
          {t("admin:requests.riders")} <span className="text-base font-normal text-slate-600">({riders.total})</span>
        </h2>
        {riders.rows.length === 0 ? (
          <p className="mt-2 text-slate-700">{t("admin:requests.noRiders")}</p>
        ) : (
          <ul className="mt-3 grid gap-4 lg:grid-cols-2">
            {riders.rows.map((r) => {
              const name = `${r.firstName} ${r.lastName}`;
              return (
                <Applicant
                  key={r.id}
                  id={r.id}
                  name={name}
                  picture={{ key: r.pictureKey, kind: "avatar", alt: t("admin:requests.pictureOf", { name }) }}
                  createdAt={r.createdAt}
                  resubmittedAt={r.resubmittedAt}
                  fields={[
                    [t("admin:fields.firstName"), r.firstName],
                    [t("admin:fields.lastName"), r.lastName],
                    [t("admin:fields.email"), r.email],
                    [t("admin:fields.contactNumber"), r.contactNumber],
                    [t("admin:fields.cnic"), r.cnic],
                  ]}
                  actionData={actionData}
                  actions={loaderData.actions}
                />
              );
            })}
          </ul>
        )}
        <Pager page={riders.page} pages={riders.pages} param="riderPage" label={t("admin:requests.riders")} />
      </section>
    </>
  );
}

/** One pending sign-up: what the applicant gave, Accept, and Reject with a reason. */
function Applicant({
  id,
  name,
  picture,
  createdAt,
  resubmittedAt,
  fields,
  actionData,
  actions,
  children,
}: {
  id: string;
  name: string;
  picture: { key: string | null; kind: "logo" | "avatar"; alt: string };
  createdAt: FormattedTime;
  resubmittedAt: FormattedTime | null;
  fields: [string, string][];
  actionData: ActionData;
  actions: readonly VerificationAction[];
  /** What else the card shows below the applicant's fields (an NGO's checks). */
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const img = (
    <img
      src={pictureUrl(picture.key, picture.kind)}
      alt={picture.alt}
      width={80}
      height={80}
      loading="lazy"
      className="h-20 w-20 shrink-0 rounded-lg border border-slate-200 bg-white object-cover"
    />
  );
  const rejectAnswer = actionData?.userId === id && actionData.intent === "reject" ? actionData.result : undefined;
  return (
    <li className="min-w-0">
      <article aria-labelledby={`applicant-${id}`} className="h-full rounded-lg bg-white p-4 shadow-sm">
        <div className="flex gap-4">
          {/* An uploaded picture opens at full size: it is one of the applicant's documents. */}
          {picture.key ? (
            <a href={pictureUrl(picture.key, picture.kind)} target="_blank" rel="noreferrer">
              {img}
            </a>
          ) : (
            img
          )}
          <div className="min-w-0 flex-1">
            <h3 id={`applicant-${id}`} className="text-lg font-bold break-words">
              {name}
            </h3>
            {resubmittedAt && (
              <p
                className="mt-1 inline-block rounded-full border border-sky-600 bg-sky-50 px-2.5 py-0.5 text-sm font-bold text-sky-900"
                data-testid="resubmitted"
              >
                {t("admin:requests.resubmitted")} <DateTime value={resubmittedAt} />
              </p>
            )}
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              {fields.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="font-medium text-slate-600">{label}</dt>
                  <dd className="wrap-anywhere">{value}</dd>
                </div>
              ))}
              <div className="contents">
                <dt className="font-medium text-slate-600">{t("admin:fields.signedUp")}</dt>
                <dd>
                  <DateTime value={createdAt} />
                </dd>
              </div>
            </dl>
          </div>
        </div>
        {children}
        <div className="mt-4 flex flex-wrap items-start gap-3">
          {actions.includes("accept") && (
            <Form method="post">
              <input type="hidden" name="intent" value="accept" />
              <input type="hidden" name="userId" value={id} />
              <button type="submit" className={brandButton("regular")}>
                {t("admin:requests.accept")}
                <span className="sr-only"> {name}</span>
              </button>
            </Form>
          )}
          {actions.includes("reject") && <RejectForm id={id} name={name} lastResult={rejectAnswer} />}
        </div>
      </article>
    </li>
  );
}

/** A native disclosure, so asking for the reason works without JavaScript; it opens again on an error. */
function RejectForm({ id, name, lastResult }: { id: string; name: string; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/admin.ts").then((m) => m.rejectSchema), {
    id: `reject-${id}`,
    lastResult,
  });
  return (
    <ReasonForm
      open={Boolean(lastResult)}
      summary={t("admin:requests.reject")}
      className="min-w-0 flex-1"
      formProps={getFormProps(form)}
      hidden={{ intent: "reject", userId: id }}
      field={fields.reason}
      label={t("admin:requests.reason", { name })}
      hint={t("admin:requests.reasonHint")}
    >
      <SubmitButton className="self-start rounded-md bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800 disabled:opacity-70">
        {t("admin:requests.sendRejection")}
      </SubmitButton>
    </ReasonForm>
  );
}

/** The checks recorded so far for a waiting NGO, a link to them all, and the form to record one (decision 051). */
function NgoChecks({
  id,
  name,
  checks,
  today,
}: {
  id: string;
  name: string;
  checks: { id: string; state: string; sentence: string }[];
  today: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="mt-4 flex flex-col gap-2 border-t border-slate-200 pt-3" data-testid="vetting-checks">
      <p className="text-sm font-bold text-slate-700">
        <Link to={checksPath(id)} className="text-brand-800 underline">
          {t("checks:admin.checksSoFar")}
          <span className="sr-only"> {t("checks:admin.checksLinkOf", { name })}</span>
        </Link>
      </p>
      {checks.length === 0 ? (
        <p className="text-sm text-slate-700">{t("checks:admin.noneSoFar")}</p>
      ) : (
        <ul className="flex list-disc flex-col gap-1 ps-5 text-sm text-slate-800">
          {checks.map((c) => (
            <li key={c.id}>
              {c.sentence}
              {c.state === "expired" && <> ({t("checks:admin.state.expired")})</>}
            </li>
          ))}
        </ul>
      )}
      {/* Drawn anew once a check is recorded: closed and empty, ready for the next. */}
      <RecordCheckForm key={checks.length} ngoId={id} name={name} today={today} from="vetting" collapsed />
    </div>
  );
}
