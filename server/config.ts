import path from "node:path";
import { z } from "zod";
import { MAX_TRUSTED_HOPS, parseTrustedHops } from "#server/http/proxy.ts";

const bool = z.enum(["true", "false", "1", "0", ""]).transform((v) => v === "true" || v === "1");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Public address of the app, used in emailed links, share links and og:url; without it, localhost on PORT. */
  APP_URL: z.url().optional(),
  /** Folder for the embedded database and uploaded files. */
  DATA_DIR: z.string().min(1).default("./data"),
  /** Folder of the production build (`react-router build`). */
  BUILD_DIR: z.string().min(1).default("build"),
  /** Where uploaded files are kept: DATA_DIR/files (local) or a bucket of an S3-compatible service (s3). */
  STORAGE: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: z.string().min(1).optional(),
  /** The service's address (R2, Garage, SeaweedFS, Ceph, MinIO); without it, AWS S3 in S3_REGION. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /** Set both or neither; without them the SDK looks for credentials itself (AWS_* variables, an instance role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Addresses as endpoint/bucket/key: what most self-hosted services need. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** When set, PostgreSQL is used instead of the embedded database. */
  DATABASE_URL: z.string().min(1).optional(),
  /** Where the migrations run at start, when DATABASE_URL goes through PgBouncer in transaction mode (docs/deployment.md). */
  DATABASE_MIGRATION_URL: z.string().min(1).optional(),
  /**
   * How the statements run on every request are prepared on PostgreSQL: "named" (parsed and planned once a connection),
   * or "unnamed" (parsed and planned each time) for a PgBouncer before 1.21, or one without max_prepared_statements,
   * in transaction mode (docs/deployment.md).
   */
  DATABASE_PREPARED_STATEMENTS: z.enum(["named", "unnamed"]).default("named"),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  SEED_DEMO: bool.default(false),
  /** smtp://user:pass@host:port; without it mail is kept in the outbox. */
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default("Ek Chhat <no-reply@ekchhat.pk>"),
  /** Tries to hand a mail to the SMTP server before it is given up (failed in the outbox). */
  MAIL_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** Seconds before a failed mail's first retry; each later retry waits about twice as long. */
  MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Reverse proxies in front of the app whose forwarding headers are believed: false/0, true (= 1) or a count. */
  TRUST_PROXY: z
    .string()
    .default("false")
    .transform((v, ctx) => {
      const hops = parseTrustedHops(v);
      if (hops === null) {
        ctx.addIssue({ code: "custom", message: `expected false, true or a number of proxies from 0 to ${MAX_TRUSTED_HOPS}` });
        return z.NEVER;
      }
      return hops;
    }),
  /** This server's name, sent in X-Served-By on every answer: which of several servers behind a balancer answered. */
  SERVER_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "letters, digits, dots, dashes and underscores, at most 64")
    .optional(),
  /** On SIGTERM, how long requests in flight may take to finish before their connections are cut. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(25),
  /**
   * On SIGTERM, how long the server goes on answering, `/readyz` saying 503, before it stops taking connections: the
   * time a balancer needs to see it is not ready and send no more (decision 043). 0 (the default, one server) closes at once.
   */
  DRAIN_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
  /** Bearer token that opens GET /metrics; without it the endpoint does not exist (404). */
  METRICS_TOKEN: z.string().min(16, "use at least 16 characters").optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "silent"]).default("info"),
  /** Failed sign-ins, sign-ups and password resets allowed per client address per window. */
  AUTH_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  /** Failed sign-ins allowed per account from one client address per window; reset mails per email per window. */
  AUTH_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(8),
  /** Failed sign-ins allowed per account from all addresses together per window (guessing from many addresses). */
  AUTH_LIMIT_PER_ACCOUNT_ALL_ADDRESSES: z.coerce.number().int().min(1).default(100),
  /** Accounts created and reset links mailed per client address per window (what succeeds, but costs us). */
  AUTH_CREATIONS_PER_IP: z.coerce.number().int().min(1).default(100),
  /** Length of the rate-limit window in seconds. */
  AUTH_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Days a cash gift may wait without a line of the NGO's imported statement before its donor is reminded (0: never). */
  RECONCILE_REMINDER_DAYS: z.coerce.number().int().min(0).max(365).default(3),
  /** Riders whose area lies farther than this many kilometres from a pick-up are marked "far" when the NGO assigns one. */
  RIDER_RADIUS_KM: z.coerce.number().min(1).max(2000).default(25),
  /** Place search: the offline gazetteer of Pakistan (no key, no internet), Nominatim, or Google with a key. */
  GEOCODER: z.enum(["offline", "nominatim", "google"]).default("offline"),
  NOMINATIM_URL: z.url().default("https://nominatim.openstreetmap.org"),
  GOOGLE_MAPS_API_KEY: z.string().min(1).optional(),
  /** Map tiles, as a Leaflet URL template; without reachable tiles the maps still show their markers. */
  MAP_TILE_URL: z.string().min(1).default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
  MAP_TILE_ATTRIBUTION: z.string().min(1).default("© OpenStreetMap contributors"),
});

export type Config = Omit<z.infer<typeof schema>, "APP_URL"> & { APP_URL: string; dataDir: string; secureCookies: boolean };

/** Parses the environment once; a bad value stops the program with a clear message. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  if ((parsed.data.ADMIN_EMAIL === undefined) !== (parsed.data.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError("Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together");
  }
  if (parsed.data.DATABASE_MIGRATION_URL && !parsed.data.DATABASE_URL) {
    throw new ConfigError("Invalid configuration:\n  DATABASE_MIGRATION_URL needs DATABASE_URL");
  }
  if (parsed.data.GEOCODER === "google" && !parsed.data.GOOGLE_MAPS_API_KEY) {
    throw new ConfigError("Invalid configuration:\n  GEOCODER=google needs GOOGLE_MAPS_API_KEY");
  }
  if (parsed.data.STORAGE === "s3" && !parsed.data.S3_BUCKET) {
    throw new ConfigError("Invalid configuration:\n  STORAGE=s3 needs S3_BUCKET");
  }
  if ((parsed.data.S3_ACCESS_KEY_ID === undefined) !== (parsed.data.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError("Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together");
  }
  // A server started on another port writes links to that port, not to 3000.
  const appUrl = parsed.data.APP_URL ?? `http://localhost:${parsed.data.PORT}`;
  return {
    ...parsed.data,
    APP_URL: appUrl,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    secureCookies: new URL(appUrl).protocol === "https:",
  };
}

export class ConfigError extends Error {}
