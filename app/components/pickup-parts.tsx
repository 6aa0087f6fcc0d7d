import { useTranslation } from "#app/i18n/provider.ts";
import type { PickupSlot } from "#shared/constants.ts";
import type { PickupStatus } from "#shared/statuses.ts";

/** The preferred window: the day and its part of the day (pickups:slots.*). */
export function PickupWindow({ day, slot }: { day: string; slot: PickupSlot }) {
  const { t } = useTranslation();
  return <>{t("assign:window", { day, slot: t(`pickups:slots.${slot}`) })}</>;
}

const STATUS_STYLE: Record<PickupStatus, string> = {
  new: "bg-amber-100 text-amber-950",
  assigned: "bg-sky-100 text-sky-950",
  accepted: "bg-sky-100 text-sky-950",
  collected: "bg-indigo-100 text-indigo-950",
  delivered: "bg-emerald-100 text-emerald-950",
  received: "bg-emerald-100 text-emerald-950",
  cancelled: "bg-slate-200 text-slate-900",
};

/** The request's state as a small badge (pickups:status.*). */
export function PickupStatusBadge({ status }: { status: PickupStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-sm font-medium ${STATUS_STYLE[status]}`}>
      {t(`pickups:status.${status}`)}
    </span>
  );
}
