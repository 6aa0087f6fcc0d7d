import type { FormattedTime } from "~/lib/format";

/** A moment as `formatDateTime` (app/lib/format.ts) wrote it in the loader. */
export function DateTime({ value, className }: { value: FormattedTime; className?: string }) {
  return (
    <time dateTime={value.iso} className={className}>
      {value.text}
    </time>
  );
}
