import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Db } from "#server/db/client.ts";
import * as schema from "#server/db/schema.ts";
import { donations, ngoProfiles } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { makeCampaign, makeProofPng, makeUser } from "#tests/helpers/factories.ts";
import { startS3Server, type TestS3Server } from "#tests/helpers/s3-server.ts";
import { selfSignedPem } from "#tests/helpers/tls.ts";
import { expect, test } from "./fixtures.ts";
import { startAppProcess, stopAll, type AppProcess } from "./app-process.ts";
import { e2eBaseDatabaseUrl, e2eOwnPort, e2ePort } from "./env.ts";

/**
 * Two app servers on one PostgreSQL database and one S3 bucket, behind HAProxy on loopback (round robin, no
 * stickiness): a gift is uploaded through one and approved through the other, its receipt downloads from both,
 * a session made on one holds on the other, and a sign-in limit counts attempts made on both (decision 043).
 * Every answer names its server (X-Served-By), so each step proves which one served it.
 */

const [portA, portB, portLb, portTls] = [e2eOwnPort(2), e2eOwnPort(3), e2eOwnPort(4), e2eOwnPort(5)];
const lb = `http://127.0.0.1:${portLb}`;
/** HAProxy ending TLS, as the deployment does (deploy/haproxy.cfg): the servers behind it are sent plain http. */
const lbTls = `https://127.0.0.1:${portTls}`;
const dbName = `ekc_e2e_${e2ePort()}_lb`;
const ATTEMPTS_PER_ACCOUNT = 3;
const METRICS_TOKEN = "balancer-test-metrics-token";
/**
 * deploy/haproxy.cfg's own rules for each request's id and for keeping metrics off the public address, read from the
 * file the deployment uses, so that what is tested here is what is shipped.
 */
const FRONTEND_RULES = fs
  .readFileSync(new URL("../../deploy/haproxy.cfg", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => /^\s+(unique-id-format |http-request set-header X-Request-Id |http-request deny .*\/metrics)/.test(line));

let s3: TestS3Server;
const servers: Partial<Record<"a" | "b", AppProcess>> = {};
let haproxy: ChildProcess | undefined;
let pool: pg.Pool;
let db: Db;

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  expect(FRONTEND_RULES, "deploy/haproxy.cfg's request id and /metrics rules").toHaveLength(3);
  const admin = new pg.Client({ connectionString: e2eBaseDatabaseUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(e2eBaseDatabaseUrl());
  url.pathname = `/${dbName}`;

  s3 = await startS3Server();
  const env = (name: string) => ({
    ...s3.env,
    SERVER_NAME: name,
    METRICS_TOKEN,
    DATABASE_URL: url.toString(),
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `ekc-lb-${name}-`)),
    // Links and the Origin check name the balancer's address, as they would a site's public one.
    APP_URL: lb,
    TRUST_PROXY: "1",
    AUTH_LIMIT_PER_ACCOUNT: String(ATTEMPTS_PER_ACCOUNT),
    // Longer than HAProxy takes to see a stopping server is not ready (two checks 0.5 s apart, below).
    DRAIN_DELAY_SECONDS: "3",
  });
  // One after the other: the first one migrates the empty database.
  servers.a = await startAppProcess(portA, env("a"));
  servers.b = await startAppProcess(portB, env("b"));

  const haproxyDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-haproxy-"));
  const config = path.join(haproxyDir, "haproxy.cfg");
  // A certificate of the run's own for the TLS end (the browser is told to take it).
  const pem = selfSignedPem(haproxyDir, "127.0.0.1");
  fs.writeFileSync(
    config,
    [
      "defaults",
      "  mode http",
      "  timeout connect 2s",
      "  timeout client 30s",
      "  timeout server 30s",
      "  option forwardfor",
      "frontend web",
      `  bind 127.0.0.1:${portLb}`,
      ...FRONTEND_RULES,
      "  default_backend app",
      "frontend tls",
      `  bind 127.0.0.1:${portTls} ssl crt ${pem}`,
      "  http-request set-header X-Forwarded-Proto https",
      ...FRONTEND_RULES,
      "  default_backend app",
      "backend app",
      "  balance roundrobin",
      // HTTP/1.1 with a Host, as a browser asks: the app builds its addresses from it.
      "  option httpchk",
      "  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host 127.0.0.1",
      `  server a 127.0.0.1:${portA} check inter 500 fall 2 rise 2`,
      `  server b 127.0.0.1:${portB} check inter 500 fall 2 rise 2`,
      "",
    ].join("\n"),
  );
  // Debian puts it in /usr/sbin, which a user's PATH may not hold.
  const binary = fs.existsSync("/usr/sbin/haproxy") ? "/usr/sbin/haproxy" : "haproxy";
  haproxy = spawn(binary, ["-f", config, "-db"], { stdio: ["ignore", "ignore", "pipe"] });
  let haproxyOutput = "";
  haproxy.stderr!.on("data", (d: Buffer) => (haproxyOutput += d.toString()));
  // Both servers in rotation: their names both come back.
  let seen = "";
  const namesSeen = async () => {
    try {
      const names = await Promise.all([1, 2, 3, 4].map(() => servedBy(fetch(`${lb}/healthz`))));
      seen = names.join(",");
      return new Set(names).size;
    } catch {
      return 0; // HAProxy not listening yet
    }
  };
  await expect
    .poll(namesSeen, { timeout: 20_000, message: "both servers in rotation" })
    .toBe(2)
    .catch((err: unknown) => {
      throw new Error(`${String(err)}\nanswered by: ${seen}\nHAProxy: ${haproxyOutput}`);
    });

  pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  db = drizzle(pool, { schema }) as unknown as Db;
});

