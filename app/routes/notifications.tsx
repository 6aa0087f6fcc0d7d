import { pageTitle } from "#app/components/role-shell.tsx";
import { useTranslation } from "#app/i18n/provider.ts";
import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/notifications";
import { DateTime } from "#app/components/date-time.tsx";
import { formatDateTime } from "#shared/format.ts";
import { SubmitButton } from "#app/components/form.tsx";
import { Pager } from "#app/components/pager.tsx";
import { requireAnyUser } from "#app/lib/http.server.ts";
import { safeRedirectTarget } from "#shared/roles.ts";
import { parsePage } from "#server/db/query.ts";
import { countUnread, listNotifications, markAllRead } from "#server/domain/notifications/notifications.ts";
import { brandButton } from "#app/components/ui/button.ts";

export const handle = pageTitle("notifications:page.title");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireAnyUser(context);
  const url = new URL(request.url);
  const { db } = context.services;
  const [list, unread] = await Promise.all([
    listNotifications(db, user.id, parsePage(url.searchParams.get("page"))),
    countUnread(db, user.id),
  ]);
  return {
    unread,
    notice: url.searchParams.get("notice"),
    notifications: {
      ...list,
      rows: list.rows.map((n) => ({
        id: n.id,
        type: n.type,
        params: n.params,
        // Links are written by the server, but only local paths are ever rendered as links.
        link: n.link ? safeRedirectTarget(n.link, "") || null : null,
        read: n.readAt !== null,
        createdAt: formatDateTime(n.createdAt, context.lang),
      })),
    },
  };
}

export async function action({ context }: Route.ActionArgs) {
  const user = requireAnyUser(context);
  await markAllRead(context.services.db, user.id);
  return redirect("/notifications?notice=markedRead");
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { notifications, unread, notice } = loaderData;
  return (
    <>
      <title>{`${t("notifications:page.title")} · ${t("common:brand")}`}</title>
      {notice === "markedRead" && (
        <p role="status" className="mb-4 rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
          {t("notifications:page.markedRead")}
        </p>
      )}
      {unread > 0 && (
        <Form method="post" className="mb-4">
          <SubmitButton className={brandButton("regular")}>{t("notifications:page.markAllRead")}</SubmitButton>
        </Form>
      )}
      {notifications.rows.length === 0 ? (
        <p className="text-slate-700">{t("notifications:page.none")}</p>
      ) : (
        <ol className="space-y-3">
          {notifications.rows.map((n) => {
            const card = `block min-h-11 rounded-lg p-4 shadow-sm ${n.read ? "bg-white" : "border-s-4 border-brand-700 bg-brand-50"}`;
            const body = (
              <>
                <p>
                  {!n.read && (
                    <span className="me-2 rounded bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
                      {t("notifications:page.new")}
                    </span>
                  )}
                  {t(`notifications:${n.type}`, { ...n.params, defaultValue: n.type })}
                </p>
                <p className="mt-1 text-sm text-slate-700">
                  <DateTime value={n.createdAt} />
                </p>
              </>
            );
            return (
              <li key={n.id}>
                {/* The whole card is the link on a phone: one target, named by the card's own words. */}
                {n.link ? (
                  <Link to={n.link} className={`${card} text-slate-900 hover:bg-brand-100 hover:shadow`}>
                    {body}
                  </Link>
                ) : (
                  <div className={card}>{body}</div>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <Pager page={notifications.page} pages={notifications.pages} label={t("notifications:page.title")} />
    </>
  );
}
