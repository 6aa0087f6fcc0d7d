import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeProofPng } from "#tests/helpers/factories.ts";
import { expect, test } from "./fixtures.ts";
import { startAppProcess, stopAll } from "./app-process.ts";
import { e2eOwnPort } from "./env.ts";

/**
 * The embedded default's resident memory under a mix of the work that grows it (decision 045): pages, sign-ins
 * (argon2id, 19 MiB each, in the pool threads), PDF receipts (pdfkit, HarfBuzz's WebAssembly) and proof uploads
 * (sharp). The five-minute soak (`npm run soak`) is the measurement; this is its quick guard, on the compiled server
 * started as `npm start` starts it (app-process.ts).
 */

/**
 * Tighter than the 450 MB: 315–320 MB measured here with 4 MB semi-spaces, 333–347 MB with 16 MB (decision 045,
 * session 18), 423 MB with PGlite's default buffers (decision 045). The demo
 * seed re-makes its ledger's invoice PDFs in a child process that exits (decision 049): while they were re-made in the
 * server process (pdf.js and @napi-rs/canvas kept resident), this ended at 428–431 MB.
 */
const LIMIT_MB = 400;
/** The demo donor (server/demo/seed.ts, whose JSON imports Playwright's loader does not take; the README lists it). */
const DONOR = { email: "donor@demo.ekchhat.pk", password: "EkChhat-demo-2026" };
const ROUNDS = 12;

test.describe.configure({ timeout: 300_000 });
test.afterEach(stopAll);

const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const decode = (s: string) => s.replaceAll("&amp;", "&");
const links = (html: string, prefix: string) =>
  [...html.matchAll(new RegExp(`href="(${prefix.replace(/[?]/g, "\\?")}[^"]*)"`, "g"))].map((m) => decode(m[1]!));
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

test("the embedded server stays under 400 MB resident through pages, sign-ins, receipts and uploads", async () => {
  const port = e2eOwnPort(0);
  const base = `http://127.0.0.1:${port}`;
  const app = await startAppProcess(
    port,
    {
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "ekc-memory-")),
      SEED_DEMO: "true",
      AUTH_LIMIT_PER_IP: "100000",
      AUTH_LIMIT_PER_ACCOUNT: "100000",
    },
    180_000,
  );
  let cookie = "";
  let answers = 0;
  const request = async (pathname: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookie) headers.set("cookie", cookie);
    if (init.method === "POST") headers.set("origin", base);
    const res = await fetch(`${base}${pathname}`, { ...init, headers, redirect: "manual" });
    const set = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
    if (set.length) cookie = set.join("; ");
    expect(res.status, `${init.method ?? "GET"} ${pathname}`).toBeLessThan(500);
    answers += 1;
    return res;
  };
  const text = async (pathname: string) => (await request(pathname)).text();
  let uploads = 0;
  let receipts = 0;
  let receipt: string | undefined;

  for (let round = 0; round < ROUNDS; round += 1) {
    for (const page of ["/", "/campaigns", "/comp_camp", "/api/map?south=23&west=60&north=37&east=78&zoom=5"]) await text(page);
    cookie = "";
    const signIn = await request("/donor_signin", {
      method: "POST",
      body: new URLSearchParams({ ...DONOR, redirectTo: "" }),
    });
    expect(signIn.status).toBe(302);
    // A receipt of one of the donor's approved gifts, a PDF: found on the history's first page before the gifts
    // below (pending, newest first) push the approved ones off it.
    const history = await text("/dvh");
    receipt ??= links(history, "/receipts/")[0];
    if (receipt) {
      const res = await request(receipt);
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
      receipts += 1;
    }
    // A gift with its proof, through the forms: campaign, payment method, proof (a new picture each time: the same
    // one twice is refused as a duplicate proof).
    const campaign = links(await text("/donate1"), "/donate2?")[round % 4];
    if (!campaign) continue;
    let pay = await text(campaign);
    // A campaign run with partners asks which NGO first.
    const partner = links(pay, "/donate2?").find((l) => l.includes("ngo="));
    if (!links(pay, "/donate3?").length && partner) pay = await text(partner);
    const proofUrl = links(pay, "/donate3?")[0];
    if (!proofUrl) continue;
    const form = await text(proofUrl);
    const body = new FormData();
    for (const name of ["campaign", "ngo", "method", "idempotencyKey"]) body.set(name, hidden(form, name) ?? "");
    body.set("phone", "03211234567");
    body.set("amount", String(100 + round));
    body.set("transactionId", `MEM${round}${Date.now()}`);
    body.set("screenshot", new File([new Uint8Array(await makeProofPng(round + 1))], "proof.png", { type: "image/png" }));
    const res = await request(proofUrl, { method: "POST", body });
    await res.arrayBuffer();
    if (res.status === 302 && res.headers.get("location")?.includes("/donate4")) uploads += 1;
  }

  // The work was done, so the figure means something.
  expect(uploads).toBeGreaterThan(ROUNDS / 2);
  expect(receipts).toBeGreaterThan(ROUNDS / 2);
  const rss = rssMb(app.proc.pid!);
  console.log(`memory.spec: ${answers} answers, ${uploads} uploads, ${receipts} receipts; resident ${Math.round(rss)} MB`);
  expect(rss).toBeLessThan(LIMIT_MB);
});