test.afterAll(async () => {
  haproxy?.kill("SIGTERM");
  stopAll();
  await pool?.end();
  await s3?.stop();
});

async function servedBy(answer: Promise<Response>): Promise<string> {
  const res = await answer;
  await res.arrayBuffer();
  return res.headers.get("X-Served-By") ?? "none";
}

/**
 * Sends `request` through the balancer so that server `name` answers it. With one client, round robin alternates:
 * one cheap request tells which server answered last, so the next goes to the other. The caller asserts X-Served-By.
 */
async function via(name: "a" | "b", request: () => Promise<Response>): Promise<Response> {
  if ((await servedBy(fetch(`${lb}/healthz`))) === name) await servedBy(fetch(`${lb}/healthz`));
  const res = await request();
  expect(res.headers.get("X-Served-By"), "the server that answered").toBe(name);
  return res;
}

const post = (pathname: string, body: FormData | URLSearchParams, cookie?: string) =>
  fetch(`${lb}${pathname}`, { method: "POST", body, redirect: "manual", headers: { origin: lb, ...(cookie ? { cookie } : {}) } });
const get = (pathname: string, cookie: string) => fetch(`${lb}${pathname}`, { redirect: "manual", headers: { cookie } });

/** An NGO taking JazzCash, a campaign of its, and a gift's proof for it as the payment page sends one. */
async function giftToMake(amount: string) {
  const ngo = await makeUser(db, "ngo");
  await db.update(ngoProfiles).set({ jazzcashNumber: "03001112223" }).where(eq(ngoProfiles.userId, ngo.id));
  const campaign = await makeCampaign(db, ngo.id);
  const chosen = { campaign: campaign.slug, ngo: ngo.id, method: "jazzcash" };
  return {
    ngo,
    /** The payment page's address: `/donate3?campaign=…&ngo=…&method=jazzcash`. */
    page: `/donate3?${new URLSearchParams(chosen)}`,
    fields: {
      ...chosen,
      idempotencyKey: randomUUID(),
      phone: "03001234567",
      amount,
      transactionId: `TX${randomUUID().slice(0, 8).toUpperCase()}`,
    },
    screenshot: await makeProofPng(),
  };
}

