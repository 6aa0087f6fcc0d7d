import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#server/db/client.ts";
import { ConfigError, loadConfig } from "#server/config.ts";
import { createLogger } from "#server/log.ts";
import { createMailer } from "#server/mail/mailer.ts";
import { createMetrics } from "#server/metrics.ts";
import { createLocalStorage } from "#server/storage/storage.ts";
import { createApp } from "#server/http/app.ts";
import type { Lifecycle } from "#server/http/health.ts";
import { createTestApp, loadServerBuild, signIn, type LoadedBuild } from "#tests/helpers/app.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { openTestQueue } from "#tests/helpers/queue.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";

let s: TestServices;
let loaded: LoadedBuild;

beforeAll(async () => {
  [s, loaded] = await Promise.all([createTestServices(), loadServerBuild()]);
});
afterAll(async () => {
  await loaded?.close();
  await s?.close();
});

/** A database whose every query fails with a message that names its credentials, as a driver's error can. */
const brokenDb = (): Db =>
  new Proxy(s.db, {
    get: (target, prop, receiver) =>
      prop === "execute"
        ? () => Promise.reject(new Error("connect ECONNREFUSED postgres://ekc:s3cret-password@10.0.0.5/ekc"))
        : Reflect.get(target, prop, receiver),
  });

