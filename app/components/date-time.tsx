import type { FormattedTime } from "#shared/format.ts";

/** A moment as `formatDateTime` (shared/format.ts) wrote it in the loader. */
export function DateTime({ value, className }: { value: FormattedTime; className?: string }) {
  return (
    <time dateTime={value.iso} className={className}>
      {value.text}
    </time>
  );
}
