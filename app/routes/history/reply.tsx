import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { TriangleAlert } from "lucide-react";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reply";
import { BackLink } from "#app/components/donate-parts.tsx";
import { DateTime } from "#app/components/date-time.tsx";
import { FileField, TextAreaField, TextField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { NgoContact } from "#app/components/history/history-ui.tsx";
import { brandButton } from "#app/components/ui/button.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { IMAGE_ACCEPT } from "#shared/constants.ts";
import { formatDateTime } from "#shared/format.ts";
import { rejectionReplySchema } from "#shared/forms/donations.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { formatRupees } from "#shared/money.ts";
import { replyTarget, replyToRejection, type ReplyTarget } from "#server/domain/donations/replies.ts";

export const handle = pageTitle("history:reply.title");

const UPLOAD_FAILED = "donations:errors.uploadFailed";

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const id = new URL(request.url).searchParams.get("donation") ?? "";
  let gift: ReplyTarget;
  try {
    gift = await replyTarget(context.services.db, user, id);
  } catch (err) {
    throwHttp(err);
  }
  return {
    gift: {
      id: gift.id,
      status: gift.status,
      amount: gift.amount,
      method: gift.method,
      transactionId: gift.transactionId,
      campaignTitle: gift.campaignTitle,
      createdAt: formatDateTime(gift.createdAt, context.lang),
      rejectionReason: gift.status === "rejected" ? gift.rejectionReason : null,
      contact: gift.contact,
    },
    // The reply is offered while the transition table allows it and it was not used: otherwise, why not.
    state: gift.actions.includes("resubmit") ? ("open" as const) : gift.replied ? ("replied" as const) : ("notRejected" as const),
    values: {
      donation: gift.id,
      transactionId: gift.transactionId ?? "",
      // A new key each time the form is shown: the same form sent again is answered as done, not as a second reply.
      idempotencyKey: crypto.randomUUID(),
    },
  };
}

type ActionResult = { result: SubmissionResult<string[]> };

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, "donor");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: rejectionReplySchema });
  if (submission.status !== "success") return data<ActionResult>({ result: submission.reply() }, { status: 400 });
  try {
    const out = await formAction(submission, () => replyToRejection(context.services, user, submission.value));
    if (!out.ok) return out.answer();
  } catch (err) {
    // replyToRejection removes a stored screenshot when the reply is not written, so a retry starts clean.
    context.services.log.error({ err }, "saving a reply to a disapproval failed");
    return data<ActionResult>({ result: submission.reply({ formErrors: [UPLOAD_FAILED] }) }, { status: 503 });
  }
  return redirect("/dvh?replied=1");
}

/**
 * /dvh/reply?donation=<id>: a disapproved cash gift, the NGO's reason and contact, and the donor's one reply with
 * a corrected proof (a new screenshot or another transaction ID), sent to the same gift (decision 025).
 */
export default function ReplyToRejection({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { gift, state, values } = loaderData;
  const title = t("history:reply.title");
  return (
    <>
      <title>{`${title} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <section aria-labelledby="gift-heading" className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm">
          <h2 id="gift-heading" className="text-lg font-bold break-words text-slate-900">
            <UserText>{gift.campaignTitle}</UserText>
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="font-medium text-slate-600">{t("history:fields.amount")}</dt>
            <dd className="font-bold text-slate-900">{formatRupees(gift.amount, i18n.language)}</dd>
            <dt className="font-medium text-slate-600">{t("history:fields.method")}</dt>
            <dd className="text-slate-900">{t(`donations:methods.${gift.method}`)}</dd>
            <dt className="font-medium text-slate-600">{t("history:fields.date")}</dt>
            <dd className="text-slate-900">
              <DateTime value={gift.createdAt} />
            </dd>
            <dt className="font-medium text-slate-600">{t("history:fields.transactionId")}</dt>
            <dd dir="ltr" className="text-start font-mono break-all text-slate-900">
              {gift.transactionId ?? ""}
            </dd>
          </dl>
          {gift.rejectionReason && (
            <div className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
              <p className="font-bold">{t("history:reason")}</p>
              <p className="break-words whitespace-pre-line">{gift.rejectionReason}</p>
            </div>
          )}
          {gift.status === "rejected" && <NgoContact contact={gift.contact} headingId="ngo-contact" />}
        </section>

        {state === "open" ? (
          <ReplyForm values={values} ngoName={gift.contact.name} lastResult={(actionData as ActionResult | undefined)?.result} />
        ) : (
          <p role="alert" className="flex items-start gap-2 rounded-lg bg-white p-4 font-medium text-amber-900 shadow-sm">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            {t(state === "replied" ? "history:reply.usedUp" : "history:reply.notRejected")}
          </p>
        )}
        <div>
          <BackLink to="/dvh" label={t("history:reply.back")} />
        </div>
      </div>
    </>
  );
}

function ReplyForm({
  values,
  ngoName,
  lastResult,
}: {
  values: { donation: string; transactionId: string; idempotencyKey: string };
  ngoName: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/donations.ts").then((m) => m.rejectionReplySchema), {
    id: "reply",
    lastResult,
    defaultValue: values,
  });
  // Busy from the post until the next page has loaded: a slow answer never shows an enabled button it would ignore.
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  // Problems with the hidden fields (an unknown gift, an expired form) belong to the whole form.
  const formErrors = [...(form.errors ?? []), ...[fields.donation, fields.idempotencyKey].flatMap((f) => f.errors ?? [])];
  return (
    <section aria-labelledby="reply-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
      <h2 id="reply-heading" className="mb-1 text-xl font-bold text-brand-900">
        {t("history:reply.heading")}
      </h2>
      <p className="mb-4 text-slate-700">{t("history:reply.lead", { ngo: ngoName })}</p>
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" {...getFormProps(form)}>
        <ErrorBox id={form.errorId} errors={formErrors.length > 0 ? formErrors : null} />
        {([fields.donation, fields.idempotencyKey] as const).map((f) => {
          const { key, ...props } = getInputProps(f, { type: "hidden" });
          return <input key={key ?? f.name} {...props} />;
        })}
        <TextAreaField field={fields.message} label={t("history:reply.message")} hint={t("history:reply.messageHint")} rows={4} />
        <TextField
          field={fields.transactionId}
          label={t("history:reply.transactionId")}
          autoComplete="off"
          hint={t("history:reply.transactionIdHint")}
        />
        <FileField
          field={fields.screenshot}
          label={t("history:reply.screenshot")}
          accept={IMAGE_ACCEPT}
          hint={t("history:reply.screenshotHint")}
        />
        {/* As on the proof form: pressing does not blur the field first, so a message appearing above cannot move the button mid-press. */}
        <button type="submit" disabled={busy} onMouseDown={(event) => event.preventDefault()} className={brandButton("block")}>
          {busy ? t("history:reply.sending") : t("history:reply.submit")}
        </button>
      </Form>
    </section>
  );
}
