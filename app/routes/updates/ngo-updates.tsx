import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { ExternalLink, MessageSquareHeart } from "lucide-react";
import { data, Form, href, Link, redirect } from "react-router";
import type { Route } from "./+types/ngo-updates";
import { useTranslation } from "#app/i18n/provider.ts";
import { SubmitButton } from "#app/components/form.tsx";
import { UpdateForm } from "#app/components/updates/update-form.tsx";
import { UpdateCard } from "#app/components/updates/updates-parts.tsx";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { formatDate } from "#shared/format.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { photosOf, updateSchema, updateStepSchema } from "#shared/forms/updates.ts";
import { confirmConsent, discardDraft, postUpdate, publishUpdate, removeUpdate, updatesForNgo } from "#server/domain/updates/updates.ts";

export const handle = pageTitle("updates:ngo.title");

const NOTICES = ["published", "draft", "discarded", "removed", "consent"] as const;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const { campaign, updates } = await updatesForNgo(context.services.db, user, params.id).catch(throwHttp);
  const notice = new URL(request.url).searchParams.get("notice");
  return {
    campaign,
    notice: NOTICES.find((n) => n === notice) ?? null,
    updates: updates.map((u) => ({
      ...u,
      createdAt: formatDate(u.createdAt, context.lang),
      publishedAt: u.publishedAt ? formatDate(u.publishedAt, context.lang) : null,
    })),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  const form = await readFormData(request, context);
  const back = (notice: string) => redirect(`${href("/campaigns/:id/updates", { id: params.id })}?notice=${notice}`);
  if (form.has("step")) {
    // A step on a listed update: plain forms, so they work before (and without) JavaScript.
    const submission = parseWithZod(form, { schema: updateStepSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), stepOf: null }, { status: 400 });
    const { step, updateId, photoId } = submission.value;
    const s = context.services;
    const out = await formAction(submission, () => {
      if (step === "publish") return publishUpdate(s, user, updateId);
      if (step === "discard") return discardDraft(s, user, updateId);
      if (step === "remove") return removeUpdate(s, user, updateId);
      return confirmConsent(s, user, updateId, photoId ?? "");
    });
    if (!out.ok) {
      if (out.refusal.kind === "not_found") throw new Response("Not found", { status: 404 });
      return out.answer({ stepOf: updateId });
    }
    return back(step === "publish" ? "published" : step === "discard" ? "discarded" : step === "remove" ? "removed" : "consent");
  }
  const submission = parseWithZod(form, { schema: updateSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), stepOf: null }, { status: 400 });
  const values = submission.value;
  try {
    const out = await formAction(submission, () =>
      postUpdate(context.services, user, params.id, { body: values.body, photos: photosOf(values), publish: values.intent === "publish" }),
    );
    if (!out.ok) {
      if (out.refusal.kind === "not_found") throw new Response("Not found", { status: 404 });
      return out.answer({ stepOf: null });
    }
    return back(out.value.status === "published" ? "published" : "draft");
  } catch (err) {
    if (err instanceof Response) throw err;
    // Not the NGO's doing (the database, the disk): logged, and the form stays filled in.
    context.services.log.error({ err }, "posting a campaign update failed");
    return data({ result: submission.reply({ formErrors: ["errors:unexpected"] }), stepOf: null }, { status: 503 });
  }
}

