import { PAGE_SIZE, SEARCH_MAX_LENGTH } from "#shared/constants.ts";
import type { Paged } from "#shared/paging.ts";

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
