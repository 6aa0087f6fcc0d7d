import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StatementLineStatus } from "#shared/statuses.ts";
import { campaignPartners, donations, statementImports, statementLines } from "#server/db/schema.ts";
import { decideCashDonation } from "#server/domain/donations/cash.ts";
import { conflict } from "#server/domain/errors.ts";
import type { Actor } from "#server/domain/policy.ts";
import { matchAccount } from "#server/domain/statements/matching.ts";
import { STATEMENT_READS } from "#server/domain/statements/policy.ts";
import { confirmLines, ignoreLine, importSummary, linesWithout, matchByHand, restoreLine } from "#server/domain/statements/reconcile.ts";
import { statementLineStates } from "#server/domain/statements/states.ts";
import { asNgo } from "#tests/helpers/actors.ts";
import { givePaymentAccounts, makeCampaign, makeCashDonation, makeUser } from "#tests/helpers/factories.ts";
import { found, walkReads } from "#tests/helpers/policy-walk.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkTable } from "#tests/helpers/states.ts";

/** Every way an account can stand to an NGO's statement, and the policy role each one is (null: none). */
const RELATIONS = { owner: "owner", partner: null, otherNgo: null, donor: null, admin: null, ownerAsDonor: null } as const;
type Relation = keyof typeof RELATIONS;

describe("who may read and move a statement line (statements/policy.ts and states.ts)", () => {
  let s: TestServices;
  beforeAll(async () => {
    s = await createTestServices();
  });
  afterAll(async () => s.close());

  /** An NGO with a pending JazzCash gift and one statement line in `state` (tied to the gift when matched or confirmed). */
  async function lineIn(state: StatementLineStatus) {
    const ngo = await makeUser(s.db, "ngo");
    await givePaymentAccounts(s.db, ngo.id);
    const donor = await makeUser(s.db, "donor");
    const campaign = await makeCampaign(s.db, ngo.id);
    const tid = `T${crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`;
    const gift = await makeCashDonation(s, campaign, donor.id, { amount: 1000, transactionId: tid });
    const tied = state === "matched" || state === "confirmed";
    if (state === "confirmed") await s.db.update(donations).set({ status: "approved" }).where(eq(donations.id, gift.id));
    const [imp] = await s.db
      .insert(statementImports)
      .values({ ngoId: ngo.id, method: "jazzcash", fileName: "t.csv", creditLines: 1, debitLines: 0, newLines: 1 })
      .returning();
    const [line] = await s.db
      .insert(statementLines)
      .values({
        ngoId: ngo.id,
        method: "jazzcash",
        importId: imp!.id,
        fingerprint: crypto.randomUUID(),
        occurrence: 1,
        fileRow: 2,
        postedOn: new Date(Date.now() + 5 * 3600_000).toISOString().slice(0, 10),
        amountPaisa: 100_000,
        description: "",
        sender: "",
        reference: tid,
        status: state,
        donationId: tied ? gift.id : null,
        matchRule: tied ? "transaction_id" : null,
      })
      .returning();
    return { ngo, donor, campaign, gift, line: line!, importId: imp!.id };
  }

  it("every step from every state by every role does what the transition table says", async () => {
    const subjects = new Map<string, Awaited<ReturnType<typeof lineIn>>>();
    // A step the domain reports as skipped (nothing matched, nothing confirmed) is a refusal for the walk.
    const refusedIf = (skipped: boolean) => {
      if (skipped) throw conflict("statements.line_taken");
    };
    const result = await walkTable(statementLineStates, {
      async setUp(state) {
        const subject = await lineIn(state);
        subjects.set(subject.line.id, subject);
        return subject.line.id;
      },
      perform(action, role, id) {
        const { ngo, gift, line } = subjects.get(id)!;
        const actor = asNgo(ngo.id);
        const tied = line.donationId !== null;
        if (role === "owner") {
          if (action === "match")
            return makeCashDonation(s, { id: gift.campaignId, ownerId: ngo.id }, gift.donorId).then((g) =>
              matchByHand(s.db, actor, id, g.id),
            );
          if (action === "confirm") return confirmLines(s, actor, [id]).then((o) => refusedIf(o.skipped > 0));
          if (action === "ignore") return ignoreLine(s.db, actor, id, "A refund");
          if (action === "restore") return restoreLine(s.db, actor, id);
          return undefined;
        }
        // The system: a matching round, and the cash decision of the tied gift.
        if (action === "match") return matchAccount(s.db, ngo.id, "jazzcash").then((n) => refusedIf(n === 0));
        if (action === "confirm" && tied) return decideCashDonation(s, actor, { donationId: gift.id, approve: true });
        if (action === "unmatch" && tied)
          return decideCashDonation(s, actor, { donationId: gift.id, approve: false, reason: "Not received" });
        return undefined;
      },
      async stateOf(id) {
        const [row] = await s.db.select({ status: statementLines.status }).from(statementLines).where(eq(statementLines.id, id));
        return row!.status;
      },
    });
    expect(result.actual).toEqual(result.expected);
  });

  it("every reading by every relation does what STATEMENT_READS says, through every read that serves it", async () => {
    const { ngo, donor, campaign, line, importId } = await lineIn("unmatched");
    // A partner of the campaign the statement's gifts are for: a statement shows every transfer, not the campaign's.
    const partner = await makeUser(s.db, "ngo");
    await s.db.insert(campaignPartners).values({ campaignId: campaign.id, ngoId: partner.id, direction: "invited", status: "accepted" });
    const otherNgo = await makeUser(s.db, "ngo");
    const admin = await makeUser(s.db, "admin");
    const actors: Record<Relation, Actor> = {
      owner: asNgo(ngo.id),
      partner: asNgo(partner.id),
      otherNgo: asNgo(otherNgo.id),
      donor: { id: donor.id, role: "donor" },
      admin: { id: admin.id, role: "admin" },
      ownerAsDonor: { id: ngo.id, role: "donor" },
    };
    const { expected, actual } = await walkReads({
      relations: RELATIONS,
      reads: STATEMENT_READS,
      async sees(_read, relation) {
        const actor = actors[relation];
        const answers = [
          (await linesWithout(s.db, actor, "unmatched", 1)).rows.some((r) => r.id === line.id),
          await found(importSummary(s, actor, importId)),
        ];
        expect(new Set(answers).size, `${relation}: the reads of "lines" disagree (${answers.join(", ")})`).toBe(1);
        return answers[0]!;
      },
    });
    expect(actual).toEqual(expected);
  });
});
