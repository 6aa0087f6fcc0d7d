import { Menu } from "lucide-react";
import { useTranslation } from "#app/i18n/provider.ts";
import { Form, NavLink, useRouteLoaderData, useSearchParams } from "react-router";
import { NAVIGATION } from "#app/lib/navigation.ts";
import { pictureUrl } from "#shared/pictures.ts";
import type { loader as rootLoader } from "#app/root.tsx";
import { LanguageSwitch } from "./language-switch.tsx";

/**
 * The frame of every signed-in screen: the role's sidebar (a disclosure menu on phones), the user's
 * name and picture, notifications, language and Log out.
 */
export function RoleShell({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const [params] = useSearchParams();
  const user = root?.user;
  const unread = root?.unreadNotifications ?? 0;
  if (!user) return null;
  const items = NAVIGATION[user.role];
  const notice = params.get("notice");
  const fallback = user.role === "ngo" ? "logo" : "avatar";

  const nav = (
    <nav aria-label={t("common:mainNavigation")}>
      <ul className="space-y-1">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end
              className={({ isActive }) =>
                `block rounded-md px-3 py-2 font-medium ${isActive ? "bg-white text-brand-900" : "text-white hover:bg-brand-700"}`
              }
            >
              {t(`common:nav.${item.label}`)}
              {item.to === "/notifications" && unread > 0 && (
                <span className="ms-2 rounded-full bg-amber-300 px-2 py-0.5 text-xs font-bold text-slate-900">
                  <span aria-hidden="true">{unread}</span>
                  <span className="sr-only"> {t("notifications:unread", { count: unread })}</span>
                </span>
              )}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );

  return (
    <div className="min-h-screen md:flex">
      <aside className="bg-brand-800 text-white md:w-64 md:shrink-0">
        <div className="flex items-center gap-3 p-4">
          <img
            src={pictureUrl(user.pictureKey, fallback)}
            alt={t("common:yourPicture")}
            width={48}
            height={48}
            className="h-12 w-12 rounded-full bg-white object-cover"
          />
          <div className="min-w-0 flex-1">
            <p className="truncate font-bold">{user.displayName}</p>
            <p className="text-sm text-brand-100">{t(`common:roles.${user.role}`)}</p>
          </div>
        </div>
        {/* A native disclosure widget: the menu opens on phones without any JavaScript. */}
        <details className="group px-2 pb-2 md:hidden">
          <summary className="flex cursor-pointer list-none items-center gap-2 rounded-md px-3 py-2 hover:bg-brand-700">
            <Menu aria-hidden="true" size={20} /> {t("common:menu")}
          </summary>
          {nav}
        </details>
        <div className="hidden px-2 pb-4 md:block">{nav}</div>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-3">
          <h1 className="text-xl font-bold">{title}</h1>
          <div className="flex items-center gap-2">
            <LanguageSwitch />
            <Form method="post" action="/logout">
              <button type="submit" className="rounded-md bg-slate-800 px-3 py-1 text-sm font-medium text-white hover:bg-slate-700">
                {t("common:logOut")}
              </button>
            </Form>
          </div>
        </header>
        <main id="main" className="p-4 md:p-8">
          {notice === "wrongRole" && (
            <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
              {t("errors:wrongRole")}
            </p>
          )}
          {children}
        </main>
      </div>
    </div>
  );
}
