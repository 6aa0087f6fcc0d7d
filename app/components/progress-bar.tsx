import { percentOf } from "#shared/money.ts";

/**
 * Collected of target as a bar with its words ("Rs. 12,000 of Rs. 50,000"), readable by screen readers. A function
 * called in the render (`{progressBar({ … })}`), not a component: it has no state, and a list draws one a row, each of
 * which React would otherwise render as a component of its own (decision 037, 2026-11-28).
 */
export function progressBar({ collected, target, label }: { collected: number; target: number; label: string }) {
  const percent = percentOf(collected, target);
  return (
    <div>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={label}
        aria-label={label}
        className="h-2.5 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-emerald-600" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-sm font-medium text-slate-800">
        {label} <span className="text-slate-600">({percent}%)</span>
      </p>
    </div>
  );
}
