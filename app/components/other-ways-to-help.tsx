import { HeartHandshake, Package } from "lucide-react";
import { Link } from "react-router";
import { useTranslation } from "#app/i18n/provider.ts";
import { IN_KIND_FLOW_AVAILABLE, nonCashHref } from "#app/lib/campaign-links.ts";

/**
 * A campaign that takes no money (none of its NGOs can be paid): how a donor can help instead, goods or time, so the
 * public page and the cash picker never end in a dead end. Apart from donate-parts.tsx, so the public campaign page
 * loads none of the donation flow's parts with it (decision 033).
 */
export function OtherWaysToHelp({ title, slug }: { title: string; slug: string }) {
  const { t } = useTranslation();
  const link =
    "inline-flex min-h-11 items-center gap-2 rounded-md border border-brand-700 bg-white px-4 py-2 font-medium text-brand-800 hover:bg-brand-50";
  return (
    <section aria-labelledby="other-ways" className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="other-ways" className="text-lg font-bold text-amber-950">
        {t("donate:otherWays.heading")}
      </h2>
      <p className="text-amber-950">{t("donate:otherWays.noCash", { title })}</p>
      <p className="flex flex-wrap gap-3">
        {IN_KIND_FLOW_AVAILABLE && (
          <Link to={nonCashHref(slug)} className={link}>
            <Package aria-hidden="true" className="size-5" />
            {t("donate:otherWays.goods")}
          </Link>
        )}
        <Link to="/vfg1" className={link}>
          <HeartHandshake aria-hidden="true" className="size-5" />
          {t("donate:otherWays.volunteer")}
        </Link>
      </p>
    </section>
  );
}