test("a gift crosses the two servers: uploaded on a, approved on b, its receipt from both; the session holds on both", async () => {
  const gift2500 = await giftToMake("2500");
  const { ngo } = gift2500;
  const donor = await makeUser(db, "donor");

  // The donor signs in on b ...
  const signedIn = await via("b", () => post("/donor_signin", new URLSearchParams({ email: donor.email, password: donor.password })));
  expect(signedIn.status).toBe(302);
  const cookie = /^[^;]+/.exec(signedIn.headers.get("set-cookie") ?? "")![0];
  expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
  // ... and the session b made opens the donor's home on a.
  expect((await via("a", () => get("/donor_home", cookie))).status).toBe(200);

  // The proof goes up through a: its screenshot lands in the shared bucket.
  const form = new FormData();
  for (const [k, v] of Object.entries(gift2500.fields)) form.set(k, v);
  form.set("screenshot", new Blob([new Uint8Array(gift2500.screenshot)], { type: "image/png" }), "proof.png");
  const uploaded = await via("a", () => post(gift2500.page, form, cookie));
  expect(uploaded.status).toBe(302);
  const donationId = new URL(uploaded.headers.get("location")!, lb).searchParams.get("donation")!;
  const [gift] = await db.select().from(donations).where(eq(donations.id, donationId));
  expect(gift?.status).toBe("pending");

  // The NGO sees the screenshot through b, which never had it on a disk of its own.
  const ngoCookie = `${SESSION_COOKIE}=${(await createSession(db, ngo.id)).token}`;
  const screenshot = await via("b", () => get(`/files/${gift!.proofKey}`, ngoCookie));
  expect(screenshot.status).toBe(200);
  expect(screenshot.headers.get("content-type")).toBe("image/webp");

  // ... and approves the gift through b.
  const decided = await via("b", () => post("/apps", new URLSearchParams({ intent: "approve", donationId, round: "0" }), ngoCookie));
  expect(decided.status).toBe(302);
  const [approved] = await db.select().from(donations).where(eq(donations.id, donationId));
  expect(approved?.status).toBe("approved");

  // The receipt downloads from either.
  for (const name of ["a", "b"] as const) {
    const receipt = await via(name, () => get(`/receipts/${donationId}`, cookie));
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await receipt.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  }
});

test("each request gets the balancer's id, which the server logs and answers; metrics are only had from a server itself", async () => {
  // A form from another site: refused, and the refusal logged (a line with the request's id).
  const res = await via("a", () =>
    fetch(`${lb}/donor_signin`, {
      method: "POST",
      body: new URLSearchParams({ email: "x@example.com" }),
      headers: { origin: "https://elsewhere.example", "X-Request-Id": "chosen-by-the-client" },
    }),
  );
  await res.arrayBuffer();
  expect(res.status).toBe(403);
  const id = res.headers.get("X-Request-Id")!;
  // HAProxy's, in hexadecimal (the client's own replaced), within what the app takes as an id (decision 043).
  expect(id).toMatch(/^[0-9A-F]{30,64}$/);
  await expect
    .poll(() => servers.a!.output().includes(`"requestId":"${id}"`), { message: "server a logged the refusal with the id" })
    .toBe(true);

  const auth = { authorization: `Bearer ${METRICS_TOKEN}` };
  expect((await fetch(`${lb}/metrics`, { headers: auth })).status).toBe(404);
  expect((await fetch(`http://127.0.0.1:${portA}/metrics`, { headers: auth })).status).toBe(200);
});

test("a sign-in limit counts the attempts made on both servers", async () => {
  const donor = await makeUser(db, "donor");
  const attempt = (password: string) => post("/donor_signin", new URLSearchParams({ email: donor.email, password }));
  const served: string[] = [];
  for (let i = 0; i < ATTEMPTS_PER_ACCOUNT; i += 1) {
    const res = await via(i % 2 === 0 ? "a" : "b", () => attempt("not-the-password"));
    expect(res.status).not.toBe(429);
    served.push(res.headers.get("X-Served-By")!);
  }
  expect(new Set(served)).toEqual(new Set(["a", "b"]));
  // Over the limit on each server, even with the right password.
  for (const name of ["a", "b"] as const) {
    expect((await via(name, () => attempt(donor.password))).status).toBe(429);
  }
});

