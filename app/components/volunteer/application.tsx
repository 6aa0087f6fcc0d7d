import { UserText } from "#app/components/user-text.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { ArrowLeft, Check, Download, X } from "lucide-react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { listPathOf, StateBadge } from "#app/components/application-parts.tsx";
import { DateTime } from "#app/components/date-time.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { ReasonForm } from "#app/components/ui/reason-form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { REASON_MAX_LENGTH } from "#shared/constants.ts";
import type { applicationLoader } from "./application.server.ts";

type ActionData =
  | {
      result: SubmissionResult<string[]>;
      intent: string;
      /** Approving would go beyond the number needed: the counts the confirmation shows. */
      overfill: { needed: string; accepted: string } | null;
    }
  | undefined;
type ApplicationData = Awaited<ReturnType<typeof applicationLoader>>;
type Detail = ApplicationData["application"];

/** /vol3 (one application, with Approve and Decline while it waits) and /volPSDAA (an approved one, read-only). */
export function ApplicationPage({ loaderData }: { loaderData: ApplicationData }) {
  const { t } = useTranslation();
  const actionData = useActionData() as ActionData;
  const { approvedView, alreadyDecided, actions, application: a } = loaderData;
  const pending = actions.length > 0 && !approvedView;
  const formErrors = actionData?.result.error?.[""] ?? [];
  const confirming = pending && Boolean(actionData?.overfill);
  // Every form-level error; a bad id or intent shows here too.
  const otherErrors = [...formErrors, ...(actionData?.result.error?.applicationId ?? []), ...(actionData?.result.error?.intent ?? [])];
  const backHref = pending ? `/vol2?position=${a.position.id}` : listPathOf(a.status);
  const backLabel = pending
    ? t("applications:detail.back")
    : t(a.status === "approved" ? "applications:detail.backToApproved" : "applications:detail.backToRejected");

  return (
    <>
      <title>{`${t("applications:detail.heading", { name: a.applicant.name })} · ${t("common:brand")}`}</title>
      {alreadyDecided && !actionData && (
        <p role="status" className="mb-4 rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950">
          {t("applications:notices.alreadyDecided")}
        </p>
      )}
      <ErrorBox errors={otherErrors} />

      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h2 className="text-xl font-bold break-words text-brand-900">{t("applications:detail.heading", { name: a.applicant.name })}</h2>
        <StateBadge status={a.status} label={t(`volunteer:states.${a.status === "pending" ? "live" : a.status}`)} />
      </div>

      <div className="mt-4 grid max-w-5xl gap-4 md:grid-cols-2">
        <section aria-labelledby="contact-heading" className="min-w-0 rounded-lg bg-white p-4 shadow-sm">
          <h3 id="contact-heading" className="mb-2 font-bold text-slate-800">
            {t("applications:detail.contact")}
          </h3>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
            <dt className="font-medium text-slate-600">{t("volunteer:fields.name")}</dt>
            <UserText as="dd" className="text-start wrap-anywhere">
              {a.applicant.name}
            </UserText>
            <dt className="font-medium text-slate-600">{t("volunteer:fields.phone")}</dt>
            <dd>
              {a.applicant.phone ? (
                <a href={`tel:${a.applicant.phone.replace(/[^\d+]/g, "")}`} dir="ltr" className="font-medium text-brand-800 underline">
                  {a.applicant.phone}
                </a>
              ) : (
                t("applications:detail.noPhone")
              )}
            </dd>
            <dt className="font-medium text-slate-600">{t("volunteer:fields.email")}</dt>
            <dd className="wrap-anywhere">
              <a href={`mailto:${a.applicant.email}`} dir="ltr" className="font-medium text-brand-800 underline">
                {a.applicant.email}
              </a>
            </dd>
            <dt className="font-medium text-slate-600">{t("volunteer:fields.address")}</dt>
            <UserText as="dd" className="text-start wrap-anywhere">
              {a.applicant.address || t("applications:detail.noAddress")}
            </UserText>
          </dl>
        </section>

        <section aria-labelledby="position-heading" className="min-w-0 rounded-lg bg-white p-4 shadow-sm">
          <h3 id="position-heading" className="mb-2 font-bold text-slate-800">
            {t("applications:detail.position")}
          </h3>
          <UserText as="p" className="text-start font-bold wrap-anywhere">
            {a.position.title}
          </UserText>
          <p className="text-slate-700">
            {t("applications:detail.positionCounts", { needed: a.position.volunteersNeeded, accepted: a.position.accepted })}
          </p>
          {!a.position.open && <p className="text-slate-700">{t("applications:detail.positionClosed")}</p>}
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1.5">
            <dt className="font-medium text-slate-600">{t("volunteer:fields.appliedOn")}</dt>
            <dd>
              <DateTime value={a.createdAt} />
            </dd>
            {a.decidedAt && (
              <>
                <dt className="font-medium text-slate-600">{t("volunteer:fields.decidedOn")}</dt>
                <dd>
                  <DateTime value={a.decidedAt} />
                </dd>
              </>
            )}
          </dl>
        </section>

        <section aria-labelledby="application-heading" className="min-w-0 rounded-lg bg-white p-4 shadow-sm md:col-span-2">
          <h3 id="application-heading" className="mb-2 font-bold text-slate-800">
            {t("applications:detail.application")}
          </h3>
          <h4 className="font-medium text-slate-600">{t("volunteer:fields.motivation")}</h4>
          <UserText as="p" className="mb-3 text-start break-words whitespace-pre-line">
            {a.motivation}
          </UserText>
          <h4 className="font-medium text-slate-600">{t("volunteer:fields.experience")}</h4>
          <UserText as="p" className="mb-3 text-start break-words whitespace-pre-line">
            {a.experience || t("applications:detail.noExperience")}
          </UserText>
          <h4 className="font-medium text-slate-600">{t("applications:detail.resume")}</h4>
          {a.resumeKey ? (
            <a
              href={`/files/${a.resumeKey}`}
              download
              className="mt-1 inline-flex min-h-11 items-center gap-1 rounded-md border border-brand-700 px-4 py-2 font-bold text-brand-800 hover:bg-brand-50"
            >
              <Download aria-hidden="true" className="size-4" />
              {t("applications:detail.downloadResume")}
            </a>
          ) : (
            <p>{t("applications:detail.noResume")}</p>
          )}
        </section>
      </div>

      <div className="mt-5 max-w-5xl border-t border-slate-200 pt-4">
        {pending ? (
          <Decision application={a} actionData={actionData} confirming={confirming} backHref={backHref} />
        ) : (
          <>
            {!approvedView && <DecidedBox application={a} />}
            <BackLink href={backHref} label={backLabel} />
          </>
        )}
      </div>
    </>
  );
}

