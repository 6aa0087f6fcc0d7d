import type { Route } from "./+types/pick";
import { CampaignPicker } from "~/components/campaign-cards";
import { DonateStep, DonationKindToggle } from "~/components/donate-parts";
import { RoleShell } from "~/components/role-shell";
import { useTranslation } from "~/i18n/i18n";
import { requireUser } from "~/lib/http.server";
import { pickerData } from "./picker-data.server";

export async function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, "donor", request);
  return pickerData(context.services.db, new URL(request.url), { itemsNeeded: false });
}

/** /donate1: the donor's cash campaign picker, searched and paged, with a details panel for one campaign. */
export default function DonatePick({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { panel } = loaderData;
  return (
    <RoleShell title={t("donate:title")}>
      <title>{`${panel?.state === "open" ? panel.campaign.title : t("donate:pick.heading")} · ${t("common:brand")}`}</title>
      <div className="mx-auto flex max-w-6xl flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <DonationKindToggle current="cash" campaign={panel?.state === "open" ? panel.campaign.slug : undefined} />
          <DonateStep step={1} />
        </div>
        <CampaignPicker kind="cash" data={loaderData} />
      </div>
    </RoleShell>
  );
}
