import type { DbOrTx } from "#server/db/client.ts";
import { parsePage } from "#server/db/query.ts";
import { pickerCampaigns } from "#server/domain/donations/picker.ts";
import { campaignCard, PICKER_SEARCH_MAX_LENGTH } from "#app/components/donate/picker-data.server.ts";
import { CAMPAIGN_CAUSES, type CampaignCause } from "#shared/statuses.ts";
import type { Geocoder } from "#shared/places.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";

/** The landing page's search, as the GET form sends it: anything unknown is no filter at all. */
export interface BrowseFilters {
  q: string;
  cause: CampaignCause | "";
  zakatOnly: boolean;
  page: number;
}

export function browseFilters(url: URL): BrowseFilters {
  const cause = url.searchParams.get("cause") ?? "";
  return {
    q: (url.searchParams.get("q") ?? "").trim().slice(0, PICKER_SEARCH_MAX_LENGTH),
    cause: (CAMPAIGN_CAUSES as readonly string[]).includes(cause) ? (cause as CampaignCause) : "",
    zakatOnly: url.searchParams.get("zakat") === "1",
    page: parsePage(url.searchParams.get("page")),
  };
}

/**
 * A page of the campaigns anyone may browse on the landing page (active, not paused), searched and filtered. A search
 * that names a place (a city in English or Urdu, a short name) finds the campaigns there too.
 */
export async function browseData(db: DbOrTx, geocoder: Geocoder, url: URL, lang: Lang) {
  const { t } = serverI18n(lang);
  const filters = browseFilters(url);
  const list = await pickerCampaigns(db, {
    q: filters.q,
    place: filters.q ? await geocoder.named(filters.q) : null,
    page: filters.page,
    kind: "browse",
    cause: filters.cause || undefined,
    zakatOnly: filters.zakatOnly,
  });
  return {
    filters,
    list: {
      ...list,
      rows: list.rows.map((c) => ({
        ...campaignCard(c, t, lang),
        locationLabel: c.locationLabel,
        locationLabelUr: c.locationLabelUr,
        cause: c.cause,
        takesCash: c.takesCash,
      })),
    },
  };
}

export type BrowseData = Awaited<ReturnType<typeof browseData>>;
