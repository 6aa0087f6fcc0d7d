/** One page of a list plus what the pager needs. */
export interface Paged<T> {
  rows: T[];
  /** 1-based. */
  page: number;
  pages: number;
  total: number;
}

/**
 * The page before a page read by keyset: the rows just before its first row (`?before=<its id>`), the first page
 * (when the rows before it are no more than a page, so "Previous" from the second page is the first page's own
 * address), or none (this is the first page).
 */
export type PreviousPage = { before: string } | "first" | null;

/**
 * One page of a list read by keyset (decision 050): its rows, newest first, and the cursor of the next page (the last
 * row's id) when there is one. No page numbers and no OFFSET: the next page starts after the cursor's row, the
 * previous one ends before the first row's (decision 044). A list that offers no "Previous" leaves `prev` out.
 */
export interface KeysetPage<T> {
  rows: T[];
  next: string | null;
  prev?: PreviousPage;
}
