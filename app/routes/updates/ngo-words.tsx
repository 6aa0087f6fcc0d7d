import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { ArrowLeft } from "lucide-react";
import { data, Form, href, Link, redirect } from "react-router";
import type { Route } from "./+types/ngo-words";
import { useTranslation } from "#app/i18n/provider.ts";
import { SubmitButton } from "#app/components/form.tsx";
import { formAction, readFormData, requireUser, throwHttp } from "#app/lib/http.server.ts";
import { formatDate } from "#shared/format.ts";
import { parseWithZod } from "#shared/forms/parse.ts";
import { wordsStepSchema } from "#shared/forms/updates.ts";
import { decideWords, wordsForNgo } from "#server/domain/updates/words.ts";

export const handle = pageTitle("updates:words.title");

const NOTICES = ["approve", "hide"] as const;

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const user = requireUser(context, "ngo");
  const { campaign, words } = await wordsForNgo(context.services.db, user, params.id).catch(throwHttp);
  const notice = new URL(request.url).searchParams.get("notice");
  return {
    campaign,
    notice: NOTICES.find((n) => n === notice) ?? null,
    words: words.map((w) => ({ ...w, createdAt: formatDate(w.createdAt, context.lang) })),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = requireUser(context, "ngo");
  const submission = parseWithZod(await readFormData(request, context), { schema: wordsStepSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { intent, wordsId } = submission.value;
  const out = await formAction(submission, () => decideWords(context.services, user, wordsId, intent));
  if (!out.ok) {
    if (out.refusal.kind === "not_found") throw new Response("Not found", { status: 404 });
    return out.answer();
  }
  return redirect(`${href("/campaigns/:id/words", { id: params.id })}?notice=${intent}`);
}

/** /campaigns/:id/words: an NGO that runs the campaign approves or hides the words of support its donors wrote. */
export default function ModerateWords({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { campaign, words, notice } = loaderData;
  const error = actionData?.result.error?.[""]?.[0];
  return (
    <>
      <title>{`${t("updates:words.title")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-3xl flex-col gap-4">
        <Link
          to={href("/campaigns/:id/updates", { id: campaign.id })}
          className="inline-flex items-center gap-1 self-start font-medium text-brand-800 underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
          {t("updates:links.updates")}
        </Link>
        <header className="flex flex-col gap-1">
          <UserText as="h2" className="text-start text-2xl font-bold text-brand-900">
            {campaign.title}
          </UserText>
          <p className="text-slate-700">{t("updates:words.intro")}</p>
        </header>
        {notice && (
          <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
            {t(`updates:notice.${notice}`)}
          </p>
        )}
        {error && (
          <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800">
            <strong>{t("common:errorPrefix")}</strong>
            {t(error)}
          </p>
        )}
        {words.length === 0 ? (
          <p className="rounded-lg bg-white p-4 text-slate-700 shadow-sm">{t("updates:words.empty")}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {words.map((w) => (
              <li key={w.id} className="flex flex-col gap-2 rounded-lg bg-white p-4 shadow-sm" data-testid="moderated-words">
                <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                  <span className="rounded bg-slate-200 px-2 py-0.5 font-bold text-slate-900">{t(`updates:words.status.${w.status}`)}</span>
                  <time dateTime={w.createdAt.iso}>{w.createdAt.text}</time>
                </p>
                <UserText as="p" className="whitespace-pre-line break-words text-start text-slate-900">
                  {w.body}
                </UserText>
                <p className="text-sm text-slate-700">
                  {t("updates:words.from", { name: w.donorName })} ·{" "}
                  {t("updates:words.shownAs", { name: w.publicName ?? t("updates:public.aDonor") })}
                </p>
                {w.actions.length > 0 && (
                  <div className="flex flex-wrap gap-2">
                    {w.actions.map((a) => (
                      <Form method="post" key={a}>
                        <input type="hidden" name="intent" value={a} />
                        <input type="hidden" name="wordsId" value={w.id} />
                        <SubmitButton
                          className={
                            a === "approve"
                              ? "rounded-md bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800 disabled:opacity-70"
                              : "rounded-md border border-slate-500 px-4 py-2 font-medium text-slate-800 hover:bg-slate-50"
                          }
                        >
                          {t(`updates:words.${a}`)}
                        </SubmitButton>
                      </Form>
                    ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
