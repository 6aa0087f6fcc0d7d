import fc from "fast-check";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LANG_COOKIE } from "#shared/i18n/i18n.ts";
import { ROLES, type Role } from "#shared/roles.ts";
import { fileKindEnum, users, volunteerPositions } from "#server/db/schema.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import {
  makeApplication,
  makeCampaign,
  makeCashDonation,
  makePickup,
  makePosition,
  makeUser,
  TEST_PASSWORD,
} from "#tests/helpers/factories.ts";
import {
  changedTables,
  createTestApp,
  databaseFingerprint,
  loadServerBuild,
  signIn,
  type LoadedBuild,
  type TestApp,
} from "#tests/helpers/app.ts";
import { routeInventory, type RouteInfo } from "#tests/helpers/route-inventory.ts";

/**
 * The "How we will know" test of the hardening issue (#11): generated malformed requests to every form action
 * and every page's query parameters and path segments. For each one: never a 5xx (nor an error logged), a
 * refusal (4xx, or the page again with a field message), a redirect only to a path of this site, and nothing
 * changed in the database. Every generated request carries at least one "poison" (a control character in a
 * field the app reads, in a path segment or in a query parameter, or a body that cannot be read), so no
 * generated request is a valid one that may rightly change something.
 *
 * Fixed seed and small run counts keep it fast; set FUZZ_RUNS=<n> to try harder, FUZZ_SEED to explore other
 * inputs, and FUZZ_SURVEY=1 to list every failing request instead of stopping (and shrinking) at the first.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_110);
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const SURVEY = process.env.FUZZ_SURVEY === "1";
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

// ---------------------------------------------------------------------------------------------------------
// The nasty values

/** Characters no person types; every one must be refused wherever it arrives (tab, LF and CR are ordinary). */
const CONTROLS = [
  "\u0000",
  "\u0001",
  "\u0007",
  "\u0008",
  "\u000B",
  "\u000C",
  "\u000E",
  "\u001B",
  "\u001F",
  "\u007F",
  "\u0080",
  "\u0085",
  "\u009B",
  "\u009F",
];
const control = fc.constantFrom(...CONTROLS);

/** Any UTF-16 code unit, lone surrogates included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const textUnit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(..."aZ09 -_.,@/کراچیاردو") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "\u200C",
      "\u200D",
      "\u200E",
      "\u200F",
      "\u202E",
      "\u2066",
      "\uFEFF",
      "\uFFFD",
      "\uFFFF",
      "😀",
      "\r\n",
      "\n",
      "\t",
      "%",
      "+",
      "&",
      "=",
      "\\",
      "'",
      '"',
      "<",
      ">",
    ),
  },
  { weight: 1, arbitrary: anyUnit },
  { weight: 1, arbitrary: control },
);
const shortText = fc.string({ unit: textUnit, maxLength: 24 });

/** Strings beyond every limit of the forms (and one beyond a page of the database). */
const hugeText = fc
  .tuple(fc.constantFrom(129, 301, 2_001, 10_001, 70_000), fc.constantFrom("a", "ک", "😀", "\u200C", "9", " ", "\n"))
  .map(([n, c]) => c.repeat(n));

const EDGE = [
  "",
  " ",
  "  \t ",
  "0",
  "-1",
  "1e309",
  "NaN",
  "Infinity",
  "-0",
  "1.5",
  "9".repeat(40),
  "0x10",
  "true",
  "null",
  "undefined",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "../../etc/passwd",
  "javascript:alert(1)",
  "//evil.example",
  "/\\evil.example",
  "https://evil.example",
  "%00",
  "%",
  "\uD800",
  "\uDC00",
  "\uDBFF\uDFFF",
  "\uFFFE",
  "کراچی",
  "اردو\u200Cنام\u200F",
  "\u202Eevil",
  "2024-02-30",
  "9999-12-31",
  "00000000-0000-0000-0000-000000000000",
  "03001234567",
  "4210112345671",
];

/** A value with a control character somewhere in it: the poison every generated request carries at least once. */
const poisoned = fc.tuple(shortText, control, shortText).map(([a, c, b]) => a + c + b);

// ---------------------------------------------------------------------------------------------------------
// The world the requests meet: one account per role, with something of each kind to point at

interface World {
  cookies: Record<Role, string>;
  userIds: Record<Role, string>;
  ids: string[];
  slugs: string[];
  fileNames: string[];
  fileKinds: string[];
}

let s: TestServices;
let loaded: LoadedBuild;
let t: TestApp;
let world: World;
let routes: RouteInfo[];
/** Errors the app logged or printed while answering: a 5xx that a streamed page might hide shows here. */
const logged: string[] = [];
const survey: string[] = [];

