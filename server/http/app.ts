import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie, setCookie } from "hono/cookie";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler, type ServerBuild } from "react-router";
import { isLang, LANG_COOKIE, type Lang } from "../../app/i18n/i18n";
import { ROLE_HOME, ROLE_SIGN_IN, requiredRole } from "../../app/lib/roles";
import { SESSION_COOKIE, getSessionUser, type SessionUser } from "../domain/accounts/sessions";
import { changeLanguage } from "../domain/accounts/settings";
import { readFileForUser } from "../domain/files/files";
import type { Services } from "../services";
import { MAX_REQUEST_BYTES } from "./limits";
import { originAllowed } from "./origin";
import { tileImageSource } from "./tile-origin";
import { tooLargeResponse } from "./too-large";

type Env = {
  Variables: {
    user: SessionUser | null;
    sessionToken: string | null;
    lang: Lang;
    secureHeadersNonce?: string;
  };
};

export interface AppOptions {
  services: Services;
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Folder of built browser assets; absent in development, where Vite serves them. */
  clientDir?: string;
  mode: "development" | "production";
}

export function createApp({ services, build, clientDir, mode }: AppOptions) {
  const { config, db, log } = services;
  const app = new Hono<Env>();
  const handleRequest = createRequestHandler(build, mode);
  const tileSource = tileImageSource(config.MAP_TILE_URL);

  app.onError((err, c) => {
    log.error({ err: { message: err.message, stack: err.stack }, path: c.req.path }, "unhandled error");
    return c.text("Something went wrong on our side. Please try again later.", 500);
  });

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", NONCE],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...(tileSource ? [tileSource] : [])],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
      strictTransportSecurity: config.secureCookies ? "max-age=31536000; includeSubDomains" : false,
      referrerPolicy: "strict-origin-when-cross-origin",
      crossOriginEmbedderPolicy: false,
    }),
  );

  // Every state-changing request must come from a page of this site.
  app.use(async (c, next) => {
    if (!["GET", "HEAD", "OPTIONS"].includes(c.req.method) && !originAllowed(c.req.raw.headers, config.APP_URL)) {
      log.warn({ path: c.req.path, origin: c.req.header("origin") ?? null }, "refused cross-origin request");
      return c.text("This request came from another site and was refused.", 403);
    }
    await next();
  });

  app.use(
    bodyLimit({
      maxSize: MAX_REQUEST_BYTES,
      onError: (c) => tooLargeResponse(c, config.APP_URL),
    }),
  );

  if (clientDir) {
    app.use("/assets/*", async (c, next) => {
      await next();
      if (c.res.ok) c.header("Cache-Control", "public, max-age=31536000, immutable");
    });
    app.use("/assets/*", serveStatic({ root: clientDir }));
    app.use("/static/*", serveStatic({ root: clientDir }));
    app.use("/favicon.svg", serveStatic({ root: clientDir }));
  }

  // Who is asking, and in which language.
  app.use(async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE) ?? null;
    const user = token ? await getSessionUser(db, token) : null;
    c.set("user", user);
    c.set("sessionToken", user ? token : null);
    const lang = getCookie(c, LANG_COOKIE);
    c.set("lang", isLang(lang) ? lang : "en");
    await next();
  });

  app.get("/files/:kind/:name", async (c) => {
    const file = await readFileForUser(services, `${c.req.param("kind")}/${c.req.param("name")}`, c.get("user"));
    if (!file) return c.text("Not found", 404);
    return c.body(new Uint8Array(file.body), 200, {
      "Content-Type": file.contentType,
      // A PDF (a resume) is always a download with a fixed name: it never opens inside the app's origin.
      "Content-Disposition": file.contentType === "application/pdf" ? `attachment; filename="${file.kind}.pdf"` : "inline",
      "Cache-Control": file.public ? "public, max-age=86400" : "private, no-store",
      "X-Content-Type-Options": "nosniff",
    });
  });

  // Language switch: a plain form post, so it works before any JavaScript arrives. A signed-in account keeps
  // the choice as well, for the emails it is sent.
  app.post("/language", async (c) => {
    const form = await c.req.parseBody();
    const lang = isLang(form.lang) ? form.lang : "en";
    const user = c.get("user");
    if (user) await changeLanguage(db, user, lang);
    setCookie(c, LANG_COOKIE, lang, { path: "/", maxAge: 365 * 24 * 3600, sameSite: "Lax", secure: config.secureCookies });
    const back = typeof form.redirectTo === "string" && form.redirectTo.startsWith("/") && !form.redirectTo.startsWith("//") ? form.redirectTo : "/";
    return c.redirect(back, 303);
  });

  // The route guard: every guarded path of the route table, whatever screen serves it.
  app.use(async (c, next) => {
    const role = requiredRole(c.req.path);
    if (!role) return next();
    const user = c.get("user");
    const url = new URL(c.req.url);
    // A client-side navigation fetches `<path>.data`; React Router follows a redirect only when it comes in its
    // own form (204 with X-Remix-Redirect), and the page to come back to is the path without `.data`.
    const dataRequest = url.pathname.endsWith(".data");
    const go = (location: string) =>
      dataRequest ? c.body(null, 204, { "X-Remix-Redirect": location, "X-Remix-Status": "303" }) : c.redirect(location, 303);
    if (!user) {
      url.searchParams.delete("_routes");
      const back = encodeURIComponent(url.pathname.replace(/\.data$/, "") + url.search);
      return go(`${ROLE_SIGN_IN[role]}?redirectTo=${back}`);
    }
    if (user.role !== role) return go(`${ROLE_HOME[user.role]}?notice=wrongRole`);
    if (user.verification !== "verified") return go("/resubmit");
    return next();
  });

  app.all("*", async (c) => {
    return handleRequest(c.req.raw, {
      services,
      user: c.get("user"),
      sessionToken: c.get("sessionToken"),
      cspNonce: c.get("secureHeadersNonce") ?? "",
      lang: c.get("lang"),
      clientIp: clientIp(c, config.TRUST_PROXY),
    });
  });

  return app;
}

function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
