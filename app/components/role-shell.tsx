import { userText } from "#app/components/user-text.tsx";
// The icon's own module, not the "lucide-react" index: the shell is bundled with React (vite.config.ts), and a
// bundled index would bring along every icon any page uses.
import Menu from "lucide-react/icons/menu";
import { useTranslation } from "#app/i18n/provider.ts";
import { useEffect, useRef } from "react";
import {
  Form,
  isRouteErrorResponse,
  Outlet,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
  useSearchParams,
} from "react-router";
import { NAVIGATION } from "#app/lib/navigation.ts";
import { useLinks } from "#app/lib/links.ts";
import { pictureUrl } from "#shared/pictures.ts";
import { ROLE_HOME } from "#shared/roles.ts";
import type { loader as rootLoader } from "#app/root.tsx";
import { LanguageSwitch } from "./language-switch.tsx";

/** What a page under a role layout tells the shell: the key of the title its header shows. */
export interface PageHandle {
  title: string;
}

/** A page's handle: `export const handle = pageTitle("review:title")`. */
export const pageTitle = (title: string): PageHandle => ({ title });

/** The title key of the deepest page that names one. */
function useShellTitle(): string | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]!.handle as Partial<PageHandle> | undefined;
    if (typeof handle?.title === "string") return handle.title;
  }
  return null;
}

/** The layout of every signed-in area (app/routes/layouts): the shell, drawn once, around the page. */
export function RoleLayout() {
  const { t } = useTranslation();
  const title = useShellTitle();
  return (
    <RoleShell title={title ? t(title) : ""}>
      <Outlet />
    </RoleShell>
  );
}

/** Which message an error gets: a missing page, a refusal, an unreadable form, or our own failure. */
function errorMessageKey(error: unknown): string {
  if (!isRouteErrorResponse(error)) return "errors:unexpected";
  if (error.status === 404) return "errors:notFound";
  if (error.status === 403) return "errors:forbidden";
  // An unreadable form (see readFormData) says so, rather than blaming us.
  if (error.status === 400 && error.data?.message === "errors:formIncomplete") return "errors:formIncomplete";
  return "errors:unexpected";
}

/**
 * An error page's body: on its own (the root's boundary, `standalone`, with the page's heading) or inside a
 * signed-in area's shell, whose header is the heading.
 */
export function ErrorMessage({ error, standalone = false, home = "/" }: { error: unknown; standalone?: boolean; home?: string }) {
  const { t } = useTranslation();
  const Heading = standalone ? "h1" : "h2";
  return (
    <div className="mx-auto max-w-xl p-8 text-center">
      <title>{`${t("errors:title")} · ${t("common:brand")}`}</title>
      <Heading className="mb-4 text-2xl font-bold">{t("errors:title")}</Heading>
      <p role="alert">{t(errorMessageKey(error))}</p>
      <a className="mt-6 inline-block text-brand-700 underline" href={home}>
        {t("common:backHome")}
      </a>
    </div>
  );
}

/** A page of a signed-in area that failed (a 404, a refusal, our error) keeps the sidebar: the user stays in the app. */
export function RoleErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!root?.user) return <ErrorMessage error={error} standalone />;
  return (
    <RoleShell title={t("errors:title")}>
      <ErrorMessage error={error} home={ROLE_HOME[root.user.role]} />
    </RoleShell>
  );
}

/**
 * The frame of every signed-in screen: the role's sidebar (a disclosure menu on phones), the user's
 * name and picture, notifications, language and Log out.
 */
function RoleShell({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const [params] = useSearchParams();
  const location = useLocation();
  const link = useLinks();
  const menu = useRef<HTMLDetailsElement>(null);
  // The phone menu lies over the page: a choice made in it closes it (a full page load without JavaScript does too).
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.pathname, location.search]);
  const user = root?.user;
  const unread = root?.unreadNotifications ?? 0;
  if (!user) return null;
  const items = NAVIGATION[user.role];
  const notice = params.get("notice");
  const fallback = user.role === "ngo" ? "logo" : "avatar";
  // The entry of the page shown (as NavLink's `end`, whose test is case-blind), worked out once for the menu.
  const here = location.pathname.toLowerCase();

  return (
    <div className="min-h-screen md:flex">
      {/* On a phone the brand bar is one row (picture, name, language, Log out, menu) over a one-line title. */}
      <aside className="relative bg-brand-800 text-white md:w-64 md:shrink-0">
        <div className="flex items-center gap-1.5 px-3 py-1 md:flex-wrap md:gap-3 md:p-4">
          <img
            src={pictureUrl(user.pictureKey, fallback)}
            alt={t("common:yourPicture")}
            width={48}
            height={48}
            className="size-8 shrink-0 rounded-full bg-white object-cover md:size-12"
          />
          <div className="min-w-0 flex-1">
            {userText("p", { className: "truncate text-start font-bold", children: user.displayName })}
            <p className="hidden text-sm text-brand-100 md:block">{t(`common:roles.${user.role}`)}</p>
          </div>
          <div className="flex shrink-0 items-center gap-1 md:w-full md:gap-2">
            <LanguageSwitch />
            <Form method="post" action="/logout">
              <button
                type="submit"
                className="min-h-11 rounded-md px-2 text-sm font-medium text-white underline-offset-2 hover:bg-brand-700 hover:underline"
              >
                {t("common:logOut")}
              </button>
            </Form>
          </div>
          {/* The menu is drawn once (decision 037, 2026-11-28). On a phone, a native disclosure widget opens and closes
              it without any JavaScript: the navigation after it shows while it is open (`peer-open`), over the page.
              From md up, the disclosure is hidden and the navigation is the sidebar's column, always shown. */}
          <details ref={menu} className="peer shrink-0 md:hidden">
            <summary
              aria-controls="main-navigation"
              className="flex min-h-11 cursor-pointer list-none items-center gap-1 rounded-md px-2 text-sm font-medium hover:bg-brand-700"
            >
              <Menu aria-hidden="true" size={20} /> {t("common:menu")}
            </summary>
          </details>
          <nav
            id="main-navigation"
            aria-label={t("common:mainNavigation")}
            className="absolute inset-x-0 top-full z-30 hidden bg-brand-800 px-2 pb-2 shadow-lg peer-open:block md:static md:-mx-2 md:mt-1 md:block md:w-[calc(100%+1rem)] md:shrink-0 md:p-0 md:shadow-none"
          >
            <ul className="space-y-1">
              {items.map((item) => {
                const active = item.to.toLowerCase() === here;
                return (
                  <li key={item.to}>
                    <a
                      {...link(item.to)}
                      aria-current={active ? "page" : undefined}
                      className={`block rounded-md px-3 py-2 font-medium ${active ? "bg-white text-brand-900" : "text-white hover:bg-brand-700"}`}
                    >
                      {t(`common:nav.${item.label}`)}
                      {item.to === "/notifications" && unread > 0 && (
                        <span className="ms-2 rounded-full bg-amber-300 px-2 py-0.5 text-xs font-bold text-slate-900">
                          <span aria-hidden="true">{unread}</span>
                          <span className="sr-only"> {t("common:unread", { count: unread })}</span>
                        </span>
                      )}
                    </a>
                  </li>
                );
              })}
            </ul>
          </nav>
        </div>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="border-b border-slate-200 bg-white px-4 py-1.5 md:py-4">
          <h1 className="text-lg font-bold md:text-xl">{title}</h1>
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