beforeAll(async () => {
  const started = Date.now();
  s = await createTestServices();
  // The app logs to this instead of nowhere, so an error it catches and logs is still seen here.
  s.log = pino({ level: "error" }, { write: (line: string) => void logged.push(line) });
  loaded = await loadServerBuild();
  t = createTestApp(s, loaded.build);
  routes = await routeInventory(loaded.build, t.app.routes);

  const [admin, ngo, ngo2, donor, rider] = await Promise.all([
    makeUser(s.db, "admin"),
    makeUser(s.db, "ngo"),
    makeUser(s.db, "ngo"),
    makeUser(s.db, "donor"),
    makeUser(s.db, "rider"),
  ]);
  // Waiting for the administrator, so /admin has forms to post.
  const [pendingNgo, pendingRider] = await Promise.all([
    makeUser(s.db, "ngo", { verification: "pending" }),
    makeUser(s.db, "rider", { verification: "pending" }),
  ]);
  const joint = await makeCampaign(s.db, ngo.id, { partners: [ngo2.id] });
  const other = await makeCampaign(s.db, ngo2.id);
  const cash = await makeCashDonation(s, joint, donor.id);
  const { donation: goods } = await makePickup(s.db, joint, donor.id, { status: "assigned", riderId: rider.id });
  const position = await makePosition(s.db, ngo.id);
  const application = await makeApplication(s.db, position.id, donor.id);
  const cookies = Object.fromEntries(
    await Promise.all(ROLES.map(async (role) => [role, await signIn(s.db, { admin, ngo, donor, rider }[role].id)] as const)),
  ) as Record<Role, string>;
  world = {
    cookies,
    userIds: { admin: admin.id, ngo: ngo.id, donor: donor.id, rider: rider.id },
    ids: [
      ngo.id,
      ngo2.id,
      donor.id,
      rider.id,
      pendingNgo.id,
      pendingRider.id,
      joint.id,
      other.id,
      cash.id,
      goods.id,
      position.id,
      application.id,
    ],
    slugs: [joint.slug, other.slug],
    fileNames: [cash.proofKey!.split("/")[1]!],
    fileKinds: [...fileKindEnum.enumValues],
  };
  console.info(`fuzz: app, build and data ready in ${Date.now() - started} ms; ${routes.length} routes`);
}, 120_000);

afterAll(async () => {
  if (survey.length) console.info(`fuzz survey: ${survey.length} failing requests\n${survey.join("\n")}`);
  await loaded?.close();
  await s?.close();
});

// ---------------------------------------------------------------------------------------------------------
// Requests and what every answer must satisfy

/** Every table, except: */
const EXCLUDED_TABLES: string[] = [
  // none: a refused request changes nothing at all, rate-limit counters and sessions included.
];

interface Sent {
  method: string;
  path: string;
  /** The body as written, for the failure message. */
  body: string;
  as: Role | "anonymous";
  /** A form post (an HTML page is expected to show why, if it is not a 4xx). */
  form: boolean;
}

function describeSent(x: Sent): string {
  const body = x.body.length > 300 ? `${x.body.slice(0, 300)}… (${x.body.length} chars)` : x.body;
  return `${x.method} ${x.path.length > 300 ? x.path.slice(0, 300) + "…" : x.path} as ${x.as}${body ? ` body ${JSON.stringify(body)}` : ""}`;
}

