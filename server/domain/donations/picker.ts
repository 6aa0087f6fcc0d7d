import { and, arrayContains, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { CampaignCause, CheckKind, FundKind } from "#shared/statuses.ts";
import type { Place } from "#shared/places.ts";
import { DONATE_PICKER_PAGE_SIZE } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donorProfiles } from "#server/db/schema.ts";
import { likePattern, searchTerm } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { campaignNgosColumn, type CampaignNgo } from "#server/domain/campaigns/access.ts";
import { offeredCount, ownerInGoodStanding, standingColumns, takesCashAmongMany } from "#server/domain/campaigns/standing.ts";
import { standingKindsColumn } from "#server/domain/admin/checks.ts";

/** One card of the donor's campaign picker (/donate1). */
export interface PickerCampaign {
  id: string;
  slug: string;
  title: string;
  description: string;
  targetAmount: number;
  collectedAmount: number;
  pictureKey: string | null;
  locationLabel: string;
  /** The same place in Urdu, where the gazetteer has it: shown to Urdu readers (placeLabelFor). */
  locationLabelUr: string | null;
  /** The funds it takes (decision 048). */
  acceptedFunds: FundKind[];
  cause: CampaignCause;
  /** Some NGO of it can be paid: the cash picker lists only these; browse offers Donate only on these. */
  takesCash: boolean;
  /** The other items the campaign needs, which the goods picker shows. */
  otherItems: string | null;
  createdAt: Date;
  /** The owner first, then the accepted partners by name. */
  ngos: CampaignNgo[];
  /** The kinds of check its owner has standing today: the card's compact badge, read with the card (decision 051). */
  ownerChecks: CheckKind[];
}

/** Who is browsing: the cash picker (only campaigns that can be paid), the goods picker, or anyone on the landing page. */
export type BrowseKind = "cash" | "goods" | "browse";

/**
 * A regular expression for a label that holds `name` as one of its comma-separated parts, whatever the letter case:
 * "Lahore" in "Gulberg, Lahore, Lahore District, Punjab" and in "Lahore, Punjab, Pakistan" (a geocoder service's), and
 * «لاہور» in «گلبرگ، لاہور، ضلع لاہور، پنجاب»; not "Lahore" inside "Lahore District" or another word.
 */
function labelPart(name: string): string {
  return `(^|[,\u060c])\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*([,\u060c]|$)`;
}

/**
 * One page of the campaigns a donor can give to: active ones only (completed and archived ones take no
 * donations) that are not paused, and for cash only those some NGO of can be paid (campaigns/standing.ts); newest
 * first (ties by id, so pages never overlap). The search finds its words in the title, the place or the name of an
 * NGO that runs the campaign, case-insensitively with LIKE's wildcards taken literally; a cause and "Zakat-eligible
 * only" narrow it. Six per page: the picker's 3 upper and 3 lower cards.
 *
 * `place` is the place the search text names, if it names one (`Geocoder.named`: "لاہور", "Pindi", "khi"): the
 * campaigns whose saved place lies in it are found too, by its English and Urdu names among the parts of either label,
 * so a city typed in either script (or a short name) finds the campaigns there, whichever labels they were saved with.
 */
