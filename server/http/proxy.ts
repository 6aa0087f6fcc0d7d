import { isIP } from "node:net";
import type { Context } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";

/**
 * What the app may believe about a request that came through its own reverse proxies: who sent it and whether
 * it reached the first of them over TLS. Decision: docs/decisions/011-client-address-and-sign-in-limits.md.
 */
export interface RequestOrigin {
  /** The client's address: the one the outermost trusted proxy saw, or the socket's. */
  clientIp: string;
  /** Whether the client's connection was TLS: an https APP_URL, or a trusted proxy says so. */
  secure: boolean;
}

export const MAX_TRUSTED_HOPS = 10;

/**
 * TRUST_PROXY: `false`/`0`/empty trusts no proxy; `true` trusts one (the usual single reverse proxy); a number
 * trusts that many, counted from the app outwards. Null for anything else.
 */
export function parseTrustedHops(value: string): number | null {
  const v = value.trim().toLowerCase();
  if (v === "" || v === "false") return 0;
  if (v === "true") return 1;
  if (!/^\d{1,2}$/.test(v)) return null;
  const hops = Number(v);
  return hops <= MAX_TRUSTED_HOPS ? hops : null;
}

export interface ForwardedInput {
  /** Trusted proxies in front of the app; 0 ignores every forwarding header. */
  hops: number;
  forwardedFor?: string | null;
  forwardedProto?: string | null;
  /** The TCP peer: the nearest proxy when there is one. */
  socketAddress?: string | null;
  /** APP_URL is https: every request counts as secure, whatever the headers say. */
  alwaysSecure: boolean;
}

/**
 * Each proxy appends the address it received the request from to `X-Forwarded-For`, so with `hops` trusted
 * proxies the client is the `hops`-th entry from the right; everything to its left was written by the client and
 * is ignored. A missing header, one with fewer entries than hops (the chain is not what was configured) or an
 * entry that is not an address falls back to the socket's address, which at worst groups several clients under
 * the proxy's address: stricter, never looser.
 */
export function requestOriginOf(input: ForwardedInput): RequestOrigin {
  const socket = normalizeAddress(input.socketAddress ?? "") ?? "unknown";
  if (input.hops <= 0) return { clientIp: socket, secure: input.alwaysSecure };
  const forwarded = fromRight(input.forwardedFor, input.hops);
  const clientIp = (forwarded !== undefined && normalizeAddress(forwarded)) || socket;
  return { clientIp, secure: input.alwaysSecure || forwardedProtoIsHttps(input.forwardedProto, input.hops) };
}

/**
 * `X-Forwarded-Proto` is read by the same rule. Proxies usually overwrite it rather than append, so a list shorter
 * than the hops holds what the trusted proxies set, and its left-most entry is the outermost one that did.
 */
function forwardedProtoIsHttps(header: string | null | undefined, hops: number): boolean {
  const entries = entriesOf(header);
  if (entries.length === 0) return false;
  const entry = entries.length >= hops ? entries[entries.length - hops]! : entries[0]!;
  return entry.toLowerCase() === "https";
}

function fromRight(header: string | null | undefined, hops: number): string | undefined {
  const entries = entriesOf(header);
  return entries.length >= hops ? entries[entries.length - hops] : undefined;
}

function entriesOf(header: string | null | undefined): string[] {
  if (!header) return [];
  return header.split(",").map((e) => e.trim());
}

/**
 * An address as a proxy may write it (`203.0.113.9`, `203.0.113.9:5123`, `[2001:db8::1]:443`, an IPv4-mapped
 * IPv6 address from Node's socket), reduced to the bare address; null when it is not one.
 */
export function normalizeAddress(raw: string): string | null {
  let a = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(a);
  if (bracketed) a = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  const zone = a.indexOf("%");
  if (zone > 0 && isIP(a.slice(0, zone)) === 6) a = a.slice(0, zone);
  const kind = isIP(a);
  if (kind === 0) return null;
  if (kind === 6) {
    a = a.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
    if (mapped) return mapped[1]!;
  }
  return a;
}

/** The Hono side: reads the headers and the socket of one request. */
export function requestOrigin(c: Context, config: { TRUST_PROXY: number; secureCookies: boolean }): RequestOrigin {
  let socketAddress: string | undefined;
  try {
    socketAddress = getConnInfo(c).remote.address;
  } catch {
    socketAddress = undefined;
  }
  return requestOriginOf({
    hops: config.TRUST_PROXY,
    forwardedFor: c.req.header("x-forwarded-for"),
    forwardedProto: c.req.header("x-forwarded-proto"),
    socketAddress,
    alwaysSecure: config.secureCookies,
  });
}
