import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applicationStatusEnum, positionStatusEnum, volunteerApplications, volunteerPositions } from "#server/db/schema.ts";
import { addDays, pakistanToday } from "#server/domain/dates.ts";
import { decideApplication } from "#server/domain/volunteering/applications.ts";
import { closePosition, reopenPosition } from "#server/domain/volunteering/positions.ts";
import { APPLICATION_STATUSES, POSITION_STATUSES } from "#shared/statuses.ts";
import {
  POSITION_STATES,
  STORED_POSITION_STATUS,
  applicationStates,
  positionState,
  positionStates,
  type ApplicationRole,
  type PositionRole,
} from "#server/domain/volunteering/states.ts";
import { makeApplication, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { walkTable } from "#tests/helpers/states.ts";
import { asNgo } from "#tests/helpers/actors.ts";
import type { Actor } from "#server/domain/policy.ts";

/** The account type behind each application role in the table. */
const ACCOUNT = { positionNgo: "ngo", applicant: "donor", otherNgo: "ngo", admin: "admin" } as const;

describe("volunteering states", () => {
  let s: TestServices;
  let ngo: string;
  let otherNgo: string;
  let admin: string;
  let donor: string;
  const today = pakistanToday(new Date());
  beforeAll(async () => {
    s = await createTestServices();
    const users = await Promise.all([makeUser(s.db, "ngo"), makeUser(s.db, "ngo"), makeUser(s.db, "admin"), makeUser(s.db, "donor")]);
    [ngo, otherNgo, admin, donor] = users.map((u) => u.id) as [string, string, string, string];
  });
  afterAll(async () => s.close());

  it("the vocabularies are the database enums'", () => {
    expect([...APPLICATION_STATUSES]).toEqual(applicationStatusEnum.enumValues);
    expect([...POSITION_STATUSES]).toEqual(positionStatusEnum.enumValues);
    expect([...new Set(POSITION_STATES.map((st) => STORED_POSITION_STATUS[st]))].sort()).toEqual([...positionStatusEnum.enumValues].sort());
  });

  it("applications: every action from every state by every role does what the table says, through decideApplication", async () => {
    const actors: Record<ApplicationRole, string> = { positionNgo: ngo, applicant: donor, otherNgo, admin };
    // Each application on its own position, so no donor applies twice and no position fills up.
    const { expected, actual } = await walkTable(applicationStates, {
      setUp: async (status) => (await makeApplication(s.db, (await makePosition(s.db, ngo)).id, donor, { status })).id,
      perform: (action, role, applicationId) =>
        decideApplication(
          s,
          { id: actors[role], role: ACCOUNT[role] },
          action === "approve" ? { applicationId, approve: true, confirm: true } : { applicationId, approve: false, message: "Thank you." },
        ),
      stateOf: async (id) =>
        (
          await s.db.select({ status: volunteerApplications.status }).from(volunteerApplications).where(eq(volunteerApplications.id, id))
        )[0]!.status,
    });
    expect(actual).toEqual(expected);
  });

  it("positions: every action from every state by every role does what the table says, through closePosition and reopenPosition", async () => {
    const actors: Record<PositionRole, Actor> = { owner: asNgo(ngo), otherNgo: asNgo(otherNgo) };
    const stored = {
      open: { status: "active", closesOn: addDays(today, 3) },
      lapsed: { status: "active", closesOn: addDays(today, -1) },
      closed: { status: "closed", closesOn: null },
    } as const;
    const { expected, actual } = await walkTable(positionStates, {
      setUp: async (state) => (await makePosition(s.db, ngo, stored[state])).id,
      perform: (action, role, positionId) =>
        action === "close" ? closePosition(s.db, actors[role], positionId) : reopenPosition(s.db, actors[role], positionId, undefined),
      stateOf: async (id) => positionState((await s.db.select().from(volunteerPositions).where(eq(volunteerPositions.id, id)))[0]!, today),
    });
    expect(actual).toEqual(expected);
  });

  it("the screens are offered what the tables allow", () => {
    expect(applicationStates.actionsFor("pending", "positionNgo")).toEqual(["approve", "decline"]);
    expect(applicationStates.actionsFor("approved", "positionNgo")).toEqual([]);
    expect(applicationStates.actionsFor("pending", "applicant")).toEqual([]);
    expect(positionStates.actionsFor("open", "owner")).toEqual(["close"]);
    expect(positionStates.actionsFor("lapsed", "owner")).toEqual(["close", "reopen"]);
    expect(positionStates.actionsFor("closed", "owner")).toEqual(["reopen"]);
  });
});
