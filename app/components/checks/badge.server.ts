import type { DbOrTx } from "#server/db/client.ts";
import { standingChecks } from "#server/domain/admin/checks.ts";
import { checkSentence } from "#shared/checks.ts";
import type { Lang } from "#shared/i18n/i18n.ts";
import { serverI18n } from "#shared/i18n/i18n.server.ts";

/** One NGO's full badge: each standing check as a sentence with its dates, in the reader's language (decision 051). */
export interface VerifiedNgo {
  id: string;
  name: string;
  sentences: string[];
}

/**
 * The full badges of a page's NGOs (a campaign's owner and partners, a profile's NGO), read in one query against
 * today's date: an expired or revoked check is not in it. NGOs with no standing check keep an empty list.
 */
export async function verifiedNgos(db: DbOrTx, ngos: { id: string; name: string }[], lang: Lang, now = new Date()): Promise<VerifiedNgo[]> {
  const checks = await standingChecks(
    db,
    ngos.map((n) => n.id),
    now,
  );
  const { t } = serverI18n(lang);
  return ngos.map((n) => ({ id: n.id, name: n.name, sentences: (checks.get(n.id) ?? []).map((c) => checkSentence(c, t, lang)) }));
}
