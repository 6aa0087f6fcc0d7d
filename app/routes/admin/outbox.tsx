import { UserText } from "#app/components/user-text.tsx";
import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import type { Route } from "./+types/outbox";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime } from "#shared/format.ts";
import { Pager } from "#app/components/pager.tsx";
import { MAIL_BODY_WITHHELD, MAIL_ERROR_NO_SERVER, SEARCH_MAX_LENGTH } from "#shared/constants.ts";
import { SearchForm } from "#app/components/search-form.tsx";
import { requireUser } from "#app/lib/http.server.ts";
import { parsePage } from "#server/db/query.ts";
import { listOutbox } from "#server/domain/admin/outbox.ts";

export const handle = pageTitle("admin:outbox.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireUser(context, "admin");
  const url = new URL(request.url);
  const page = parsePage(url.searchParams.get("page"));
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const mail = await listOutbox(context.services.db, admin, page, { q });
  return { q, mail: { ...mail, rows: mail.rows.map((m) => ({ ...m, createdAt: formatDateTime(m.createdAt, context.lang) })) } };
}

const STATUS_STYLE = {
  kept: "bg-slate-100 text-slate-800",
  queued: "bg-sky-100 text-sky-900",
  retrying: "bg-amber-100 text-amber-900",
  sent: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-800",
} as const;

export default function AdminOutbox({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { mail, q } = loaderData;
  return (
    <>
      <title>{`${t("admin:outbox.title")} · ${t("common:brand")}`}</title>
      <p className="mb-4 max-w-3xl text-slate-700">{t("admin:outbox.lead")}</p>
      <div className="mb-4">
        <SearchForm
          action="/admin/outbox"
          id="outbox-search"
          q={q}
          label={t("admin:outbox.searchLabel")}
          placeholder={t("admin:outbox.searchPlaceholder")}
          submitLabel={t("admin:outbox.search")}
          clear={{ to: "/admin/outbox", label: t("admin:outbox.showAll") }}
        />
      </div>
      {mail.rows.length === 0 ? (
        <p className="text-slate-700">{t("admin:outbox.none")}</p>
      ) : (
        <ol className="space-y-4">
          {mail.rows.map((m) => (
            <li key={m.id}>
              <article aria-labelledby={`mail-${m.id}`} className="rounded-lg bg-white p-4 shadow-sm">
                <h2 id={`mail-${m.id}`} className="font-bold break-words">
                  {m.subject}
                </h2>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("admin:outbox.to")}</dt>
                    <dd className="break-all">{m.toAddress}</dd>
                  </div>
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("admin:outbox.when")}</dt>
                    <dd>
                      <DateTime value={m.createdAt} />
                    </dd>
                  </div>
                  <div className="contents">
                    <dt className="font-medium text-slate-600">{t("admin:outbox.status")}</dt>
                    <dd>
                      <span className={`rounded px-2 py-0.5 font-medium ${STATUS_STYLE[m.status]}`}>
                        {t(`admin:outbox.statuses.${m.status}`)}
                      </span>
                      {m.attempts > 0 && <span className="ms-2 text-slate-700">{t("admin:outbox.attempts", { count: m.attempts })}</span>}
                      {m.error && (
                        <span className="ms-2 text-red-800">
                          {m.error === MAIL_ERROR_NO_SERVER ? t("admin:outbox.noServer") : t("admin:outbox.error", { error: m.error })}
                        </span>
                      )}
                    </dd>
                  </div>
                </dl>
                {/* Mail is plain text: shown as text, never as HTML. */}
                <UserText as="pre" className="mt-3 rounded-md bg-slate-50 p-3 font-sans text-sm whitespace-pre-wrap break-words">
                  {m.body === MAIL_BODY_WITHHELD ? t("admin:outbox.withheld") : <LinkedText text={m.body} />}
                </UserText>
              </article>
            </li>
          ))}
        </ol>
      )}
      <Pager page={mail.page} pages={mail.pages} label={t("admin:outbox.title")} />
    </>
  );
}

/**
 * Plain text with its web addresses as links (mail bodies hold the app's links). Only http(s) addresses become
 * links; everything stays text otherwise, so a message can never carry markup into the page.
 */
function LinkedText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"']+)/g);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} className="break-all text-brand-800 underline" rel="noreferrer">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}
