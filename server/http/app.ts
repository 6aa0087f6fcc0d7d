import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getCookie } from "hono/cookie";
import { secureHeaders } from "hono/secure-headers";
import { serveStatic } from "@hono/node-server/serve-static";
import { createRequestHandler, type ServerBuild } from "react-router";
import { isLang, LANG_COOKIE, type Lang } from "#shared/i18n/i18n.ts";
import { hasControlCharacters } from "#shared/text.ts";
import { safeRedirectTarget } from "#shared/roles.ts";
import { SESSION_COOKIE, findSessionUser, type SessionUser } from "#server/domain/accounts/sessions.ts";
import { changeLanguage } from "#server/domain/accounts/settings.ts";
import { findFileForUser } from "#server/domain/files/files.ts";
import type { Services } from "#server/services.ts";
import { MAX_REQUEST_BYTES } from "./limits.ts";
import { languageCookie } from "./cookies.ts";
import { atOriginOf, originAllowed } from "./origin.ts";
import { requestOrigin } from "./proxy.ts";
import { tileImageSource } from "./tile-origin.ts";
import { requestContext } from "./request-context.ts";
import { badAddressResponse, crossSiteResponse, tooLargeResponse, unreadableFormResponse } from "./refusal.ts";
import { compression } from "./compress.ts";
import { healthz, readyz, type Lifecycle } from "./health.ts";
import { requestIds } from "./request-id.ts";
import { nonceSource } from "./nonce.ts";
import { metricsEndpoint } from "./metrics-endpoint.ts";
import { routePattern } from "./route-pattern.ts";
import { routePath } from "hono/route";
import type { Metrics } from "#server/metrics.ts";
import { forgetSharedReads } from "#server/db/shared-reads.ts";

type Env = {
  Variables: {
    user: SessionUser | null;
    sessionToken: string | null;
    lang: Lang;
    secureHeadersNonce?: string;
    /** The React Router route's pattern, for the metrics. */
    route?: string;
  };
};

const HSTS = "max-age=31536000; includeSubDomains";

export interface AppOptions {
  services: Services;
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** Folder of built browser assets; absent in development, where Vite serves them. */
  clientDir?: string;
  mode: "development" | "production";
  /** Set to draining by the shutdown (server/main.ts); /readyz follows it. */
  lifecycle?: Lifecycle;
  /** Requests are measured when given; GET /metrics needs METRICS_TOKEN as well (decision 043). */
  metrics?: Metrics;
}

/**
 * How long a browser or proxy may keep a stored file. A key is generated for each upload and its bytes never change
 * (a new picture gets a new key), so a public file's address names its content: kept for a year, immutable. The
 * original standing in for a copy not made yet is kept briefly, as the copy will answer there soon. Private files
 * (screenshots, resumes, avatars) are never kept (decision 034).
 */
function fileCaching(file: { public: boolean; settled: boolean }): string {
  if (!file.public) return "private, no-store";
  return file.settled ? "public, max-age=31536000, immutable" : "public, max-age=300";
}

/**
 * Content types a browser shows only inside a page, never as a page of their own (SVG, HTML, XML, PDF and text can
 * be opened as one and keep every header).
 */
const NEVER_A_PAGE = /^(text\/javascript|application\/javascript|text\/css|font\/|image\/(webp|avif|png|jpeg|gif)|application\/json)\b/i;
/** The headers only a page reads; nosniff, Cross-Origin-Resource-Policy and Referrer-Policy stay on every answer. */
const PAGE_ONLY_HEADERS = [
  "Content-Security-Policy",
  "Permissions-Policy",
  "X-Frame-Options",
  "Cross-Origin-Opener-Policy",
  "Origin-Agent-Cluster",
  "X-XSS-Protection",
  "X-Download-Options",
  "X-DNS-Prefetch-Control",
  "X-Permitted-Cross-Domain-Policies",
];