test.describe("behind HAProxy ending TLS, as deployed", () => {
  // The browser's pages are https, the servers are sent http: every form of the site once answered a bare 400 here
  // (React Router's own origin check, decision 053). The donor signs in through the page, with the page's
  // script and without it. (That a session holds on both servers is the first test's.)
  for (const javaScriptEnabled of [true, false]) {
    test(`a donor signs in through the page ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({ browser }) => {
      const donor = await makeUser(db, "donor");
      const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled, baseURL: lbTls });
      try {
        const page = await context.newPage();
        await page.goto("/donor_signin");
        const submit = page.getByRole("button", { name: "Log In" });
        // With JavaScript, the form goes once React has taken the page: as React Router's fetch of `.data`.
        if (javaScriptEnabled)
          await expect.poll(() => submit.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps")))).toBe(true);
        const posted: string[] = [];
        page.on("request", (r) => r.method() === "POST" && posted.push(new URL(r.url()).pathname));
        await page.getByLabel("Email").fill(donor.email);
        await page.getByLabel("Password", { exact: true }).fill(donor.password);
        await submit.click();
        await expect(page).toHaveURL(/\/donor_home$/);
        expect(posted).toEqual([javaScriptEnabled ? "/donor_signin.data" : "/donor_signin"]);
        const session = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
        expect(session?.secure, "the session cookie is Secure behind https").toBe(true);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        expect((await page.reload())?.status()).toBe(200);
        if (javaScriptEnabled) return;
        // The largest form, a gift's proof (multipart, with its picture), as the page without JavaScript sends it,
        // through the same TLS end: its streamed body goes on with the request at the https address.
        const gift = await giftToMake("1500");
        const uploaded = await context.request.post(gift.page, {
          headers: { origin: lbTls },
          maxRedirects: 0,
          multipart: { ...gift.fields, screenshot: { name: "proof.png", mimeType: "image/png", buffer: gift.screenshot } },
        });
        expect(uploaded.status()).toBe(302);
        const donationId = new URL(uploaded.headers().location!, lbTls).searchParams.get("donation")!;
        const [made] = await db.select().from(donations).where(eq(donations.id, donationId));
        expect(made?.status).toBe("pending");
        expect(made?.amount).toBe(1500);
      } finally {
        await context.close();
      }
    });
  }
});

test("a server stopped under load (a rolling deploy) costs no request: it leaves the rotation before it closes", async () => {
  // Four visitors keep loading pages through the balancer while server a is told to stop, as a deploy does.
  const answers: { status: number; by: string; at: number }[] = [];
  const failures: string[] = [];
  let loading = true;
  const visitor = async () => {
    while (loading) {
      try {
        const res = await fetch(`${lb}/`);
        await res.arrayBuffer();
        answers.push({ status: res.status, by: res.headers.get("X-Served-By") ?? "none", at: Date.now() });
      } catch (err) {
        failures.push(String(err));
      }
    }
  };
  const visitors = [visitor(), visitor(), visitor(), visitor()];
  await expect.poll(() => new Set(answers.map((a) => a.by)).size, { message: "both servers answering" }).toBe(2);
  const a = servers.a!;
  a.proc.kill("SIGTERM");
  expect(await a.exited, `server a's exit code\n${a.output().slice(-2000)}`).toBe(0);
  const stoppedAt = Date.now();
  await new Promise((r) => setTimeout(r, 1000));
  loading = false;
  await Promise.all(visitors);

  expect(failures).toEqual([]);
  const statuses = answers.reduce<Record<number, number>>((n, x) => ({ ...n, [x.status]: (n[x.status] ?? 0) + 1 }), {});
  expect(statuses, "every page answered 200").toEqual({ 200: answers.length });
  expect(answers.filter((x) => x.at > stoppedAt).every((x) => x.by === "b")).toBe(true);
  expect(answers.length).toBeGreaterThan(20);
});
