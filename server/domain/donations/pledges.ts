import { randomInt } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { PaymentMethod } from "#shared/constants.ts";
import { PLEDGE_ALPHABET, PLEDGE_CODE_LENGTH, PLEDGE_PREFIX, normalizePledgeCode } from "#shared/pledges.ts";
import type { DbOrTx } from "#server/db/client.ts";
import { donations, pledges } from "#server/db/schema.ts";
import { idAs, type Actor } from "#server/domain/policy.ts";

/** A pledge not yet used by a gift is shown again for this long when the donor comes back to the same payment screen. */
export const PLEDGE_REUSE_DAYS = 7;

/** A fresh code: uniformly random over the alphabet (randomInt has no modulo bias); about a billion codes. */
export function newPledgeCode(): string {
  let code = "";
  for (let i = 0; i < PLEDGE_CODE_LENGTH; i++) code += PLEDGE_ALPHABET[randomInt(PLEDGE_ALPHABET.length)];
  return code;
}

const IN_TEXT = new RegExp(`(?:${PLEDGE_PREFIX}[\\s\\-_.:#]*)?([${PLEDGE_ALPHABET}]{3})[\\s\\-_.]?([${PLEDGE_ALPHABET}]{3})`, "y");
const WORD_CHAR = /[A-Z0-9]/;

/**
 * The codes a transfer's remark may hold ("Donation EK-7KQ-4M9", "ek7kq4m9", "7KQ 4M9 zakat"): every run of six
 * code characters, with or without the prefix and a separator in the middle, that stands as its own word. Every
 * starting point is tried (a word before the code may itself be made of code characters). The caller keeps only
 * codes that are pledges of the account, so a word that merely looks like one matches nothing.
 */
export function pledgeCodesIn(text: string): string[] {
  const upper = text.toUpperCase().slice(0, 2000);
  const found = new Set<string>();
  for (let i = 0; i < upper.length; i++) {
    if (i > 0 && WORD_CHAR.test(upper[i - 1]!)) continue;
    IN_TEXT.lastIndex = i;
    const m = IN_TEXT.exec(upper);
    if (!m) continue;
    const after = upper[i + m[0].length];
    if (after && WORD_CHAR.test(after)) continue;
    const code = normalizePledgeCode(m[1]! + m[2]!);
    if (code) found.add(code);
  }
  return [...found];
}

export interface Pledge {
  id: string;
  code: string;
}

export interface PledgeTarget {
  campaignId: string;
  ngoId: string;
  method: PaymentMethod;
}

/** The donor's pledges for this payment that no gift has used (the query joins donations on the pledge). */
const unusedFor = (donorId: string, target: PledgeTarget) =>
  and(
    eq(pledges.donorId, donorId),
    eq(pledges.campaignId, target.campaignId),
    eq(pledges.recipientNgoId, target.ngoId),
    eq(pledges.method, target.method),
    isNull(donations.id),
  );

/**
 * The donor's open pledge for paying this NGO of this campaign by this method (made in the last days and not yet
 * used by a gift), or a new one: the payment screen shows the same code however often it is opened, and a new
 * code once the previous one became a gift.
 */
export async function pledgeFor(db: DbOrTx, actor: Actor, target: PledgeTarget): Promise<Pledge> {
  const donorId = idAs(actor, "donor");
  const [open] = await db
    .select({ id: pledges.id, code: pledges.code })
    .from(pledges)
    .leftJoin(donations, eq(donations.pledgeId, pledges.id))
    .where(and(unusedFor(donorId, target), gt(pledges.createdAt, sql`now() - make_interval(days => ${PLEDGE_REUSE_DAYS})`)))
    .orderBy(desc(pledges.createdAt))
    .limit(1);
  return open ?? createPledge(db, donorId, target);
}

/** A new pledge; a code already taken (about one in a billion per code in use) is drawn again. */
export async function createPledge(db: DbOrTx, donorId: string, target: PledgeTarget): Promise<Pledge> {
  for (let attempt = 0; ; attempt++) {
    const code = newPledgeCode();
    const [row] = await db
      .insert(pledges)
      .values({ code, donorId, campaignId: target.campaignId, recipientNgoId: target.ngoId, method: target.method })
      .onConflictDoNothing({ target: pledges.code })
      .returning({ id: pledges.id, code: pledges.code });
    if (row) return row;
    if (attempt >= 5) throw new Error("no free pledge code after several draws");
  }
}

/**
 * The pledge a proof form names, when it is this donor's for the same payment and no gift has used it; otherwise a
 * new one (a form opened in two tabs, an old page): a gift always gets a pledge, and a code is never shared.
 */
export async function pledgeForGift(db: DbOrTx, donorId: string, target: PledgeTarget, typed: string | undefined): Promise<Pledge> {
  const code = typed ? normalizePledgeCode(typed) : null;
  if (code) {
    const [row] = await db
      .select({ id: pledges.id, code: pledges.code })
      .from(pledges)
      .leftJoin(donations, eq(donations.pledgeId, pledges.id))
      .where(and(eq(pledges.code, code), unusedFor(donorId, target)))
      .limit(1);
    if (row) return row;
  }
  return createPledge(db, donorId, target);
}
