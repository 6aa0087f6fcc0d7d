import type { Db, DbOrTx } from "#server/db/client.ts";
import { sharedRead } from "#server/db/shared-reads.ts";
import { redirect } from "react-router";
import { isUuid } from "#server/db/query.ts";
import { publicCampaign, type PublicCampaign } from "#server/domain/campaigns/public.ts";
import { pickerCampaignsAfter, type PickerCampaign } from "#server/domain/donations/picker.ts";
import { DESCRIPTION_PREVIEW_WORDS } from "#shared/constants.ts";
import { previewWords } from "#shared/text.ts";
import { formatCount, formatRupees } from "#shared/money.ts";
import { findOrNull } from "#app/lib/http.server.ts";
import type { Geocoder } from "#shared/places.ts";
import type { Lang, TFunction } from "#shared/i18n/i18n.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import { fundBadges, type FundBadge } from "#shared/fund-badges.ts";
import { compactCheckLabel } from "#shared/check-badge.ts";

/** Longest search text the pickers send; anything longer is cut. */
export const PICKER_SEARCH_MAX_LENGTH = 100;

/** The two pickers: cash (/donate1, Donate Now → the payment screen) and goods (/donate5, Donate goods → the goods form). */
export type PickerKind = "cash" | "goods";

export type PickerDetails =
  | {
      state: "open";
      campaign: Omit<
        PublicCampaign,
        "lat" | "lng" | "createdAt" | "completedAt" | "status" | "paused" | "takesCash" | "acceptedFunds" | "zakatAttestedAt"
      > & { fundBadges: FundBadge[]; progressLabel: string };
    }
  | { state: "ended" | "paused"; title: string }
  /** The cash picker's campaign that no NGO can be paid for: how to help instead. */
  | { state: "noCash"; title: string; slug: string }
  | { state: "notFound" };

async function details(db: DbOrTx, slug: string, kind: PickerKind, t: TFunction, lang: Lang): Promise<PickerDetails> {
  const c = await findOrNull(publicCampaign(db, slug));
  if (!c) return { state: "notFound" };
  if (c.status !== "active") return { state: "ended", title: c.title };
  if (c.paused) return { state: "paused", title: c.title };
  if (kind === "cash" && !c.takesCash) return { state: "noCash", title: c.title, slug: c.slug };
  const {
    lat: _lat,
    lng: _lng,
    createdAt: _c,
    completedAt: _d,
    status: _s,
    paused: _p,
    takesCash: _t,
    acceptedFunds,
    zakatAttestedAt: _z,
    ...shown
  } = c;
  return {
    state: "open",
    campaign: { ...shown, fundBadges: fundBadges(acceptedFunds, t), progressLabel: progressLabel(c, t, lang) },
  };
}

/**
 * What both campaign pickers (/donate1 for cash, /donate5 for goods) load: the search, the page's cursor (`after`: the
 * last campaign of the page before, or `before`: the first of the page after, from "Previous"; decision 044), and either one campaign's details panel (`?campaign=`) or a page of
 * cards. The goods picker also shows each card's "items needed", so the donor knows what helps. A search that names a
 * place finds the campaigns there too. An address from before the cursor (`?page=N`, shared in a message) is sent to
 * the same search's first page: there are no page numbers any more.
 */
export async function pickerData(db: Db, geocoder: Geocoder, url: URL, kind: PickerKind, lang: Lang) {
  if (url.searchParams.has("page")) {
    const query = new URLSearchParams(url.searchParams);
    query.delete("page");
    const search = query.toString();
    throw redirect(`${url.pathname}${search ? `?${search}` : ""}`);
  }
  const { t } = serverI18n(lang);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, PICKER_SEARCH_MAX_LENGTH);
  const after = url.searchParams.get("after");
  const before = url.searchParams.get("before");
  const slug = url.searchParams.get("campaign");
  const panel = slug !== null ? await details(db, slug, kind, t, lang) : null;
  // A chosen campaign's panel (or the reason it cannot be shown) takes the place of the cards. The first page of all
  // campaigns, where nearly every donor starts, is the same for all of them: read once for a few seconds (decision 054).
  const list = panel
    ? null
    : !q && !after && !before
      ? await sharedRead(db, `picker:${kind}:${lang}`, () => pickerList(db, { q, kind, place: null }, t, lang))
      : await pickerList(db, { q, after, before, kind, place: q ? await geocoder.named(q) : null }, t, lang);
  return {
    q,
    // The page the panel's "go back" returns to: the cursor as asked (the list checks it when it is read), or the one
    // that names the page read (a page reached by "Previous" is named by the campaign just before it).
    after: list ? list.after : isUuid(after) ? after : null,
    panel,
    list,
  };
}

/** A page of a picker's cards, with their words in the reader's language. */
async function pickerList(db: DbOrTx, opts: Parameters<typeof pickerCampaignsAfter>[1] & { kind: PickerKind }, t: TFunction, lang: Lang) {
  const list = await pickerCampaignsAfter(db, opts);
  return {
    ...list,
    // How many there are, in the reader's words and digits: exact, or "more than 1,000" where a search's count stops
    // (decision 044). Said here, so the page carries no code for it.
    count: list.more
      ? t("donate:pick.countMore", { count: formatCount(list.total, lang) })
      : t(list.total === 1 ? "donate:pick.count_one" : "donate:pick.count_other", { count: formatCount(list.total, lang) }),
    rows: list.rows.map((c) => ({ ...campaignCard(c, t, lang), otherItems: opts.kind === "goods" ? c.otherItems : null })),
  };
}

export type PickerData = Awaited<ReturnType<typeof pickerData>>;

/**
 * What a campaign's card shows a donor, in the pickers and on the landing page: a preview, not the whole text, and its
 * badges' words in the reader's language (`t`), so the page carries neither their strings nor the code that picks them.
 */
export function campaignCard(c: PickerCampaign, t: TFunction, lang: Lang) {
  return {
    id: c.id,
    slug: c.slug,
    title: c.title,
    preview: previewWords(c.description, DESCRIPTION_PREVIEW_WORDS),
    targetAmount: c.targetAmount,
    collectedAmount: c.collectedAmount,
    pictureKey: c.pictureKey,
    fundBadges: fundBadges(c.acceptedFunds, t),
    ngos: c.ngos.map((n) => n.name),
    checkBadge: compactCheckLabel(c.ownerChecks, t),
    progressLabel: progressLabel(c, t, lang),
  };
}

/**
 * "Rs. 20,000 raised of Rs. 100,000", written by the loader, not in the browser: the browser's first number format costs a
 * phone tens of milliseconds of its main thread while the page hydrates (decision 036, 2026-11-27).
 */
function progressLabel(c: { collectedAmount: number; targetAmount: number }, t: TFunction, lang: Lang): string {
  return t("donate:progress", { collected: formatRupees(c.collectedAmount, lang), target: formatRupees(c.targetAmount, lang) });
}
