import { Link, useSearchParams } from "react-router";

/**
 * The links of a list read by keyset (decision 050): "older" leads to the page after the last row shown (`next`, the
 * cursor), "newest" back to the first page. Plain links that keep the rest of the query string, so they work without
 * JavaScript and several lists on one page page independently (`param`). A keyset has no page numbers: the way back is
 * the browser's, or the first page.
 */
export function KeysetPager({
  next,
  param,
  label,
  older,
  newest,
  anchor,
}: {
  next: string | null;
  param: string;
  label: string;
  older: string;
  newest: string;
  /** The list's heading id, so the page opens where the list is. */
  anchor: string;
}) {
  const [params] = useSearchParams();
  const paged = params.has(param);
  if (!next && !paged) return null;
  const href = (cursor: string | null) => {
    const query = new URLSearchParams(params);
    if (cursor) query.set(param, cursor);
    else query.delete(param);
    const search = query.toString();
    return `${search ? `?${search}` : "?"}#${anchor}`;
  };
  const linkClass =
    "inline-flex min-h-11 items-center rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-brand-800 hover:bg-brand-50";
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3">
      {paged ? (
        <Link to={href(null)} className={linkClass}>
          {newest}
        </Link>
      ) : (
        <span />
      )}
      {next && (
        <Link to={href(next)} className={linkClass} rel="next">
          {older}
        </Link>
      )}
    </nav>
  );
}
