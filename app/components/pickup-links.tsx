import { MapPinned, Phone } from "lucide-react";
import { useTranslation } from "#app/i18n/provider.ts";

/*
 * The pick-up dialog's links (the list shows neither): a file of their own, so that the dialog's chunk takes them and
 * the list's does not (decision 033).
 */

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
