import { redirect } from "react-router";
import type { Db } from "#server/db/client.ts";
import { sharedRead } from "#server/db/shared-reads.ts";
import { pickerCampaignsAfter } from "#server/domain/donations/picker.ts";
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
}

export function browseFilters(url: URL): BrowseFilters {
  const cause = url.searchParams.get("cause") ?? "";
  return {
    q: (url.searchParams.get("q") ?? "").trim().slice(0, PICKER_SEARCH_MAX_LENGTH),
    cause: (CAMPAIGN_CAUSES as readonly string[]).includes(cause) ? (cause as CampaignCause) : "",
    zakatOnly: url.searchParams.get("zakat") === "1",
  };
}

/**
 * A page of the campaigns anyone may browse on the landing page (active, not paused), searched and filtered. A search
 * that names a place (a city in English or Urdu, a short name) finds the campaigns there too. Read by keyset like the
 * donors' pickers (`after`, `before`; decision 044), with their count that stops at PICKER_COUNT_BOUND for a search: a
 * numbered page counted every match of a search for its "page N of M", which grew with the data. An address from before (`?page=N`) leads
 * to the same search's first page, the other parameters kept.
 */
export async function browseData(db: Db, geocoder: Geocoder, url: URL, lang: Lang) {
  if (url.searchParams.has("page")) {
    const query = new URLSearchParams(url.searchParams);
    query.delete("page");
    const search = query.toString();
    throw redirect(`${url.pathname}${search ? `?${search}` : ""}`);
  }
  const { t } = serverI18n(lang);
  const filters = browseFilters(url);
  const after = url.searchParams.get("after");
  const before = url.searchParams.get("before");
  const read = async () => {
    const list = await pickerCampaignsAfter(db, {
      q: filters.q,
      place: filters.q ? await geocoder.named(filters.q) : null,
      after,
      before,
      kind: "browse",
      cause: filters.cause || undefined,
      zakatOnly: filters.zakatOnly,
    });
    return {
      ...list,
      rows: list.rows.map((c) => ({
        ...campaignCard(c, t, lang),
        locationLabel: c.locationLabel,
        locationLabelUr: c.locationLabelUr,
        cause: c.cause,
        takesCash: c.takesCash,
      })),
    };
  };
  // The first page unfiltered, where a visitor from a shared link lands, is the same for all: read once for a few
  // seconds (decision 054).
  const first = !filters.q && !filters.cause && !filters.zakatOnly && !after && !before;
  return { filters, list: await (first ? sharedRead(db, `browse:${lang}`, read) : read()) };
}

export type BrowseData = Awaited<ReturnType<typeof browseData>>;
