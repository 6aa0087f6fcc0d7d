import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { Link, data, redirect } from "react-router";
import type { Route } from "./+types/checks";
import { UserText } from "#app/components/user-text.tsx";
import { RenewCheckForm, RevokeCheckForm } from "#app/components/admin/check-forms.tsx";
import { RecordCheckForm } from "#app/components/admin/record-check-form.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { checkActionSchema } from "#shared/forms/checks.ts";
import { checkSentence } from "#shared/checks.ts";
import { formatDate } from "#shared/format.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { checksOfNgo, recordCheck, renewCheck, revokeCheck, type NgoChecks } from "#server/domain/admin/checks.ts";
import { pakistanToday } from "#server/domain/dates.ts";

export const handle = pageTitle("badge:title");

const NOTICES = ["recorded", "renewed", "revoked"] as const;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const admin = requireUser(context, "admin");
  let found: NgoChecks;
  try {
    found = await checksOfNgo(context.services.db, admin, params.id);
  } catch (err) {
    throwHttp(err);
  }
  const lang = context.lang;
  const { t } = serverI18n(lang);
  const notice = new URL(request.url).searchParams.get("notice");
  return {
    ngo: found.ngo,
    today: pakistanToday(),
    notice: (NOTICES as readonly string[]).includes(notice ?? "") ? notice : null,
    checks: found.checks.map((c) => ({
      id: c.id,
      state: c.state,
      kind: c.kind,
      sentence: checkSentence(c, t, lang),
      document: c.documentKey ? `/files/${c.documentKey}` : null,
      checkedByEmail: c.checkedByEmail,
      revoked: c.revokedAt
        ? { date: formatDate(c.revokedAt, lang).text, email: c.revokedByEmail ?? "", reason: c.revokedReason ?? "" }
        : null,
    })),
  };
}

type Answer = { result: SubmissionResult<string[]>; intent: string; checkId: string } | undefined;

export async function action({ context, params, request }: Route.ActionArgs) {
  const admin = requireUser(context, "admin");
  const formData = await readFormData(request, context);
  const submission = parseWithZod(formData, { schema: checkActionSchema });
  // Which form the answer belongs to, so it opens again with its errors.
  const target = { intent: String(submission.payload.intent ?? ""), checkId: String(submission.payload.checkId ?? "") };
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["document"] }), ...target }, { status: 400 });
  const input = submission.value;
  const outcome = await formAction(submission, async () => {
    if (input.intent === "record") await recordCheck(context.services, admin, { ...input, ngoId: params.id });
    else if (input.intent === "renew") await renewCheck(context.services, admin, input.checkId, input);
    else await revokeCheck(context.services, admin, input.checkId, input.reason);
  }, ["document"]);
  if (!outcome.ok) return outcome.answer(target);
  const notice = input.intent === "record" ? "recorded" : input.intent === "renew" ? "renewed" : "revoked";
  // A check recorded from a vetting card goes back to the queue, where the NGO is still waiting.
  if (input.intent === "record" && formData.get("from") === "vetting") return redirect("/admin?notice=checkRecorded");
  return redirect(`/admin/ngos/${params.id}/checks?notice=${notice}`);
}

const STATE_CLASS = {
  standing: "border-emerald-600 bg-emerald-50 text-emerald-900",
  expired: "border-amber-600 bg-amber-50 text-amber-900",
  renewed: "border-slate-400 bg-slate-50 text-slate-700",
  revoked: "border-red-600 bg-red-50 text-red-900",
} as const;

/**
 * /admin/ngos/:id/checks: what the vetting of an NGO checked (decision 051), every check with where it stands today,
 * who checked it and its document (the administrator's alone); record a new one, renew or revoke a current one.
 */
export default function AdminChecks({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { ngo, checks, notice, today } = loaderData;
  const answer = actionData as Answer;
  const answerFor = (intent: string, checkId = "") =>
    answer && answer.intent === intent && (intent === "record" || answer.checkId === checkId) ? answer.result : undefined;
  return (
    <>
      <title>{`${t("checks:admin.title", { name: ngo.name })} · ${t("common:brand")}`}</title>
      <div className="flex max-w-3xl flex-col gap-6">
        <div>
          <UserText as="h2" className="break-words text-start text-2xl font-bold text-brand-900">
            {t("checks:admin.title", { name: ngo.name })}
          </UserText>
          <p className="mt-1 text-slate-700">{t("checks:admin.lead")}</p>
          <Link to="/admin/accounts" className="mt-2 inline-flex min-h-11 items-center font-medium text-brand-800 underline">
            {t("checks:admin.back")}
          </Link>
        </div>
        {notice && !answer && (
          <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
            {t(`checks:admin.${notice}`)}
          </p>
        )}

        <section aria-labelledby="checks-heading">
          <h3 id="checks-heading" className="mb-2 text-lg font-bold">
            {t("checks:admin.list")}
          </h3>
          {checks.length === 0 ? (
            <p className="rounded-lg bg-white p-4 text-slate-700 shadow-sm">{t("checks:admin.none")}</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {checks.map((c) => (
                <li key={c.id} className="flex flex-col gap-2 rounded-lg bg-white p-4 shadow-sm" data-check={c.id} data-state={c.state}>
                  <p>
                    <span className={`inline-block rounded-full border px-2.5 py-0.5 text-sm font-bold ${STATE_CLASS[c.state]}`}>
                      {t(`checks:admin.state.${c.state}`)}
                    </span>{" "}
                    <span className="font-bold">{t(`checks:kind.${c.kind}`)}</span>
                  </p>
                  <p className="break-words text-start text-slate-800">{c.sentence}</p>
                  {c.checkedByEmail && <p className="text-sm text-slate-700">{t("checks:admin.checkedBy", { email: c.checkedByEmail })}</p>}
                  {c.revoked && <p className="text-sm text-red-900">{t("checks:admin.revokedBy", c.revoked)}</p>}
                  <p className="text-sm">
                    {c.document ? (
                      <a href={c.document} className="font-medium text-brand-800 underline" download>
                        {t("checks:admin.openDocument")}
                      </a>
                    ) : (
                      <span className="text-slate-600">{t("checks:admin.noDocument")}</span>
                    )}
                  </p>
                  {(c.state === "standing" || c.state === "expired") && (
                    <div className="flex flex-wrap items-start gap-3">
                      <RenewCheckForm ngoId={ngo.id} checkId={c.id} what={c.sentence} today={today} lastResult={answerFor("renew", c.id)} />
                      <RevokeCheckForm checkId={c.id} what={c.sentence} lastResult={answerFor("revoke", c.id)} />
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="record-heading" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <h3 id="record-heading" className="mb-3 text-lg font-bold text-brand-900">
            {t("checks:admin.recordTitle")}
          </h3>
          <RecordCheckForm ngoId={ngo.id} name={ngo.name} today={today} lastResult={answerFor("record")} />
        </section>
      </div>
    </>
  );
}
