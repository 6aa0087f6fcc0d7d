import type { SubmissionResult } from "@conform-to/react";
import { ArrowLeft, FileText } from "lucide-react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/spending";
import { pageTitle } from "#app/components/role-shell.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { FileField, SelectField, SubmitButton, TextAreaField, TextField } from "#app/components/form.tsx";
import { Pager } from "#app/components/pager.tsx";
import { UserText } from "#app/components/user-text.tsx";
import { brandButton } from "#app/components/ui/button.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { getFormProps, getInputProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { formatDate, formatDay } from "#shared/format.ts";
import { spendingDecisionSchema, spendingSchema } from "#shared/forms/ledger.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { formatRupees } from "#shared/money.ts";
import { FUND_KINDS } from "#shared/statuses.ts";
import { IMAGE_ACCEPT } from "#shared/constants.ts";
import { parsePage } from "#server/db/query.ts";
import { campaignSpending, discardSpending, publishSpending, writeSpending } from "#server/domain/ledger/spending.ts";
import { pakistanToday } from "#server/domain/dates.ts";

export const handle = pageTitle("ledger:ngo.title");

const NOTICES = ["saved", "published", "discarded"] as const;
/** What the document field accepts: the photos every image field takes, and PDF. */
const DOCUMENT_ACCEPT = `${IMAGE_ACCEPT},application/pdf,.pdf`;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const url = new URL(request.url);
  const lang = context.lang;
  const { campaign, records } = await campaignSpending(context.services.db, user, params.id, parsePage(url.searchParams.get("page"))).catch(
    throwHttp,
  );
  const notice = NOTICES.find((n) => n === url.searchParams.get("notice")) ?? null;
  const rows = records.rows.map((r) => ({
    id: r.id,
    status: r.status,
    ngoName: r.ngoName,
    own: r.ngoId === user.id,
    fund: r.fund,
    amount: r.amount,
    spentOn: formatDay(r.spentOn, lang),
    purpose: r.purpose,
    documentUrl: `/files/${r.documentKey}`,
    publishedAt: r.publishedAt ? formatDate(r.publishedAt, lang) : null,
    corrects: r.corrects ? { amount: r.corrects.amount, spentOn: formatDay(r.corrects.spentOn, lang) } : null,
    corrected: r.correctedBy !== null,
    takenDown: r.takenDown ? { date: formatDate(r.takenDown.at, lang).text, reason: r.takenDown.reason } : null,
    actions: r.actions,
  }));
  // A correction is offered from a published record's "Correct" link; anything else in the address is ignored.
  const correcting = rows.find((r) => r.id === url.searchParams.get("correct") && r.actions.includes("correct")) ?? null;
  return {
    campaign: { id: campaign.id, title: campaign.title, slug: campaign.slug, archived: campaign.status === "archived" },
    records: { ...records, rows },
    notice,
    correcting,
    today: pakistanToday(),
  };
}

type ActionResult = { result: SubmissionResult<string[]>; recordId?: string };

export async function action({ context, params, request }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  const formData = await readFormData(request, context);
  const services = context.services;
  if (formData.get("intent") === "write") {
    const submission = parseWithZod(formData, { schema: spendingSchema });
    if (submission.status !== "success") return data<ActionResult>({ result: submission.reply() }, { status: 400 });
    try {
      const out = await formAction(submission, () => writeSpending(services, user, params.id, submission.value));
      if (!out.ok) return out.answer();
    } catch (err) {
      services.log.error({ err }, "saving a spending record failed");
      return data<ActionResult>({ result: submission.reply({ formErrors: ["ledger:errors.saveFailed"] }) }, { status: 503 });
    }
    return redirect("?notice=saved");
  }
  const submission = parseWithZod(formData, { schema: spendingDecisionSchema });
  const recordId = String(formData.get("recordId") ?? "");
  if (submission.status !== "success") return data<ActionResult>({ result: submission.reply(), recordId }, { status: 400 });
  const decision = submission.value;
  const out = await formAction(submission, () =>
    decision.intent === "publish"
      ? publishSpending(services.db, user, decision.recordId)
      : discardSpending(services, user, decision.recordId),
  );
  if (!out.ok) return out.answer({ recordId });
  return redirect(`?notice=${decision.intent === "publish" ? "published" : "discarded"}`);
}

type LoaderData = Route.ComponentProps["loaderData"];
type Row = LoaderData["records"]["rows"][number];

/**
 * /campaigns/:id/spending: what the NGO spent of a campaign's money (decision 049). It records an entry as a draft
 * with its invoice or receipt, checks it, and publishes it to the campaign's public ledger with its statement that
 * the document shows no private data. Drafts are seen by the campaign's NGOs only; a published entry is final and is
 * put right by a correction. Every step is a plain form: it works without JavaScript.
 */
