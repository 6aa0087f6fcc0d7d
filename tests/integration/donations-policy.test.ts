import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { donations } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { cashDonationOfDonor, decideCashDonation, reviewDetail } from "#server/domain/donations/cash.ts";
import { donorHistory, ngoHistory, parseNgoHistoryFilter } from "#server/domain/donations/history.ts";
import { DONATION_READS, rolesFor, type DonationActor, type DonationRead } from "#server/domain/donations/policy.ts";
import { receiptFor } from "#server/domain/donations/receipts.ts";
import { givingStatement } from "#server/domain/donations/giving-statements.ts";
import { fiscalYearOf } from "#server/domain/donations/giving-years.ts";
import { replyToRejection } from "#server/domain/donations/replies.ts";
import { cashDonationStates, type CashDonationAction, type CashDonationRole } from "#server/domain/donations/states.ts";
import { createApp } from "#server/http/app.ts";
import { makeCampaign, makeCashDonation, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkReads } from "#tests/helpers/policy-walk.ts";

/**
 * Every way an account can stand to a donation, and the role of the policy and the transition table each one
 * is (null: none, so nothing is granted). Anonymous is nobody signed in.
 */
const RELATIONS = {
  owner: { account: "donor", policy: "donor" },
  recipientNgo: { account: "ngo", policy: "recipient" },
  otherNgo: { account: "ngo", policy: "otherNgo" },
  otherDonor: { account: "donor", policy: null },
  rider: { account: "rider", policy: null },
  admin: { account: "admin", policy: "admin" },
  anonymous: { account: null, policy: null },
} as const satisfies Record<string, { account: DonationActor["role"] | null; policy: CashDonationRole | null }>;
type Relation = keyof typeof RELATIONS;
/** Each relation's policy role, as the shared walk takes it. */
const POLICY_ROLE = Object.fromEntries(Object.entries(RELATIONS).map(([relation, r]) => [relation, r.policy])) as Record<
  Relation,
  string | null
>;

const line = (relation: Relation, what: string, allowed: boolean) => `${relation} ${what}: ${allowed ? "allowed" : "refused"}`;

