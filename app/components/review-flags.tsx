import { BadgeCheck, Images, RotateCcw, Scale, TriangleAlert } from "lucide-react";
import { useTranslation } from "#app/i18n/provider.ts";
import { DateTime } from "./date-time.tsx";
import type { FormattedTime } from "#shared/format.ts";

export type ReviewFlag = "sameTransaction" | "sameImage" | "statementMatched" | "amountDiffers" | "resubmitted";

/** Each warning has its own colour and icon, and always its words: colour alone tells a reviewer nothing. */
const FLAG_STYLE: Record<ReviewFlag, { className: string; Icon: typeof TriangleAlert }> = {
  sameTransaction: { className: "border-red-400 bg-red-50 text-red-900", Icon: TriangleAlert },
  sameImage: { className: "border-amber-500 bg-amber-50 text-amber-950", Icon: Images },
  // The NGO's own statement holds this transfer (decision 022), or holds it with another amount.
  statementMatched: { className: "border-emerald-600 bg-emerald-50 text-emerald-900", Icon: BadgeCheck },
  amountDiffers: { className: "border-amber-500 bg-amber-50 text-amber-950", Icon: Scale },
  // The donor answered a disapproval with a corrected proof (decision 025): the dialog shows the history.
  resubmitted: { className: "border-sky-600 bg-sky-50 text-sky-900", Icon: RotateCcw },
};

export function FlagBadge({ flag }: { flag: ReviewFlag }) {
  const { t } = useTranslation();
  const { className, Icon } = FLAG_STYLE[flag];
  return (
    <span className={`inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-sm font-bold ${className}`}>
      <Icon aria-hidden="true" className="size-4 shrink-0" />
      {t(`review:flags.${flag}`)}
    </span>
  );
}

/** The badges of one donation, as a list so a screen reader counts them; nothing when there are none. */
export function FlagBadges({ flags }: { flags: ReviewFlag[] }) {
  const { t } = useTranslation();
  if (flags.length === 0) return null;
  return (
    <ul aria-label={t("review:flags.label")} className="flex flex-wrap gap-2">
      {flags.map((f) => (
        <li key={f}>
          <FlagBadge flag={f} />
        </li>
      ))}
    </ul>
  );
}

/** Another donation a warning points at. The campaign is null when it was paid to another NGO. */
export interface RelatedItem {
  id: string;
  createdAt: FormattedTime;
  status: "pending" | "approved" | "rejected";
  campaignTitle: string | null;
  sameDonor: boolean;
}

/** The panel in the review dialog: what the warning means and the other donations it points at. */
export function FlagPanel({ flag, related }: { flag: ReviewFlag; related: RelatedItem[] }) {
  const { t } = useTranslation();
  const { className } = FLAG_STYLE[flag];
  return (
    <section className={`rounded-md border-2 p-3 ${className}`}>
      <h3>
        <FlagBadge flag={flag} />
      </h3>
      <p className="mt-2">{t(`review:flags.${flag}Lead`)}</p>
      {related.length > 0 && (
        <ul className="mt-2 list-disc space-y-1 ps-5">
          {related.map((r) => (
            <li key={r.id}>
              <DateTime value={r.createdAt} />
              {": "}
              {t("review:flags.related", {
                state: t(`donations:status.${r.status}`),
                campaign: r.campaignTitle ?? t("review:flags.anotherNgo"),
                donor: t(r.sameDonor ? "review:flags.sameDonor" : "review:flags.otherDonor"),
              })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The review dialog's panels of a transaction ID and of a screenshot seen before, when there are any. */
export function FlagPanels({ sameTransaction, sameImage }: { sameTransaction: RelatedItem[]; sameImage: RelatedItem[] }) {
  if (sameTransaction.length === 0 && sameImage.length === 0) return null;
  return (
    <div className="mt-4 flex flex-col gap-3">
      {sameTransaction.length > 0 && <FlagPanel flag="sameTransaction" related={sameTransaction} />}
      {sameImage.length > 0 && <FlagPanel flag="sameImage" related={sameImage} />}
    </div>
  );
}
