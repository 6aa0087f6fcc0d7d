import { eq } from "drizzle-orm";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { volunteerApplications } from "#server/db/schema.ts";
import { createSession, SESSION_COOKIE } from "#server/domain/accounts/sessions.ts";
import { savePdf } from "#server/domain/files/files.ts";
import { applicationForNgo, applicationsForNgo, applicationsOfDonor, decideApplication } from "#server/domain/volunteering/applications.ts";
import {
  APPLICATION_READS,
  POSITION_READS,
  rolesFor,
  type ApplicationActor,
  type ApplicationRead,
  type PositionRead,
} from "#server/domain/volunteering/policy.ts";
import { positionChoices, positionOwnedBy, positionsOfNgo } from "#server/domain/volunteering/positions.ts";
import { applicationStates, type ApplicationAction, type ApplicationRole } from "#server/domain/volunteering/states.ts";
import { createApp } from "#server/http/app.ts";
import { makeApplication, makePdf, makePosition, makeUser } from "#tests/helpers/factories.ts";
import { createTestServices, type TestServices } from "#tests/helpers/services.ts";
import { found, walkReads } from "#tests/helpers/policy-walk.ts";

/**
 * Every way an account can stand to a volunteer application, and the role of the policy and the transition
 * table each one is (null: none, so nothing is granted). Anonymous is nobody signed in.
 */
const RELATIONS = {
  applicant: { account: "donor", policy: "applicant" },
  positionNgo: { account: "ngo", policy: "positionNgo" },
  otherNgo: { account: "ngo", policy: "otherNgo" },
  otherDonor: { account: "donor", policy: null },
  rider: { account: "rider", policy: null },
  admin: { account: "admin", policy: "admin" },
  anonymous: { account: null, policy: null },
} as const satisfies Record<string, { account: ApplicationActor["role"] | null; policy: ApplicationRole | null }>;
type Relation = keyof typeof RELATIONS;
/** Each relation's policy role, as the shared walk takes it. */
const POLICY_ROLE = Object.fromEntries(Object.entries(RELATIONS).map(([relation, r]) => [relation, r.policy])) as Record<
  Relation,
  string | null
>;

const line = (relation: Relation, what: string, allowed: boolean) => `${relation} ${what}: ${allowed ? "allowed" : "refused"}`;