describe("a form sent from another site", () => {
  it("is refused with 403 in the reader's language, and changes nothing", async () => {
    const { request } = createTestApp(s, loaded.build);
    const user = await makeUser(s.db, "donor");
    const cookie = `${await signIn(s.db, user.id)}; ekc_lang=ur`;
    const body = new URLSearchParams({ lang: "en", redirectTo: "/" });
    const evil = { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" };
    const page = await request("/language", { method: "POST", body, cookie, headers: { ...evil, accept: "text/html" } });
    expect(page.status).toBe(403);
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain('lang="ur" dir="rtl"');
    expect(html).toContain("یہ فارم کسی دوسری سائٹ سے آیا تھا");
    expect(page.headers.get("set-cookie")).toBeNull();
    const plain = await request("/language", { method: "POST", body, headers: evil });
    expect(plain.status).toBe(403);
    expect(await plain.text()).toBe(
      "This form came from another site, so nothing was changed. Open the page on Ek Chhat and send it again.",
    );
  });
});

describe("health and readiness", () => {
  it("/healthz and /readyz answer 200, uncached, when the database and the file store are there", async () => {
    const { request } = createTestApp(s, loaded.build);
    for (const p of ["/healthz", "/readyz"]) {
      const res = await request(p);
      expect(res.status, p).toBe(200);
      expect(await res.json()).toEqual({ status: "ok" });
      expect(res.headers.get("Cache-Control")).toBe("no-store");
    }
  });

  it("/readyz names the database when it does not answer, without its error; /healthz still answers", async () => {
    const { request } = createTestApp({ ...s, db: brokenDb() }, loaded.build);
    const res = await request("/readyz");
    expect(res.status).toBe(503);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ status: "unavailable", failed: ["database"] });
    expect(body).not.toContain("s3cret");
    // Up, even with the database down and a session cookie sent: no lookup is made.
    const user = await makeUser(s.db, "donor");
    expect((await request("/healthz", { cookie: await signIn(s.db, user.id) })).status).toBe(200);
  });

  it("/readyz names the file store when it cannot be written", async () => {
    // A regular file where the store's folder should be: it can be neither made nor written into.
    const blocker = path.join(s.config.dataDir, "not-a-folder");
    fs.writeFileSync(blocker, "");
    const { request } = createTestApp({ ...s, storage: createLocalStorage(path.join(blocker, "files")) }, loaded.build);
    const res = await request("/readyz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable", failed: ["storage"] });
  });

  it("the local store is ready once its folder exists and can be written", async () => {
    const root = path.join(s.config.dataDir, "fresh", "files");
    await createLocalStorage(root).ready();
    expect(fs.statSync(root).isDirectory()).toBe(true);
  });

  it("/readyz answers 503 while the process drains, so a balancer stops sending it requests", async () => {
    const lifecycle: Lifecycle = { draining: false };
    const draining = createApp({ services: s, build: loaded.build, mode: "production", lifecycle });
    expect((await draining.request(`${s.config.APP_URL}/readyz`)).status).toBe(200);
    lifecycle.draining = true;
    const res = await draining.request(`${s.config.APP_URL}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "draining" });
    // Every answer now closes its connection, so the process is left with none.
    expect(res.headers.get("Connection")).toBe("close");
    expect((await draining.request(`${s.config.APP_URL}/healthz`)).status).toBe(200);
  });
});

/** The services with a logger that keeps its lines, parsed, in memory. */
function withLogLines(): { services: TestServices; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) });
  return { services: { ...s, log: createLogger("info", sink) }, lines };
}

describe("request ids", () => {
  const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it("every line logged while handling a request carries its id, in the middleware and in a loader, and the answer names it", async () => {
    const { services, lines } = withLogLines();
    const failing = {
      ...services,
      geocoder: {
        suggest: () => Promise.reject(new Error("down")),
        resolve: () => Promise.resolve(null),
        named: () => Promise.resolve(null),
      },
    };
    const { request } = createTestApp(failing, loaded.build);
    // Two at once: each keeps its own id through its awaits.
    const [refused, suggestions] = await Promise.all([
      request("/language", {
        method: "POST",
        headers: { origin: "https://evil.example", "x-request-id": "balancer-0001" },
        body: "lang=ur",
      }),
      request("/api/places?q=lah", { headers: { "x-request-id": "balancer-0002" } }),
    ]);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("X-Request-Id")).toBe("balancer-0001");
    expect(suggestions.status).toBe(200);
    expect(suggestions.headers.get("X-Request-Id")).toBe("balancer-0002");
    await new Promise((r) => setImmediate(r));
    expect(lines.find((l) => l.msg === "refused cross-origin request")?.requestId).toBe("balancer-0001");
    expect(lines.find((l) => l.msg === "place suggestions failed")?.requestId).toBe("balancer-0002");
    // Outside a request: no id.
    services.log.info("between requests");
    expect(lines.find((l) => l.msg === "between requests")).not.toHaveProperty("requestId");
  });

  it("an incoming id that breaks the pattern is replaced by a new one; without one a new one is made", async () => {
    const { request } = createTestApp(s, loaded.build);
    for (const sent of [undefined, "short", "has spaces in it", 'quote"injected', "x".repeat(65)]) {
      const res = await request("/healthz", { headers: sent ? { "x-request-id": sent } : {} });
      expect(res.headers.get("X-Request-Id"), String(sent)).toMatch(ID);
    }
    const a = await request("/healthz");
    const b = await request("/healthz");
    expect(a.headers.get("X-Request-Id")).not.toBe(b.headers.get("X-Request-Id"));
  });
});

describe("metrics", () => {
  const TOKEN = "metrics-token-0123456789abcdef";
  const withToken = () => ({ ...s, config: { ...s.config, METRICS_TOKEN: TOKEN } });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it("GET /metrics does not exist without a configured token, and needs the token when there is one", async () => {
    const metrics = createMetrics();
    expect((await createTestApp(s, loaded.build, "production").request("/metrics")).status).toBe(404);
    const { request } = createTestApp(withToken(), loaded.build);
    // createTestApp measures nothing by itself: the metrics object is the server's (main.ts) to give.
    expect((await request("/metrics", { headers: bearer(TOKEN) })).status).toBe(404);
    const app = createApp({
      services: withToken(),
      build: loaded.build,
      mode: "production",
      metrics,
    });
    const url = `${s.config.APP_URL}/metrics`;
    for (const headers of [{}, bearer("wrong-token-0123456789abcdef"), bearer(`${TOKEN}x`), { authorization: TOKEN }]) {
      const res = await app.request(url, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    }
    const res = await app.request(url, { headers: bearer(TOKEN) });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    // Node's process metrics.
    expect(text).toContain("process_cpu_user_seconds_total");
    expect(text).toContain("nodejs_heap_size_used_bytes");
    // No pool and no queue given: neither is reported.
    expect(text).not.toContain("db_pool_connections");
    expect(text).not.toContain("queue_depth");
    expect(text).not.toContain("queue_jobs");
  });

  it("counts requests by route pattern and status class, never by the address asked for", async () => {
    const metrics = createMetrics();
    const app = createApp({ services: withToken(), build: loaded.build, mode: "production", metrics });
    const get = (p: string, init?: RequestInit) => app.request(`${s.config.APP_URL}${p}`, init);
    expect((await get("/campaign/no-such-campaign-1")).status).toBe(404);
    expect((await get("/campaign/no-such-campaign-2")).status).toBe(404);
    expect((await get("/campaign/no-such-campaign-2.data")).status).toBe(404);
    expect((await get("/a/made-up/address-9f3c")).status).toBe(404);
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/about")).status).toBe(200);
    expect((await get("/language", { method: "POST", headers: { origin: "https://evil.example" } })).status).toBe(403);
    const text = await (await get("/metrics", { headers: bearer(TOKEN) })).text();
    const count = (labels: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`http_request_duration_seconds_count{${labels}} `));
      return Number(line?.split(" ")[1] ?? 0);
    };
    expect(count('method="GET",route="/campaign/:slug",status_class="4xx"')).toBe(3);
    expect(count('method="GET",route="/*",status_class="4xx"')).toBe(1);
    expect(count('method="GET",route="/healthz",status_class="2xx"')).toBe(1);
    expect(count('method="GET",route="/about",status_class="2xx"')).toBe(1);
    // Refused by a middleware before any route: one label for all such.
    expect(count('method="POST",route="(refused)",status_class="4xx"')).toBe(1);
    expect(text).not.toContain("no-such-campaign");
    expect(text).not.toContain("made-up");
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/about",status_class="2xx"\}/m);
  });

  it("reports the pool's connections and each queue's depth as their sources tell them when scraped", async () => {
    let waiting = 0;
    const metrics = createMetrics({
      poolUsage: () => ({ total: 7, idle: 3, waiting }),
      queueJobs: async () => [
        { queue: "mail", state: "created", jobs: 3 },
        { queue: "mail", state: "retry", jobs: 1 },
        { queue: "mail", state: "failed", jobs: 2 },
        { queue: "maintenance", state: "created", jobs: 0 },
      ],
    });
    waiting = 2;
    const text = await metrics.registry.metrics();
    expect(text).toContain('db_pool_connections{state="total"} 7');
    expect(text).toContain('db_pool_connections{state="idle"} 3');
    expect(text).toContain('db_pool_connections{state="waiting"} 2');
    expect(text).toContain('queue_jobs{queue="mail",state="created"} 3');
    expect(text).toContain('queue_jobs{queue="mail",state="failed"} 2');
    expect(text).toContain('queue_depth{queue="mail"} 4');
    expect(text).toContain('queue_depth{queue="maintenance"} 0');
  });

  it("shows the job queue's jobs by queue and state: a mail queued raises the mail queue's gauge", async () => {
    const queue = await openTestQueue(s);
    try {
      const mailer = createMailer({ log: s.log, queue });
      const app = createApp({
        services: withToken(),
        build: loaded.build,
        mode: "production",
        metrics: createMetrics({ queueJobs: () => queue.counts() }),
      });
      const gauge = async (labels: string) => {
        const text = await (await app.request(`${s.config.APP_URL}/metrics`, { headers: bearer(TOKEN) })).text();
        const line = text.split("\n").find((l) => l.startsWith(`${labels} `));
        return Number(line?.split(" ")[1]);
      };
      const created = await gauge('queue_jobs{queue="mail",state="created"}');
      const depth = await gauge('queue_depth{queue="mail"}');
      expect(created).toBeGreaterThanOrEqual(0);
      // Every queue and state is reported, zeros too.
      expect(await gauge('queue_jobs{queue="mail",state="failed"}')).toBe(0);
      await mailer.send(s.db, { to: "metrics@test.ekchhat.pk", subject: "Receipt", body: "Thank you" });
      expect(await gauge('queue_jobs{queue="mail",state="created"}')).toBe(created + 1);
      expect(await gauge('queue_depth{queue="mail"}')).toBe(depth + 1);
    } finally {
      await queue.stop();
    }
  });

  it("a token shorter than 16 characters stops the server at start-up", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(ConfigError);
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
  });
});