function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <Link
      to={href}
      className="mt-3 inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-400 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50"
    >
      <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
      {label}
    </Link>
  );
}

/** The decision already taken, and the message the applicant got with a decline. */
function DecidedBox({ application: a }: { application: Detail }) {
  const { t } = useTranslation();
  return (
    <div className="rounded-md border border-slate-300 bg-slate-50 p-3 text-slate-900">
      <p className="font-bold">
        {t("applications:detail.decidedState", { state: t(`volunteer:states.${a.status === "pending" ? "live" : a.status}`) })}
      </p>
      {a.status === "declined" && a.decisionMessage && (
        <>
          <p className="mt-1 font-medium">{t("applications:detail.declineMessage")}</p>
          <UserText as="p" className="text-start break-words whitespace-pre-line">
            {a.decisionMessage}
          </UserText>
        </>
      )}
    </div>
  );
}

/**
 * Approve (one click; past the number needed the server asks, and "Approve anyway" confirms), Back, and Decline
 * with an optional message in a native disclosure. Plain POST forms: they work before any JavaScript arrives.
 */
function Decision({
  application: a,
  actionData,
  confirming,
  backHref,
}: {
  application: Detail;
  actionData: ActionData;
  confirming: boolean;
  backHref: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const sending = busy ? String(navigation.formData?.get("intent") ?? "") : "";
  const declineAnswer = actionData?.intent === "decline" ? actionData.result : undefined;
  const messageError = declineAnswer?.error?.message?.[0];
  const overfill = actionData?.overfill;
  const buttonBase =
    "inline-flex min-h-11 items-center justify-center gap-1 rounded-md px-5 py-2 font-bold disabled:cursor-wait disabled:opacity-70";

  return (
    <div className="flex flex-col gap-4">
      {confirming && (
        <div role="alert" className="rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950">
          <p>{t("volunteer:errors.confirmOverfill", { needed: overfill?.needed ?? "", accepted: overfill?.accepted ?? "" })}</p>
          <Form method="post" className="mt-2">
            <input type="hidden" name="intent" value="approve" />
            <input type="hidden" name="applicationId" value={a.id} />
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" disabled={busy} className={`${buttonBase} bg-emerald-700 text-white hover:bg-emerald-800`}>
              <Check aria-hidden="true" className="size-5" />
              {sending === "approve" ? t("applications:actions.approving") : t("applications:actions.approveAnyway")}
            </button>
          </Form>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        {!confirming && (
          <Form method="post">
            <input type="hidden" name="intent" value="approve" />
            <input type="hidden" name="applicationId" value={a.id} />
            <button type="submit" disabled={busy} className={`${buttonBase} bg-emerald-700 text-white hover:bg-emerald-800`}>
              <Check aria-hidden="true" className="size-5" />
              {sending === "approve" ? t("applications:actions.approving") : t("applications:actions.approve")}
            </button>
          </Form>
        )}
        <Link
          to={backHref}
          className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-400 bg-white px-4 py-2 font-medium text-slate-800 hover:bg-slate-50"
        >
          <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
          {t("applications:detail.back")}
        </Link>
      </div>
      <ReasonForm
        open={Boolean(declineAnswer)}
        summary={
          <>
            <X aria-hidden="true" className="size-5" />
            {t("applications:actions.decline")}
          </>
        }
        summaryClassName="inline-flex min-h-11 cursor-pointer items-center gap-1 rounded-md border-2 border-red-700 px-4 py-1.5 font-bold text-red-800 hover:bg-red-50"
        formClassName="mt-3 flex max-w-2xl flex-col gap-2"
        hidden={{ intent: "decline", applicationId: a.id }}
        field={{
          id: "decline-message",
          name: "message",
          errorId: "decline-message-error",
          errors: messageError ? [messageError] : undefined,
          initialValue: declineAnswer?.initialValue?.message,
        }}
        label={t("applications:actions.declineLabel")}
        hint={t("applications:actions.declineHint")}
        maxLength={REASON_MAX_LENGTH}
        dir="auto"
      >
        <button type="submit" disabled={busy} className={`${buttonBase} self-start bg-red-700 text-white hover:bg-red-800`}>
          {sending === "decline" ? t("applications:actions.sending") : t("applications:actions.sendDecline")}
        </button>
      </ReasonForm>
    </div>
  );
}
