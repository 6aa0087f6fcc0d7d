import type { RiderOption } from "#app/components/pickup-actions.tsx";
import type { RiderChoice } from "#server/domain/pickups/pickups.ts";
import { formatKm } from "#shared/format.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { placeLabelFor } from "#shared/places.ts";

/**
 * The riders an NGO may give a pick-up to, each as its option's words in the reader's language, written by the loader
 * so the pick-up dialog carries no code to format distances and areas (decision 033): "Name — 3.2 km (Area) · 1 open",
 * "distance unknown" for a rider who has set no area, "under 1 km" close by; then "far" beyond the radius (formatted as
 * `radiusKm`) and "declined this pick-up" for a rider who said no to it.
 */
export function riderOptions(riders: RiderChoice[], radiusKm: string, lang: Lang): RiderOption[] {
  const { t } = serverI18n(lang);
  return riders.map((r) => {
    let label: string;
    if (r.distanceKm === null) label = t("assign:rider.optionUnknown", { name: r.name, open: r.open });
    else {
      const km = formatKm(r.distanceKm, lang);
      const distance = km === null ? t("assign:rider.underKm") : t("assign:rider.km", { km });
      label = r.areaLabel
        ? t("assign:rider.option", {
            name: r.name,
            distance,
            area: placeLabelFor({ label: r.areaLabel, labelUr: r.areaLabelUr }, lang),
            open: r.open,
          })
        : t("assign:rider.optionNoArea", { name: r.name, distance, open: r.open });
    }
    if (r.far) label = t("assign:rider.withMark", { label, mark: t("assign:rider.far", { km: radiusKm }) });
    if (r.declined) label = t("assign:rider.withMark", { label, mark: t("assign:rider.declined") });
    return { id: r.id, label };
  });
}
