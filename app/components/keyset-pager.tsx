import { useLocation, useSearchParams } from "react-router";
import { useLinks } from "#app/lib/links.ts";
import type { PreviousPage } from "#shared/paging.ts";

/**
 * The links of a list read by keyset (decisions 050 and 044): "older" leads to the page after the last row shown
 * (`next`, the cursor, as `param`), "previous" to the page before the first row shown (`prev`, as `beforeParam`; or the
 * first page's own address when the rows before are no more than a page), "newest" back to the first page. Plain links
 * that keep the rest of the query string, so they work without JavaScript and several lists on one page page
 * independently (`param`). A keyset has no page numbers. A list that offers no "Previous" gives no `prev`. "First page"
 * and "Previous" sit at the line's start, "Next" at its end: in Urdu (right to left) "Next" is on the left, where the
 * reading goes on.
 */
export function KeysetPager({
  next,
  prev = null,
  param,
  beforeParam = "before",
  label,
  older,
  previous,
  newest,
  anchor,
}: {
  next: string | null;
  prev?: PreviousPage;
  param: string;
  /** The query parameter of a "Previous" page's cursor. */
  beforeParam?: string;
  label: string;
  older: string;
  /** The words of "Previous"; needed when `prev` is given. */
  previous?: string;
  newest: string;
  /** The list's heading id, so the page opens where the list is. */
  anchor: string;
}) {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const link = useLinks();
  const paged = params.has(param) || params.has(beforeParam);
  if (!next && !prev && !paged) return null;
  const href = (cursor: { name: string; id: string } | null) => {
    const query = new URLSearchParams(params);
    query.delete(param);
    query.delete(beforeParam);
    if (cursor) query.set(cursor.name, cursor.id);
    const search = query.toString();
    return `${pathname}${search ? `?${search}` : "?"}#${anchor}`;
  };
  const linkClass =
    "inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-brand-800 hover:bg-brand-50";
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3">
      <span className="flex flex-wrap items-center gap-3">
        {paged && (
          <a {...link(href(null))} className={linkClass}>
            {newest}
          </a>
        )}
        {prev && (
          <a {...link(href(prev === "first" ? null : { name: beforeParam, id: prev.before }))} className={linkClass} rel="prev">
            {previous}
          </a>
        )}
      </span>
      {next && (
        <a {...link(href({ name: param, id: next }))} className={linkClass} rel="next">
          {older}
        </a>
      )}
    </nav>
  );
}