describe("who may read and decide a cash donation (donations/policy.ts and states.ts), by every relation", () => {
  let s: TestServices;
  let actors: Record<Relation, DonationActor | null>;
  let campaign: { id: string; ownerId: string };
  beforeAll(async () => {
    s = await createTestServices();
    const made = await Promise.all(
      Object.values(RELATIONS).map((r) => (r.account === null ? Promise.resolve(null) : makeUser(s.db, r.account))),
    );
    actors = Object.fromEntries(
      (Object.keys(RELATIONS) as Relation[]).map((relation, i) => {
        const account = RELATIONS[relation].account;
        return [relation, account === null ? null : { id: made[i]!.id, role: account }];
      }),
    ) as Record<Relation, DonationActor | null>;
    // A target no test approval reaches: the campaign stays active throughout.
    campaign = await makeCampaign(s.db, actors.recipientNgo!.id, { targetAmount: 100_000_000 });
  });
  afterAll(async () => s.close());

  function app() {
    return createApp({
      services: s,
      build: () => Promise.reject(new Error("React Router is not part of this test")) as Promise<ServerBuild>,
      mode: "production",
    });
  }

  /** Whether the real read lets `actor` see the donation; a read the actor's account cannot ask for is refused. */
  async function reads(read: DonationRead, actor: DonationActor | null, donation: { id: string; proofKey: string | null }) {
    const found = async (p: Promise<unknown>) =>
      p.then(
        () => true,
        (err: unknown) => {
          if ((err as { kind?: string }).kind === "not_found") return false;
          throw err;
        },
      );
    switch (read) {
      case "summary":
        return actor !== null && found(cashDonationOfDonor(s.db, actor, donation.id));
      case "review":
        return actor?.role === "ngo" && found(reviewDetail(s.db, actor, donation.id));
      case "receipt":
        return actor !== null && found(receiptFor(s.db, actor, donation.id));
      case "proof": {
        const cookie = actor ? `${SESSION_COOKIE}=${(await createSession(s.db, actor.id)).token}` : undefined;
        const res = await app().request(`/files/${donation.proofKey}`, cookie ? { headers: { cookie } } : {});
        expect([200, 404], `/files for ${actor?.role ?? "anonymous"}`).toContain(res.status);
        await res.arrayBuffer();
        return res.status === 200;
      }
      case "statement": {
        // The donor's yearly statement of the year the donation was approved in lists it by its receipt number.
        if (actor === null) return false;
        const statement = await givingStatement(s.db, actor, "fiscal", fiscalYearOf(new Date()));
        return statement?.ngos.some((n) => n.funds.some((f) => f.gifts.some((g) => g.receipt.endsWith("-999999")))) ?? false;
      }
      case "history":
        if (actor?.role === "donor") return (await donorHistory(s.db, actor)).rows.some((r) => r.id === donation.id);
        if (actor?.role === "ngo") {
          const list = await ngoHistory(s.db, actor, parseNgoHistoryFilter(new URLSearchParams()));
          return list.rows.some((r) => r.id === donation.id);
        }
        return false;
    }
  }

  it("every reading by every relation does what the policy says, through the real reads and the /files route", async () => {
    // Approved, so that it has a receipt: every reading applies to it. Its number is one no approval below reaches.
    const d = await makeCashDonation(s, campaign, actors.owner!.id, { status: "approved", receiptNumber: 999_999, decidedAt: new Date() });
    const { expected, actual } = await walkReads({
      relations: POLICY_ROLE,
      reads: DONATION_READS,
      sees: (read, relation) => reads(read, actors[relation], d),
    });
    expect(actual).toEqual(expected);
  });

  it("every decision by every relation does what the transition table says; anyone it does not name is told not found", async () => {
    const expected: string[] = [];
    const actual: string[] = [];
    for (const relation of Object.keys(RELATIONS) as Relation[]) {
      const policy = RELATIONS[relation].policy;
      for (const action of cashDonationStates.actions as CashDonationAction[]) {
        const allowed = policy !== null && rolesFor(action).includes(policy);
        expected.push(line(relation, action, allowed) + (allowed ? "" : " (not_found)"));
        // Each action from the state it is first taken from: a decision from pending, a reply from rejected.
        const from = cashDonationStates.fromStates(action)[0]!;
        const d = await makeCashDonation(s, campaign, actors.owner!.id, { status: from, rejectionReason: "Unreadable." });
        const actor = actors[relation];
        let outcome: string;
        if (actor === null) {
          outcome = line(relation, action, false) + " (not_found)"; // no command without an actor: the route guard answers first
        } else {
          const step =
            action === "resubmit"
              ? replyToRejection(s, actor, {
                  donation: d.id,
                  idempotencyKey: randomUUID(),
                  message: "The right transaction ID.",
                  transactionId: "TXCORRECTED1",
                  screenshot: undefined,
                })
              : decideCashDonation(
                  s,
                  actor,
                  action === "approve" ? { donationId: d.id, approve: true } : { donationId: d.id, approve: false, reason: "Unreadable." },
                );
          outcome = await step.then(
            () => line(relation, action, true),
            (err: { kind?: string; message?: string }) => `${line(relation, action, false)} (${err.kind ?? err.message})`,
          );
        }
        actual.push(outcome);
        const [row] = await s.db.select({ status: donations.status }).from(donations).where(eq(donations.id, d.id));
        expect(row!.status, `${relation} ${action}`).toBe(allowed ? cashDonationStates.target(action, from) : from);
      }
    }
    expect(actual).toEqual(expected);
  });

  it("the table grants what it did before: the donor, the NGO paid and the admin read a proof and a receipt; only the NGO paid decides", () => {
    expect(DONATION_READS).toEqual({
      summary: ["donor"],
      review: ["recipient"],
      proof: ["donor", "recipient", "admin"],
      receipt: ["donor", "recipient", "admin"],
      history: ["donor", "recipient"],
      statement: ["donor"],
    });
    expect(rolesFor("approve")).toEqual(["recipient"]);
    expect(rolesFor("disapprove")).toEqual(["recipient"]);
  });
});
