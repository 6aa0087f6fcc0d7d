import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures.ts";
import { connectionRefused, startAppProcess, stopAll, type AppProcess } from "./app-process.ts";
import { e2eOwnPort } from "./env.ts";

/**
 * SIGTERM drains (decision 043), on the compiled server as it runs in production: what is in flight finishes, new
 * connections are refused, the process exits by itself.
 */

test.afterEach(stopAll);

const start = (n: number, env: Record<string, string> = {}) =>
  startAppProcess(e2eOwnPort(n), { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "ekc-drain-")), ...env });

/** A form post whose body is sent in two halves, the second only when `finish` is called: a slow upload in flight. */
function slowPost(port: number, pathname: string, body: string) {
  const half = Math.floor(body.length / 2);
  const req = http.request({
    host: "127.0.0.1",
    port,
    path: pathname,
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Content-Length": Buffer.byteLength(body),
      Origin: `http://127.0.0.1:${port}`,
    },
  });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on("error", reject);
  });
  req.write(body.slice(0, half));
  return { answer, finish: () => req.end(body.slice(half)) };
}

/** Waits until the server has logged `text`. */
async function logged(app: AppProcess, text: string) {
  await expect.poll(() => app.output().includes(text), { timeout: 10_000 }).toBe(true);
}

test("a request in flight at SIGTERM finishes with its answer; new connections are refused; the process exits 0", async () => {
  const app = await start(0);
  const upload = slowPost(app.port, "/language", `lang=ur&redirectTo=%2Fabout&padding=${"x".repeat(4000)}`);
  // The request is under way (its headers and half its body are in) before the signal.
  await new Promise((r) => setTimeout(r, 300));
  app.proc.kill("SIGTERM");
  await logged(app, "draining: no new connections");
  expect(await connectionRefused(app.port)).toBe(true);
  expect(app.proc.exitCode).toBeNull();

  upload.finish();
  const { status, headers } = await upload.answer;
  // The language switch's own answer: back to the page, the cookie set, and the connection closed after it.
  expect(status).toBe(303);
  expect(headers.location).toBe("/about");
  expect(String(headers["set-cookie"])).toContain("lang=ur");
  expect(headers.connection).toBe("close");
  expect(await app.exited).toBe(0);
  expect(app.output()).toContain('"msg":"stopped"');
});

test("what is still in flight at SHUTDOWN_TIMEOUT_SECONDS is cut off and the process exits 1", async () => {
  const app = await start(1, { SHUTDOWN_TIMEOUT_SECONDS: "1" });
  const upload = slowPost(app.port, "/language", `lang=ur&padding=${"x".repeat(4000)}`);
  await new Promise((r) => setTimeout(r, 300));
  const signalled = Date.now();
  app.proc.kill("SIGTERM");
  await expect(upload.answer).rejects.toThrow(/socket hang up|ECONNRESET/);
  expect(await app.exited).toBe(1);
  expect(Date.now() - signalled).toBeLessThan(10_000);
  expect(app.output()).toContain("cut off at the shutdown timeout");
});

test("with DRAIN_DELAY_SECONDS a stopping server first goes on answering, not ready, then closes", async () => {
  const app = await start(2, { DRAIN_DELAY_SECONDS: "2" });
  const base = `http://127.0.0.1:${app.port}`;
  const signalled = Date.now();
  app.proc.kill("SIGTERM");
  await logged(app, "still answering until the balancer has seen it");
  // Not ready, so a balancer's check takes it out of rotation...
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({ status: "draining" });
  // ...while a request the balancer sent before it noticed, on a new connection, is still answered, and the
  // connection closed after it.
  const page = await fetch(`${base}/about`);
  expect(page.status).toBe(200);
  expect(page.headers.get("connection")).toBe("close");
  await page.arrayBuffer();
  expect(await connectionRefused(app.port)).toBe(false);
  // Then it stops taking connections, and exits 0.
  await expect.poll(() => connectionRefused(app.port), { timeout: 10_000 }).toBe(true);
  expect(Date.now() - signalled).toBeGreaterThanOrEqual(1900);
  expect(await app.exited).toBe(0);
});

test("Ctrl+C (SIGINT) stops at once, whatever DRAIN_DELAY_SECONDS says: a person at a terminal, no balancer", async () => {
  const app = await start(3, { DRAIN_DELAY_SECONDS: "30" });
  const signalled = Date.now();
  app.proc.kill("SIGINT");
  expect(await app.exited).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(10_000);
  expect(app.output()).not.toContain("still answering");
});
