/** One page of a list plus what the pager needs. */
export interface Paged<T> {
  rows: T[];
  /** 1-based. */
  page: number;
  pages: number;
  total: number;
}

/**
 * One page of a list read by keyset (decision 050): its rows, newest first, and the cursor of the next page (the last
 * row's id) when there is one. No page numbers and no OFFSET: the next page starts after the cursor's row.
 */
export interface KeysetPage<T> {
  rows: T[];
  next: string | null;
}