/** What is wrong with an answer (whose body is `text`), if anything. */
async function problemsOf(res: Response, text: string, x: Sent, before: Record<string, string> | null): Promise<string[]> {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}: ${text.replace(/\s+/g, " ").slice(0, 200)}`);
  const location = res.headers.get("location");
  if (location !== null) {
    const to = URL.canParse(location, t.appUrl) ? new URL(location, t.appUrl) : null;
    if (!to || to.origin !== new URL(t.appUrl).origin || /[\u0000-\u001F\\]/.test(location) || location.startsWith("//")) {
      problems.push(`redirect off the site: ${JSON.stringify(location)}`);
    }
  }
  if (x.form && res.status < 300) {
    const refusal = /aria-invalid="true"|role="alert"/.test(text);
    if (!refusal) problems.push(`status ${res.status} without a field or form message`);
  }
  if (before) {
    const changed = changedTables(before, await databaseFingerprint(s.db, { exclude: EXCLUDED_TABLES }));
    if (changed.length) problems.push(`changed ${changed.join(", ")}`);
  }
  if (logged.length) problems.push(`logged an error: ${logged.splice(0).join(" | ").slice(0, 300)}`);
  return problems;
}

async function send(
  x: Sent,
  init: RequestInit & { cookie?: string | null },
  { mayChange = false }: { mayChange?: boolean } = {},
): Promise<{ res: Response; text: string; problems: string[] }> {
  // Only what this request makes the app log counts against it.
  logged.length = 0;
  const before = mayChange ? null : await databaseFingerprint(s.db, { exclude: EXCLUDED_TABLES });
  const errors = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  try {
    const res = await t.request(x.path, { method: x.method, ...init });
    const text = await res.text().catch((err: unknown) => `<unreadable body: ${String(err)}>`);
    const problems = await problemsOf(res, text, x, before);
    return { res, text, problems };
  } finally {
    errors.mockRestore();
  }
}

/** Fails the property (or, in survey mode, notes the request and goes on). */
function judge(x: Sent, problems: string[]): void {
  if (!problems.length) return;
  const line = `${describeSent(x)} -> ${problems.join("; ")}`;
  if (SURVEY) {
    survey.push(line);
    return;
  }
  throw new Error(line);
}

async function fuzz<T>(arb: fc.Arbitrary<T>, numRuns: number, run: (v: T) => Promise<void>): Promise<void> {
  await fc.assert(fc.asyncProperty(arb, run), { seed: SEED, numRuns, endOnFailure: SURVEY });
}

// ---------------------------------------------------------------------------------------------------------
// Addresses

/** A value written into a URL: escaped properly, escaped wrongly, or broken on purpose. */
function encodeUrlPart(value: string, how: "proper" | "raw" | "broken", breakage: string): string {
  // Lone surrogates have no UTF-8 form: written as the bytes a careless client sends for them.
  const proper = value.replace(/[\uD800-\uDFFF]/g, (c, i: number, all: string) =>
    /[\uD800-\uDBFF]/.test(c) && /[\uDC00-\uDFFF]/.test(all[i + 1] ?? "")
      ? c
      : /[\uDC00-\uDFFF]/.test(c) && /[\uD800-\uDBFF]/.test(all[i - 1] ?? "")
        ? c
        : "\u0001SURROGATE\u0001",
  );
  const escaped = encodeURIComponent(proper).replace(/%01SURROGATE%01/g, "%ED%A0%80");
  if (how === "proper") return escaped;
  if (how === "raw") return escaped.replace(/%(2F|3F|23|25|26|3D|2B)/g, "").replace(/%20/g, "+");
  return escaped + breakage;
}
const BREAKAGE = [
  "%",
  "%0",
  "%ZZ",
  "%C3",
  "%C3%28",
  "%E0%A4",
  "%C0%80",
  "%ED%A0%80",
  "%FF",
  "%F4%90%80%80",
  "%00",
  "%0A",
  "%0D%0A",
  "%7F",
  "%C2%85",
  "%09",
];

const poisonedUrlPart = fc.oneof(
  fc.tuple(shortText, control, shortText).map(([a, c, b]) => encodeUrlPart(a + c + b, "proper", "")),
  fc.tuple(shortText, fc.constantFrom(...BREAKAGE)).map(([a, b]) => encodeUrlPart(a, "broken", b)),
);

function urlValue(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant("x") },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.oneof(shortText, fc.constantFrom(...EDGE)),
          fc.constantFrom("proper", "raw", "broken") as fc.Arbitrary<"proper" | "raw" | "broken">,
          fc.constantFrom(...BREAKAGE),
        )
        .map(([v, how, b]) => encodeUrlPart(v, how, b)),
    },
    { weight: 1, arbitrary: hugeText.map((v) => encodeUrlPart(v.slice(0, 3_000), "proper", "")) },
  );
}

function paramValues(name: string): string[] {
  if (name === "kind") return world.fileKinds;
  if (name === "name") return world.fileNames;
  if (name === "slug") return world.slugs;
  return world.ids;
}

/**
 * A path of the route, each segment a known value or a nasty one, and a query string of the route's own
 * parameters (any route's, now and then) with nasty values. With `poison`, at least one part is a control
 * character or a broken escape, so the request must be refused whatever else it holds.
 */
function addressOf(route: RouteInfo, poison: boolean, allQueryNames: string[]): fc.Arbitrary<string> {
  const segments = fc.tuple(...route.params.map((p) => urlValue(paramValues(p).map((v) => encodeURIComponent(v)))));
  const names = route.query.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...route.query) }, { weight: 1, arbitrary: fc.constantFrom(...allQueryNames) })
    : fc.constantFrom(...allQueryNames);
  const pair = fc.tuple(
    fc.oneof({ weight: 6, arbitrary: names }, { weight: 1, arbitrary: urlValue([]) }),
    urlValue([...world.ids, ...world.slugs, "1", "2", "-1", "ur", "en", "pending", "approved", "assigned"]),
  );
  const query = fc.array(pair, { maxLength: 4 });
  // Where the poison goes: a path segment (when the route has one) or a query name or value.
  const where = fc.constantFrom(...(route.params.length ? (["segment", "value", "name"] as const) : (["value", "name"] as const)));
  return fc.tuple(segments, query, where, poisonedUrlPart, fc.nat(), fc.boolean()).map(([segs, q, w, bad, pick, dataRequest]) => {
    const values = [...segs];
    const pairs = q.map(([n, v]) => [n, v] as [string, string]);
    if (poison) {
      if (w === "segment") values[pick % values.length] = (values[pick % values.length] ?? "") + bad;
      else if (w === "name") pairs.splice(pick % (pairs.length + 1), 0, [bad, "1"]);
      else pairs.splice(pick % (pairs.length + 1), 0, [route.query[pick % Math.max(1, route.query.length)] ?? "q", bad]);
    }
    let i = 0;
    let p = route.path.replace(/:[A-Za-z_]+/g, () => values[i++] ?? "x");
    // React Router's own data requests: `<path>.data`, guarded and answered like the page.
    if (dataRequest && !route.source.startsWith("server/") && p !== "/") p += ".data";
    return p + (pairs.length ? "?" + pairs.map(([n, v]) => `${n}=${v}`).join("&") : "");
  });
}

// ---------------------------------------------------------------------------------------------------------
// Bodies

type Entry = { name: string; value: string | { file: Uint8Array; filename: string; type: string } };

const fileValue = fc.record({
  file: fc.oneof(
    fc.uint8Array({ maxLength: 64 }),
    fc.constantFrom(
      new TextEncoder().encode("%PDF-1.4\n%%EOF"),
      new TextEncoder().encode("\u0000\u0000\u0000"),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    ),
  ),
  filename: fc.oneof(
    fc.constantFrom("a.png", "proof.webp", "resume.pdf", "", "../../x.png", "کراچی.png", "a\u0000.png", "a\r\nb.png"),
    shortText,
  ),
  type: fc.constantFrom("image/png", "image/webp", "application/pdf", "text/plain", "application/octet-stream", "", "image/svg+xml"),
});

function fieldValue(route: RouteInfo, name: string, ids = world.ids): fc.Arbitrary<Entry["value"]> {
  const known = route.knownValues[name] ?? [];
  return fc.oneof(
    { weight: 3, arbitrary: known.length ? fc.constantFrom(...known) : fc.constantFrom(...ids) },
    { weight: 2, arbitrary: fc.constantFrom(...ids, ...world.slugs) },
    { weight: 2, arbitrary: fc.constantFrom(...EDGE) },
    { weight: 3, arbitrary: shortText },
    { weight: 1, arbitrary: hugeText },
    { weight: 1, arbitrary: poisoned },
    // The wrong type: a file where text is expected (and text where a file is, below).
    { weight: 1, arbitrary: fileValue },
  );
}

function entriesOf(route: RouteInfo, ids = world.ids): fc.Arbitrary<Entry[]> {
  const fields = route.fields.length ? route.fields : ["intent", "id"];
  const names = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: shortText });
  const entry = names.chain((name) => fieldValue(route, name, ids).map((value): Entry => ({ name, value })));
  // Mostly every field once (so a form gets past "required"), then extras and repeats.
  const full = fc.tuple(...fields.map((name) => fieldValue(route, name, ids).map((value): Entry => ({ name, value }))));
  return fc
    .tuple(full, fc.array(entry, { maxLength: 4 }), fc.boolean())
    .map(([all, extra, whole]) => (whole ? [...all, ...extra] : extra.length ? extra : all.slice(0, 1)));
}

/** The poison of a body: a control character in a field the action reads (or in a field's name). */
function bodyPoison(route: RouteInfo): fc.Arbitrary<Entry> {
  const fields = route.fields.length ? route.fields : ["intent"];
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom(...fields), poisoned, fc.constantFrom(...(route.knownValues.intent ?? [""])), fc.boolean())
        .map(([name, bad, intent, asIntent]): Entry => ({ name, value: name === "intent" && asIntent ? intent + bad.slice(-1) : bad })),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...fields), control).map(([name, c]): Entry => ({ name: name + c, value: "x" })) },
  );
}

type Encoding = "multipart" | "urlencoded" | "urlencoded-raw";

function encodeBody(entries: Entry[], encoding: Encoding, breakage: string): { body: BodyInit; contentType?: string; shown: string } {
  if (encoding === "multipart") {
    const form = new FormData();
    for (const { name, value } of entries) {
      if (typeof value === "string") form.append(name, value);
      else form.append(name, new Blob([new Uint8Array(value.file)], { type: value.type }), value.filename);
    }
    return {
      body: form,
      shown:
        "multipart " +
        JSON.stringify(
          entries.map(({ name, value }) => [
            name,
            typeof value === "string" ? value : `<file ${value.filename} ${value.type} ${value.file.length} bytes>`,
          ]),
        ),
    };
  }
  const text = (v: Entry["value"]) => (typeof v === "string" ? v : new TextDecoder().decode(v.file));
  const raw = entries
    .map(
      ({ name, value }) =>
        `${encodeUrlPart(name, "proper", "")}=${encodeUrlPart(text(value), encoding === "urlencoded" ? "proper" : "raw", "")}${encoding === "urlencoded-raw" ? breakage : ""}`,
    )
    .join("&");
  return { body: raw, contentType: "application/x-www-form-urlencoded", shown: raw };
}

// ---------------------------------------------------------------------------------------------------------

/** The one role a route's area lets in, or null (public, or any signed-in account). */
const roleOf = (route: RouteInfo): Role | null => (route.area && route.area !== "account" ? route.area : null);

const whoFor = (route: RouteInfo) => {
  const role = roleOf(route);
  return role ? fc.constant<Role | "anonymous">(role) : fc.constantFrom<Role | "anonymous">("anonymous", ...ROLES);
};

function cookieFor(as: Role | "anonymous", lang: string | null): string | null {
  const parts = [as === "anonymous" ? null : world.cookies[as], lang ? `${LANG_COOKIE}=${lang}` : null].filter(Boolean);
  return parts.length ? parts.join("; ") : null;
}

describe("fuzz: malformed input is refused, never a 5xx, and changes nothing", () => {
  it("derives the routes from the route table and the Hono app", () => {
    const paths = routes.map((r) => r.path);
    for (const p of ["/language", "/files/:kind/:name", "/api/places", "/api/map", "/campaign/:slug", "/vfg1", "/rider_profile"]) {
      expect(paths).toContain(p);
    }
    const posts = routes.filter((r) => r.post);
    expect(posts.length).toBeGreaterThan(20);
    // Forms whose fields the schemas name: these must have been found, or the fuzz posts nothing useful.
    expect(routes.find((r) => r.path === "/vol1")!.fields).toEqual(expect.arrayContaining(["title", "description", "volunteersNeeded"]));
    expect(routes.find((r) => r.path === "/rider_profile")!.knownValues.intent).toEqual(
      expect.arrayContaining(["area", "name", "password"]),
    );
    expect(routes.find((r) => r.path === "/language")!.fields).toEqual(expect.arrayContaining(["lang", "redirectTo"]));
    expect(routes.find((r) => r.path === "/campaigns")!.query).toContain("q");
  });

  it("form posts with poisoned fields, wrong types and huge values to every action", async () => {
    const actions = routes.filter((r) => r.post);
    const allQuery = [...new Set(routes.flatMap((r) => r.query))];
    const arb = fc.constantFrom(...actions).chain((route) =>
      fc.record({
        route: fc.constant(route),
        as: whoFor(route),
        lang: fc.constantFrom(null, "ur", "en"),
        // Where the poison goes: the body, for actions that read one; otherwise (and sometimes anyway) the address.
        poisonAt: route.readsBody ? fc.constantFrom("body", "body", "body", "address", "both") : fc.constant("address"),
        address: addressOf(route, false, allQuery),
        poisonedAddress: addressOf(route, true, allQuery),
        entries: entriesOf(route),
        poison: bodyPoison(route),
        at: fc.nat(),
        encoding: fc.constantFrom<Encoding>("multipart", "urlencoded", "urlencoded-raw"),
        breakage: fc.constantFrom(...BREAKAGE),
      }),
    );
    await fuzz(arb, runs(200), async (v) => {
      const entries = [...v.entries];
      if (v.poisonAt !== "address") entries.splice(v.at % (entries.length + 1), 0, v.poison);
      const path = v.poisonAt === "body" ? v.address : v.poisonedAddress;
      const { body, contentType, shown } = encodeBody(entries, v.encoding, v.breakage);
      const x: Sent = { method: "POST", path, body: shown, as: v.as, form: !path.includes(".data") };
      const { problems } = await send(x, {
        body,
        cookie: cookieFor(v.as, v.lang),
        headers: { accept: "text/html", ...(contentType ? { "content-type": contentType } : {}) },
      });
      judge(x, problems);
    });
  }, 120_000);

  it("bodies that cannot be read: broken or truncated multipart, cut-off streams, the wrong content type", async () => {
    const actions = routes.filter((r) => r.post && r.readsBody);
    const arb = fc
      .record({
        route: fc.constantFrom(...actions),
        kind: fc.constantFrom("truncated-multipart", "no-boundary", "wrong-boundary", "stream-error", "json", "text", "garbage-multipart"),
        // How the cut-off body was announced: a Content-Length it never reaches, or chunked (no length at all).
        announced: fc.constantFrom("length", "chunked"),
        cut: fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        junk: fc.uint8Array({ minLength: 1, maxLength: 200 }),
      })
      .chain((r) => entriesOf(r.route).map((entries) => ({ ...r, entries })));
    await fuzz(arb, runs(60), async (v) => {
      const boundary = "----ekcFuzzBoundary7MA4YWxkTrZu0gW";
      const parts = v.entries
        .map(({ name, value }) =>
          typeof value === "string"
            ? `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
            : `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type}\r\n\r\n${new TextDecoder().decode(value.file)}\r\n`,
        )
        .join("");
      const whole = new TextEncoder().encode(`${parts}--${boundary}--\r\n`);
      const cutAt = Math.max(1, Math.floor(whole.length * v.cut));
      let body: BodyInit;
      let type = `multipart/form-data; boundary=${boundary}`;
      let shown: string;
      const extraHeaders: Record<string, string> = {};
      switch (v.kind) {
        case "truncated-multipart":
          // Cut before the closing boundary: the form never ends.
          body = whole.slice(0, Math.min(cutAt, whole.length - boundary.length - 8));
          shown = `multipart cut at ${cutAt}/${whole.length}`;
          break;
        case "no-boundary":
          body = whole;
          type = "multipart/form-data";
          shown = "multipart without a boundary";
          break;
        case "wrong-boundary":
          body = whole;
          type = "multipart/form-data; boundary=somethingElse";
          shown = "multipart with another boundary";
          break;
        case "garbage-multipart":
          body = v.junk;
          shown = `multipart of ${v.junk.length} random bytes`;
          break;
        case "stream-error": {
          // The connection drops mid-body: the stream errors after part of the form has arrived.
          const head = whole.slice(0, cutAt);
          const urlencoded = cutAt % 2 === 0;
          const bytes = urlencoded ? new TextEncoder().encode("intent=x&title=abc&description=" + "a".repeat(cutAt)) : head;
          if (urlencoded) type = "application/x-www-form-urlencoded";
          body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(bytes);
              controller.error(new Error("connection reset by peer"));
            },
          });
          if (v.announced === "length") extraHeaders["content-length"] = String(bytes.length * 2);
          shown = `${urlencoded ? "urlencoded" : "multipart"} stream that fails after ${bytes.length} bytes (${v.announced === "length" ? `Content-Length ${bytes.length * 2}` : "chunked"})`;
          break;
        }
        case "json":
          body = JSON.stringify(Object.fromEntries(v.entries.map((e) => [e.name, typeof e.value === "string" ? e.value : 1])));
          type = "application/json";
          shown = `JSON ${String(body).slice(0, 120)}`;
          break;
        default:
          body = "intent=accept";
          type = "text/plain";
          shown = "text/plain intent=accept";
      }
      const role = roleOf(v.route) ?? "donor";
      const path = v.route.path.replace(/:[A-Za-z_]+/g, (m) => encodeURIComponent(paramValues(m.slice(1))[0]!));
      const x: Sent = { method: "POST", path, body: shown, as: role, form: false };
      const { res, problems } = await send(x, {
        body,
        cookie: cookieFor(role, null),
        headers: { "content-type": type, accept: "text/html", ...extraHeaders },
      });
      // A refusal: a 4xx, or a redirect (to sign in, or home) before the body was even read.
      if (res.status < 300 || res.status >= 500) problems.push(`an unreadable body answered ${res.status}, not a 4xx`);
      judge(x, problems);
    });
  }, 120_000);

  it("query parameters and path segments with NUL, control characters and broken escapes on every page", async () => {
    const pages = routes.filter((r) => r.get);
    const allQuery = [...new Set(routes.flatMap((r) => r.query))];
    const arb = fc.constantFrom(...pages).chain((route) =>
      fc.record({
        route: fc.constant(route),
        as: whoFor(route),
        lang: fc.constantFrom(null, "ur"),
        path: addressOf(route, true, allQuery),
      }),
    );
    await fuzz(arb, runs(150), async (v) => {
      const x: Sent = { method: "GET", path: v.path, body: "", as: v.as, form: false };
      const { res, problems } = await send(x, { cookie: cookieFor(v.as, v.lang), headers: { accept: "text/html" } });
      if (res.status < 400) problems.push(`a poisoned address answered ${res.status}, not a 4xx`);
      judge(x, problems);
    });
  }, 120_000);

  it("nasty but clean query values and segments (huge, Urdu, RTL marks, numbers, lone escapes) never give a 5xx", async () => {
    const pages = routes.filter((r) => r.get);
    const allQuery = [...new Set(routes.flatMap((r) => r.query))];
    const arb = fc
      .constantFrom(...pages)
      .chain((route) => fc.record({ route: fc.constant(route), as: whoFor(route), path: addressOf(route, false, allQuery) }));
    await fuzz(arb, runs(100), async (v) => {
      const x: Sent = { method: "GET", path: v.path, body: "", as: v.as, form: false };
      const { problems } = await send(x, { cookie: cookieFor(v.as, null), headers: { accept: "text/html" } });
      judge(x, problems);
    });
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------
// The cases the issue names, one by one, so a regression names itself

describe("the cases of the hardening issue", () => {
  const get = async (path: string, as: Role | "anonymous") => {
    const x: Sent = { method: "GET", path, body: "", as, form: false };
    const out = await send(x, { cookie: cookieFor(as, null), headers: { accept: "text/html" } });
    return { ...out, x };
  };
  const post = async (path: string, as: Role | "anonymous", body: BodyInit, headers: Record<string, string> = {}) => {
    const x: Sent = { method: "POST", path, body: typeof body === "string" ? body : "<body>", as, form: false };
    const out = await send(x, { body, cookie: cookieFor(as, null), headers: { accept: "text/html", ...headers } });
    return { ...out, x };
  };
  const urlencoded = { "content-type": "application/x-www-form-urlencoded" };
  /** A body cut off in transit: the stream fails after a few bytes (sent chunked, with no length). */
  const cutOff = () =>
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("intent=name&firstName=Al"));
        c.error(new Error("connection reset by peer"));
      },
    });
  /** The same, announced with a Content-Length it never reaches. */
  const withLength = { ...urlencoded, "content-length": "200" };

  it.each([
    [
      "/donor_signup",
      "anonymous",
      "firstName",
      {
        firstName: "Ali\u0000",
        lastName: "Khan",
        address: "Gulberg, Lahore",
        contactNumber: "03001234567",
        email: "nul-signup@test.ekchhat.pk",
        password: "Str0ng-pass-1",
      },
    ],
    [
      "/vol1",
      "ngo",
      "title",
      { title: "Teachers\u0000", description: "Teach", workingHours: "4 hours", timings: "Weekends", volunteersNeeded: "2" },
    ],
    ["/settingsDonor", "donor", "lastName", { intent: "name", firstName: "Ali", lastName: "Kh\u0000an" }],
    ["/donor_signin", "anonymous", "email", { email: "a\u0000@test.ekchhat.pk", password: "whatever1" }],
  ] as const)("a NUL in a text field of %s is a field message and 400", async (path, as, field, fields) => {
    const {
      res,
      text: html,
      problems,
      x,
    } = await post(path, as as Role | "anonymous", new URLSearchParams(fields as Record<string, string>).toString(), urlencoded);
    expect(problems, describeSent(x)).toEqual([]);
    expect(res.status).toBe(400);
    expect(html).toContain("invisible control characters");
    expect(html).toMatch(new RegExp(`name="${field}"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="${field}"`));
  });

  it.each([
    ["/campaigns?q=%00", "ngo"],
    ["/vfg1?q=%00", "donor"],
    ["/rider_home?q=%00", "rider"],
    ["/campaign/a%00b", "anonymous"],
    ["/files/proof/x%00.webp", "donor"],
    ["/donate2?campaign=%00", "donor"],
    ["/campaigns?q=%E0%A4", "ngo"],
    ["/api/places?q=%00", "ngo"],
  ] as const)("GET %s as %s is a 4xx", async (path, as) => {
    const { res, problems, x } = await get(path, as);
    expect(problems, describeSent(x)).toEqual([]);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it("POST /language with a body that cannot be read is a 400 and changes no language", async () => {
    for (const [body, headers] of [
      [cutOff(), urlencoded],
      [cutOff(), withLength],
      ["lang=ur", { "content-type": "multipart/form-data; boundary=x" }],
      // A language and then others (a counterexample the property found): not the switch's form, nothing changes.
      ["lang=ur&lang=%07%1F&lang=en", urlencoded],
    ] as const) {
      const { res, problems, x } = await post("/language", "donor", body, headers);
      expect(problems, describeSent(x)).toEqual([]);
      expect(res.status).toBe(400);
      expect(res.headers.get("set-cookie") ?? "").not.toContain(LANG_COOKIE);
    }
    const [row] = await s.db.select({ language: users.language }).from(users).where(eq(users.id, world.userIds.donor));
    expect(row!.language).toBe("en");
  });

  it.each(["/x\r\nSet-Cookie: a=1", "/x\n/evil", "/x\u0000", "/\\evil.example", "\\\\evil.example", "/\t/evil.example", "//evil.example"])(
    "POST /language with redirectTo %j is refused, or redirected to a path of this site",
    async (redirectTo) => {
      const body = new URLSearchParams({ lang: "ur", redirectTo }).toString();
      const x: Sent = { method: "POST", path: "/language", body, as: "rider", form: false };
      // Language changes are legitimate here when the request is answered with a safe redirect: compare after.
      const before = await s.db.select({ language: users.language }).from(users).where(eq(users.id, world.userIds.rider));
      const { res, problems } = await send(x, { body, cookie: cookieFor("rider", null), headers: urlencoded }, { mayChange: true });
      expect(problems, describeSent(x)).toEqual([]);
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get("location")!;
        expect(location).toMatch(/^\/(?![/\\])/);
        expect(location).not.toMatch(/[\u0000-\u001F\\]/);
        expect(new URL(location, t.appUrl).origin).toBe(new URL(t.appUrl).origin);
      } else {
        expect(res.status).toBeGreaterThanOrEqual(400);
        const after = await s.db.select({ language: users.language }).from(users).where(eq(users.id, world.userIds.rider));
        expect(after).toEqual(before);
      }
    },
  );

  it.each([
    ["chunked", urlencoded],
    ["with a Content-Length", withLength],
  ] as const)("POST /rider_profile with a body cut off in transit (%s) is a 400 and changes nothing", async (_, headers) => {
    const { res, problems, x } = await post("/rider_profile", "rider", cutOff(), headers);
    expect(problems, describeSent(x)).toEqual([]);
    expect(res.status).toBe(400);
  });

  it('signing in with redirectTo "/\\t/evil.example" stays on this site', async () => {
    const donor = await makeUser(s.db, "donor");
    const body = new URLSearchParams({ email: donor.email, password: TEST_PASSWORD, redirectTo: "/\t/evil.example" }).toString();
    const res = await t.request("/donor_signin", { method: "POST", body, headers: urlencoded });
    expect([302, 303]).toContain(res.status);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(location).not.toMatch(/[\u0000-\u001F\\]/);
    expect(new URL(location, t.appUrl).origin).toBe(new URL(t.appUrl).origin);
  });

  it("keeps Urdu, ZWNJ, RLM and line breaks in a textarea", async () => {
    const description = "بچوں کو پڑھانا\u200Cہے\u200F\r\nہر ہفتے\nدو گھنٹے";
    const title = `اساتذہ ${Date.now()}`;
    const body = new URLSearchParams({
      title,
      description,
      workingHours: "4 گھنٹے",
      timings: "ہفتہ، اتوار",
      volunteersNeeded: "2",
    }).toString();
    const res = await t.request("/vol1", { method: "POST", body, cookie: world.cookies.ngo, headers: urlencoded });
    expect([302, 303], await res.clone().text()).toContain(res.status);
    const [row] = await s.db.select().from(volunteerPositions).where(eq(volunteerPositions.title, title));
    expect(row, "the position was saved").toBeDefined();
    const lines = (v: string) => v.replace(/\r\n/g, "\n");
    expect(lines(row!.description)).toBe(lines(description));
    expect(row!.description).toContain("\u200C");
    expect(row!.description).toContain("\u200F");
    expect(row!.workingHours).toBe("4 گھنٹے");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Last, because these may rightly change things: nasty values without a poison

describe("fuzz: odd but clean form posts (huge, Urdu, RTL marks, numbers for text, files for text) never give a 5xx", () => {
  it("every action that reads a form", async () => {
    const actions = routes.filter((r) => r.post && r.readsBody);
    // Ids of everything except the signed-in accounts themselves, so no post suspends or rejects them midway.
    const ids = world.ids.filter((id) => !Object.values(world.userIds).includes(id));
    const arb = fc.constantFrom(...actions).chain((route) =>
      fc.record({
        route: fc.constant(route),
        as: whoFor(route),
        entries: entriesOf(route, ids),
        encoding: fc.constantFrom<Encoding>("multipart", "urlencoded"),
      }),
    );
    await fuzz(arb, runs(120), async (v) => {
      const path = v.route.path.replace(/:[A-Za-z_]+/g, (m) => encodeURIComponent(paramValues(m.slice(1))[0]!));
      const { body, contentType, shown } = encodeBody(v.entries, v.encoding, "");
      const x: Sent = { method: "POST", path, body: shown, as: v.as, form: false };
      const { problems } = await send(
        x,
        { body, cookie: cookieFor(v.as, null), headers: { accept: "text/html", ...(contentType ? { "content-type": contentType } : {}) } },
        { mayChange: true },
      );
      judge(x, problems);
    });
  }, 120_000);
});
