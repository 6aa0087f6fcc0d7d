/**
 * Soak test: starts the production server (as `npm start` does) on loopback with demo data, drives mixed
 * traffic for a few minutes, prints the server's resident memory (VmRSS from /proc) as it goes, then stops the
 * server and checks that every campaign's collected amount is the sum of its approved cash donations.
 *
 *   npm run build && npm run soak                      # 3 minutes, 4 simulated users, embedded database
 *   npm run soak -- --seconds 600 --users 6            # longer and busier
 *   DATABASE_URL=postgres://... npm run soak           # on PostgreSQL (demo data is loaded into an empty one)
 *
 * Options: --seconds N (traffic time, default 180), --users N (concurrent users, default 4), --port N (default
 * 3499), --every N (seconds between memory lines, default 15), --no-uploads (donors stop at the proof form).
 * Exits 1 when a campaign does not reconcile or the server answered 5xx, 2 when it cannot start. Traffic goes to
 * 127.0.0.1 only, and stops by itself.
 */
import { randomBytes, randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { openDatabase } from "#server/db/client.ts";
import { campaigns, donations } from "#server/db/schema.ts";
import { tallyDrift } from "#server/domain/donations/tallies.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "#server/demo/seed.ts";
import { readMemory, root, sleep, startServer, stopServer, type Memory } from "#scripts/server-process.ts";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`--${name} takes a positive whole number`);
    process.exit(2);
  }
  return value;
}

const SECONDS = option("seconds", 180);
const USERS = option("users", 4);
const PORT = option("port", 3499);
const EVERY = option("every", 15);
const BASE = `http://127.0.0.1:${PORT}`;
const DATABASE_URL = process.env.DATABASE_URL || undefined;
/** Donors walk the flow but send no proof: to tell what image uploads cost in memory. */
const NO_UPLOADS = process.argv.includes("--no-uploads");

const NGOS = [DEMO_ACCOUNTS.ngo, "sahara@demo.ekchhat.pk", "umeed@demo.ekchhat.pk"];
const DONORS = [DEMO_ACCOUNTS.donor, "donor2@demo.ekchhat.pk", "donor3@demo.ekchhat.pk"];

// ---------------------------------------------------------------------------------------------------------------
// Traffic

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)]!;
const decode = (s: string) => s.replaceAll("&amp;", "&");

const counts = { requests: 0, serverErrors: 0, uploads: 0, approvals: 0, rejections: 0, receipts: 0, signIns: 0, failures: 0 };
const serverErrorSamples: string[] = [];
/** What a few of the failed steps answered, printed at the end: a soak whose steps fail measures less than it says. */
const failureSamples: string[] = [];
function failed(what: string) {
  counts.failures += 1;
  if (failureSamples.length < 10) failureSamples.push(what);
}

class Client {
  private cookies = new Map<string, string>();

