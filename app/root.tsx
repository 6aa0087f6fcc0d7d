import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
  type LinksFunction,
} from "react-router";
import type { Route } from "./+types/root";
import { dirOf, serializeStrings, STRINGS_ELEMENT_ID, type Lang } from "#shared/i18n/i18n.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { countUnread } from "#server/domain/notifications/notifications.ts";
import "./app.css";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = context;
  // The sidebar's badge; only verified users reach the notifications page.
  const unreadNotifications = user?.verification === "verified" ? await countUnread(context.services.db, user.id) : 0;
  return {
    lang: context.lang,
    nonce: context.cspNonce,
    user: user && { role: user.role, displayName: user.displayName, pictureKey: user.pictureKey },
    unreadNotifications,
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const lang: Lang = data?.lang ?? "en";
  return (
    <html lang={lang} dir={dirOf(lang)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration />
        <PageStrings />
        <Scripts />
      </body>
    </html>
  );
}

/** This page's strings as a JSON data block, read by entry.client before hydration. */
function PageStrings() {
  const { i18n } = useTranslation();
  return (
    <script
      id={STRINGS_ELEMENT_ID}
      type="application/json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: serializeStrings(i18n.strings) }}
    />
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  // An unreadable form (see readFormData) says so, rather than blaming us.
  const incomplete = isRouteErrorResponse(error) && error.status === 400 && error.data?.message === "errors:formIncomplete";
  return (
    <main className="mx-auto max-w-xl p-8 text-center">
      <title>{t("errors:title")}</title>
      <h1 className="mb-4 text-2xl font-bold">{t("errors:title")}</h1>
      <p role="alert">
        {t(notFound ? "errors:notFound" : forbidden ? "errors:forbidden" : incomplete ? "errors:formIncomplete" : "errors:unexpected")}
      </p>
      <a className="mt-6 inline-block text-brand-700 underline" href="/">
        {t("common:backHome")}
      </a>
    </main>
  );
}
