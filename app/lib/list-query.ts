import type { Paged } from "#shared/paging.ts";

/**
 * A list screen's own query string ("?campaign=…&page=2", or ""): the parameters in `keep` that `from` has,
 * then `extra`. Kept when a dialog opens and closes, after an action, and (without the page) across tabs.
 */
export function listQuery(from: URLSearchParams, keep: readonly string[], extra: Record<string, string> = {}): string {
  const next = new URLSearchParams();
  for (const name of keep) {
    const value = from.get(name);
    if (value) next.set(name, value);
  }
  for (const [k, v] of Object.entries(extra)) next.set(k, v);
  const query = next.toString();
  return query ? `?${query}` : "";
}

/** The requested page of a list, or, when actions have emptied it (it is past the last), the page now last. */
export async function pageOrLast<T extends Paged<unknown>>(query: (page: number) => Promise<T>, page: number): Promise<T> {
  const list = await query(page);
  return list.rows.length === 0 && list.page > list.pages ? query(list.pages) : list;
}
