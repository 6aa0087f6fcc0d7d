import { and, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, donations } from "#server/db/schema.ts";
import { notFound } from "#server/domain/errors.ts";
import { ngosOfCampaigns, type CampaignRole } from "./access.ts";
import { standingColumnsOfOne, type CampaignStanding } from "./standing.ts";
import { type CampaignStatus, type FundKind } from "#shared/statuses.ts";
import { currentAttestation } from "./funds.ts";
import { ngosWithPublicProfile } from "#server/domain/accounts/public-profile.ts";

/** Longer than any slug we make; anything longer is not looked up at all. */
const MAX_SLUG_LENGTH = 200;

export interface PublicCampaignNgo {
  /** The NGO's id: the address of its public profile (/ngo/:id). */
  id: string;
  /** Its profile is public (verified, not suspended), so the campaign links to it. */
  hasProfile: boolean;
  name: string;
  logoKey: string | null;
  role: CampaignRole;
  /** Approved cash paid to this NGO for the campaign, whole rupees. */
  collected: number;
  /** `collected` as a part of the campaign's collected total (0..1). */
  share: number;
}

/** What anyone may see of a campaign: no donor, no account detail, no id of a person (an NGO's id is its profile's address). */
export interface PublicCampaign extends CampaignStanding {
  slug: string;
  title: string;
  description: string;
  targetAmount: number;
  collectedAmount: number;
  otherItems: string | null;
  locationLabel: string;
  /** The same place in Urdu, where the gazetteer has it: shown to Urdu readers (placeLabelFor). */
  locationLabelUr: string | null;
  lat: number;
  lng: number;
  pictureKey: string | null;
  /** The funds it takes (decision 048). */
  acceptedFunds: FundKind[];
  /** When its NGO attested that its gifts may be spent as Zakat (the current attestation), or null. */
  zakatAttestedAt: Date | null;
  status: Exclude<CampaignStatus, "archived">;
  createdAt: Date;
  completedAt: Date | null;
  /** Owner first, then partners by name. */
  ngos: PublicCampaignNgo[];
}

/** The public page of a campaign by its slug; an archived (deleted) or unknown campaign is not found. */
export async function publicCampaign(db: DbOrTx, slug: string): Promise<PublicCampaign> {
  if (!slug || slug.length > MAX_SLUG_LENGTH) throw notFound();
  const [row] = await db
    .select({ c: campaigns, ...standingColumnsOfOne() })
    .from(campaigns)
    .where(and(eq(campaigns.slug, slug), ne(campaigns.status, "archived")))
    .limit(1);
  if (!row) throw notFound();
  const { c } = row;
  if (c.status === "archived") throw notFound();
  const [ngoMap, totals, attestation] = await Promise.all([
    ngosOfCampaigns(db, [c.id]),
    db
      .select({
        ngoId: donations.recipientNgoId,
        collected: sql<number>`coalesce(sum(${donations.amount}), 0)`.mapWith(Number),
      })
      .from(donations)
      .where(and(eq(donations.campaignId, c.id), eq(donations.status, "approved"), eq(donations.kind, "cash")))
      .groupBy(donations.recipientNgoId),
    c.acceptedFunds.includes("zakat") ? currentAttestation(db, c.id) : null,
  ]);
  const ngos = ngoMap.get(c.id) ?? [];
  const withProfile = await ngosWithPublicProfile(
    db,
    ngos.map((n) => n.id),
  );
  // The shares are of everything collected, including what a partner that has since left was paid.
  const total = totals.reduce((sum, r) => sum + r.collected, 0);
  return {
    slug: c.slug,
    title: c.title,
    description: c.description,
    targetAmount: c.targetAmount,
    collectedAmount: c.collectedAmount,
    otherItems: c.otherItems,
    locationLabel: c.locationLabel,
    locationLabelUr: c.locationLabelUr,
    lat: c.lat,
    lng: c.lng,
    pictureKey: c.pictureKey,
    acceptedFunds: c.acceptedFunds,
    zakatAttestedAt: attestation?.attestedAt ?? null,
    status: c.status,
    createdAt: c.createdAt,
    completedAt: c.completedAt,
    paused: row.paused,
    takesCash: row.takesCash,
    ngos: ngos.map((n) => {
      const collected = totals.find((r) => r.ngoId === n.id)?.collected ?? 0;
      return {
        id: n.id,
        hasProfile: withProfile.has(n.id),
        name: n.name,
        logoKey: n.logoKey,
        role: n.role,
        collected,
        share: total > 0 ? collected / total : 0,
      };
    }),
  };
}
