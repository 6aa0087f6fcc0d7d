import path from "node:path";
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .transform((v) => v === "true" || v === "1");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("127.0.0.1"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Public address of the app, used in emailed links. */
  APP_URL: z.url().default("http://localhost:3000"),
  /** Folder for the embedded database and uploaded files. */
  DATA_DIR: z.string().min(1).default("./data"),
  /** Folder of the production build (`react-router build`). */
  BUILD_DIR: z.string().min(1).default("build"),
  /** When set, PostgreSQL is used instead of the embedded database. */
  DATABASE_URL: z.string().min(1).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  SEED_DEMO: bool.default(false),
  /** smtp://user:pass@host:port; without it mail is kept in the outbox. */
  SMTP_URL: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).default("Ek Chhat <no-reply@ekchhat.pk>"),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "silent"]).default("info"),
  /** Attempts allowed per client address per window on sign-in and sign-up. */
  AUTH_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  /** Attempts allowed per account per window on sign-in. */
  AUTH_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(8),
  /** Length of the rate-limit window in seconds. */
  AUTH_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Place search: the offline gazetteer of Pakistan (no key, no internet), Nominatim, or Google with a key. */
  GEOCODER: z.enum(["offline", "nominatim", "google"]).default("offline"),
  NOMINATIM_URL: z.url().default("https://nominatim.openstreetmap.org"),
  GOOGLE_MAPS_API_KEY: z.string().min(1).optional(),
  /** Map tiles, as a Leaflet URL template; without reachable tiles the maps still show their markers. */
  MAP_TILE_URL: z.string().min(1).default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
  MAP_TILE_ATTRIBUTION: z.string().min(1).default("© OpenStreetMap contributors"),
});

export type Config = z.infer<typeof schema> & { dataDir: string; secureCookies: boolean };

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
  if (parsed.data.GEOCODER === "google" && !parsed.data.GOOGLE_MAPS_API_KEY) {
    throw new ConfigError("Invalid configuration:\n  GEOCODER=google needs GOOGLE_MAPS_API_KEY");
  }
  return {
    ...parsed.data,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    secureCookies: new URL(parsed.data.APP_URL).protocol === "https:",
  };
}

export class ConfigError extends Error {}
