import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/pick";
import { HandHeart } from "lucide-react";
import { CampaignPicker, type PickerParts } from "#app/components/campaign-cards.tsx";
import { DonateStep, DonationKindToggle } from "#app/components/donate-parts.tsx";
import { donationKindLinks } from "#app/lib/campaign-links.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { pickerData } from "#app/components/donate/picker-data.server.ts";

export const handle = pageTitle("donate:title");

const PARTS: PickerParts = { Icon: HandHeart };

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "donor");
  return pickerData(context.services.db, context.services.geocoder, new URL(request.url), "cash", context.lang);
}

/** /donate1: the donor's cash campaign picker, searched and paged, with a details panel for one campaign. */
export default function DonatePick({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { panel } = loaderData;
  return (
    <>
      <title>{`${panel?.state === "open" ? panel.campaign.title : t("donate:pick.heading")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-6xl flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <DonationKindToggle current="cash" links={donationKindLinks(panel?.state === "open" ? panel.campaign.slug : undefined)} />
          <DonateStep step={1} />
        </div>
        <CampaignPicker kind="cash" parts={PARTS} data={loaderData} />
      </div>
    </>
  );
}
