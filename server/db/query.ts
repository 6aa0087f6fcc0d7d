import { PAGE_SIZE, SEARCH_MAX_LENGTH } from "#shared/constants.ts";
import type { KeysetPage, Paged, PreviousPage } from "#shared/paging.ts";

/**
 * The helpers every list query shares: paging, ids from URLs, and search text. Access scoping is not here: each
 * area's policy.ts gives its own WHERE.
 */

/** A page number from a query string: anything odd becomes 1, so a hand-edited URL never errors. */
export function parsePage(value: string | null | undefined): number {
  const n = Number.parseInt(value ?? "", 10);
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}

export function pageOffset(page: number): number {
  return (Math.max(1, Math.trunc(page) || 1) - 1) * PAGE_SIZE;
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}

export function paged<T>(rows: T[], page: number, total: number): Paged<T> {
  return { rows, page: Math.max(1, Math.trunc(page) || 1), pages: pageCount(total), total };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids come from URLs; anything that is not a UUID is simply not found (and never reaches the database as a cast error). */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** Search text from a query string: trimmed and cut to SEARCH_MAX_LENGTH; undefined when nothing is left. */
export function searchTerm(value: string | null | undefined): string | undefined {
  return value?.trim().slice(0, SEARCH_MAX_LENGTH) || undefined;
}

/** Escapes the wildcards of a LIKE pattern, so a search for "50%" finds those characters, not everything. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Where a page of a list read by keyset starts (decision 044): after a row (`?after=<id>`, "Next"), before one
 * (`?before=<id>`, "Previous"), or at the top. A value that is not a uuid is no cursor (the first page); `after` wins
 * when a hand-made address has both.
 */
export type KeysetCursor = { after: string } | { before: string } | null;

export function keysetCursor(from: { after?: string | null; before?: string | null }): KeysetCursor {
  if (isUuid(from.after)) return { after: from.after };
  if (isUuid(from.before)) return { before: from.before };
  return null;
}

/** Where a cursor starts a page, without its row: the reads of the page (`keysetReads`) depend on this alone. */
export type KeysetStart = "top" | "after" | "before";

export function keysetStart(cursor: KeysetCursor): KeysetStart {
  return cursor === null ? "top" : "after" in cursor ? "after" : "before";
}

/**
 * Which rows of a list a read takes, relative to the cursor's row, in the list's order:
 * - `after`: strictly after it, read in the list's order;
 * - `before`: strictly before it, read backwards (the nearest first);
 * - `notAfter`: at it or before it, read backwards;
 * - `notBefore`: at it or after it, read in the list's order.
 * Each is one row comparison with the cursor row's keys, the start of a range of the order's index walked one way or
 * the other, so a read costs its rows whatever the depth.
 */
export type KeysetSide = "after" | "before" | "notAfter" | "notBefore";

/** The comparison of a row's keys with the cursor row's for `side` of an order of direction `dir`. */
export function keysetOperator(side: KeysetSide, dir: "asc" | "desc"): "<" | ">" | "<=" | ">=" {
  const forward = side === "after" || side === "notBefore";
  const strict = side === "after" || side === "before";
  const greater = forward === (dir === "asc");
  return `${greater ? ">" : "<"}${strict ? "" : "="}` as "<" | ">" | "<=" | ">=";
}

/** Whether a side is read against the list's order (the nearest row first). */
export function keysetBackwards(side: KeysetSide): boolean {
  return side === "before" || side === "notAfter";
}

export interface KeysetRead {
  side: KeysetSide;
  limit: number;
  offset: number;
}

/**
 * The reads a keyset page of `size` rows needs (ids only, but for the page's own), all from the same cursor:
 * - the first page: `size + 1` rows from the top (the extra one says there is a next page);
 * - after X: `size + 1` rows after X, and up to `size + 1` at or before X (`behind`: none, the page is the first; no
 *   more than a page, "Previous" is the first page; more, "Previous" is the page before this one's first row);
 * - before Y: the `size` rows just before Y (read backwards, shown in order), up to `size + 1` rows before those
 *   (`behind`, as above; its first is the row just before the page), and one at or after Y (`ahead`: there is a next page).
 */
export function keysetReads(
  cursor: KeysetCursor | KeysetStart,
  size: number,
): { page: KeysetRead | null; behind: KeysetRead | null; ahead: KeysetRead | null } {
  const start = typeof cursor === "string" ? cursor : keysetStart(cursor);
  if (start === "top") return { page: null, behind: null, ahead: null };
  if (start === "after")
    return { page: { side: "after", limit: size + 1, offset: 0 }, behind: { side: "notAfter", limit: size + 1, offset: 0 }, ahead: null };
  return {
    page: { side: "before", limit: size, offset: 0 },
    behind: { side: "before", limit: size + 1, offset: size },
    ahead: { side: "notBefore", limit: 1, offset: 0 },
  };
}

/**
 * A keyset page from its reads (`keysetReads`): `rows` as read for the page, in the list's order (up to `size + 1` for
 * the first page or after a cursor), `behind` the ids of that read (nearest first), `ahead` how many that read found.
 * `start` is the row just before the page (null: the page starts at the top), so that another link (a card's Details
 * and its Go back) can name the same page as `after=<start>`.
 */
export function keysetPage<T extends { id: string }>(
  cursor: KeysetCursor,
  size: number,
  rows: T[],
  behind: readonly string[],
  ahead: number,
): KeysetPage<T> & { prev: PreviousPage; start: string | null } {
  const shown = rows.slice(0, size);
  const previous = (): PreviousPage =>
    shown.length === 0 || behind.length === 0 ? null : behind.length <= size ? "first" : { before: shown[0]!.id };
  if (cursor !== null && "before" in cursor) {
    return {
      rows: shown,
      next: ahead > 0 && shown.length > 0 ? shown[shown.length - 1]!.id : null,
      prev: previous(),
      start: behind[0] ?? null,
    };
  }
  return {
    rows: shown,
    next: rows.length > size ? shown[shown.length - 1]!.id : null,
    prev: cursor === null ? null : previous(),
    start: cursor === null || behind.length === 0 ? null : cursor.after,
  };
}
