import { Search } from "lucide-react";
import { Form, Link } from "react-router";
import { SEARCH_MAX_LENGTH } from "#shared/constants.ts";

/**
 * The search box of a list: a GET form (works without JavaScript) sending `q`, plus any `hidden` values (a tab),
 * and a link that clears the search when one is shown. `key` gives the box the text of the search the list is
 * for, also after a client-side navigation ("show all" empties it).
 */
export function SearchForm({
  action,
  id,
  q,
  label,
  placeholder,
  submitLabel,
  clear,
  hidden = {},
  showLabel = false,
}: {
  action: string;
  id: string;
  q: string;
  label: string;
  placeholder: string;
  submitLabel: string;
  /** Where "show all" leads and its text; shown only while searching. */
  clear?: { to: string; label: string };
  hidden?: Record<string, string>;
  /** Show the label above the box (otherwise it is for screen readers only). */
  showLabel?: boolean;
}) {
  return (
    <Form method="get" action={action} role="search" className="flex flex-wrap gap-2">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={id} className={showLabel ? "w-full font-medium text-slate-800" : "sr-only"}>
        {label}
      </label>
      <input
        key={q}
        id={id}
        name="q"
        type="search"
        defaultValue={q}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder={placeholder}
        className="min-h-11 min-w-0 flex-1 basis-48 rounded-md border border-slate-400 bg-white px-3 py-2 text-base"
      />
      <button
        type="submit"
        className="inline-flex min-h-11 items-center gap-1 rounded-md bg-slate-800 px-4 py-2 font-medium text-white hover:bg-slate-700"
      >
        <Search aria-hidden="true" className="size-4" />
        {submitLabel}
      </button>
      {q && clear && (
        <Link to={clear.to} className="inline-flex min-h-11 items-center px-2 font-medium text-brand-800 underline">
          {clear.label}
        </Link>
      )}
    </Form>
  );
}
