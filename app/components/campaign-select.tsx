/**
 * The "Campaign" dropdown of the NGO's lists (cash review, pick-ups, donation history): every campaign of the
 * list's rows, with an "All campaigns" choice sent as an empty value. Part of a GET form, so it works without
 * JavaScript; `key` makes the browser show the chosen value again after a client-side navigation.
 */
export function CampaignSelect({
  id,
  label,
  allLabel,
  campaigns,
  value,
}: {
  id: string;
  label: string;
  allLabel: string;
  campaigns: { id: string; title: string }[];
  value: string;
}) {
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1 sm:max-w-md">
      <label htmlFor={id} className="font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        name="campaign"
        defaultValue={value}
        key={value}
        className="w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-base"
      >
        <option value="">{allLabel}</option>
        {campaigns.map((c) => (
          <option key={c.id} value={c.id}>
            {c.title}
          </option>
        ))}
      </select>
    </div>
  );
}
