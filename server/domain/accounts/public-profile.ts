import { ownerInGoodStanding } from "#server/domain/campaigns/standing.ts";
import { and, count, desc, eq, exists, inArray, or, sql } from "drizzle-orm";
import type { DbOrTx } from "#server/db/client.ts";
import { campaignPartners, campaigns, ngoProfiles, users, volunteerPositions } from "#server/db/schema.ts";
import { isUuid } from "#server/db/query.ts";
import { pakistanToday } from "#server/domain/dates.ts";
import { notFound } from "#server/domain/errors.ts";
import { isOpenSql, ngoInGoodStanding } from "#server/domain/volunteering/positions.ts";
import { standingKindsColumn } from "#server/domain/admin/checks.ts";
import type { CheckKind } from "#shared/statuses.ts";

/** How many active campaigns and open positions the profile lists; it says how many there are in all. */
export const PROFILE_LIST_LIMIT = 12;

export interface PublicNgoCampaign {
  slug: string;
  title: string;
  pictureKey: string | null;
  locationLabel: string;
  /** The same place in Urdu, where the gazetteer has it: shown to Urdu readers (placeLabelFor). */
  locationLabelUr: string | null;
  collectedAmount: number;
  targetAmount: number;
  /** The NGO runs it, or is an accepted partner of a joint campaign. */
  role: "owner" | "partner";
  /** The kinds of check its owner has standing today: the card's compact badge (decision 051). */
  ownerChecks: CheckKind[];
}

export interface PublicNgoPosition {
  id: string;
  title: string;
  cityLabel: string | null;
  cityLabelUr: string | null;
  /** The last day it takes applications (a Pakistan calendar day), or null when the NGO closes it by hand. */
  closesOn: string | null;
  volunteersNeeded: number;
}

/**
 * What anyone may see of an NGO: what it shows donors already (on its receipts, posters and campaigns: name,
 * logo, registration number, address, contact number) and the platform's vetting record. Never its members'
 * emails, its payment accounts or their history, nor anything of an NGO that is not verified or is suspended.
 */
export interface PublicNgoProfile {
  id: string;
  name: string;
  logoKey: string | null;
  registrationNumber: string;
  address: string;
  contactNumber: string;
  /** When the platform accepted the NGO; null only for an account accepted before this was recorded. */
  verifiedAt: Date | null;
  campaigns: { total: number; rows: PublicNgoCampaign[] };
  positions: { total: number; rows: PublicNgoPosition[] };
}

/**
 * The public profile of an NGO by its id. An unknown id, an account that is not an NGO, an NGO not (or no
 * longer) verified and a suspended one are all the same "not found": a profile's existence never says more.
 */
export async function publicNgoProfile(db: DbOrTx, ngoId: string, now = new Date()): Promise<PublicNgoProfile> {
  if (!isUuid(ngoId)) throw notFound();
  const [ngo] = await db
    .select({
      id: ngoProfiles.userId,
      name: ngoProfiles.name,
      logoKey: ngoProfiles.logoKey,
      registrationNumber: ngoProfiles.registrationNumber,
      address: ngoProfiles.address,
      contactNumber: ngoProfiles.contactNumber,
      verifiedAt: users.verifiedAt,
    })
    .from(ngoProfiles)
    .innerJoin(users, eq(users.id, ngoProfiles.userId))
    .where(and(eq(ngoProfiles.userId, ngoId), eq(users.role, "ngo"), ngoInGoodStanding))
    .limit(1);
  if (!ngo) throw notFound();

  // Active campaigns it runs or is an accepted partner of, newest first.
  const partnered = exists(
    db
      .select({ one: sql`1` })
      .from(campaignPartners)
      .where(
        and(eq(campaignPartners.campaignId, campaigns.id), eq(campaignPartners.ngoId, ngoId), eq(campaignPartners.status, "accepted")),
      ),
  );
  const campaignWhere = and(eq(campaigns.status, "active"), ownerInGoodStanding(), or(eq(campaigns.ownerId, ngoId), partnered));
  const positionWhere = and(eq(volunteerPositions.ngoId, ngoId), isOpenSql(pakistanToday(now)));
  const [campaignTotal, campaignRows, positionTotal, positionRows] = await Promise.all([
    db.select({ n: count() }).from(campaigns).where(campaignWhere),
    db
      .select({
        slug: campaigns.slug,
        title: campaigns.title,
        pictureKey: campaigns.pictureKey,
        locationLabel: campaigns.locationLabel,
        locationLabelUr: campaigns.locationLabelUr,
        collectedAmount: campaigns.collectedAmount,
        targetAmount: campaigns.targetAmount,
        ownerId: campaigns.ownerId,
        ownerChecks: standingKindsColumn(campaigns.ownerId, now),
      })
      .from(campaigns)
      .where(campaignWhere)
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(PROFILE_LIST_LIMIT),
    db.select({ n: count() }).from(volunteerPositions).where(positionWhere),
    db
      .select({
        id: volunteerPositions.id,
        title: volunteerPositions.title,
        cityLabel: volunteerPositions.cityLabel,
        cityLabelUr: volunteerPositions.cityLabelUr,
        closesOn: volunteerPositions.closesOn,
        volunteersNeeded: volunteerPositions.volunteersNeeded,
      })
      .from(volunteerPositions)
      .where(positionWhere)
      .orderBy(desc(volunteerPositions.createdAt), desc(volunteerPositions.id))
      .limit(PROFILE_LIST_LIMIT),
  ]);
  return {
    ...ngo,
    campaigns: {
      total: campaignTotal[0]?.n ?? 0,
      rows: campaignRows.map(({ ownerId, ...c }) => ({ ...c, role: ownerId === ngoId ? "owner" : "partner" })),
    },
    positions: { total: positionTotal[0]?.n ?? 0, rows: positionRows },
  };
}

/** Of these NGOs, the ones whose profile is public (verified, not suspended): only they are linked to it. */
export async function ngosWithPublicProfile(db: DbOrTx, ngoIds: string[]): Promise<Set<string>> {
  if (ngoIds.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ngoIds), eq(users.role, "ngo"), ngoInGoodStanding));
  return new Set(rows.map((r) => r.id));
}