export function createApp({ services, build, clientDir, mode, lifecycle = { draining: false }, metrics }: AppOptions) {
  const { config, db, log } = services;
  const app = new Hono<Env>();
  const handleRequest = createRequestHandler(build, mode);
  const tileSource = tileImageSource(config.MAP_TILE_URL);

  app.onError((err, c) => {
    log.error({ err, path: c.req.path }, "unhandled error");
    return c.text("Something went wrong on our side. Please try again later.", 500);
  });

  // First, so that every log line of the request names it, whatever answers.
  app.use(requestIds());

  if (metrics) {
    // Each request under its route's pattern: React Router's (set below), else the Hono route that answered, or
    // "(refused)" when a middleware without a path of its own answered (the address guard, the Origin check, the
    // body limit).
    app.use(async (c, next) => {
      const start = performance.now();
      await next();
      const answeredBy = routePath(c);
      const route = c.get("route") ?? (answeredBy === "/*" ? "(refused)" : answeredBy);
      metrics.observeRequest({ method: c.req.method, route, status: c.res.status }, (performance.now() - start) / 1000);
    });
  }

  // Which server answered, when it is one of several; while the process drains, each connection ends with the
  // answer it is giving, so the process can finish.
  app.use(async (c, next) => {
    await next();
    if (config.SERVER_NAME) c.res.headers.set("X-Served-By", config.SERVER_NAME);
    if (lifecycle.draining) c.res.headers.set("Connection", "close");
  });

  // One guard for every address: a path or query that holds a control character (a NUL, say) or a broken
  // escape is refused, before any route, loader or query sees it.
  const addressGuard: MiddlewareHandler = async (c, next) => {
    const bad = badPart(c.req.url);
    if (bad) return badAddressResponse(c, config.APP_URL, bad);
    await next();
  };

  // For balancers, orchestrators and the metrics scraper: before every other middleware but the address guard, so
  // they are never compressed, rate-limited or slowed by a session lookup (decision 043).
  app.get("/healthz", addressGuard, healthz);
  app.get("/readyz", addressGuard, readyz(services, lifecycle));
  if (metrics && config.METRICS_TOKEN) app.get("/metrics", addressGuard, metricsEndpoint(metrics, config.METRICS_TOKEN));

  // What a page's own headers are for (its policy, its framing, its window) means nothing on a script, a style, a
  // font or a picture, which the browser never opens as a page; they are about 0.9 KB on each such answer, twenty
  // and more on a first visit (decision 033, 2026-11-27). Registered before secureHeaders so it sees what that adds.
  app.use(async (c, next) => {
    await next();
    if (NEVER_A_PAGE.test(c.res.headers.get("Content-Type") ?? "")) for (const name of PAGE_ONLY_HEADERS) c.res.headers.delete(name);
  });
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", nonceSource],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...(tileSource ? [tileSource] : [])],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
      // Per request, below: only a request that reached us over TLS gets it.
      strictTransportSecurity: false,
      referrerPolicy: "strict-origin-when-cross-origin",
      crossOriginEmbedderPolicy: false,
      // The app uses none of these; the place field asks for a location through the server, not the browser.
      permissionsPolicy: {
        camera: [],
        microphone: [],
        geolocation: [],
        payment: [],
        usb: [],
        serial: [],
        bluetooth: [],
        hid: [],
        midi: [],
        magnetometer: [],
        gyroscope: [],
        accelerometer: [],
        browsingTopics: [],
      },
    }),
  );
  app.use(async (c, next) => {
    await next();
    if (requestOrigin(c, config).secure) c.res.headers.set("Strict-Transport-Security", HSTS);
  });
  // Every text answer, brotli or gzip, as it streams; the hashed assets come precompressed (decision 029).
  app.use(compression());

  app.use(addressGuard);

  // Every state-changing request must come from a page of this site.
  app.use(async (c, next) => {
    if (
      !["GET", "HEAD", "OPTIONS"].includes(c.req.method) &&
      !originAllowed(c.req.raw.headers, config.APP_URL, sentTo(c.req.url, requestOrigin(c, config).secure))
    ) {
      log.warn({ path: c.req.path, origin: c.req.header("origin") ?? null }, "refused cross-origin request");
      return crossSiteResponse(c, config.APP_URL);
    }
    if (!["GET", "HEAD", "OPTIONS"].includes(c.req.method)) c.req.raw = atOriginOf(c.req.raw);
    await next();
  });

  // Whatever a state-changing request changed shows on this server's next page at once: the reads every visitor
  // shares are forgotten once it is answered (decision 054; another server's change shows within a few seconds).
  app.use(async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
    try {
      await next();
    } finally {
      forgetSharedReads(db);
    }
  });

  // A body without a length (chunked) is read here to count it; one that breaks off on the way (a phone losing
  // its signal mid-upload) is the sender's problem: 400 with the words to send it again, never 500. Errors of
  // the handlers after it are not caught here.
  const limitBody = bodyLimit({ maxSize: MAX_REQUEST_BYTES, onError: (c) => tooLargeResponse(c, config.APP_URL) });
  app.use(async (c, next) => {
    // A GET or HEAD has no body (the fetch standard's Request gives it none), and asking for it would make
    // @hono/node-server build undici's whole Request for every page (1.5 % of a page's CPU, decision 037, session 24).
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    let read = false;
    try {
      return await limitBody(c, () => ((read = true), next()));
    } catch (err) {
      if (read) throw err;
      log.warn({ err, path: c.req.path }, "a body broke off in transit");
      return unreadableFormResponse(c, config.APP_URL);
    }
  });

  if (clientDir) {
    app.use("/assets/*", async (c, next) => {
      await next();
      if (!c.res.ok) return;
      c.header("Cache-Control", "public, max-age=31536000, immutable");
      // A hashed file never changes, so is never asked for again with If-Modified-Since: its date would be 46 bytes of
      // every asset's answer for nothing (serveStatic has added it since @hono/node-server 2).
      c.res.headers.delete("Last-Modified");
    });
    // The build writes a .br and a .gz next to each (scripts/precompress.ts): sent when the browser takes them.
    app.use("/assets/*", serveStatic({ root: clientDir, precompressed: true }));
    app.use("/static/*", serveStatic({ root: clientDir }));
    app.use("/favicon.svg", serveStatic({ root: clientDir }));
  }

  // Who is asking, and in which language.
  app.use(async (c, next) => {
    const token = getCookie(c, SESSION_COOKIE) ?? null;
    const user = token ? await findSessionUser(db, token) : null;
    c.set("user", user);
    c.set("sessionToken", user ? token : null);
    const lang = getCookie(c, LANG_COOKIE);
    c.set("lang", isLang(lang) ? lang : "en");
    await next();
  });

  app.get("/files/:kind/:name", async (c) => {
    const file = await findFileForUser(services, `${c.req.param("kind")}/${c.req.param("name")}`, c.get("user"));
    if (!file) return c.text("Not found", 404);
    return c.body(new Uint8Array(file.body), 200, {
      "Content-Type": file.contentType,
      // A PDF (a resume) is always a download with a fixed name: it never opens inside the app's origin.
      "Content-Disposition": file.contentType === "application/pdf" ? `attachment; filename="${file.kind}.pdf"` : "inline",
      "Cache-Control": fileCaching(file),
      "X-Content-Type-Options": "nosniff",
    });
  });

  // Language switch: a plain form post, so it works before any JavaScript arrives. A signed-in account keeps
  // the choice as well, for the emails it is sent.
  app.post("/language", async (c) => {
    let form: FormData;
    try {
      form = await c.req.raw.formData();
    } catch {
      return unreadableFormResponse(c, config.APP_URL);
    }
    // One language, as the switch sends it: a form naming several is not one the page sent, and changes nothing.
    const langs = form.getAll("lang");
    const lang = langs.length === 1 ? langs[0] : null;
    if (!isLang(lang)) return unreadableFormResponse(c, config.APP_URL);
    // Decided before anything changes: a target this site cannot go to falls back to the home page.
    const back = safeRedirectTarget(form.get("redirectTo"), "/");
    const user = c.get("user");
    if (user) await changeLanguage(db, user, lang);
    c.header("Set-Cookie", languageCookie(requestOrigin(c, config).secure, lang), { append: true });
    return c.redirect(back, 303);
  });

  app.all("*", async (c) => {
    if (metrics) c.set("route", routePattern(typeof build === "function" ? await build() : build, c.req.path));
    const res = await handleRequest(
      c.req.raw,
      requestContext({
        services,
        user: c.get("user"),
        sessionToken: c.get("sessionToken"),
        cspNonce: c.get("secureHeadersNonce") ?? "",
        lang: c.get("lang"),
        ...requestOrigin(c, config),
      }),
    );
    // Pages and their `.data` are made for whoever asked: no browser or proxy keeps them unless a route says so.
    if (res.headers.has("Cache-Control")) return res;
    return withHeader(res, "Cache-Control", "private, no-store");
  });

  return app;
}

