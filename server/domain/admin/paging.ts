import { PAGE_SIZE } from "../../../app/lib/constants";

/** One page of a list plus what the pager needs. */
export interface Paged<T> {
  rows: T[];
  /** 1-based. */
  page: number;
  pages: number;
  total: number;
}

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
