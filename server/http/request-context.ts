import { RouterContextProvider } from "react-router";
import type { Services } from "#server/services.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import type { Lang } from "#shared/i18n/i18n.ts";

/** What the HTTP layer hands every middleware, loader and action. */
export interface RequestContext {
  services: Services;
  /** The session's account, as the cookie says; a page reads it through requireUser, after its area's guard. */
  user: SessionUser | null;
  /** The raw session token, to end this session on log out. */
  sessionToken: string | null;
  cspNonce: string;
  lang: Lang;
  /** The client's address, as the trusted proxies report it (server/http/proxy.ts). */
  clientIp: string;
  /** The request reached us over TLS: every cookie the app sets is Secure (server/http/cookies.ts). */
  secure: boolean;
}

// With middleware on (react-router.config.ts), loaders get React Router's context provider; the request's facts
// ride on it as plain fields, and what middleware decides (the guarded user) is set on it with `context.set`.
declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface RouterContextProvider extends RequestContext {}
}

/** The context for one request: React Router's provider, carrying the request's facts. */
export function requestContext(facts: RequestContext): RouterContextProvider {
  return Object.assign(new RouterContextProvider(), facts);
}
