import { useCallback, type MouseEvent } from "react";
import { useNavigate } from "react-router";

/** The attributes of one of the app's own links: an `<a>` that React Router navigates to without a page load. */
export interface LinkAttributes {
  href: string;
  onClick: (event: MouseEvent<HTMLAnchorElement>) => void;
  "data-discover": "true";
}

/**
 * The app's links where a render draws many (the role shell's menu, the campaign cards; decision 037, 2026-11-28):
 * `const link = useLinks()` once in the component, then `<a {...link("/donate1")} className="…">` for each link.
 *
 * React Router's `<Link>` is a component of its own for every link, each resolving its path twice and keeping a
 * prefetch state (`<NavLink>` a third time), about 25 µs of a server's render a link. Here a link is a plain element,
 * and the component drawing them runs one hook. What the person gets is `<Link>`'s:
 *
 * - without JavaScript, or before it arrives, a plain link;
 * - with it, a left click without a modifier key on a link of this site opening in this tab navigates on the client
 *   (the same `navigate` `<Link>` calls), replacing the history entry when the link leads where the page already is,
 *   as `<Link>` does; any other click (a new tab, a download) is the browser's;
 * - `data-discover`, which React Router's lazy route discovery reads to fetch the routes of the links on the page
 *   before they are followed (as `<Link>` writes it).
 *
 * `to` is written as the `href` as it is given: an address from the site's root (`/donate1?q=…`), or one relative to
 * the page (`?after=…`), which the browser resolves the same with or without JavaScript; the click handler navigates
 * to what the browser resolved.
 */
export function useLinks(): (to: string) => LinkAttributes {
  const navigate = useNavigate();
  const onClick = useCallback(
    (event: MouseEvent<HTMLAnchorElement>) => {
      const a = event.currentTarget;
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      if ((a.target && a.target !== "_self") || a.hasAttribute("download") || a.origin !== window.location.origin) return;
      event.preventDefault();
      const to = a.pathname + a.search + a.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      void navigate(to, { replace: to === here });
    },
    [navigate],
  );
  return (to) => ({ href: to, onClick, "data-discover": "true" });
}
