import { DateTime } from "./date-time.tsx";
import type { FormattedTime } from "#shared/format.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import type { PickupEventType } from "#shared/statuses.ts";

/** One step of a pick-up, with its time formatted in the loader (formatDateTime with context.lang). */
export interface TimelineEvent {
  type: PickupEventType;
  at: FormattedTime;
  riderName: string | null;
  reason: string | null;
}

/**
 * The steps of a pick-up request, oldest first, each with its time (pickups:events.*). Reasons (a rider's
 * decline, the NGO's cancellation) and the NGO's receipt note are shown when `showReasons` is set.
 */
export function PickupTimeline({
  events,
  showReasons = true,
  labelledBy,
  className = "",
}: {
  events: TimelineEvent[];
  showReasons?: boolean;
  labelledBy?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  if (events.length === 0) return <p className={`text-slate-700 ${className}`}>{t("assign:timeline.empty")}</p>;
  return (
    <ol aria-labelledby={labelledBy} className={`flex flex-col gap-3 border-s-2 border-brand-200 ps-4 ${className}`}>
      {events.map((e, i) => (
        <li key={`${e.type}-${e.at.iso}-${i}`} className="relative min-w-0">
          <span
            aria-hidden="true"
            className={`absolute -start-[1.4rem] top-1.5 size-3 rounded-full ${e.type === "declined" || e.type === "cancelled" ? "bg-amber-500" : "bg-brand-600"}`}
          />
          <p className="font-medium text-slate-900">{t(`pickups:events.${e.type}`, { rider: e.riderName ?? "" })}</p>
          <DateTime value={e.at} className="text-sm text-slate-600" />
          {showReasons && e.reason && (
            <p className="mt-0.5 text-sm wrap-anywhere whitespace-pre-line text-slate-800">
              {t(e.type === "received" ? "assign:timeline.note" : "assign:timeline.reason", { text: e.reason })}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}
