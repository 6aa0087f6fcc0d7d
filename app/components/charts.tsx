import { useId } from "react";

/**
 * Charts drawn on the server as inline SVG or plain HTML: no chart library reaches the browser (the
 * JavaScript budget), they show before any script runs, and each carries its numbers as a table for
 * screen readers and for anyone who prefers to read them.
 */

export interface ChartPoint {
  /** Shown on the axis and in the table, e.g. a formatted date. */
  label: string;
  value: number;
}

/** The plot's own coordinates; it is stretched to the space it gets, and its lines keep their width. */
const PLOT_W = 400;
const PLOT_H = 200;

/** The smallest "round" number (1, 2 or 5 times a power of ten) at or above `n`, so axis ticks read well. */
export function niceCeiling(n: number): number {
  if (n <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * power >= n) return m * power;
  return 10 * power;
}

/**
 * A line with the area under it: a value over time, such as money collected so far. The SVG is one picture
 * named by `title`; the table inside the disclosure holds every point.
 */
export function AreaChart({
  title,
  summary,
  points,
  formatValue,
  formatTick = formatValue,
  labelHeading,
  valueHeading,
  extraColumn,
  showNumbers,
}: {
  title: string;
  /** One sentence that says what the chart shows, for the picture's accessible description. */
  summary: string;
  points: ChartPoint[];
  formatValue: (n: number) => string;
  formatTick?: (n: number) => string;
  labelHeading: string;
  valueHeading: string;
  /** A further column for the table only, e.g. the amount of each day beside the running total. */
  extraColumn?: { heading: string; values: string[] };
  /** The disclosure's label, e.g. "Show the numbers". */
  showNumbers: string;
}) {
  const id = useId();
  const max = niceCeiling(Math.max(0, ...points.map((p) => p.value)));
  const x = (i: number) => (points.length <= 1 ? PLOT_W / 2 : (i / (points.length - 1)) * PLOT_W);
  const y = (v: number) => PLOT_H - (v / max) * PLOT_H;
  const line = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const area = points.length > 1 ? `${line} L${x(points.length - 1).toFixed(1)},${PLOT_H} L0,${PLOT_H} Z` : "";
  const last = points.at(-1);
  // The first and the last point are labelled, and the middle one when there is a point right in the middle: each
  // label has a third of the width (half, with two), so on a phone they never run into each other.
  const labelled =
    points.length === 1
      ? [0]
      : points.length % 2 === 1 && points.length > 2
        ? [0, (points.length - 1) / 2, points.length - 1]
        : [0, points.length - 1];
  const labelAlign = (i: number) =>
    points.length === 1 ? "text-center" : i === 0 ? "text-start" : i === points.length - 1 ? "text-end" : "text-center";

  return (
    <figure className="rounded-lg bg-white p-4 shadow-sm">
      <figcaption id={`${id}-title`} className="mb-2 font-bold break-words text-slate-900">
        {title}
      </figcaption>
      {/*
        The labels are text beside the drawing, not inside it: an SVG scaled down to a phone's width would shrink
        them below reading size, so they keep the page's font size (12px on a phone) while the plot stretches.
        Time runs left to right in both languages, as on a printed chart.
      */}
      <div
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-summary`}
        dir="ltr"
        className="grid max-w-2xl grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs text-slate-700 sm:text-sm"
      >
        <div className="flex flex-col justify-between text-end tabular-nums">
          {[max, max / 2, 0].map((v) => (
            <span key={v} className="ekc-chart-label block leading-4 whitespace-nowrap">
              {formatTick(v)}
            </span>
          ))}
        </div>
        {/* Half a label's height above and below, so each tick label is centred on its line. */}
        <div className="h-44 py-2 sm:h-56">
          <div className="relative h-full">
            <svg
              viewBox={`0 0 ${PLOT_W} ${PLOT_H}`}
              preserveAspectRatio="none"
              aria-hidden="true"
              className="absolute inset-0 block h-full w-full overflow-visible"
            >
              {[0, max / 2, max].map((v) => (
                <line
                  key={v}
                  x1={0}
                  x2={PLOT_W}
                  y1={y(v)}
                  y2={y(v)}
                  stroke="#cbd5e1"
                  strokeDasharray={v === 0 ? undefined : "4 4"}
                  vectorEffect="non-scaling-stroke"
                />
              ))}
              {area && <path d={area} fill="#0f766e" fillOpacity={0.15} />}
              {points.length > 1 && (
                <path d={line} fill="none" stroke="#0f766e" strokeWidth={2.5} strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
              )}
            </svg>
            {last && (
              // The latest point, drawn beside the plot so the stretching leaves it round.
              <span
                aria-hidden="true"
                className={`absolute -translate-x-1/2 -translate-y-1/2 rounded-full bg-brand-700 ${points.length === 1 ? "size-2.5" : "size-2"}`}
                style={{ left: `${(x(points.length - 1) / PLOT_W) * 100}%`, top: `${(y(last.value) / PLOT_H) * 100}%` }}
              />
            )}
          </div>
        </div>
        <span />
        <div className={`mt-1 grid ${labelled.length === 3 ? "grid-cols-3" : labelled.length === 2 ? "grid-cols-2" : "grid-cols-1"}`}>
          {labelled.map((i) => (
            // A label too long for its third is cut short; its whole text stays in the title and the table.
            <span key={i} title={points[i]!.label} className={`ekc-chart-label block truncate ${labelAlign(i)}`}>
              {points[i]!.label}
            </span>
          ))}
        </div>
      </div>
      <p id={`${id}-summary`} className="sr-only">
        {summary}
      </p>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm font-medium text-brand-800 underline">{showNumbers}</summary>
        <div className="mt-2 max-h-80 overflow-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="border-b border-slate-300 text-start">
                <th scope="col" className="py-1 pe-2 text-start">
                  {labelHeading}
                </th>
                {extraColumn && (
                  <th scope="col" className="py-1 pe-2 text-end">
                    {extraColumn.heading}
                  </th>
                )}
                <th scope="col" className="py-1 text-end">
                  {valueHeading}
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((p, i) => (
                <tr key={`${p.label}-${i}`} className="border-b border-slate-100">
                  <th scope="row" className="py-1 pe-2 text-start font-normal">
                    {p.label}
                  </th>
                  {extraColumn && <td className="py-1 pe-2 text-end tabular-nums">{extraColumn.values[i]}</td>}
                  <td className="py-1 text-end tabular-nums">{formatValue(p.value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

export interface Bar {
  label: string;
  value: number;
  /** The text beside the bar, e.g. "4 donations · Rs. 10,000"; the value itself when absent. */
  text?: string;
}

/**
 * Horizontal bars as a table: each row names its category, draws its bar (decoration) and states its
 * numbers, so the chart is its own text alternative and follows the page's direction in Urdu.
 */
export function BarChart({
  title,
  bars,
  labelHeading,
  valueHeading,
  formatValue = String,
}: {
  title: string;
  bars: Bar[];
  labelHeading: string;
  valueHeading: string;
  formatValue?: (n: number) => string;
}) {
  const max = Math.max(0, ...bars.map((b) => b.value));
  return (
    <figure className="rounded-lg bg-white p-4 shadow-sm">
      <table className="w-full text-sm">
        <caption className="mb-2 text-start text-base font-bold text-slate-900">{title}</caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">{labelHeading}</th>
            <th scope="col">{valueHeading}</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.label}>
              <th scope="row" className="w-28 max-w-28 py-1.5 pe-3 text-start align-top font-medium">
                {/* A long name (an NGO's, say) is cut after two lines; the title and the screen reader keep all of it. */}
                <span title={b.label} className="ekc-chart-label line-clamp-2 break-words">
                  {b.label}
                </span>
              </th>
              <td className="py-1.5">
                <div className="h-3 rounded-full bg-slate-100" aria-hidden="true">
                  <div
                    className="h-3 rounded-full bg-brand-700"
                    style={{ width: `${max > 0 ? Math.max(b.value > 0 ? 2 : 0, (b.value / max) * 100) : 0}%` }}
                  />
                </div>
                <span className="mt-0.5 block tabular-nums text-slate-800">{b.text ?? formatValue(b.value)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
