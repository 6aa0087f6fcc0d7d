import { pageTitle } from "#app/components/role-shell.tsx";
import type { Route } from "./+types/pick";
import { Package } from "lucide-react";
import { CampaignPicker, type PickerParts } from "#app/components/campaign-cards.tsx";
import { ItemsNeeded } from "#app/components/items-needed.tsx";
import { DonateStep, DonationKindToggle } from "#app/components/donate-parts.tsx";
import { donationKindLinks } from "#app/lib/campaign-links.ts";
import { useTranslation } from "#app/i18n/provider.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { pickerData } from "#app/components/donate/picker-data.server.ts";

export const handle = pageTitle("donate:title");

const PARTS: PickerParts = { Icon: Package, Items: ItemsNeeded };

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "donor");
  return pickerData(context.services.db, context.services.geocoder, new URL(request.url), "goods", context.lang);
}

/**
 * /donate5: the donor's non-cash campaign picker: the same cards, search and pages as /donate1, each showing
 * the items the campaign needs; Donate goods opens the goods form.
 */
export default function GoodsPick({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { panel } = loaderData;
  return (
    <>
      <title>{`${panel?.state === "open" ? panel.campaign.title : t("goods:pick.heading")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-6xl flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <DonationKindToggle current="nonCash" links={donationKindLinks(panel?.state === "open" ? panel.campaign.slug : undefined)} />
          <DonateStep step={1} flow="goods" />
        </div>
        <CampaignPicker kind="goods" parts={PARTS} data={loaderData} />
      </div>
    </>
  );
}
