import type { Services } from "#server/services.ts";
import type { SessionUser } from "#server/domain/accounts/sessions.ts";
import type { Lang } from "#shared/i18n/i18n.ts";

/** What the HTTP layer hands every loader and action. */
export interface RequestContext {
  services: Services;
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

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}
