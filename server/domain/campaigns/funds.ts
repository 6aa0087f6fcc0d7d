import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "#server/db/client.ts";
import { campaigns, ngoProfiles, users, zakatAttestations } from "#server/db/schema.ts";
import { paged, pageOffset } from "#server/db/query.ts";
import { recordAudit } from "#server/domain/audit/audit.ts";
import { invalid, notFound } from "#server/domain/errors.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";
import { PAGE_SIZE } from "#shared/constants.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";
import type { Paged } from "#shared/paging.ts";
import { acceptedFundsOf, type FundKind } from "#shared/statuses.ts";

/**
 * Funds (decision 048): the kinds of giving a campaign takes (general always; Sadaqah, Fitrana and Zakat as its NGO
 * chooses) and the NGO's attestation that makes a campaign take Zakat. `campaigns.accepted_funds` holds Zakat exactly
 * while a current (not withdrawn) attestation exists: both change together, in the transaction that saves the campaign.
 */

/** The words an NGO attests to, in its language: what the attestation row keeps. */
export function attestationStatement(lang: Lang): string {
  return serverI18n(lang).t("funds:attestation.statement");
}

/** The campaign's current Zakat attestation, or null. */
export async function currentAttestation(db: DbOrTx, campaignId: string) {
  const [row] = await db
    .select({
      id: zakatAttestations.id,
      statement: zakatAttestations.statement,
      attestedAt: zakatAttestations.attestedAt,
      attestedBy: zakatAttestations.attestedBy,
      carriedOver: zakatAttestations.carriedOver,
    })
    .from(zakatAttestations)
    .where(and(eq(zakatAttestations.campaignId, campaignId), isNull(zakatAttestations.withdrawnAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Sets the funds a campaign takes from the NGO's choice, inside the transaction that saves it (the campaign's row is
 * locked or new): choosing Zakat without a current attestation records one with the words in `lang`, by `actorId`;
 * leaving Zakat out withdraws the current one. Keeping Zakat keeps the attestation it has (no new row for each save).
 * Returns the accepted funds written.
 */
export async function setCampaignFunds(
  tx: DbOrTx,
  input: { campaignId: string; actorId: string; chosen: readonly FundKind[]; lang: Lang },
): Promise<FundKind[]> {
  const accepted = acceptedFundsOf(input.chosen);
  const current = await currentAttestation(tx, input.campaignId);
  if (accepted.includes("zakat") && !current) {
    await tx.insert(zakatAttestations).values({
      campaignId: input.campaignId,
      statement: attestationStatement(input.lang),
      lang: input.lang,
      attestedBy: input.actorId,
    });
    await recordAudit(tx, { actorId: input.actorId, action: "campaign.zakat_attested", details: { campaignId: input.campaignId } });
  } else if (!accepted.includes("zakat") && current) {
    await tx
      .update(zakatAttestations)
      .set({ withdrawnAt: sql`now()`, withdrawnBy: input.actorId })
      .where(eq(zakatAttestations.id, current.id));
    await recordAudit(tx, { actorId: input.actorId, action: "campaign.zakat_withdrawn", details: { campaignId: input.campaignId } });
  }
  await tx.update(campaigns).set({ acceptedFunds: accepted }).where(eq(campaigns.id, input.campaignId));
  return accepted;
}

/**
 * Refuses a gift to a fund the campaign does not take ("this campaign does not accept Zakat"), reading the campaign's
 * funds in the gift's transaction without a lock: a change of its funds committed at the same moment can let a gift
 * in, but no gift counts before its approval, and the approval reads the funds from the campaign row it updates
 * (locked), so a Zakat gift is never counted to a campaign that no longer takes Zakat (decision 048). A share lock
 * here deadlocked with approvals, which hold the gift's tally row and then update the campaign.
 */
export async function assertFundAccepted(tx: DbOrTx, campaignId: string, fund: FundKind): Promise<void> {
  const [row] = await tx.select({ acceptedFunds: campaigns.acceptedFunds }).from(campaigns).where(eq(campaigns.id, campaignId));
  // Deleted meanwhile (it had no donations yet): the donor is told it is gone, as when the insert finds it gone.
  if (!row) throw notFound("donate.details.not_found");
  if (!row.acceptedFunds.includes(fund)) throw invalid("funds.not_accepted", "fund");
}

/** One attestation as the admin reads it: the campaign, the words, who attested and when, who withdrew it and when. */
export interface AttestationEntry {
  id: string;
  campaignId: string;
  campaignTitle: string;
  campaignSlug: string;
  ngoName: string;
  statement: string;
  lang: Lang;
  attestedByEmail: string;
  attestedAt: Date;
  carriedOver: boolean;
  withdrawnByEmail: string | null;
  withdrawnAt: Date | null;
}

/** Every Zakat attestation, current and withdrawn, newest first, a page at a time (the admin's /admin/zakat). */
export async function attestationLog(db: DbOrTx, actor: Actor, opts: { page: number }): Promise<Paged<AttestationEntry>> {
  idAs(actor, "admin");
  const attester = alias(users, "attester");
  const withdrawer = alias(users, "withdrawer");
  const [[total], rows] = await Promise.all([
    db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(zakatAttestations),
    db
      .select({
        id: zakatAttestations.id,
        campaignId: zakatAttestations.campaignId,
        campaignTitle: campaigns.title,
        campaignSlug: campaigns.slug,
        ngoName: ngoProfiles.name,
        statement: zakatAttestations.statement,
        lang: zakatAttestations.lang,
        attestedByEmail: attester.email,
        attestedAt: zakatAttestations.attestedAt,
        carriedOver: zakatAttestations.carriedOver,
        withdrawnByEmail: withdrawer.email,
        withdrawnAt: zakatAttestations.withdrawnAt,
      })
      .from(zakatAttestations)
      .innerJoin(campaigns, eq(campaigns.id, zakatAttestations.campaignId))
      .innerJoin(ngoProfiles, eq(ngoProfiles.userId, campaigns.ownerId))
      .innerJoin(attester, eq(attester.id, zakatAttestations.attestedBy))
      .leftJoin(withdrawer, eq(withdrawer.id, zakatAttestations.withdrawnBy))
      .orderBy(desc(zakatAttestations.attestedAt), desc(zakatAttestations.id))
      .limit(PAGE_SIZE)
      .offset(pageOffset(opts.page)),
  ]);
  return paged(rows, opts.page, total?.n ?? 0);
}
