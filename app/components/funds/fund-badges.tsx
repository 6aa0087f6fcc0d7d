import { BadgeCheck } from "lucide-react";
import { useTranslation } from "#app/i18n/provider.ts";
import type { FundKind } from "#shared/statuses.ts";

/**
 * The funds a campaign takes besides general (which every campaign takes), as badges: Zakat first, marked as attested
 * (a campaign takes Zakat only while its NGO's attestation is current, decision 048), then Sadaqah and Fitrana.
 * Spans, so a card places them in its own row.
 */
export function FundBadges({ funds, size = "xs" }: { funds: readonly FundKind[]; size?: "xs" | "sm" }) {
  const { t } = useTranslation();
  const text = size === "xs" ? "text-xs" : "text-sm";
  return (
    <>
      {funds.includes("zakat") && (
        <span className={`inline-flex items-center gap-1 rounded bg-emerald-100 px-2 py-0.5 font-bold text-emerald-900 ${text}`}>
          <BadgeCheck aria-hidden="true" className="size-4" />
          {t("donate:zakat")}
        </span>
      )}
      {funds
        .filter((f) => f === "sadaqah" || f === "fitrana")
        .map((f) => (
          <span key={f} className={`rounded bg-sky-100 px-2 py-0.5 font-bold text-sky-900 ${text}`}>
            {t(`funds:kinds.${f}`)}
          </span>
        ))}
    </>
  );
}
