import { X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
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

/**
 * A plain POST form's check of its one required field, which the server checks too (decision 033): drawn by the
 * server, the form leaves it to the browser (`required`); hydrated, `noValidate` gives way to this check, which answers
 * an empty field (or only spaces) with the server's message under it, in the page's language, and sends nothing
 * (the server's 400 would be an error in the console). `errors` are that message or the server's answer. Here, with
 * the dialogs whose plain forms use it, so that it comes in their chunk rather than in one of its own (decision 033).
 */
export function useRequiredCheck(name: string, message: string, serverErrors: string[] | null | undefined) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [missing, setMissing] = useState(false);
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    const field = e.currentTarget.elements.namedItem(name) as HTMLTextAreaElement | HTMLSelectElement | null;
    const empty = !field?.value.trim();
    setMissing(empty);
    if (empty) {
      e.preventDefault();
      field?.focus();
    }
  };
  return { noValidate: hydrated, onSubmit, errors: missing ? [message] : (serverErrors ?? undefined) };
}
