import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import type { SubmissionResult } from "@conform-to/react";
import { ArrowLeft } from "lucide-react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/donor-words";
import { useTranslation } from "#app/i18n/provider.ts";
import { SubmitButton, TextAreaField } from "#app/components/form.tsx";
import { ErrorBox } from "#app/components/error-box.tsx";
import { getFormProps, useSchemaForm } from "#app/lib/use-schema-form.ts";
import { publicCampaignPath } from "#app/lib/campaign-links.ts";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { supportWordsSchema } from "#shared/forms/updates.ts";
import { ownWords, writeWords } from "#server/domain/updates/words.ts";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("updates:donor.title");

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = requireUser(context, "donor");
  const words = await ownWords(context.services.db, user, params.slug).catch(throwHttp);
  return { ...words, sent: new URL(request.url).searchParams.get("notice") === "sent" };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, "donor");
  const submission = parseWithZod(await readFormData(request, context), { schema: supportWordsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const out = await formAction(submission, () => writeWords(context.services, user, params.slug, submission.value.body));
  if (!out.ok) {
    if (out.refusal.kind === "not_found") throw new Response("Not found", { status: 404 });
    return out.answer();
  }
  return redirect(`/support/${encodeURIComponent(params.slug)}?notice=sent`);
}

/** /support/:slug: a donor of the campaign writes words of support, which wait for the NGO's approval. */
export default function DonorWords({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { campaign, mayWrite, state, body, sent } = loaderData;
  return (
    <>
      <title>{`${t("updates:donor.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-2xl flex-col gap-4">
        <Link
          to={publicCampaignPath(campaign.slug)}
          className="inline-flex items-center gap-1 self-start font-medium text-brand-800 underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
          {t("updates:donor.back")}
        </Link>
        <h2 className="text-2xl font-bold text-brand-900">{t("updates:donor.title")}</h2>
        <p className="text-slate-800">{t("updates:donor.intro", { title: campaign.title })}</p>
        {sent && (
          <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
            {t("updates:donor.sent")}
          </p>
        )}
        {state !== "none" && (
          <section className="rounded-lg bg-white p-4 shadow-sm" data-testid="own-words">
            <p className="font-medium text-slate-900">{t(`updates:donor.state.${state}`)}</p>
            {body && (
              <UserText as="p" className="mt-2 whitespace-pre-line break-words text-start text-slate-800">
                {body}
              </UserText>
            )}
          </section>
        )}
        {mayWrite ? (
          <section className="rounded-lg bg-white p-4 shadow-sm sm:p-6">
            <WordsForm lastResult={actionData?.result} defaultBody={body ?? ""} />
          </section>
        ) : (
          state === "none" && (
            <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
              {t("updates:donor.notADonor")}
            </p>
          )
        )}
      </div>
    </>
  );
}

function WordsForm({ lastResult, defaultBody }: { lastResult?: SubmissionResult<string[]>; defaultBody: string }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm(() => import("#shared/forms/updates.ts").then((m) => m.supportWordsSchema), {
    id: "words",
    lastResult,
    defaultValue: { body: defaultBody },
  });
  return (
    <Form method="post" className="flex flex-col gap-4" {...getFormProps(form)}>
      <ErrorBox id={form.errorId} errors={form.errors} />
      <TextAreaField
        field={fields.body}
        label={t("updates:donor.label")}
        hint={`${t("updates:donor.hint")} ${t("updates:donor.nameRule")}`}
        rows={4}
      />
      <SubmitButton busyLabel={t("updates:donor.busy")} className={brandButton("page", "self-start")}>
        {t("updates:donor.submit")}
      </SubmitButton>
    </Form>
  );
}
