import { X } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";

const FOCUSABLE =
  'a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog whose open state lives in the URL: the server renders it open, so it works without
 * JavaScript and survives a reload, and closing it is a link back to the list. With JavaScript, focus moves
 * into it when it opens, Tab stays inside it, Escape closes it and the page behind it does not scroll.
 */
export function ReviewDialog({
  titleId,
  closeHref,
  closeLabel,
  children,
}: {
  titleId: string;
  closeHref: string;
  closeLabel: string;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    // A dialog the server rendered open may have been scrolled, or focused inside, before this runs (a reader on a
    // slow phone taps Approve while the page hydrates): moving focus must neither scroll it back to the top, which
    // moves the button from under the finger, nor take focus from where the reader put it.
    const dialog = ref.current;
    if (dialog && !dialog.contains(document.activeElement)) dialog.focus({ preventScroll: true });
    const body = document.body;
    const overflow = body.style.overflow;
    body.style.overflow = "hidden";
    return () => {
      body.style.overflow = overflow;
    };
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const dialog = ref.current;
      if (!dialog) return;
      if (e.key === "Escape") {
        e.preventDefault();
        void navigate(closeHref, { preventScrollReset: true });
        return;
      }
      if (e.key !== "Tab") return;
      const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
      if (items.length === 0) return;
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = document.activeElement;
      if (e.shiftKey && (active === first || active === dialog || !dialog.contains(active))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !dialog.contains(active))) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [closeHref, navigate]);

  return (
    <div className="fixed inset-0 z-50 overflow-y-auto overscroll-contain bg-slate-900/60 px-2 py-4 sm:px-4 sm:py-8">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="relative mx-auto w-full max-w-2xl rounded-lg bg-white p-4 shadow-xl outline-none sm:p-6"
      >
        <Link
          to={closeHref}
          preventScrollReset
          className="absolute end-2 top-2 inline-flex items-center gap-1 rounded-md px-2 py-1 font-medium text-slate-800 hover:bg-slate-100"
        >
          <X aria-hidden="true" className="size-5" />
          {closeLabel}
        </Link>
        {children}
      </div>
    </div>
  );
}