/** /campaigns/:id/updates: an NGO that runs the campaign writes updates, confirms consent, publishes and removes them. */
export default function CampaignUpdates({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { campaign, updates, notice } = loaderData;
  const stepError = actionData?.stepOf ? actionData.result.error?.[""]?.[0] : undefined;
  return (
    <>
      <title>{`${t("updates:ngo.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-3xl flex-col gap-6">
        <header className="flex flex-col gap-2">
          <UserText as="h2" className="text-start text-2xl font-bold text-brand-900">
            {campaign.title}
          </UserText>
          <p className="text-slate-700">{t("updates:ngo.intro")}</p>
          <p className="flex flex-wrap gap-3">
            <Link to={publicCampaignPath(campaign.slug)} className="inline-flex items-center gap-1 font-medium text-brand-800 underline">
              <ExternalLink aria-hidden="true" className="size-4" />
              {t("updates:ngo.viewPublic")}
            </Link>
            <Link
              to={href("/campaigns/:id/words", { id: campaign.id })}
              className="inline-flex items-center gap-1 font-medium text-brand-800 underline"
            >
              <MessageSquareHeart aria-hidden="true" className="size-4" />
              {t("updates:links.words")}
            </Link>
          </p>
        </header>
        {notice && (
          <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
            {t(`updates:notice.${notice}`)}
          </p>
        )}
        {stepError && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
            <strong>{t("common:errorPrefix")}</strong>
            {t(stepError)}
          </p>
        )}
        <section aria-labelledby="new-update" className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
          <h2 id="new-update" className="mb-4 text-xl font-bold">
            {t("updates:ngo.newTitle")}
          </h2>
          <UpdateForm lastResult={actionData?.stepOf === null ? actionData.result : undefined} />
        </section>
        <section aria-labelledby="update-list" className="flex flex-col gap-3">
          <h2 id="update-list" className="text-xl font-bold">
            {t("updates:ngo.listTitle")}
          </h2>
          {updates.length === 0 ? (
            <p className="rounded-lg bg-white p-4 text-slate-700 shadow-sm">{t("updates:ngo.empty")}</p>
          ) : (
            <ul className="flex flex-col gap-4">
              {updates.map((u) => (
                <UpdateCard
                  key={u.id}
                  testId="managed-update"
                  columns={3}
                  when={
                    <>
                      <span className="rounded bg-slate-200 px-2 py-0.5 font-bold text-slate-900">{t(`updates:status.${u.status}`)}</span>
                      {u.publishedAt ? (
                        <time dateTime={u.publishedAt.iso}>{t("updates:ngo.publishedOn", { date: u.publishedAt.text })}</time>
                      ) : (
                        <time dateTime={u.createdAt.iso}>{t("updates:ngo.writtenOn", { date: u.createdAt.text })}</time>
                      )}
                    </>
                  }
                  body={u.body}
                  photos={u.photos}
                  photoExtra={(p, i) => (
                    <>
                      {p.showsPeople && (
                        <p className={`text-sm ${p.consented ? "text-emerald-800" : "font-medium text-amber-900"}`}>
                          {t(p.consented ? "updates:photo.people" : "updates:photo.peopleNoConsent")}
                        </p>
                      )}
                      {p.showsPeople && !p.consented && u.actions.includes("confirmConsent") && (
                        <Form method="post">
                          <input type="hidden" name="step" value="consent" />
                          <input type="hidden" name="updateId" value={u.id} />
                          <input type="hidden" name="photoId" value={p.id} />
                          <SubmitButton className="rounded-md border border-amber-800 px-3 py-1.5 text-start text-sm font-medium text-amber-900 hover:bg-amber-50">
                            {t("updates:action.consent", { n: i + 1 })}
                          </SubmitButton>
                        </Form>
                      )}
                    </>
                  )}
                >
                  {u.actions.some((a) => a !== "confirmConsent") && (
                    <div className="flex flex-wrap gap-2">
                      {u.actions.includes("publish") && (
                        <StepButton step="publish" updateId={u.id} label={t("updates:action.publish")} primary />
                      )}
                      {u.actions.includes("discard") && <StepButton step="discard" updateId={u.id} label={t("updates:action.discard")} />}
                      {u.actions.includes("remove") && <StepButton step="remove" updateId={u.id} label={t("updates:action.remove")} />}
                    </div>
                  )}
                </UpdateCard>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function StepButton({ step, updateId, label, primary }: { step: string; updateId: string; label: string; primary?: boolean }) {
  return (
    <Form method="post">
      <input type="hidden" name="step" value={step} />
      <input type="hidden" name="updateId" value={updateId} />
      <SubmitButton
        className={
          primary
            ? "rounded-md bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800 disabled:opacity-70"
            : "rounded-md border border-slate-500 px-4 py-2 font-medium text-slate-800 hover:bg-slate-50"
        }
      >
        {label}
      </SubmitButton>
    </Form>
  );
}