  async request(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    if (init.method === "POST") headers.set("origin", BASE);
    const res = await fetch(`${BASE}${pathname}`, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    counts.requests += 1;
    if (res.status >= 500) {
      counts.serverErrors += 1;
      if (serverErrorSamples.length < 10) serverErrorSamples.push(`${init.method ?? "GET"} ${pathname} → ${res.status}`);
    }
    return res;
  }

  async text(pathname: string): Promise<string> {
    const res = await this.request(pathname);
    return res.text();
  }

  async post(pathname: string, body: FormData | URLSearchParams): Promise<Response> {
    const res = await this.request(pathname, { method: "POST", body });
    await res.arrayBuffer();
    return res;
  }

  async signIn(role: "ngo" | "donor", email: string): Promise<boolean> {
    this.cookies.clear();
    const res = await this.post(`/${role}_signin`, new URLSearchParams({ email, password: DEMO_PASSWORD, redirectTo: "" }));
    counts.signIns += 1;
    return res.status === 302 && this.cookies.size > 0;
  }

  get signedIn() {
    return this.cookies.size > 0;
  }
}

const links = (html: string, prefix: string) =>
  [...html.matchAll(new RegExp(`href="(${prefix.replace(/[?]/g, "\\?")}[^"]*)"`, "g"))].map((m) => decode(m[1]!));
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/** Photos and screenshots of the sizes people send: a 12 MP phone photo, a smaller photo, phone screenshots. */
async function makeImages(): Promise<Array<{ bytes: Uint8Array; name: string; type: string }>> {
  const noise = (w: number, h: number) => sharp(randomBytes(w * h * 3), { raw: { width: w, height: h, channels: 3 } });
  const out: Array<{ bytes: Uint8Array; name: string; type: string }> = [];
  for (let i = 0; i < 2; i += 1) {
    out.push({
      bytes: await noise(252, 189).resize(4032, 3024, { kernel: "cubic" }).jpeg({ quality: 85 }).toBuffer(),
      name: `IMG_${i}.jpg`,
      type: "image/jpeg",
    });
    out.push({
      bytes: await noise(100, 75).resize(1600, 1200, { kernel: "cubic" }).jpeg({ quality: 80 }).toBuffer(),
      name: `photo_${i}.jpg`,
      type: "image/jpeg",
    });
    out.push({
      bytes: await noise(108, 234).resize(1080, 2340, { kernel: "nearest" }).png().toBuffer(),
      name: `Screenshot_${i}.png`,
      type: "image/png",
    });
  }
  return out;
}

type Images = Awaited<ReturnType<typeof makeImages>>;

async function publicPages(c: Client, slugs: string[]) {
  const south = 23 + Math.random() * 6;
  const west = 60 + Math.random() * 8;
  const pages = [
    "/",
    "/campaigns",
    "/comp_camp",
    "/about",
    "/ngo",
    "/donor",
    `/api/map?south=${south.toFixed(2)}&west=${west.toFixed(2)}&north=${(south + 8).toFixed(2)}&east=${(west + 10).toFixed(2)}&zoom=${randomInt(4, 12)}`,
  ];
  if (slugs.length) pages.push(`/campaign/${pick(slugs)}`);
  for (let i = 0; i < 3; i += 1) await c.text(pick(pages));
}

/** A cash gift through the real forms: /donate1 → /donate2 → /donate3 (proof with a screenshot) → /donate4. */
async function give(c: Client, images: Images, slugs: Set<string>) {
  if (!c.signedIn || randomInt(5) === 0) await c.signIn("donor", pick(DONORS));
  const campaignLinks = links(await c.text(`/donate1${randomInt(3) === 0 ? "?page=2" : ""}`), "/donate2?");
  if (!campaignLinks.length) return;
  let pay = await c.text(pick(campaignLinks));
  for (const s of campaignLinks) slugs.add(new URLSearchParams(s.split("?")[1]).get("campaign")!);
  let proofLinks = links(pay, "/donate3?");
  if (!proofLinks.length) {
    const partners = links(pay, "/donate2?").filter((l) => l.includes("ngo="));
    if (!partners.length) return;
    pay = await c.text(pick(partners));
    proofLinks = links(pay, "/donate3?");
    if (!proofLinks.length) return;
  }
  const proofUrl = pick(proofLinks);
  const form = await c.text(proofUrl);
  const fields = ["campaign", "ngo", "method", "idempotencyKey"].map((n) => [n, hidden(form, n)] as const);
  if (fields.some(([, v]) => !v) || NO_UPLOADS) return;
  const body = new FormData();
  for (const [n, v] of fields) body.set(n, v!);
  body.set("phone", "0321" + String(randomInt(1_000_000, 9_999_999)));
  body.set("amount", String(randomInt(50, 500)));
  body.set("transactionId", randomBytes(6).toString("hex").toUpperCase());
  const image = pick(images);
  body.set("screenshot", new File([new Uint8Array(image.bytes)], image.name, { type: image.type }));
  const res = await c.post(proofUrl, body);
  const location = res.headers.get("location");
  if (res.status === 302 && location?.includes("/donate4?donation=")) {
    counts.uploads += 1;
    await c.text(new URL(location, BASE).pathname + new URL(location, BASE).search);
  } else {
    failed(`proof ${proofUrl} → ${res.status} ${location ?? ""}`);
  }
}

/** An NGO opens its queue and decides up to three waiting donations (most approved, some disapproved). */
async function review(c: Client) {
  if (!c.signedIn || randomInt(5) === 0) await c.signIn("ngo", pick(NGOS));
  const queue = await c.text("/apps");
  const ids = [...new Set(links(queue, "/apps?view=").map((l) => new URLSearchParams(l.split("?")[1]).get("view")!))].slice(0, 3);
  for (const id of ids) {
    const view = await c.text(`/apps?view=${id}`);
    if (!view.includes('name="intent" value="approve"')) continue;
    const approve = randomInt(10) > 0;
    // The round the decision answers (decision 025): a decision on a round already answered is refused.
    const body = new URLSearchParams({ intent: approve ? "approve" : "reject", donationId: id, round: hidden(view, "round") ?? "0" });
    if (!approve) body.set("reason", "The transaction ID does not match our statement.");
    const res = await c.post(`/apps?view=${id}`, body);
    if (res.status === 302) counts[approve ? "approvals" : "rejections"] += 1;
    else failed(`${approve ? "approve" : "disapprove"} ${id} → ${res.status}`);
  }
  await c.text(pick(["/donHistory", "/donHistory?status=approved", "/ngo_home", "/campaigns"]));
}

/** A donor's history and one of its PDF receipts. */
async function receipts(c: Client) {
  if (!c.signedIn || randomInt(5) === 0) await c.signIn("donor", pick(DONORS));
  const history = await c.text("/dvh");
  const receiptLinks = links(history, "/receipts/");
  if (!receiptLinks.length) return;
  const res = await c.request(pick(receiptLinks));
  const pdf = Buffer.from(await res.arrayBuffer());
  if (res.status === 200 && pdf.subarray(0, 5).toString() === "%PDF-") counts.receipts += 1;
  else failed(`receipt → ${res.status}`);
}

async function user(id: number, images: Images, slugs: Set<string>, until: number) {
  // Each user keeps one donor session and one NGO session, as two browser tabs would.
  const donor = new Client();
  const ngo = new Client();
  const visitor = new Client();
  while (Date.now() < until) {
    const roll = randomInt(100);
    try {
      if (roll < 35) await publicPages(visitor, [...slugs]);
      else if (roll < 65) await give(donor, images, slugs);
      else if (roll < 85) await review(ngo);
      else await receipts(donor);
    } catch (err) {
      failed(`user ${id}: ${String(err)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function reconcile(dataDir: string): Promise<boolean> {
  const database = await openDatabase({ url: DATABASE_URL, dataDir });
  try {
    const approvedSum = sql`coalesce(sum(${donations.amount}) filter (where ${donations.status} = 'approved' and ${donations.kind} = 'cash'), 0)`;
    const rows = await database.db
      .select({
        title: campaigns.title,
        status: campaigns.status,
        collected: sql<number>`${campaigns.collectedAmount}`.mapWith(Number),
        approved: sql<number>`${approvedSum}`.mapWith(Number),
        pending: sql<number>`count(${donations.id}) filter (where ${donations.status} = 'pending')`.mapWith(Number),
      })
      .from(campaigns)
      .leftJoin(donations, eq(donations.campaignId, campaigns.id))
      .groupBy(campaigns.id)
      .orderBy(campaigns.title);
    console.log("\nReconciliation: collected_amount against the sum of approved cash donations");
    let ok = true;
    for (const r of rows) {
      const good = r.collected === r.approved;
      ok &&= good;
      console.log(
        `  ${good ? "ok      " : "MISMATCH"} ${r.title.padEnd(40).slice(0, 40)} ${r.status.padEnd(9)} collected ${String(r.collected).padStart(9)}  approved ${String(r.approved).padStart(9)}  pending ${r.pending}`,
      );
    }
    console.log(ok ? `  all ${rows.length} campaigns reconcile` : "  RECONCILIATION FAILED");
    // The kept tallies (decision 044) against a fresh count of the donations.
    const drift = await tallyDrift(database.db);
    for (const line of drift) console.log(`  TALLY MISMATCH ${line}`);
    console.log(drift.length === 0 ? "  the donation tallies equal a fresh count" : "  TALLIES DRIFTED");
    return ok && drift.length === 0;
  } finally {
    await database.close();
  }
}

async function main() {
  const buildDir = path.resolve(root, process.env.BUILD_DIR || "build");
  if (!fs.existsSync(path.join(buildDir, "server/index.js"))) {
    console.error(`No production build in ${buildDir}: run \`npm run build\` first.`);
    process.exit(2);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ekc-soak-"));
  console.log(
    `Soak: ${SECONDS} s of traffic from ${USERS} users on ${BASE}, ${DATABASE_URL ? "PostgreSQL" : "embedded database"}, data in ${dataDir}`,
  );
  const images = await makeImages();
  const started = Date.now();
  const server = await startServer({ port: PORT, dataDir, databaseUrl: DATABASE_URL }).catch((err: Error) => {
    console.error(err.message);
    process.exit(2);
  });
  // Start-up (migrations, demo data) leaves a peak behind it; "start" is the server settled, before traffic.
  await sleep(5000);
  const first = readMemory(server.pid)!;
  console.log(
    `server pid ${server.pid} up in ${((Date.now() - started) / 1000).toFixed(1)} s; node ${process.version}, MALLOC_ARENA_MAX=${
      fs
        .readFileSync(`/proc/${server.pid}/environ`, "utf8")
        .split("\0")
        .find((e) => e.startsWith("MALLOC_ARENA_MAX="))
        ?.split("=")[1] ?? "(unset)"
    }`,
  );
  const line = (label: string, m: Memory | null) =>
    console.log(
      `${label.padEnd(10)} rss ${String(m?.rssMb ?? "?").padStart(5)} MB  peak ${String(m?.hwmMb ?? "?").padStart(5)} MB  threads ${String(m?.threads ?? "?").padStart(3)}  requests ${counts.requests}  5xx ${counts.serverErrors}  uploads ${counts.uploads}  approved ${counts.approvals}  disapproved ${counts.rejections}  receipts ${counts.receipts}  sign-ins ${counts.signIns}  failed ${counts.failures}`,
    );
  line("start", first);
  let peak = first.rssMb;
  const trafficStart = Date.now();
  const until = trafficStart + SECONDS * 1000;
  const slugs = new Set<string>();
  const ticker = setInterval(() => {
    const m = readMemory(server.pid);
    if (m) peak = Math.max(peak, m.rssMb);
    line(`${Math.round((Date.now() - trafficStart) / 1000)} s`, m);
  }, EVERY * 1000);
  const sampler = setInterval(() => {
    const m = readMemory(server.pid);
    if (m) peak = Math.max(peak, m.rssMb);
  }, 1000);
  await Promise.all(Array.from({ length: USERS }, (_, i) => user(i + 1, images, slugs, until)));
  clearInterval(ticker);
  const end = readMemory(server.pid);
  line("end", end);
  await sleep(10_000);
  const idle = readMemory(server.pid);
  clearInterval(sampler);
  line("idle 10 s", idle);
  console.log(
    `\nRSS start ${first.rssMb} MB, peak during traffic ${peak} MB, end ${end?.rssMb} MB, after 10 s idle ${idle?.rssMb} MB (VmHWM ${idle?.hwmMb} MB, includes start-up)`,
  );
  await stopServer(server.child, server.pid);
  const reconciled = await reconcile(dataDir);
  if (counts.serverErrors)
    console.log(
      `\n${counts.serverErrors} answers were 5xx, for example:\n  ${serverErrorSamples.join("\n  ")}\n(server log: ${server.logFile})`,
    );
  if (failureSamples.length) console.log(`\n${counts.failures} steps failed, for example:\n  ${failureSamples.join("\n  ")}`);
  if (reconciled && !counts.serverErrors) fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(reconciled && !counts.serverErrors ? 0 : 1);
}

await main();
