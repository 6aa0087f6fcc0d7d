import { UserOption } from "#app/components/user-text.tsx";

/**
 * The filter dropdown of the NGO's lists ("Campaign" on the cash review, pick-ups and donation history;
 * "Position" on the volunteer applications): every choice of the list's rows, with an "All …" choice sent as an
 * empty value. Part of a GET form, so it works without JavaScript; `key` makes the browser show the chosen
 * value again after a client-side navigation.
 */
export function FilterSelect({
  id,
  name,
  label,
  allLabel,
  options,
  value,
}: {
  id: string;
  /** The query parameter the form sends. */
  name: string;
  label: string;
  allLabel: string;
  options: { id: string; title: string }[];
  value: string;
}) {
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1 sm:max-w-md">
      <label htmlFor={id} className="font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        key={value}
        className="min-h-11 w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-base"
      >
        <option value="">{allLabel}</option>
        {options.map((o) => (
          <UserOption key={o.id} value={o.id} text={o.title} />
        ))}
      </select>
    </div>
  );
}
