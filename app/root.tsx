import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData, type LinksFunction } from "react-router";
import type { Route } from "./+types/root";
import { dirOf, pageStrings, serializeStrings, STRINGS_ELEMENT_ID, type Lang } from "#shared/i18n/i18n.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { countUnread } from "#server/domain/notifications/notifications.ts";
import { ErrorMessage } from "#app/components/role-shell.tsx";
import "./app.css";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { user } = context;
  // The sidebar's badge; only verified users reach the notifications page. The session's lookup counted them; after
  // an action in the same request (a form posted without JavaScript) they are counted again, as it may have read some.
  const unreadNotifications =
    user?.verification !== "verified"
      ? 0
      : request.method === "GET" || request.method === "HEAD"
        ? user.unreadNotifications
        : await countUnread(context.services.db, user.id);
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

/**
 * The strings this page's render used (and ALWAYS_SENT) as a JSON data block, read by entry.client before
 * hydration. It comes after the page in the document, so the render has asked for all it shows by then.
 */
function PageStrings() {
  const { i18n } = useTranslation();
  return (
    <script
      id={STRINGS_ELEMENT_ID}
      type="application/json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: serializeStrings(pageStrings(i18n)) }}
    />
  );
}

export default function App() {
  return <Outlet />;
}

/** A public page that failed (a signed-in area's pages have their layout's boundary, which keeps the shell). */
export function ErrorBoundary() {
  return <ErrorMessage error={useRouteError()} standalone />;
}
