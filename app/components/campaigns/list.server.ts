import type { LoaderFunctionArgs } from "react-router";
import { type CampaignTab, DESCRIPTION_PREVIEW_WORDS, SEARCH_MAX_LENGTH } from "#shared/constants.ts";
import { requireUser } from "#app/lib/http.server.ts";
import { pictureSrcSet, pictureUrl } from "#shared/pictures.ts";
import { previewWords } from "#shared/text.ts";
import { placeLabelFor } from "#shared/places.ts";
import { parsePage } from "#server/db/query.ts";
import { listCampaigns } from "#server/domain/campaigns/campaigns.ts";
import { ngoPaymentMethods } from "#server/domain/donations/cash.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { fundBadges } from "#shared/fund-badges.ts";
import { formatRupees } from "#shared/money.ts";

const NOTICES = ["created", "saved", "deleted", "archived", "closed"] as const;

/** One tab of the NGO's campaigns (/campaigns: ongoing, /comp_camp: successful), searched and paged. */
export async function campaignListLoader({ context, request }: LoaderFunctionArgs, tab: CampaignTab) {
  const user = requireUser(context, "ngo");
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, SEARCH_MAX_LENGTH);
  const list = await listCampaigns(context.services.db, user, { tab, q, page: parsePage(url.searchParams.get("page")) });
  const notice = url.searchParams.get("notice");
  const { t } = serverI18n(context.lang);
  return {
    tab,
    q,
    canTakeCash: (await ngoPaymentMethods(context.services.db, user)).length > 0,
    notice: (NOTICES as readonly string[]).includes(notice ?? "") ? notice : null,
    campaigns: {
      ...list,
      rows: list.rows.map((c) => ({
        id: c.id,
        slug: c.slug,
        title: c.title,
        preview: previewWords(c.description, DESCRIPTION_PREVIEW_WORDS),
        targetAmount: c.targetAmount,
        collectedAmount: c.collectedAmount,
        // Written here, not in the browser: its first number format costs a phone tens of milliseconds while the page
        // hydrates (decision 036).
        progressLabel: t("campaigns:progress", {
          collected: formatRupees(c.collectedAmount, context.lang),
          target: formatRupees(c.targetAmount, context.lang),
        }),
        locationLabel: placeLabelFor({ label: c.locationLabel, labelUr: c.locationLabelUr }, context.lang),
        picture: pictureUrl(c.pictureKey, "campaign"),
        pictureSrcSet: pictureSrcSet(c.pictureKey),
        fundBadges: fundBadges(c.acceptedFunds, t),
        role: c.role,
        partners: c.ngos.map((n) => n.name),
      })),
    },
  };
}