export async function pickerCampaigns(
  db: DbOrTx,
  opts: {
    q?: string;
    page: number;
    kind: BrowseKind;
    cause?: CampaignCause;
    zakatOnly?: boolean;
    place?: Pick<Place, "name" | "nameUr"> | null;
  },
  now = new Date(),
): Promise<Paged<PickerCampaign>> {
  const q = searchTerm(opts.q);
  const page = Math.max(1, Math.trunc(opts.page) || 1);
  const pattern = q ? likePattern(q) : null;
  const placeNames = q && opts.place ? [opts.place.name, opts.place.nameUr].filter((n): n is string => !!n) : [];
  const inPlace = placeNames.map(
    (name) => sql` or ${campaigns.locationLabel} ~* ${labelPart(name)} or ${campaigns.locationLabelUr} ~* ${labelPart(name)}`,
  );
  const where = and(
    eq(campaigns.status, "active"),
    ownerInGoodStanding(),
    opts.kind === "cash" ? takesCashAmongMany() : undefined,
    opts.cause ? eq(campaigns.cause, opts.cause) : undefined,
    opts.zakatOnly ? arrayContains(campaigns.acceptedFunds, ["zakat"]) : undefined,
    // Each place a word can be found is an arm of one OR that PostgreSQL answers as a BitmapOr of the trigram indexes
    // (title, place, Urdu place), of campaigns_owner_status_idx (the NGOs named so) and of the primary key (the campaigns
    // such an NGO partners), then one pass over the campaigns found (decision 044). Each as a lookup of its own joined
    // by IN (… UNION ALL …) read the matches by id one at a time, and the page probed that whole list for every campaign.
    pattern
      ? sql`(${campaigns.title} ilike ${pattern} or ${campaigns.locationLabel} ilike ${pattern}
          or ${campaigns.locationLabelUr} ilike ${pattern}
          or ${campaigns.ownerId} = any(array(select np.user_id from ngo_profiles np where np.name ilike ${pattern}))
          or ${campaigns.id} = any(array(select cp.campaign_id from ngo_profiles np join campaign_partners cp
            on cp.ngo_id = np.user_id and cp.status = 'accepted' where np.name ilike ${pattern}))${sql.join(inPlace, sql``)})`
      : undefined,
  );
  const filtered = pattern !== null || !!opts.cause || !!opts.zakatOnly;
  const newestFirst = [desc(campaigns.createdAt), desc(campaigns.id)];
  // Filtered, what the filter finds is read once (a CTE named twice is materialized) for both the count and the page.
  const found$ = db.$with("found").as(db.select({ id: campaigns.id, createdAt: campaigns.createdAt }).from(campaigns).where(where));
  // The page's ids first, then its cards' columns for those six only: with the columns on the row read in order,
  // PostgreSQL computed each card's NGOs, checks and takesCash for every row OFFSET skipped (120 at page 20).
  const pageIds = (
    filtered
      ? db.select({ id: found$.id }).from(found$).orderBy(desc(found$.createdAt), desc(found$.id))
      : db
          .select({ id: campaigns.id })
          .from(campaigns)
          .where(where)
          .orderBy(...newestFirst)
  )
    .limit(DONATE_PICKER_PAGE_SIZE)
    .offset((page - 1) * DONATE_PICKER_PAGE_SIZE);
  // The page and how many there are in all in one query: the page is read in the index's order and stops at its
  // last card, the count is a subquery PostgreSQL runs once (a window count made it read every row in order first).
  // Only past the last page, where no row carries the count, is it asked for on its own.
  const found = await (filtered ? db.with(found$) : db)
    .select({
      // Unfiltered, the count is kept per NGO (offeredCount); filtered, it counts what the filter finds.
      total: (filtered ? sql<number>`(select count(*) from ${found$})` : offeredCount(opts.kind === "cash")).mapWith(Number),
      id: campaigns.id,
      slug: campaigns.slug,
      title: campaigns.title,
      description: campaigns.description,
      targetAmount: campaigns.targetAmount,
      collectedAmount: campaigns.collectedAmount,
      pictureKey: campaigns.pictureKey,
      locationLabel: campaigns.locationLabel,
      locationLabelUr: campaigns.locationLabelUr,
      acceptedFunds: campaigns.acceptedFunds,
      cause: campaigns.cause,
      takesCash: standingColumns().takesCash,
      otherItems: campaigns.otherItems,
      createdAt: campaigns.createdAt,
      ngos: campaignNgosColumn(),
      ownerChecks: standingKindsColumn(campaigns.ownerId, now),
    })
    .from(campaigns)
    .where(inArray(campaigns.id, pageIds))
    .orderBy(...newestFirst);
  const rows = found.map(({ total: _, ...r }) => r);
  const n =
    found[0]?.total ??
    (page > 1
      ? filtered
        ? ((await db.select({ n: count() }).from(campaigns).where(where))[0]?.n ?? 0)
        : Number((await db.select({ n: offeredCount(opts.kind === "cash") }).from(sql`(select 1) as one`))[0]?.n ?? 0)
      : 0);
  return {
    rows,
    page,
    pages: Math.max(1, Math.ceil(n / DONATE_PICKER_PAGE_SIZE)),
    total: n,
  };
}

/** The contact number a donor gave at sign-up, to prefill the proof form's phone; empty when there is none. */
export async function donorContactNumber(db: DbOrTx, donorId: string): Promise<string> {
  const [row] = await db
    .select({ contactNumber: donorProfiles.contactNumber })
    .from(donorProfiles)
    .where(eq(donorProfiles.userId, donorId))
    .limit(1);
  return row?.contactNumber ?? "";
}
