/** One page of a list plus what the pager needs. */
export interface Paged<T> {
  rows: T[];
  /** 1-based. */
  page: number;
  pages: number;
  total: number;
}
