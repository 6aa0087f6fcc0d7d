import { MapPinned, Phone } from "lucide-react";
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

/** Directions to a point in OpenStreetMap (a phone offers its maps app for it). */
export function directionsUrl(lat: number, lng: number): string {
  return `https://www.openstreetmap.org/directions?to=${lat},${lng}`;
}

export function DirectionsLink({ lat, lng }: { lat: number; lng: number }) {
  const { t } = useTranslation();
  return (
    <a
      href={directionsUrl(lat, lng)}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 font-medium text-brand-800 underline hover:text-brand-900"
    >
      <MapPinned aria-hidden="true" className="size-4 shrink-0" />
      {t("assign:dialog.directions")} <span className="sr-only">{t("assign:dialog.newTab")}</span>
    </a>
  );
}

/** A phone number that a phone can call with a tap. */
export function PhoneLink({ phone }: { phone: string }) {
  const { t } = useTranslation();
  return (
    <a
      href={`tel:${phone.replace(/[^\d+]/g, "")}`}
      aria-label={t("assign:dialog.call", { phone })}
      className="inline-flex items-center gap-1 font-medium text-brand-800 underline hover:text-brand-900"
    >
      <Phone aria-hidden="true" className="size-4 shrink-0" />
      <span dir="ltr">{phone}</span>
    </a>
  );
}