export default function SpendingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { campaign, records, notice, correcting, today } = loaderData;
  const answer = actionData as ActionResult | undefined;
  return (
    <>
      <title>{`${t("ledger:ngo.linkLabel", { title: campaign.title })} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-3xl flex-col gap-6">
        <p className="flex flex-wrap gap-x-6 gap-y-2">
          <Link to="/campaigns" className="inline-flex items-center gap-1 font-medium text-brand-800 underline underline-offset-2">
            <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
            {t("ledger:ngo.back")}
          </Link>
          {!campaign.archived && (
            <Link to={publicCampaignPath(campaign.slug)} className="font-medium text-brand-800 underline underline-offset-2">
              {t("ledger:ngo.publicLedger")}
            </Link>
          )}
        </p>
        <header>
          <UserText as="h2" className="break-words text-start text-2xl font-bold text-brand-900">
            {campaign.title}
          </UserText>
          <p className="mt-1 text-slate-700">{t("ledger:ngo.lead")}</p>
        </header>
        {notice && (
          <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
            {t(`ledger:ngo.notices.${notice}`)}
          </p>
        )}
        {!campaign.archived && (
          <SpendingForm
            key={correcting?.id ?? "new"}
            correcting={correcting}
            today={today}
            lastResult={answer && !answer.recordId ? answer.result : undefined}
          />
        )}
        <section aria-labelledby="records-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <h2 id="records-heading" className="mb-2 text-xl font-bold text-brand-900">
            {t("ledger:ngo.records")}
          </h2>
          {records.rows.length === 0 ? (
            <p className="text-slate-700">{t("ledger:ngo.empty")}</p>
          ) : (
            <ul className="flex flex-col gap-3" data-testid="spending-records">
              {records.rows.map((r) => (
                <RecordCard key={r.id} record={r} page={records.page} answer={answer?.recordId === r.id ? answer.result : undefined} />
              ))}
            </ul>
          )}
          <Pager page={records.page} pages={records.pages} label={t("ledger:ngo.records")} />
        </section>
      </div>
    </>
  );
}

function SpendingForm({
  correcting,
  today,
  lastResult,
}: {
  correcting: Row | null;
  today: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t, i18n } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/ledger.ts").then((m) => m.spendingSchema), {
    id: "spending",
    lastResult,
    defaultValue: { intent: "write", correctsId: correcting?.id ?? "", fund: correcting?.fund ?? "" },
  });
  const formErrors = [...(form.errors ?? []), ...(fields.correctsId.errors ?? [])];
  const { key: dateKey, ...dateInput } = getInputProps(fields.spentOn, { type: "date" });
  const dateHintId = `${fields.spentOn.id}-hint`;
  return (
    <section aria-labelledby="spending-form-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
      <h2 id="spending-form-heading" className="mb-1 text-xl font-bold text-brand-900">
        {t(correcting ? "ledger:ngo.correctingTitle" : "ledger:ngo.formTitle")}
      </h2>
      {correcting && (
        <p className="mb-3 text-slate-700">
          {t("ledger:ngo.correcting", {
            date: correcting.spentOn,
            amount: formatRupees(correcting.amount, i18n.language),
            purpose: correcting.purpose,
          })}{" "}
          <Link to="?" className="font-medium text-brand-800 underline underline-offset-2">
            {t("ledger:ngo.cancelCorrection")}
          </Link>
        </p>
      )}
      <Form method="post" encType="multipart/form-data" className="flex flex-col gap-5" {...getFormProps(form)}>
        <ErrorBox id={form.errorId} errors={formErrors.length > 0 ? formErrors : null} />
        <input type="hidden" name="intent" value="write" />
        {correcting && <input type="hidden" name={fields.correctsId.name} value={correcting.id} />}
        <SelectField
          field={fields.fund}
          label={t("ledger:ngo.fund")}
          placeholder={t("ledger:ngo.chooseFund")}
          options={FUND_KINDS.map((f) => ({ value: f, label: t(`ledger:fund.${f}`) }))}
        />
        <TextField field={fields.amount} label={t("ledger:ngo.amount")} inputMode="numeric" autoComplete="off" />
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.spentOn.id} className="font-medium text-slate-800">
            {t("ledger:ngo.spentOn")}
          </label>
          <input
            key={dateKey}
            {...dateInput}
            max={today}
            aria-describedby={[dateInput["aria-describedby"], dateHintId].filter(Boolean).join(" ")}
            className="w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base aria-invalid:border-red-600 sm:w-60"
          />
          <p id={dateHintId} className="text-sm text-slate-600">
            {t("common:dateInput")}
          </p>
          {fields.spentOn.errors?.length ? (
            <p id={fields.spentOn.errorId} className="text-sm font-medium text-red-700">
              {t(fields.spentOn.errors[0]!)}
            </p>
          ) : null}
        </div>
        <TextAreaField field={fields.purpose} label={t("ledger:ngo.purpose")} hint={t("ledger:ngo.purposeHint")} rows={2} />
        <FileField field={fields.document} label={t("ledger:ngo.document")} accept={DOCUMENT_ACCEPT} hint={t("ledger:ngo.documentHint")} />
        <SubmitButton busyLabel={t("ledger:ngo.saving")}>{t("ledger:ngo.save")}</SubmitButton>
      </Form>
    </section>
  );
}

const STATUS_CLASS = {
  draft: "bg-amber-100 text-amber-950",
  published: "bg-emerald-100 text-emerald-900",
  taken_down: "bg-red-100 text-red-900",
} as const;

function RecordCard({ record: r, page, answer }: { record: Row; page: number; answer?: SubmissionResult<string[]> }) {
  const { t, i18n } = useTranslation();
  const rupees = (n: number) => formatRupees(n, i18n.language);
  const errors = answer ? Object.values(answer.error ?? {}).flatMap((e) => e ?? []) : [];
  const errorId = `record-${r.id}-error`;
  const confirmId = `record-${r.id}-confirm`;
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 p-3" data-testid="spending-record" data-status={r.status}>
      <p className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className={`font-bold ${r.corrected ? "text-slate-500 line-through" : "text-slate-900"}`}>{rupees(r.amount)}</span>
        <span className={`rounded px-2 py-0.5 text-sm font-bold ${STATUS_CLASS[r.status]}`}>{t(`ledger:ngo.status.${r.status}`)}</span>
      </p>
      <UserText as="p" className="break-words text-start text-slate-900">
        {r.purpose}
      </UserText>
      <p className="text-sm text-slate-700">
        {t(`ledger:fund.${r.fund}`)} · {r.spentOn} · <UserText>{r.ngoName}</UserText>
        {r.publishedAt && (
          <>
            {" · "}
            {t("ledger:ngo.publishedOn", { date: r.publishedAt.text })}
          </>
        )}
      </p>
      {r.corrects && (
        <p className="text-sm text-slate-700">
          {t("ledger:spending.corrects", { date: r.corrects.spentOn, amount: rupees(r.corrects.amount) })}
        </p>
      )}
      {r.corrected && <p className="text-sm font-medium text-amber-900">{t("ledger:spending.corrected")}</p>}
      {r.takenDown && (
        <div className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900" data-testid="taken-down">
          <p className="font-bold">{t("ledger:ngo.takenDown", { date: r.takenDown.date })}</p>
          <p>
            {t("ledger:ngo.takenDownReason")} <UserText>{r.takenDown.reason}</UserText>
          </p>
        </div>
      )}
      <p>
        <a href={r.documentUrl} className="inline-flex min-h-11 items-center gap-1 font-medium text-brand-800 underline underline-offset-2">
          <FileText aria-hidden="true" className="size-4 shrink-0" />
          {t("ledger:ngo.viewDocument")}
        </a>
      </p>
      {errors.length > 0 && <ErrorBox id={errorId} errors={errors} />}
      {r.actions.includes("publish") && (
        <Form method="post" className="flex flex-col gap-2" aria-describedby={errors.length > 0 ? errorId : undefined}>
          <input type="hidden" name="intent" value="publish" />
          <input type="hidden" name="recordId" value={r.id} />
          <label htmlFor={confirmId} className="flex items-start gap-2 text-sm text-slate-800">
            <input id={confirmId} type="checkbox" name="confirmRedacted" required className="mt-0.5 size-5 shrink-0" />
            <span>{t("ledger:ngo.confirmRedacted")}</span>
          </label>
          <button type="submit" className={brandButton("medium", "self-start")}>
            {t("ledger:ngo.publish")}
          </button>
        </Form>
      )}
      {r.actions.includes("discard") && (
        <Form method="post">
          <input type="hidden" name="intent" value="discard" />
          <input type="hidden" name="recordId" value={r.id} />
          <button type="submit" className="min-h-11 rounded-md border border-red-700 px-3 py-1.5 font-medium text-red-800 hover:bg-red-50">
            {t("ledger:ngo.discard")}
          </button>
        </Form>
      )}
      {r.actions.includes("correct") && (
        <p>
          <Link
            to={`?correct=${r.id}&page=${page}#spending-form-heading`}
            className="inline-flex min-h-11 items-center font-medium text-brand-800 underline underline-offset-2"
          >
            {t("ledger:ngo.correct")}
          </Link>
        </p>
      )}
    </li>
  );
}
