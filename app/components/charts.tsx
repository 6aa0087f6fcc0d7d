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

const WIDTH = 480;
const HEIGHT = 240;
const PAD = { top: 16, end: 16, bottom: 36, start: 64 };

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
  const innerW = WIDTH - PAD.start - PAD.end;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.start + (points.length <= 1 ? innerW / 2 : (i / (points.length - 1)) * innerW);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const line = points.map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const area = points.length > 1 ? `${line} L${x(points.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z` : "";
  const ticks = [0, max / 2, max];
  // At most three date labels fit a phone: the first, the middle and the last.
  const labelled = [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])].filter((i) => i >= 0);

  return (
    <figure className="rounded-lg bg-white p-4 shadow-sm">
      <figcaption id={`${id}-title`} className="mb-2 font-bold text-slate-900">
        {title}
      </figcaption>
      {/* Time runs left to right in both languages, as on a printed chart. */}
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-summary`}
        className="h-auto w-full max-w-2xl"
        style={{ direction: "ltr" }}
        fontSize={12}
      >
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.start} x2={WIDTH - PAD.end} y1={y(v)} y2={y(v)} stroke="#cbd5e1" strokeDasharray={v === 0 ? undefined : "4 4"} />
            <text x={PAD.start - 6} y={y(v) + 4} textAnchor="end" fill="#334155">
              {formatTick(v)}
            </text>
          </g>
        ))}
        {labelled.map((i) => (
          <text
            key={i}
            x={x(i)}
            y={HEIGHT - PAD.bottom + 18}
            textAnchor={points.length === 1 ? "middle" : i === 0 ? "start" : i === points.length - 1 ? "end" : "middle"}
            fill="#334155"
          >
            {points[i]!.label}
          </text>
        ))}
        {area && <path d={area} fill="#0f766e" fillOpacity={0.15} />}
        {points.length > 1 && <path d={line} fill="none" stroke="#0f766e" strokeWidth={2.5} strokeLinejoin="round" />}
        {points.length === 1 && <circle cx={x(0)} cy={y(points[0]!.value)} r={5} fill="#0f766e" />}
        {points.length > 1 && <circle cx={x(points.length - 1)} cy={y(points.at(-1)!.value)} r={4} fill="#0f766e" />}
      </svg>
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
              <th scope="row" className="w-28 py-1.5 pe-3 text-start align-top font-medium">
                {b.label}
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