describe("who may read and decide a volunteer application (volunteering/policy.ts and states.ts), by every relation", () => {
  let s: TestServices;
  let actors: Record<Relation, ApplicationActor | null>;
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
    ) as Record<Relation, ApplicationActor | null>;
  });
  afterAll(async () => s.close());

  function app() {
    return createApp({
      services: s,
      build: () => Promise.reject(new Error("React Router is not part of this test")) as Promise<ServerBuild>,
      mode: "production",
    });
  }

  /** Whether the real read lets `actor` see the application; a read the actor's account cannot ask for is refused. */
  async function reads(read: ApplicationRead, actor: ApplicationActor | null, application: { id: string; resumeKey: string | null }) {
    switch (read) {
      case "detail":
        return (
          actor?.role === "ngo" &&
          applicationForNgo(s.db, actor, application.id).then(
            () => true,
            (err: { kind?: string }) => {
              if (err.kind === "not_found") return false;
              throw err;
            },
          )
        );
      case "resume": {
        const cookie = actor ? `${SESSION_COOKIE}=${(await createSession(s.db, actor.id)).token}` : undefined;
        const res = await app().request(`/files/${application.resumeKey}`, cookie ? { headers: { cookie } } : {});
        expect([200, 404], `/files for ${actor?.role ?? "anonymous"}`).toContain(res.status);
        await res.arrayBuffer();
        return res.status === 200;
      }
      case "list":
        if (actor?.role === "donor") return (await applicationsOfDonor(s.db, actor, 1)).rows.some((r) => r.id === application.id);
        if (actor?.role === "ngo") {
          return (await applicationsForNgo(s.db, actor, { status: "pending", page: 1 })).rows.some((r) => r.id === application.id);
        }
        return false;
    }
  }

  it("every reading by every relation does what the policy says, through the real reads and the /files route", async () => {
    const position = await makePosition(s.db, actors.positionNgo!.id);
    const file = new File([new Uint8Array(makePdf("Walk"))], "resume.pdf", { type: "application/pdf" });
    const resumeKey = await savePdf(s, { file, kind: "resume", ownerId: actors.applicant!.id, field: "resume" });
    const application = await makeApplication(s.db, position.id, actors.applicant!.id, { resumeKey });
    const { expected, actual } = await walkReads({
      relations: POLICY_ROLE,
      reads: APPLICATION_READS,
      sees: (read, relation) => reads(read, actors[relation], application),
    });
    expect(actual).toEqual(expected);
  });

  it("every decision by every relation does what the transition table says; anyone it does not name is told not found", async () => {
    const expected: string[] = [];
    const actual: string[] = [];
    for (const relation of Object.keys(RELATIONS) as Relation[]) {
      const policy = RELATIONS[relation].policy;
      for (const action of applicationStates.actions as ApplicationAction[]) {
        const allowed = policy !== null && rolesFor(action).includes(policy);
        expected.push(line(relation, action, allowed) + (allowed ? "" : " (not_found)"));
        const position = await makePosition(s.db, actors.positionNgo!.id);
        const a = await makeApplication(s.db, position.id, actors.applicant!.id);
        const actor = actors[relation];
        if (actor === null) {
          actual.push(line(relation, action, false) + " (not_found)"); // no command without an actor: the route guard answers first
        } else {
          actual.push(
            await decideApplication(
              s,
              actor,
              action === "approve" ? { applicationId: a.id, approve: true, confirm: true } : { applicationId: a.id, approve: false },
            ).then(
              () => line(relation, action, true),
              (err: { kind?: string; message?: string }) => `${line(relation, action, false)} (${err.kind ?? err.message})`,
            ),
          );
        }
        const [row] = await s.db
          .select({ status: volunteerApplications.status })
          .from(volunteerApplications)
          .where(eq(volunteerApplications.id, a.id));
        expect(row!.status, `${relation} ${action}`).toBe(allowed ? applicationStates.target(action, "pending") : "pending");
      }
    }
    expect(actual).toEqual(expected);
  });

  it("the table grants what it did before: the applicant, the position's NGO and the admin read a resume; only the position's NGO decides", () => {
    expect(APPLICATION_READS).toEqual({
      detail: ["positionNgo"],
      resume: ["applicant", "positionNgo", "admin"],
      list: ["applicant", "positionNgo"],
    });
    expect(rolesFor("approve")).toEqual(["positionNgo"]);
    expect(rolesFor("decline")).toEqual(["positionNgo"]);
  });
});

describe("who may see and move a volunteer position on the NGO side (volunteering/policy.ts, positions)", () => {
  let s: TestServices;
  let actors: Record<"owner" | "otherNgo" | "ownerAsDonor", ApplicationActor>;
  let positionId: string;
  beforeAll(async () => {
    s = await createTestServices();
    const [owner, otherNgo] = await Promise.all([makeUser(s.db, "ngo"), makeUser(s.db, "ngo")]);
    // The owner's id presented as another account type: the type counts, not only the id.
    actors = { owner, otherNgo, ownerAsDonor: { id: owner.id, role: "donor" } };
    positionId = (await makePosition(s.db, owner.id)).id;
  });
  afterAll(async () => s.close());

  it("every reading by every relation does what POSITION_READS says, through every read that serves it", async () => {
    const { expected, actual } = await walkReads({
      relations: { owner: "owner", otherNgo: "otherNgo", ownerAsDonor: null },
      reads: POSITION_READS,
      sees: async (read: PositionRead, relation) => {
        const actor = actors[relation];
        const answers = [
          await found(positionOwnedBy(s.db, positionId, actor)),
          (await positionsOfNgo(s.db, actor, { state: "open", page: 1 })).rows.some((p) => p.id === positionId),
          (await positionChoices(s.db, actor)).some((p) => p.id === positionId),
        ];
        expect(new Set(answers).size, `${relation} ${read}: the reads disagree (${answers.join(", ")})`).toBe(1);
        return answers[0]!;
      },
    });
    expect(actual).toEqual(expected);
  });
});
