import { and, count, desc, eq, ilike } from "drizzle-orm";
import { DONATE_PICKER_PAGE_SIZE } from "#shared/constants.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donorProfiles } from "#server/db/schema.ts";
import { likePattern, searchTerm } from "#server/db/query.ts";
import { type Paged } from "#shared/paging.ts";
import { ngosOfCampaigns, type CampaignNgo } from "#server/domain/campaigns/access.ts";

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
  zakatEligible: boolean;
  /** The other items the campaign needs, which the goods picker shows. */
  otherItems: string | null;
  createdAt: Date;
  /** The owner first, then the accepted partners by name. */
  ngos: CampaignNgo[];
}

/**
 * One page of the campaigns a donor can give to: active ones only (completed and archived ones take no
 * donations), newest first (ties by id, so pages never overlap), optionally searched by title
 * case-insensitively with LIKE's wildcards taken literally. Six per page: the picker's 3 upper and 3 lower cards.
 */
export async function pickerCampaigns(db: DbOrTx, opts: { q?: string; page: number }): Promise<Paged<PickerCampaign>> {
  const q = searchTerm(opts.q);
  const page = Math.max(1, Math.trunc(opts.page) || 1);
  const where = and(eq(campaigns.status, "active"), q ? ilike(campaigns.title, likePattern(q)) : undefined);
  const [total] = await db.select({ n: count() }).from(campaigns).where(where);
  const rows = await db
    .select({
      id: campaigns.id,
      slug: campaigns.slug,
      title: campaigns.title,
      description: campaigns.description,
      targetAmount: campaigns.targetAmount,
      collectedAmount: campaigns.collectedAmount,
      pictureKey: campaigns.pictureKey,
      locationLabel: campaigns.locationLabel,
      zakatEligible: campaigns.zakatEligible,
      otherItems: campaigns.otherItems,
      createdAt: campaigns.createdAt,
    })
    .from(campaigns)
    .where(where)
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(DONATE_PICKER_PAGE_SIZE)
    .offset((page - 1) * DONATE_PICKER_PAGE_SIZE);
  const ngos = await ngosOfCampaigns(
    db,
    rows.map((r) => r.id),
  );
  const n = total?.n ?? 0;
  return {
    rows: rows.map((r) => ({ ...r, ngos: ngos.get(r.id) ?? [] })),
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
