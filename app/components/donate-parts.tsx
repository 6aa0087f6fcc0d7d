import { UserText } from "#app/components/user-text.tsx";
import { ArrowLeft, TriangleAlert } from "lucide-react";
import { Link } from "react-router";
import { useLinks } from "#app/lib/links.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import type { DonationKindLinks } from "#app/lib/campaign-links.ts";
import { pictureSrcSet, pictureUrl } from "#shared/pictures.ts";

/** How many screens each flow has: cash /donate1 → /donate4, goods /donate5 → /donate6; for "Step 2 of 4". */
const FLOW_STEPS = { cash: 4, goods: 3 } as const;

/** "Step n of 4" above a screen of a donation flow, so a donor knows how far along they are. */
export function DonateStep({ step, flow = "cash" }: { step: number; flow?: keyof typeof FLOW_STEPS }) {
  const { t } = useTranslation();
  return <p className="text-sm font-medium text-slate-700">{t("donate:step", { step, steps: FLOW_STEPS[flow] })}</p>;
}

/**
 * The Cash / Non-Cash toggle of the pickers (and the goods form). The current half is marked; the other
 * keeps the campaign the donor is looking at, if any. The Non-Cash half shows only while the in-kind flow
 * exists, so it never links to a page that is not there. The page gives the links (`donationKindLinks`), so the
 * flow's other pages, which show no toggle, do not load the campaign links with these parts (decision 033).
 */
export function DonationKindToggle({ current = "cash", links }: { current?: "cash" | "nonCash"; links: DonationKindLinks }) {
  const { t } = useTranslation();
  const link = useLinks();
  const base = "rounded-md px-4 py-2 font-bold";
  const on = `${base} bg-brand-700 text-white`;
  const off = `${base} text-brand-800 hover:bg-brand-50`;
  return (
    <nav aria-label={t("donate:kind.label")} className="inline-flex rounded-lg border border-brand-700 bg-white p-1">
      <a {...link(links.cash)} aria-current={current === "cash" ? "page" : undefined} className={current === "cash" ? on : off}>
        {t("donate:kind.cash")}
      </a>
      {links.nonCash && (
        <a {...link(links.nonCash)} aria-current={current === "nonCash" ? "page" : undefined} className={current === "nonCash" ? on : off}>
          {t("donate:kind.nonCash")}
        </a>
      )}
    </nav>
  );
}

/** A screen of the flow that cannot go on (unknown or ended campaign, nobody to pay): why, and the way back. */
export function DonateProblem({ message, back, backLabel }: { message: string; back: string; backLabel: string }) {
  return (
    <div className="flex flex-col items-start gap-4 rounded-lg bg-white p-4 shadow-sm sm:p-6">
      <p role="alert" className="flex items-start gap-2 font-medium text-amber-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <span>{message}</span>
      </p>
      <BackLink to={back} label={backLabel} />
    </div>
  );
}

/** A plain "Go back" link that points the right way in Urdu too. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link
      to={to}
      className="inline-flex items-center gap-1 rounded-md border border-brand-700 px-4 py-2 font-medium text-brand-800 hover:bg-brand-50"
    >
      <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
      {label}
    </Link>
  );
}

/** The campaign a payment or proof screen is about: its picture and title, small. */
export function CampaignStrip({ title, pictureKey, children }: { title: string; pictureKey: string | null; children?: React.ReactNode }) {
  return (
    <div className="flex items-center gap-3 rounded-lg bg-white p-3 shadow-sm">
      <img
        src={pictureUrl(pictureKey, "campaign")}
        srcSet={pictureSrcSet(pictureKey)}
        sizes="4rem"
        alt=""
        width={64}
        height={64}
        className="size-16 shrink-0 rounded-md object-cover"
      />
      <div className="min-w-0">
        <UserText as="p" className="break-words text-start font-bold text-slate-900">
          {title}
        </UserText>
        {children}
      </div>
    </div>
  );
}
