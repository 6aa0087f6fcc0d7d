import { randomFillSync } from "node:crypto";
import type { Context } from "hono";

const NONCE_BYTES = 16;
/** Random bytes for this many nonces are drawn at a time. */
const NONCES_A_DRAW = 256;

let pool = Buffer.alloc(0);
let used = 0;

/**
 * A page's CSP nonce: 16 bytes from the system's cryptographic generator, base64 (24 characters, as Hono's own
 * `NONCE` makes them). The bytes are drawn 4 KB at a time and each is used once, as Node's `randomUUID` does with
 * its own cache, rather than a call into the generator (and an async resource) for every page (decision 037,
 * 2026-11-28).
 */
export function newNonce(): string {
  if (used + NONCE_BYTES > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(NONCE_BYTES * NONCES_A_DRAW));
    used = 0;
  }
  const nonce = pool.toString("base64", used, used + NONCE_BYTES);
  used += NONCE_BYTES;
  return nonce;
}

/**
 * For `secureHeaders`' `scriptSrc`, in place of Hono's `NONCE`: the request's nonce, made on first use and kept as
 * `secureHeadersNonce`, where the rest of the app reads it.
 */
export function nonceSource(c: Context): string {
  let nonce = c.get("secureHeadersNonce") as string | undefined;
  if (!nonce) {
    nonce = newNonce();
    c.set("secureHeadersNonce", nonce);
  }
  return `'nonce-${nonce}'`;
}
