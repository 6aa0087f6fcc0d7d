import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "#server/db/schema.ts";
import { resubmit } from "#server/domain/accounts/resubmit.ts";
import { suspensionState, suspensionStates, verificationStates, type AccountRole } from "#server/domain/accounts/states.ts";
import { ACCOUNT_READS } from "#server/domain/admin/policy.ts";
import { accept, listAccounts, listPending, reject, restore, suspend } from "#server/domain/admin/vetting.ts";
import type { Actor } from "#server/domain/policy.ts";
import { makeUser } from "#tests/helpers/factories.ts";
import { walkReads } from "#tests/helpers/policy-walk.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkTable } from "#tests/helpers/states.ts";

/**
 * The accounts' two tables (accounts/states.ts) and the administrator's reads (admin/policy.ts), walked whole
 * through the real vetting and re-submission functions on a fresh rider account for every combination.
 */
describe("vetting an account (accounts/states.ts, admin/policy.ts)", () => {
  let s: TestServices;
  let admin: Actor;
  let stranger: Actor;
  beforeAll(async () => {
    s = await createTestServices();
    admin = await makeUser(s.db, "admin");
    stranger = await makeUser(s.db, "ngo");
  });
  afterAll(async () => s.close());

  const fresh = async (verification: "pending" | "verified" | "rejected", suspended = false) => {
    const rider = await makeUser(s.db, "rider", { verification });
    if (suspended)
      await s.db
        .update(users)
        .set({ suspendedAt: sql`now()` })
        .where(eq(users.id, rider.id));
    return rider.id;
  };
  const actorAs = (role: AccountRole, id: string): Actor => (role === "admin" ? admin : role === "self" ? { id, role: "rider" } : stranger);
  const row = async (id: string) => (await s.db.select().from(users).where(eq(users.id, id)))[0]!;
  const riderData = { firstName: "Bilal", lastName: "Ahmed", contactNumber: "03111234567", cnic: "4210112345671" };

  it("every verification step from every state by every role does what the table says", async () => {
    const { expected, actual } = await walkTable(verificationStates, {
      setUp: (state) => fresh(state),
      perform: (action, role, id) => {
        const actor = actorAs(role, id);
        switch (action) {
          case "accept":
            return accept(s, actor, id);
          case "reject":
            return reject(s, actor, id, "The CNIC picture is unreadable.");
          case "resubmit":
            // Only an account re-submits its own details: there is no entry point to send another's.
            return role === "self" ? resubmit(s, actor, { role: "rider", data: riderData }) : undefined;
        }
      },
      stateOf: async (id) => (await row(id)).verification,
    });
    expect(actual).toEqual(expected);
  });

  it("every suspension step from every state by every role does what the table says", async () => {
    const { expected, actual } = await walkTable(suspensionStates, {
      setUp: (state) => fresh("verified", state === "suspended"),
      perform: (action, role, id) => (action === "suspend" ? suspend : restore)(s, actorAs(role, id), id),
      stateOf: async (id) => suspensionState((await row(id)).suspendedAt),
    });
    expect(actual).toEqual(expected);
  });

  it("only the administrator reads the queue and the accounts list", async () => {
    // At least this one waits, so a reader the policy allows finds a non-empty list.
    const pendingId = await fresh("pending");
    const { expected, actual } = await walkReads({
      relations: { admin: "admin", self: "self", other: null },
      reads: ACCOUNT_READS,
      sees: async (read, relation) => {
        const actor = actorAs(relation, pendingId);
        const list = read === "queue" ? await listPending(s.db, actor, "rider", 1) : await listAccounts(s.db, actor, "rider", 1);
        return list.total > 0;
      },
    });
    expect(actual).toEqual(expected);
  });
});