/**
 * Which part of an address holds what no link of this app has: a control character (NUL, CR, LF, tab ...) or
 * a percent escape that does not decode, in the path or in a query name or value. Null when it is clean.
 */
export function badPart(href: string): "path" | "query" | null {
  const url = new URL(href);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return "path";
  }
  if (hasControlCharacters(path, { lineBreaks: false })) return "path";
  if (!url.search) return null;
  for (const part of url.search.slice(1).split("&")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part.replace(/\+/g, " "));
    } catch {
      return "query";
    }
    if (hasControlCharacters(decoded, { lineBreaks: false })) return "query";
  }
  return null;
}

/**
 * The answer with one header set. In place, so a page React finished stays one buffer (app/entry.server.tsx) rather
 * than a stream read again; a copy when its headers cannot change (`Response.redirect`'s, `Response.error`'s).
 */
function withHeader(res: Response, name: string, value: string): Response {
  try {
    res.headers.set(name, value);
    return res;
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    const headers = new Headers(res.headers);
    headers.set(name, value);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}

/**
 * The address a request was sent to as the browser saw it: behind a proxy that ends TLS the socket is plain
 * http, but the page (and so its Origin) was https.
 */
function sentTo(href: string, secure: boolean): string {
  const url = new URL(href);
  if (secure) url.protocol = "https:";
  return url.toString();
}
